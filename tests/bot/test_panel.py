"""The turn panel after an action: "Played X — next: <step>", in the same group while it lasts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.games import presentation
from bot.service import GameService
from bot.views.panel import CategorySelect, act

from .fakes import FakeBot, fake_interaction
from .support import two_player_game, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def _panel_click(bot: FakeBot, user_id: int) -> Any:
    interaction = fake_interaction(bot, user_id=user_id)
    interaction.edits = []

    async def edit(**kwargs: Any) -> None:
        interaction.edits.append(kwargs)

    interaction.edit_original_response = edit
    return interaction


def _chosen(view: Any) -> str | None:
    """The group marked as chosen in a panel view's category menu."""
    for child in view.children:
        if isinstance(child, CategorySelect):
            return next((o.value for o in child.item.options if o.default), None)
    return None


def test_the_panel_says_what_was_played_and_keeps_the_group(tmp_path: Path) -> None:
    async def body(service: GameService) -> None:
        created = await two_player_game(service)
        user = created.first.user_id or 0
        bot = FakeBot(service=service)
        asked: list[str | None] = []
        panel = service.panel

        async def recording_panel(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs.get("after"))
            return await panel(*args, **kwargs)

        service.panel = recording_panel  # type: ignore[method-assign]
        for _ in range(8):  # fleet, then trades and boats: each stays in its group if it can
            state = await panel(user, game_id=created.game_id, picture=False)
            action = state.actions[0]
            click = _panel_click(bot, user)
            await act(click, created.game_id, state.version, action)
            [edit] = click.edits
            if edit["view"] is None:  # the turn ended
                break
            assert edit["content"].startswith(f"Played `{action}` — next: "), edit["content"]
            assert asked[-1] == action
            after = await panel(user, game_id=created.game_id, picture=False)
            if presentation("yamatai").panel_group(action) in [c.key for c in after.categories]:
                assert _chosen(edit["view"]) == presentation("yamatai").panel_group(action)

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_the_harbor_group_offers_to_store_and_end_in_one_choice(tmp_path: Path) -> None:
    async def body(service: GameService) -> None:
        created = await two_player_game(service)
        user = created.first.user_id or 0
        bot = FakeBot(service=service)
        state = await service.panel(user, game_id=created.game_id, picture=False)
        fleet = next(a for a in state.actions if a in ("fleet 1", "fleet 2", "fleet 3", "fleet 4"))
        await act(_panel_click(bot, user), created.game_id, state.version, fleet)
        state = await service.panel(user, game_id=created.game_id, category="keep", picture=False)
        assert state.category == "keep"
        [keep, keep_and_end] = state.actions  # one boat in hand: one way to fill the harbor
        assert keep.startswith("keep ") and keep_and_end == f"{keep}; end"
        click = _panel_click(bot, user)
        await act(click, created.game_id, state.version, keep_and_end)
        [edit] = click.edits
        assert edit["view"] is None  # the turn is over

    asyncio.run(with_service(tmp_path, body))
