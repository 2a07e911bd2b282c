"""``python -m engine.record`` given bad files: one line and exit 1 or 2, never a traceback
(docs/records.md, "Command line")."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record as rec
from engine.record.__main__ import main
from tests.engine.test_record import full_record, running_record
from tests.engine.test_record_cli import ROOT, run

#: What a failed run may say on stderr, by exit code.
SAID = {1: ("invalid record: ", "failed: "), 2: ("cannot read or write: ",)}


def run_here(*args: str) -> tuple[int, str, str]:
    """``main(args)`` in this process: its exit code, stdout and stderr (an exception that
    escapes it fails the test: it would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def assert_clean(code: int, out: str, err: str) -> None:
    """Exit 0 with nothing on stderr, or exit 1 or 2 with one line on stderr and nothing on
    stdout; every line printable (no control character or lone surrogate from the file)."""
    assert all(line.isprintable() for line in (out + err).splitlines()), (out, err)
    if code == 0:
        assert err == "", err
        return
    assert code in SAID, (code, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(SAID[code]), err
    assert out == "", out


def record_bytes(record: rec.Record) -> bytes:
    """The record's file as the bot writes it."""
    return rec.to_json(record).encode()


def with_data(change: Callable[[dict[str, Any]], object]) -> bytes:
    """A short running record's file after ``change`` edits its data."""
    data = json.loads(rec.to_json(running_record("yamatai", 2, 6)))
    change(data)
    return json.dumps(data).encode()


def seed_text(text: str) -> bytes:
    """A full record whose seed is written ``text`` (a JSON number or not)."""
    good = rec.to_json(running_record("namiji", 2, 4))
    return good.replace(f'"seed": {json.loads(good)["seed"]}', f'"seed": {text}').encode()


def name(value: str) -> Callable[[dict[str, Any]], object]:
    """An edit that renames the first player."""
    return lambda d: d["players"][0].update(name=value)


#: Files that are not records: name, bytes, what stderr starts with (all exit 1).
NOT_RECORDS: list[tuple[str, Callable[[], bytes], str]] = [
    ("not JSON", lambda: b"{nope", "invalid record: not JSON"),
    ("empty", lambda: b"", "invalid record: not JSON"),
    ("blank", lambda: b" \n\t\n", "invalid record: not JSON"),
    ("100000 nested arrays", lambda: b"[" * 100_000 + b"]" * 100_000, "invalid record: "),
    (
        "100000 nested objects",
        lambda: b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "invalid record: ",
    ),
    ("a deep value", lambda: with_data(lambda d: d.update(format=[[[[[[["x"]]]]]]])), "invalid"),
    ("5000-digit number", lambda: b'{"version": ' + b"9" * 5000 + b"}", "invalid record: "),
    ("5000-digit seed", lambda: seed_text("7" * 5000), "invalid record: "),
    ("NaN", lambda: seed_text("NaN"), "invalid record: not JSON: NaN"),
    ("Infinity", lambda: seed_text("Infinity"), "invalid record: not JSON: Infinity"),
    ("-Infinity", lambda: seed_text("-Infinity"), "invalid record: not JSON: -Infinity"),
    ("1e400", lambda: seed_text("1e400"), "invalid record: seed: expected an integer"),
    ("a float seed", lambda: seed_text("1.5"), "invalid record: seed: expected an integer"),
    (
        "Latin-1",
        lambda: rec.to_json(running_record("namiji", 2, 4)).replace("Ann", "Zoë").encode("latin-1"),
        "invalid record: not UTF-8 text",
    ),
    (
        "UTF-16",
        lambda: rec.to_json(running_record("namiji", 2, 4)).encode("utf-16"),
        "invalid record: not UTF-8 text",
    ),
    (
        "a duplicate key",
        lambda: (
            rec.to_json(running_record("namiji", 2, 4))
            .replace('"kind": "full"', '"kind": "full", "kind": "spectator"')
            .encode()
        ),
        "invalid record: not JSON: the key 'kind' is written twice",
    ),
    ("a lone surrogate", lambda: with_data(name("A\ud800")), "invalid record: players[0].name"),
    ("a JSON array", lambda: b"[]", "invalid record: a record is a JSON object"),
    ("a JSON string", lambda: b'"record"', "invalid record: a record is a JSON object"),
    ("JSON null", lambda: b"null", "invalid record: a record is a JSON object"),
    (
        "too large",
        lambda: b" " * (rec.MAX_BYTES + 1),
        f"invalid record: the file is larger than {rec.MAX_BYTES // 2**20} MB",
    ),
]


@pytest.fixture(scope="module")
def spectator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A good spectator record's file (for ``check --against``)."""
    path = tmp_path_factory.mktemp("spectator") / "spectator.json"
    path.write_bytes(record_bytes(rec.spectator_of(running_record("namiji", 2, 4))))
    yield path


@pytest.mark.parametrize(
    ("made", "said"), [n[1:] for n in NOT_RECORDS], ids=[n[0] for n in NOT_RECORDS]
)
def test_a_file_that_is_not_a_record_says_so_in_one_line(
    made: Callable[[], bytes], said: str, tmp_path: Path, spectator: Path
) -> None:
    """check, replay and check --against: exit 1 and one line naming what is wrong."""
    path = tmp_path / "bad.json"
    path.write_bytes(made())
    for args in (("check", path), ("replay", path), ("check", spectator, "--against", path)):
        code, out, err = run_here(*map(str, args))
        assert_clean(code, out, err)
        assert code == 1 and err.startswith(said), (args, err)


def test_the_reported_files_end_in_one_line_from_the_command_line(tmp_path: Path) -> None:
    """The files of issue 35 through ``python -m engine.record`` itself: 100,000 nested
    arrays, a 5,000-digit number and a file that is not UTF-8 (before: three tracebacks)."""
    nested, digits, latin = tmp_path / "nested.json", tmp_path / "digits.json", tmp_path / "l.json"
    nested.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    digits.write_bytes(b'{"format": "himiko-record", "version": ' + b"9" * 5000 + b"}")
    latin.write_bytes(
        rec.to_json(running_record("namiji", 2, 4)).replace("Ann", "Zoë").encode("latin-1")
    )
    for path in (nested, digits, latin):
        for command in ("check", "replay"):
            done = run(command, str(path))
            assert (done.returncode, done.stdout) == (1, ""), done.stderr
            assert done.stderr.startswith("invalid record: ") and done.stderr.count("\n") == 1


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    """A UTF-8 byte order mark (some editors write one) before a good record: it checks."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + record_bytes(running_record("namiji", 2, 4)))
    assert run_here("check", str(path)) == (
        0,
        "ok: namiji, 4 actions, the game goes on (no result yet)\n",
        "",
    )


def test_what_the_file_says_is_printed_in_one_line_without_control_characters(
    tmp_path: Path,
) -> None:
    """A name or an action with a line break or a terminal escape: printed escaped, so a file
    cannot add a line to the verdict (an 'ok' under the failure) or drive the terminal."""
    path = tmp_path / "forged.json"
    forged = "fleet 6\nok: yamatai, 6 actions, the game goes on (no result yet)"
    path.write_bytes(with_data(lambda d: d["actions"][0].update(action=forged)))
    code, out, err = run_here("check", str(path))
    assert_clean(code, out, err)
    assert code == 1 and err.startswith("failed: action 1 (fleet 6\\nok: yamatai"), err
    spectator = rec.spectator_of(running_record("namiji", 2, 4))
    data = json.loads(rec.to_json(spectator))
    data["players"][0]["name"] = "Ann\x1b[2J\u202e"
    data["actions"][0]["action"] = "move 1\r\nok"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_here("replay", str(path))
    assert_clean(code, out, err)
    assert code == 0 and "Ann\\x1b[2J\\u202e: move 1\\r\\nok" in out


def test_a_terminal_that_cannot_show_a_name_gets_its_escape(tmp_path: Path) -> None:
    """A player called Zoë replayed on an ASCII-only output: written Zo\\xeb, exit 0 (before:
    UnicodeEncodeError)."""
    data = json.loads(rec.to_json(running_record("namiji", 2, 4)))
    data["players"][0]["name"] = "Zoë"
    path = tmp_path / "zoe.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine.record", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("namiji, full record: Zo\\xeb (seat 0)")


def unreadable(folder: Path) -> tuple[list[str], Path, Path]:
    """A record file this test's process may not read (mode 000), the command that runs as
    someone it is locked from (as root: the user nobody, in a folder nobody reaches) and the
    folder to run it in: as root, the interpreter itself (not the venv's link) and a copy of
    `engine` there, since the checkout may sit in a folder only root enters (`mktemp -d`)."""
    folder.chmod(0o755)
    path = folder / "locked.json"
    path.write_bytes(record_bytes(running_record("namiji", 2, 4)))
    path.chmod(0)
    if os.geteuid() != 0:
        return [sys.executable], path, ROOT
    shutil.copytree(
        ROOT / "engine", folder / "engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    return [*nobody, os.path.realpath(sys.executable)], path, folder


@pytest.mark.parametrize("command", ["check", "replay"])
def test_a_file_that_cannot_be_read_exits_2(command: str, tmp_path: Path) -> None:
    """Missing, a folder, under a file, no permission to read: exit 2 and one line."""
    (tmp_path / "file.json").write_text("{}", encoding="utf-8")
    for path in ("missing.json", ".", "file.json/inside.json"):
        code, out, err = run_here(command, str(tmp_path / path))
        assert_clean(code, out, err)
        assert code == 2, (path, err)
    folder = Path(tempfile.mkdtemp())
    try:
        python, locked, cwd = unreadable(folder)
        done = subprocess.run(
            [*python, "-m", "engine.record", command, str(locked)],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        shutil.rmtree(folder)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("cannot read or write: [Errno 13] Permission denied")
    assert done.stderr.count("\n") == 1


# -- every field of a record given every wrong type -------------------------------------------

WRONG_VALUES: list[Any] = [None, True, 0, -1, 2**70, 1.5, "x", "", [], {}, [[["deep"]]]]


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in JSON data: the keys and indexes that lead to it."""
    if at:
        yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*at, index))


def put(data: Any, at: tuple[Any, ...], value: Any) -> None:
    """Set the value at a place of JSON data."""
    for key in at[:-1]:
        data = data[key]
    data[at[-1]] = value


def test_every_field_given_every_wrong_type_exits_cleanly(tmp_path: Path) -> None:
    """A finished game's full record and a spectator record, every field (the actions' first
    two, and the result) replaced by null, a boolean, numbers, texts, arrays and objects:
    check and replay exit 0 or 1 with one line."""
    full = json.loads(rec.to_json(full_record("namiji", 2)))
    spectator = json.loads(rec.to_json(rec.spectator_of(running_record("yamatai", 2, 6))))
    path = tmp_path / "wrong.json"
    for good in (full, spectator):
        for at in paths(good):
            if at[0] == "actions" and len(at) > 1 and at[1] >= 2:
                continue
            for value in WRONG_VALUES:
                data = json.loads(json.dumps(good))
                put(data, at, value)
                path.write_text(json.dumps(data), encoding="utf-8")
                for command in ("check", "replay"):
                    code, out, err = run_here(command, str(path))
                    assert_clean(code, out, err)
                    assert code in (0, 1), (at, value, err)


# -- any bytes ---------------------------------------------------------------------------------

#: JSON values of every kind, texts with any code point (lone surrogates and controls too).
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
    max_leaves=8,
)
BASES = [
    json.loads(rec.to_json(record))
    for record in (
        full_record("namiji", 2),
        running_record("yamatai", 2, 9),
        rec.spectator_of(running_record("namiji", 3, 12)),
    )
]


#: Mostly UTF-8 and whole, so that most edits reach the reading of the fields and the replay.
ENCODINGS = ("utf-8",) * 8 + ("utf-16", "utf-8-sig")
DAMAGE = ("whole",) * 8 + ("cut", "byte")


#: Texts that an action's text may be changed with: any code points, or the game's own words.
WORDS = st.sampled_from(
    ("0", "1", "7", "99", "-1", "٣", "#07", "B07", "C4", "M3", "gf", "fleet", "move", "build")
)
PIECES = st.one_of(ANY_TEXT, WORDS, st.builds(" ".join, st.lists(WORDS, max_size=4)))


@st.composite
def edited_files(draw: st.DrawFn) -> bytes:
    """A good record's file edited as a careless or hostile hand would: a value replaced, a
    key removed or added, text inserted into a text, an action's text changed or actions
    dropped or swapped, then perhaps written in another encoding, cut short or with a byte
    changed."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    how = draw(st.sampled_from(("replace", "remove", "add", "insert", "action", "order")))
    if how in ("action", "order"):
        change_actions(draw, data["actions"], how)
    else:
        change_value(draw, data, how)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    raw = text.encode(draw(st.sampled_from(ENCODINGS)), "surrogatepass")
    cut = draw(st.sampled_from(DAMAGE))
    if cut == "cut":
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif cut == "byte" and raw:
        index = draw(st.integers(0, len(raw) - 1))
        raw = raw[:index] + bytes([draw(st.integers(0, 255))]) + raw[index + 1 :]
    return raw


def change_value(draw: st.DrawFn, data: dict[str, Any], how: str) -> None:
    """Replace, remove or add a value anywhere, or insert text into a text."""
    at = draw(st.sampled_from(list(paths(data))))
    parent: Any = data
    for key in at[:-1]:
        parent = parent[key]
    old = parent[at[-1]]
    if how == "insert" and isinstance(old, str):
        where = draw(st.integers(0, len(old)))
        parent[at[-1]] = old[:where] + draw(ANY_TEXT) + old[where:]
    elif how == "remove" and isinstance(parent, dict):
        del parent[at[-1]]
    elif how == "add" and isinstance(old, dict):
        old[draw(ANY_TEXT)] = draw(JSON_VALUES)
    else:
        parent[at[-1]] = draw(JSON_VALUES)


def change_actions(draw: st.DrawFn, actions: list[dict[str, Any]], how: str) -> None:
    """Change one action's text (a piece inserted or put in a word's place), or drop or swap
    actions (their numbers kept in order, so that the replay meets the change)."""
    index = draw(st.integers(0, len(actions) - 1))
    if how == "action":
        words = actions[index]["action"].split(" ")
        where = draw(st.integers(0, len(words)))
        words[where : where + draw(st.integers(0, 1))] = [draw(PIECES)]
        actions[index]["action"] = " ".join(words)
    elif draw(st.booleans()):
        del actions[index]
    else:
        other = draw(st.integers(0, len(actions) - 1))
        actions[index], actions[other] = actions[other], actions[index]
    for number, entry in enumerate(actions, 1):
        entry["number"] = number


def try_all(raw: bytes, folder: Path) -> None:
    """check, replay and check --against on a file of these bytes: each clean."""
    path = folder / "any.json"
    path.write_bytes(raw)
    good = folder / "good.json"
    if not good.exists():
        good.write_bytes(record_bytes(full_record("namiji", 3)))
    for args in (("check", path), ("replay", path), ("check", path, "--against", good)):
        assert_clean(*run_here(*map(str, args)))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=edited_files())
def test_any_edited_record_gives_a_result_or_one_line(raw: bytes, tmp_path: Path) -> None:
    """Whatever the edit, each command gives a clean result or one line and exit 1 or 2."""
    try_all(raw, tmp_path)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=200))
def test_any_bytes_give_a_result_or_one_line(raw: bytes, tmp_path: Path) -> None:
    """Random bytes: never a traceback."""
    try_all(raw, tmp_path)
