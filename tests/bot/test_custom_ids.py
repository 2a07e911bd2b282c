"""Persistent buttons and menus keep their custom ids: a click on an old message is rebuilt."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import custom_ids
from bot.custom_ids import OPEN_PANEL, PANEL_ACTION
from bot.lobby_state import LobbyState, parse_custom_id
from bot.views.deadline import SkipButton
from bot.views.lobby import LobbyButton, LobbySelect
from bot.views.panel import ActionSelect, CategorySelect, PageButton, RefreshButton, UndoButton
from bot.views.play import OpenPanelButton, ResignButton, SequenceButton

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
    (SkipButton(7, "3.1"), "himiko:deadline:skip:7:3.1"),
    (LobbyButton("join", LOBBY), "himiko:lobby:join:yamatai:3:1:2t.5m"),
    (LobbySelect("seats", LOBBY), "himiko:lobby:seats:yamatai:3:1:2t.5m"),
    (LobbySelect("deadline", LOBBY), "himiko:lobby:deadline:yamatai:3:1:2t.5m"),
    (LobbyButton("join", LOBBY.with_deadline(12)), "himiko:lobby:join:yamatai:3:1:2t.5m:12"),
    (LobbyButton("start", LOBBY.with_deadline(0)), "himiko:lobby:start:yamatai:3:1:2t.5m:0"),
]


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
    assert on.custom_id("start") == "himiko:lobby:start:yamatai:3:1:2t.5m:48:1"
    parsed = parse_custom_id(on.custom_id("fill"))
    assert parsed is not None and parsed[0] == "fill"
    assert parsed[1].takeover and parsed[1].deadline == 48


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
