"""Golden turn ("focus") pictures of both games (issue 25 item 4): fixed views, legal actions
and events, drawn and compared pixel by pixel with the stored half-size pictures, as the board's
golden pictures are (tests/render/test_golden.py). Regenerate after an intended change with
UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_focus_golden.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from engine import games
from render import render_focus
from tests.render.probes import decode
from tests.render.test_golden import GOLDEN, UPDATE, assert_matches
from tests.render.test_phone import _namiji, _yamatai_at

Scenario = tuple[dict[str, Any], list[str], list[dict[str, Any]] | None]


def _yamatai(step: str) -> Callable[[], Scenario]:
    def made() -> Scenario:
        match, events = _yamatai_at(step)
        return match.view(match.current_seat), match.legal_actions(), events

    return made


def _namiji_at(verb: str, players: int) -> Callable[[], Scenario]:
    """The first Namiji view (seed 3) whose legal actions start with ``verb``."""

    def made() -> Scenario:
        match = _namiji(players, 0)
        computer = games.computer_player("namiji")
        events: list[dict[str, Any]] = []
        for done in range(400):
            seat = match.current_seat
            assert seat is not None
            legal = match.legal_actions()
            if done > 8 and any(a.startswith(verb + " ") for a in legal):
                return match.view(seat), legal, events
            events = match.play(computer(match.view(seat), done), seat=seat)
        raise AssertionError(f"no {verb}")

    return made


def _turn_card(game: str, turns: int) -> Callable[[], Scenario]:
    """The picture of a thread's turn card (D200): everyone's view after the ``turns``-th
    completed turn (seed 3, computer moves), nothing to choose, that turn's events."""

    def made() -> Scenario:
        match = games.new(game, ["Ann", "Bo", "Cy"], 3)
        computer = games.computer_player(game)
        events: list[dict[str, Any]] = []
        done = 0
        for step in range(2000):
            seat = match.current_seat
            assert seat is not None
            events += match.play(computer(match.view(seat), step), seat=seat)
            if match.current_seat != seat:
                done += 1
                if done == turns:
                    return match.view(None), [], events
                events = []
        raise AssertionError(f"no turn {turns}")

    return made


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "card-yamatai-turn": _turn_card("yamatai", 7),
    "card-namiji-turn": _turn_card("namiji", 9),
    "focus-yamatai-place": _yamatai("place"),
    "focus-yamatai-trade": _yamatai("trade"),
    "focus-yamatai-fleet": _yamatai("fleet"),
    "focus-namiji-move": _namiji_at("move", 4),
    "focus-namiji-keep": _namiji_at("keep", 3),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_focus_golden(name: str) -> None:
    """The turn picture of a stored view matches its golden picture."""
    data_path = GOLDEN / f"{name}.json"
    image_path = GOLDEN / f"{name}.png"
    if UPDATE:
        view, legal, events = SCENARIOS[name]()
        data = {"view": view, "legal": legal, "events": events}
        data_path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    data = json.loads(data_path.read_text(encoding="utf-8"))
    picture = decode(render_focus(data["view"], legal=data["legal"], events=data["events"]))
    actual = picture.reduce(2)
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)
