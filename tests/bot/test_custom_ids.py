"""Persistent buttons and menus keep their custom ids: a click on an old message is rebuilt."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import custom_ids
from bot.custom_ids import OPEN_PANEL, PANEL_ACTION
from bot.lobby_state import DEADLINE_HOURS, LobbyState, parse_custom_id
from bot.store import COMPUTER_LEVELS, LANGUAGES
from bot.views.deadline import AwayButton, SkipButton
from bot.views.lobby import LobbyButton, LobbySelect
from bot.views.panel import ActionSelect, CategorySelect, PageButton, RefreshButton, UndoButton
from bot.views.play import OpenPanelButton, ResignButton, SequenceButton
from engine import games

LOBBY = LobbyState("yamatai", 3, True, (101, 202))

ITEMS: list[tuple[Any, str]] = [
    (OpenPanelButton(7, 12, (3, 1)), "himiko:open:7:3.1:12"),
    (OpenPanelButton(7, 12, None), "himiko:open:7:12"),
    (SequenceButton(True, 7, 12, 101, "0badf00d"), "himiko:seq:ok:7:12:101:0badf00d"),
    (SequenceButton(False, 7, 12, 101, "0badf00d"), "himiko:seq:no:7:12:101:0badf00d"),
    (ResignButton(True, 7, 12, 101), "himiko:resign:ok:7:12:101"),
    (ResignButton(False, 7, 12, 101), "himiko:resign:no:7:12:101"),
    (CategorySelect(7, 12), "himiko:panel:cat:7:12"),
    (ActionSelect(7, 12, 2), "himiko:panel:act:7:12:2"),
    (PageButton(7, 12, 1, "place:clay"), "himiko:panel:page:7:12:1:place:clay"),
    (UndoButton(7, 12), "himiko:panel:undo:7:12"),
    (RefreshButton(7), "himiko:panel:refresh:7"),
    (SkipButton(7, "3.1"), "himiko:deadline:skip:7:3.1"),  # posted before migration 0012
    (SkipButton(7, "3.1.40"), "himiko:deadline:skip:7:3.1.40"),
    (AwayButton(7, "3.1.40"), "himiko:deadline:away:7:3.1.40"),
    (LobbyButton("join", LOBBY), "himiko:lobby:join:yamatai:3:1:@"),
    (LobbySelect("seats", LOBBY), "himiko:lobby:seats:yamatai:3:1:@"),
    (LobbySelect("deadline", LOBBY), "himiko:lobby:deadline:yamatai:3:1:@"),
    (LobbyButton("join", LOBBY.with_deadline(12)), "himiko:lobby:join:yamatai:3:1:@:12"),
    (LobbyButton("start", LOBBY.with_deadline(0)), "himiko:lobby:start:yamatai:3:1:@:0"),
]
# lobby ids as lobbies posted before wrote them, with the joined user ids (base 36)
BIG = (1 << 64) - 1
OLD_LOBBY_IDS = [
    ("join", "himiko:lobby:join:yamatai:3:1:2t.5m", (101, 202)),
    ("seats", "himiko:lobby:seats:yamatai:3:1:2t.5m:12", (101, 202)),
    ("fill", "himiko:lobby:fill:yamatai:3:1:2t.5m:48:1", (101, 202)),
    ("language", "himiko:lobby:language:namiji:5:0:3w5e11264sgsf.2t.1:168:1:fr", (BIG, 101, 1)),
]
#: user ids of the size Discord gives now (2025) and the largest a 64-bit snowflake can be
SNOWFLAKES = (1_398_765_432_109_876_543, (1 << 64) - 1)


def test_the_lobby_deadline_is_optional_in_its_ids() -> None:
    """Lobby ids made before the deadline option mean the default 48 h; others carry it."""
    old = parse_custom_id("himiko:lobby:start:yamatai:3:1:2t.5m")
    assert old is not None and old[1].deadline == 48 and old[1].turn_deadline == 48 * 3600
    week = parse_custom_id("himiko:lobby:start:yamatai:3:1:2t.5m:168")
    assert week is not None and week[1].turn_deadline == 168 * 3600
    none = parse_custom_id("himiko:lobby:join:yamatai:3:1:2t.5m:0")
    assert none is not None and none[1].turn_deadline is None
    assert parse_custom_id("himiko:lobby:join:yamatai:3:1:2t.5m:5") is None  # not offered
    assert LOBBY.with_deadline(5) == LOBBY


def test_the_take_over_option_is_optional_and_never_read_as_a_deadline() -> None:
    """Old ids have no take-over (off); an id with it always writes the deadline before it."""
    old = parse_custom_id("himiko:lobby:start:yamatai:3:1:2t.5m:12")
    assert old is not None and not old[1].takeover and old[1].deadline == 12
    on = LOBBY.with_takeover(True)
    assert on.custom_id("start") == "himiko:lobby:start:yamatai:3:1:@:48:1"
    parsed = parse_custom_id(on.custom_id("fill"))
    assert parsed is not None and parsed[0] == "fill"
    assert parsed[1].takeover and parsed[1].deadline == 48


def test_the_level_and_coach_are_optional_and_read_apart_from_the_other_options() -> None:
    """Ids made before the level and the coach mean normal and off; new ids carry them after
    every other option, each told from the others by its own words."""
    old = parse_custom_id("himiko:lobby:start:yamatai:3:1:@:12:1:fr")
    assert old is not None and (old[1].level, old[1].coach) == ("normal", False)
    strong = replace(LOBBY, level="strong").with_coach(True)
    assert strong.custom_id("start") == "himiko:lobby:start:yamatai:3:1:@:strong:coach"
    parsed = parse_custom_id(strong.custom_id("computers"))
    assert parsed is not None and (parsed[1].level, parsed[1].coach) == ("strong", True)
    assert LOBBY.with_level("greedy") == LOBBY  # not offered
    easy = LOBBY.with_computers(False).with_level("easy")
    assert (easy.computers, easy.level) == (True, "easy")


def test_namiji_s_direction_is_optional_and_namiji_s_only() -> None:
    """Ids made before the direction sail clockwise; a direction comes last, and only a game
    with directions takes one (a Yamatai id with one is forged: refused)."""
    old = parse_custom_id("himiko:lobby:start:namiji:3:1:@:12:1:fr:strong:coach")
    assert old is not None and old[1].direction == "clockwise"
    namiji = LobbyState("namiji", 3, True, ()).with_direction("random")
    assert namiji.custom_id("seats") == "himiko:lobby:seats:namiji:3:1:@:random"
    assert parse_custom_id(namiji.custom_id("seats")) == ("seats", namiji)
    assert parse_custom_id("himiko:lobby:seats:yamatai:3:1:@:reversed") is None
    assert LOBBY.with_direction("reversed") == LOBBY and not LOBBY.directions
    assert namiji.with_direction("backwards") == namiji  # not offered
    assert LOBBY.setup_options(lambda: 1) == {}
    assert namiji.setup_options(lambda: 3) == {"direction": "reversed"}
    assert namiji.setup_options(lambda: 8) == {"direction": "clockwise"}
    assert namiji.with_direction("reversed").setup_options(lambda: 8) == {"direction": "reversed"}


def _fullest_lobbies() -> Iterator[tuple[str, LobbyState]]:
    """(action, lobby) for every game with every seat taken by the largest user ids, every
    option at every value and every action."""
    for game in games.GAMES:
        rules = games.rules_for(game)
        for user in SNOWFLAKES:
            players = tuple(user - seat for seat in range(rules.max_players))
            full = LobbyState(game, rules.max_players, False, players)
            for computers, deadline, takeover, language, level, coach in itertools.product(
                (False, True),
                DEADLINE_HOURS,
                (False, True),
                (None, *LANGUAGES),
                COMPUTER_LEVELS,
                (False, True),
            ):
                state = full.with_computers(computers).with_deadline(deadline)
                state = replace(state.with_takeover(takeover), language=language, level=level)
                state = state.with_coach(coach)
                for direction in state.directions or (state.direction,):
                    state = state.with_direction(direction)
                    for action in custom_ids.LOBBY_BUTTONS + custom_ids.LOBBY_SELECTS:
                        yield action, state


def test_every_lobby_id_fits_discord_s_100_characters() -> None:
    """Discord refuses a component whose custom id is over 100 characters."""
    longest = max((state.custom_id(action) for action, state in _fullest_lobbies()), key=len)
    assert len(longest) <= 100, longest


def test_lobby_ids_give_the_options_back_and_leave_the_players_to_the_message() -> None:
    for action, state in _fullest_lobbies():
        assert parse_custom_id(state.custom_id(action)) == (action, replace(state, players=()))


@pytest.mark.parametrize(
    ("action", "custom_id", "players"), OLD_LOBBY_IDS, ids=[c for _, c, _ in OLD_LOBBY_IDS]
)
def test_lobby_ids_posted_before_still_match_and_parse(
    action: str, custom_id: str, players: tuple[int, ...]
) -> None:
    """Buttons on lobby messages posted before keep working: their ids match, a click rebuilds
    the item, and the ids give their players back."""
    parsed = parse_custom_id(custom_id)
    assert parsed is not None and parsed[0] == action and parsed[1].players == players
    kind: Any = LobbySelect if action in custom_ids.LOBBY_SELECTS else LobbyButton
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    rebuilt = asyncio.run(kind.from_custom_id(SimpleNamespace(message=None), None, match))
    assert type(rebuilt) is kind and rebuilt.action == action


@pytest.mark.parametrize(("item", "custom_id"), ITEMS, ids=[c for _, c in ITEMS])
def test_custom_ids_are_unchanged_and_rebuilt_from_a_click(item: Any, custom_id: str) -> None:
    assert item.item.custom_id == custom_id
    match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = SimpleNamespace(message=None)
    rebuilt = asyncio.run(type(item).from_custom_id(interaction, item.item, match))
    assert type(rebuilt) is type(item) and rebuilt.item.custom_id == custom_id


def test_confirm_buttons_keep_their_styles() -> None:
    assert SequenceButton(True, 1, 1, 1, "00000000").item.style == discord.ButtonStyle.success
    assert ResignButton(True, 1, 1, 1).item.style == discord.ButtonStyle.danger
    assert ResignButton(False, 1, 1, 1).item.style == discord.ButtonStyle.secondary


def test_one_specification_formats_parses_and_matches() -> None:
    """``bot.custom_ids``: format then parse gives the fields back; the template matches it."""
    text = OPEN_PANEL.format(game=7, turn="3.1", version=12)
    assert text == "himiko:open:7:3.1:12"
    assert OPEN_PANEL.parse(text) == {"game": "7", "turn": "3.1", "version": "12"}
    assert OPEN_PANEL.parse(OPEN_PANEL.format(game=7, turn=None, version=12)) == {
        "game": "7",
        "turn": None,
        "version": "12",
    }
    assert OPEN_PANEL.parse("himiko:open:7:x:12") is None
    with pytest.raises(ValueError):
        PANEL_ACTION.format(game=7, version=12, n=10)  # one digit: at most three menus
    with pytest.raises(ValueError):
        custom_ids.LOBBY.format(
            action="join", game="Bad Key", seats=2, computers=False, players="1"
        )
