"""Replays for the web page: one step per action; going on from an earlier replay is exact."""

from __future__ import annotations

import os

from bot.service.history import replay_turns, turn_start
from bot.web.demo import play_turn
from bot.web.pictures import lower_priority
from bot.web.replay import Replay, replay_steps
from bot.web.texts import web_catalog
from engine import games
from engine.games import Match


def _played(turns: int | None, seed: int = 4) -> Match:
    match = games.new("yamatai", ["Ann", "Bo"], seed)
    played = 0
    while match.current_seat is not None and (turns is None or played < turns):
        play_turn(match, seed)
        played += 1
    return match


def _same(a: Replay, b: Replay) -> bool:
    return a.steps == b.steps and a.over == b.over and a.engine.to_json() == b.engine.to_json()


def test_one_step_per_action_with_the_view_after_it() -> None:
    match = _played(4)
    replay = replay_steps(match, web_catalog(), "en")
    assert [s.version for s in replay.steps] == list(range(len(match.log) + 1))
    assert replay.last.view == match.view(None)
    assert [s.seat for s in replay.steps[1:]] == [seat for seat, _ in match.log]
    assert all(s.words and "**" not in s.words for s in replay.steps[1:])
    assert replay.turn_start == turn_start(match)  # the turn's identity, as the bot keys it


def test_going_on_from_an_earlier_replay_equals_replaying_everything() -> None:
    catalog = web_catalog()
    early = replay_steps(_played(3), catalog, "en")
    later = _played(8)
    assert replay_steps(later, catalog, "en", early).turn_start == turn_start(later)
    assert _same(replay_steps(later, catalog, "en", early), replay_steps(later, catalog, "en"))
    assert early.last.version < len(later.log)  # the earlier replay was not changed
    assert early.engine.to_json() == _played(3).to_json()


def test_an_earlier_replay_that_no_longer_holds_is_not_used() -> None:
    catalog = web_catalog()
    base = replay_steps(_played(3), catalog, "en")
    other = _played(8, seed=5)  # another game: its log does not start with base's
    assert _same(replay_steps(other, catalog, "en", base), replay_steps(other, catalog, "en"))
    french = replay_steps(_played(8), catalog, "fr", base)  # another language
    assert french.steps[1].words != base.steps[1].words
    ended = _played(None)  # the end reveals what the log's texts hid
    assert _same(replay_steps(ended, catalog, "en", base), replay_steps(ended, catalog, "en"))
    # a built tile is hidden in the notation until the end: "build A3", then "build B05 A3"
    built = [s.action for s in base.steps if s.action.startswith("build")]
    assert built and all(len(a.split()) == 2 for a in built)
    ended_built = [
        s.action for s in replay_steps(ended, catalog, "en").steps if "build" in s.action
    ]
    assert ended_built and all(len(a.split()) == 3 for a in ended_built)


def test_the_web_worker_priority_is_never_lowered_in_the_bots_process() -> None:
    before = os.nice(0)
    lower_priority()
    assert os.nice(0) == before


def test_the_replay_numbers_turns_as_the_log_does() -> None:
    """QA: a Namiji turn's first action was "Round 1" on the page and its end "Round 2", while
    `/log` says "Turn 1" for the whole turn: the page numbers each action by the turn it is part
    of, as `/log` (D83), for both games."""
    for key in ("namiji", "yamatai"):
        match = games.new(key, ["Ann", "Bo", "Cy"], 7)
        played = 0
        while match.current_seat is not None and played < 60:
            play_turn(match, 7)
            played += 1
        replay = replay_steps(match, web_catalog(), "en")
        numbers = [step.round for step in replay.steps[1:]]
        logged = [t.round for t in replay_turns(match) for _ in t.actions]
        assert numbers == logged, key
