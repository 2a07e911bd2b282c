"""``python -m engine.record check|replay`` through a subprocess: exit codes and output."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import record as rec
from tests.engine.test_record import finished, full_record, running_record

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine.record ARGS`` from the checkout."""
    return subprocess.run(
        [sys.executable, "-m", "engine.record", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def write(path: Path, record: rec.Record) -> Path:
    """The record written as a file."""
    path.write_text(rec.to_json(record), encoding="utf-8")
    return path


def test_check_passes_with_one_line(tmp_path: Path) -> None:
    """A finished game's full record: exit 0 and one line."""
    record = full_record("yamatai", 3)
    done = run("check", str(write(tmp_path / "game.json", record)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"ok: yamatai, {len(record.actions)} actions, result matches\n"
    assert done.stderr == ""


def test_check_of_a_changed_action_fails_with_its_number(tmp_path: Path) -> None:
    """Exit 1 and one line naming the action (number and text) and why."""
    record = full_record("namiji", 4)
    data = json.loads(rec.to_json(record))
    number = 40
    data["actions"][number - 1]["action"] = "move 52"
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"failed: action {number} (move 52): ")


def test_check_of_a_truncated_record_fails_on_its_result(tmp_path: Path) -> None:
    """Actions cut from the end: exit 1, the result named."""
    data = json.loads(rec.to_json(full_record("yamatai", 2)))
    data["actions"] = data["actions"][:-2]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stderr.startswith("failed: result: the record gives a result")


def test_check_of_a_wrong_document_or_a_missing_file(tmp_path: Path) -> None:
    """An unknown version: exit 1, the field named; a file that is not there: exit 2."""
    data = json.loads(rec.to_json(running_record("namiji", 2, 5)))
    data["version"] = 7
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stderr == "invalid record: version: unknown version 7 (this Himiko reads 1)\n"
    missing = run("check", str(tmp_path / "nowhere.json"))
    assert missing.returncode == 2 and missing.stderr.startswith("cannot read or write:")


def test_check_of_running_and_spectator_records(tmp_path: Path) -> None:
    """A running game's full record, a spectator record alone and against the full one."""
    running = write(tmp_path / "running.json", running_record("namiji", 3, 25))
    done = run("check", str(running))
    assert (done.returncode, done.stdout) == (
        0,
        "ok: namiji, 25 actions, the game goes on (no result yet)\n",
    )
    spectator = write(
        tmp_path / "spectator.json", rec.spectator_of(running_record("namiji", 3, 25))
    )
    full = write(tmp_path / "full.json", full_record("namiji", 3))
    alone = run("check", str(spectator))
    assert alone.returncode == 0
    assert alone.stdout.startswith("ok: namiji, 25 actions, spectator record read (no seed")
    both = run("check", str(spectator), "--against", str(full))
    assert (both.returncode, both.stdout) == (0, "ok: namiji, 25 actions, match the full record\n")


def test_replay_prints_every_step_and_draws_them(tmp_path: Path) -> None:
    """Each action in words, the result; --out a spectator PNG per step (step-000: the setup),
    --gif the recap."""
    record = running_record("yamatai", 2, 12)
    path = write(tmp_path / "game.json", record)
    out, gif = tmp_path / "steps", tmp_path / "recap.gif"
    done = run("replay", str(path), "--out", str(out), "--gif", str(gif), "--language", "pl")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    scores = "/".join(map(str, record.actions[0].scores))
    assert lines[0] == "yamatai, full record: Ann (seat 0), Bo (seat 1)"
    assert record.actions[0].action == "fleet 5"
    assert (
        lines[1] == f"   1. 2026-11-26T12:00:00Z  Ann: bierze flotę 5  [fleet 5]  (scores {scores})"
    )
    assert lines[13] == "no result yet"
    assert lines[14:] == [f"wrote 13 pictures to {out}", f"wrote the recap to {gif}"]
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"step-{n:03d}.png" for n in range(13)]
    assert Image.open(out / "step-012.png").size == (1600, 1100)
    picture = Image.open(io.BytesIO(gif.read_bytes()))
    assert picture.format == "GIF" and getattr(picture, "n_frames", 1) > 1


def test_replay_of_a_spectator_record_prints_but_draws_nothing(tmp_path: Path) -> None:
    """No seed, no pictures: the steps in words, then exit 1 for --out."""
    spectator = rec.spectator_of(running_record("yamatai", 2, 8))
    path = write(tmp_path / "spectator.json", spectator)
    printed = run("replay", str(path))
    assert printed.returncode == 0 and len(printed.stdout.splitlines()) == 10
    assert printed.stdout.startswith(
        "yamatai, spectator record (no seed: not replayed, its scores and result are as written)"
    )
    drawn = run("replay", str(path), "--out", str(tmp_path / "steps"))
    assert drawn.returncode == 1 and drawn.stderr.startswith("no pictures: a spectator record")
    assert not (tmp_path / "steps").exists()


def test_the_engine_imports_no_picture_code() -> None:
    """engine.record and its command line load neither render nor Pillow until pictures are
    asked for."""
    code = (
        "import sys, engine.record, engine.record.__main__; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('render', 'PIL')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


def forge_result(data: dict[str, Any]) -> None:
    """The last seat declared the winner: the seats' scores, ranks and the winners turned."""
    seats = data["result"]["seats"]
    scores = [s["score"] for s in seats]
    ranks = [s["rank"] for s in seats]
    for seat, score, rank in zip(seats, reversed(scores), reversed(ranks), strict=True):
        seat.update(score=score, rank=rank)
    data["result"]["winners"] = [s["seat"] for s in seats if s["rank"] == 1]


def forge_scores(data: dict[str, Any]) -> None:
    """The first seat given 50 points more from action 10 on."""
    for entry in data["actions"][9:]:
        entry["scores"][0] += 50


@pytest.mark.parametrize(
    ("forge", "said"),
    [
        (forge_result, "failed: result: the record's result differs from the replay's"),
        (forge_scores, "failed: action 10 ("),
    ],
    ids=["result", "scores"],
)
def test_replay_refuses_a_forged_result_or_forged_scores(
    forge: Callable[[dict[str, Any]], None], said: str, tmp_path: Path
) -> None:
    """A full record whose result or scores are not its replay's: replay refuses it as check
    does, in one line on stderr with exit 1, and prints none of it."""
    data = json.loads(rec.to_json(full_record("namiji", 2)))
    forge(data)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("check", "replay"):
        done = run(command, str(path))
        assert (done.returncode, done.stdout) == (1, ""), (command, done.stdout)
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr


def test_replay_prints_the_scores_and_result_its_replay_computed(tmp_path: Path) -> None:
    """A finished game's replay: every action with the engine's public scores after it, then
    the engine's result (ranks, names, scores)."""
    record = full_record("namiji", 2)
    done = run("replay", str(write(tmp_path / "game.json", record)))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    steps = rec.replay(record)
    for line, step in zip(lines[1:-1], steps[1:], strict=True):
        shown = "/".join(map(str, rec.public_scores(step.view())))
        assert line.endswith(f"[{step.action}]  (scores {shown})"), line
    outcome = finished("namiji", 2, 1).outcome
    assert outcome is not None
    places = sorted(outcome.results, key=lambda r: (r.rank, r.seat))
    assert lines[-1] == "result: " + ", ".join(f"{r.rank}. {r.name} {r.score}" for r in places)


def test_replay_says_each_action_in_the_words_of_the_language_asked(tmp_path: Path) -> None:
    """Issue 38 item 7: the actions in words (the pictures' words, French here), the notation
    second and in brackets; an action the pictures do not show (a turn's end) as its notation
    alone, in brackets."""
    record = running_record("yamatai", 2, 12)
    done = run("replay", str(write(tmp_path / "game.json", record)), "--language", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()[1:-1]
    assert (
        lines[0] == "   1. 2026-11-26T12:00:00Z  Ann : a pris la flotte 5  [fleet 5]  (scores 2/2)"
    )
    assert lines[4] == "   5. 2026-11-26T12:04:00Z  Ann: [end]  (scores 2/2)"
    for line, entry in zip(lines, record.actions, strict=True):
        found = re.fullmatch(r" *\d+\. \S+  (.*)  \(scores [\d/]+\)", line)
        assert found is not None, line
        said = found[1]
        assert said.endswith(f"[{entry.action}]"), line
        words = said.removesuffix(f"[{entry.action}]")
        assert entry.action not in words, line  # the notation is said once, second
