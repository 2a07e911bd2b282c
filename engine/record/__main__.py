"""Command line for game records (docs/records.md).

python -m engine.record check FILE [--against FULL]
python -m engine.record replay FILE [--out DIR] [--gif OUT.gif] [--language LANG]

``check`` exits 0 with one line ("ok: <game>, N actions, result matches") or 1 with the first
action found wrong (its number and why); ``replay`` checks a full record first (exit 1 as
``check`` if it does not replay to what it says), prints every action in words (the pictures'
words, in ``--language``: "Ann: took fleet 5  [fleet 5]", the notation in brackets; the
notation alone for what the pictures do not show, such as a turn's end) with the scores and the
result its replay computed and writes a spectator picture per step (``--out``: step-000.png is
the setup) and the animated recap (``--gif``). A file that is not a record: one line and exit 1;
one that cannot be read: exit 2; never a traceback. This module is the engine's only door to
files and pictures: render is imported here, and only when pictures are asked for.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine.record.document import (
    MAX_BYTES,
    SPECTATOR,
    Record,
    RecordError,
    ResultData,
    from_bytes,
    result_of,
)
from engine.record.playback import (
    Checked,
    RecordMismatch,
    Step,
    check,
    checked_replay,
    public_scores,
    recap_moments,
)

OK, FAILED, USAGE = 0, 1, 2
SPACES = "\xa0\u202f"  # no-break spaces (French puts one before ":"): printed as spaces


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    args = _parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # a terminal that cannot show a name's letters
            stream.reconfigure(errors="backslashreplace")
    try:
        return _run(args)
    except BrokenPipeError:  # the reader left (``| head``): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILED
    except OSError as error:
        _say(f"cannot read or write: {error}", sys.stderr)
        return USAGE
    except RecordError as error:
        _say(f"invalid record: {error}", sys.stderr)
        return FAILED
    except RecordMismatch as error:
        _say(f"failed: {error}", sys.stderr)
        return FAILED


def _run(args: argparse.Namespace) -> int:
    record = _read(args.file)
    if args.command == "check":
        against = _read(args.against) if args.against is not None else None
        _say(_verdict(check(record, against), record, against is not None))
        return OK
    return _replay(record, args.out, args.gif, args.language)


def _say(line: str, stream: TextIO | None = None) -> None:
    """Print one line with what the file wrote made harmless: a line break, a terminal escape
    or another character that does not show is written as its escape (``\\n``, ``\\x1b``)."""
    shown = "".join(
        " " if c in SPACES else c if c.isprintable() else c.encode("unicode_escape").decode()
        for c in line
    )
    print(shown, file=stream or sys.stdout)


@functools.cache  # built once a process: the tests call main() thousands of times
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.record",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    checking = sub.add_parser("check", help="replay a record and compare its result")
    checking.add_argument("file", type=Path)
    checking.add_argument(
        "--against", type=Path, help="the full record a spectator record is compared with"
    )
    replaying = sub.add_parser(
        "replay", help="print every step in words; draw them with --out or --gif"
    )
    replaying.add_argument("file", type=Path)
    replaying.add_argument("--out", type=Path, help="folder for step-NNN.png pictures")
    replaying.add_argument("--gif", type=Path, help="file for the animated recap")
    replaying.add_argument(
        "--language",
        help="of the words and pictures: en, fr, it, pl (default: the record's, or en)",
    )
    return parser


def _read(path: Path) -> Record:
    """The record in a file (read up to one byte more than a record may have)."""
    with path.open("rb") as file:
        return from_bytes(file.read(MAX_BYTES + 1))


def _verdict(checked: Checked, record: Record, against: bool) -> str:
    """The one line of a passed check."""
    head = f"ok: {checked.game}, {checked.actions} actions"
    if checked.kind == SPECTATOR:
        if against:
            return f"{head}, match the full record"
        return f"{head}, spectator record read (no seed: not replayed; see docs/records.md)"
    if record.result is not None:
        return f"{head}, result matches"
    if record.ended is not None:
        return f"{head}, ended by the bot ({record.ended}), no result"
    return f"{head}, the game goes on (no result yet)"


def _replay(record: Record, out: Path | None, gif: Path | None, language: str | None) -> int:
    """Print the steps; draw them if asked (a full record only). A full record is replayed and
    checked first: what is printed is what the replay computed, and a record that says
    otherwise is refused (exit 1) before anything is printed."""
    names = [p.name for p in record.players]
    if record.kind == SPECTATOR:
        _say(
            f"{record.game}, spectator record (no seed: not replayed, its scores and result "
            f"are as written): {', '.join(_seat_words(record))}"
        )
        for entry in record.actions:
            said = f"{names[entry.seat]}: {entry.action}"
            _say(_line(entry.number, entry.time, said, entry.scores))
        _say(_result_words(record.result, record.ended))
        if out is not None or gif is not None:
            _say(
                "no pictures: a spectator record has no seed, so it cannot be replayed "
                "(use the full record exported after the end)",
                sys.stderr,
            )
            return FAILED
        return OK
    steps = checked_replay(record)
    lang = language or record.language or "en"
    _say(f"{record.game}, full record: {', '.join(_seat_words(record))}")
    for entry, step in zip(record.actions, steps[1:], strict=True):
        scores = public_scores(step.view())
        said = _in_words(record.game, names[entry.seat], entry.seat, step, lang)
        _say(_line(step.number, entry.time, said, scores))
    _say(_result_words(result_of(steps[-1].outcome), record.ended))
    if out is not None:
        written = _draw_steps(steps, out, lang, record.ended)
        _say(f"wrote {written} pictures to {out}")
    if gif is not None:
        gif.write_bytes(_recap(steps, lang, record.ended))
        _say(f"wrote the recap to {gif}")
    return OK


def _seat_words(record: Record) -> list[str]:
    words = []
    for player in record.players:
        who = f"{player.name} (seat {player.seat}"
        if player.computer:
            who += f", computer{': ' + player.level if player.level else ''}"
        words.append(who + ")")
    return words


def _in_words(game: str, name: str, seat: int, step: Step, language: str) -> str:
    """The step's action as the pictures tell it in ``language``, then its notation in
    brackets; the notation alone (in brackets) for an action that changes nothing the pictures
    show (a turn's end) or a game whose pictures do not tell turns."""
    from render import turn_words  # the pictures' words: loaded for a full record's replay only

    said = turn_words(game, name, seat, step.events, language=language)
    if said is None or said == turn_words(game, name, seat, (), language=language):
        return f"{name}: [{step.action}]"
    return f"{said}  [{step.action}]"


def _line(number: int, time: str, said: str, scores: Sequence[int]) -> str:
    return f"{number:4d}. {time}  {said}  (scores {'/'.join(map(str, scores))})"


def _result_words(result: ResultData | None, ended: str | None) -> str:
    if result is None:
        return f"ended by the bot: {ended}" if ended else "no result yet"
    seats = sorted(result["seats"], key=lambda s: (s["rank"], s["seat"]))
    places = ", ".join(f"{s['rank']}. {s['name']} {s['score']}" for s in seats)
    return f"result: {places}"


def _draw_steps(steps: Sequence[Step], out: Path, language: str, ended: str | None) -> int:
    """A spectator picture of every step: step-000.png (the setup), step-001.png, ..."""
    from render import Extras, render_board  # pictures only when asked: check needs no Pillow

    out.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(len(steps) - 1)))
    for step in steps:
        last = step is steps[-1]
        extras = Extras(language=language, ended=ended if last else None)
        png = render_board(step.view(), events=step.events, extras=extras)
        (out / f"step-{step.number:0{width}d}.png").write_bytes(png)
    return len(steps)


def _recap(steps: Sequence[Step], language: str, ended: str | None) -> bytes:
    from render.recap import render_recap

    return render_recap(recap_moments(steps), language=language, ended=ended)


if __name__ == "__main__":
    sys.exit(main())
