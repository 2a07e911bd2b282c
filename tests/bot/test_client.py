"""The Discord side without a network: endpoints, commands, custom ids and views."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import Gated, HimikoBot, HimikoTree, apply_endpoints, create_bot
from bot.cogs.info import log_text
from bot.internals import DEFAULT_API_BASE, DEFAULT_GATEWAY
from bot.lobby_state import LobbyState, parse_custom_id
from bot.service import Category, HistoryResult, PanelState, PlayerInfo, TurnId, TurnRecord
from bot.settings import Settings
from bot.views import DYNAMIC_ITEMS
from bot.views.lobby import lobby_items
from bot.views.lobby_card import lobby_embed, lobby_in, lobby_view
from bot.views.panel import panel_view
from bot.views.play import checksum, preview_view, turn_button_view
from tests.e2e.harness import COMMANDS

from .support import old_lobby_id

BIG_ID = (1 << 63) - 1
BOT_ID = 999


def _settings(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(token="t", database_path=tmp_path / "db.sqlite3", sync_commands=False, **extra)


def _interaction(bot: HimikoBot, user_id: int = BIG_ID) -> Any:
    return SimpleNamespace(
        client=bot,
        locale=discord.Locale.american_english,
        guild_locale=None,
        user=SimpleNamespace(id=user_id, display_name="Ann"),
    )


def _custom_ids(view: discord.ui.View) -> list[str]:
    ids = []
    for row in view.to_components():
        for component in row["components"]:
            ids.append(component["custom_id"])
            assert len(component.get("options", [])) <= 25
    return ids


def _assert_dynamic(ids: list[str]) -> None:
    for custom_id in ids:
        assert len(custom_id) <= 100, custom_id
        owners = [
            item
            for item in DYNAMIC_ITEMS
            if item.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert len(owners) == 1, custom_id


def test_endpoints_are_applied_and_restored(tmp_path: Path) -> None:
    create_bot(
        _settings(tmp_path, api_base="http://127.0.0.1:5/api/v10", gateway_url="ws://127.0.0.1:6")
    )
    try:
        assert Route.BASE == "http://127.0.0.1:5/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:6"
        assert Route("GET", "/users/@me").url == "http://127.0.0.1:5/api/v10/users/@me"
    finally:
        apply_endpoints(_settings(tmp_path))
    assert Route.BASE == DEFAULT_API_BASE and DiscordWebSocket.DEFAULT_GATEWAY == DEFAULT_GATEWAY


def test_the_bot_is_what_its_command_tree_gates_on(tmp_path: Path) -> None:
    """The tree reads ``drained``, ``admission`` and ``answers`` of its client (else no gate)."""
    bot = HimikoBot(_settings(tmp_path))
    assert isinstance(bot, Gated) and isinstance(bot.tree, HimikoTree)


def test_setup_registers_commands_and_buttons(tmp_path: Path) -> None:
    async def body() -> None:
        bot = create_bot(_settings(tmp_path))
        await bot.setup_hook()
        try:
            commands = {c.name: c for c in bot.tree.get_commands()}
            assert set(commands) == set(COMMANDS)
            for command in commands.values():
                payload = command.to_dict(bot.tree)
                assert payload["description"]
            assert (tmp_path / "db.sqlite3").exists()
            assert bot.intents.value == discord.Intents(guilds=True).value
            assert bot.allowed_mentions is not None and not bot.allowed_mentions.users
        finally:
            await bot.close()

    asyncio.run(body())


def _lobby_message(embed: discord.Embed, ids: list[str], author: int = BOT_ID) -> Any:
    """A message as discord.py reads it: its buttons in rows of components."""
    rows = [
        discord.ActionRow(
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "x", "custom_id": i} for i in ids[n : n + 5]
                ],
            }
        )
        for n in range(0, len(ids), 5)
    ]
    return SimpleNamespace(author=SimpleNamespace(id=author), embeds=[embed], components=rows)


def test_a_lobby_is_read_back_from_its_message(tmp_path: Path) -> None:
    """The options from the components' ids, the players (ids and names) from the embed."""
    bot = HimikoBot(_settings(tmp_path))
    names = ("A*n", "Bo (<@5>)", "C\\y", "(<@7>)", "Ed")  # escaped and mentions kept
    state = LobbyState(
        "namiji", 5, True, (BIG_ID, 2, 3, 4, 5), names, deadline=168, takeover=True, language="fr"
    )
    interaction = _interaction(bot)
    ids = _custom_ids(lobby_view(lobby_items(bot), interaction, state))
    _assert_dynamic(ids)
    parsed = parse_custom_id(next(i for i in ids if ":cancel:" in i))
    assert parsed == ("cancel", replace(state, players=(), names=()))
    embed = lobby_embed(bot, interaction, state)
    players = next(f.value for f in embed.fields if f.name and f.name.startswith("👥"))
    assert players is not None and players.splitlines()[0] == f"1. A\\*n (<@{BIG_ID}>)"
    assert lobby_in(_lobby_message(embed, ids), BOT_ID) == state
    assert lobby_in(_lobby_message(embed, ids, author=2), BOT_ID) is None  # not the bot's
    unlisted = embed.copy().set_field_at(1, name=embed.fields[1].name, value="1. Ann")
    assert lobby_in(_lobby_message(unlisted, ids), BOT_ID) is None  # whom to seat is unknown


def test_a_lobby_posted_before_is_read_from_its_ids_and_names(tmp_path: Path) -> None:
    """Lobby messages posted before: the user ids in the custom ids, only names in the embed."""
    bot = HimikoBot(_settings(tmp_path))
    state = LobbyState("yamatai", 4, True, (BIG_ID, 2, 3), ("A*n", "Bo", "Cy"))
    embed = lobby_embed(bot, _interaction(bot), state)
    embed.set_field_at(1, name=embed.fields[1].name, value="1. A\\*n\n2. Bo\n3. Cy")
    ids = [old_lobby_id(state, action) for action in ("join", "start")]
    assert ids[0] == "himiko:lobby:join:yamatai:4:1:1y2p0ij32e8e7.2.3"
    assert lobby_in(_lobby_message(embed, ids), BOT_ID) == state


def test_lobby_rules() -> None:
    state = LobbyState("yamatai", 2, False, (1,), ("Ann",))
    assert not state.can_start()
    assert state.with_computers(True).table(lambda n: f"C{n}") == [(1, "Ann"), (None, "C1")]
    joined = state.join(2, "Bo")
    assert joined.full and joined.can_start()
    assert joined.with_seats(4).seats == 4 and joined.with_seats(1).seats == 2
    assert joined.with_seats(4).leave(2) == LobbyState("yamatai", 4, False, (1,), ("Ann",))


def test_panel_and_play_views(tmp_path: Path) -> None:
    bot = HimikoBot(_settings(tmp_path))
    interaction = _interaction(bot)
    actions = tuple(f"place clay {n}" for n in range(60))
    state = PanelState(
        game_id=BIG_ID,
        game="yamatai",
        version=123456,
        step="yamatai.step.place",
        player=PlayerInfo(seat=0, name="Ann", user_id=1, colour="blue"),
        categories=(
            Category(key="place:clay", count=80),
            Category(key="recruit:Fu-Hsi", count=2),
            Category(key="end", count=3),
        ),
        category="place:clay",
        page=1,
        pages=2,
        actions=actions,
        can_undo=True,
    )
    view = panel_view(bot, interaction, state)
    ids = _custom_ids(view)
    assert len(ids) == 1 + 3 + 4  # groups, 3 menus, undo + previous + refresh + notes
    _assert_dynamic(ids)
    text = "fleet 4; buy wood; place wood 12"
    ids = _custom_ids(preview_view(bot, interaction, BIG_ID, 7, text))
    _assert_dynamic(ids)
    assert ids[0].endswith(checksum(text))
    _assert_dynamic(
        _custom_ids(turn_button_view(bot, BIG_ID, 9, TurnId(round=12, seat=3, start=140), None))
    )
    _assert_dynamic(_custom_ids(turn_button_view(bot, BIG_ID, 9, None, None)))
    _assert_dynamic(["himiko:open:1:2"])  # made before turn keys: still understood


def test_log_text_fits(tmp_path: Path) -> None:
    bot = HimikoBot(_settings(tmp_path))
    players = (
        PlayerInfo(seat=0, name="Ann", user_id=1, colour="blue"),
        PlayerInfo(seat=1, name="Bo", user_id=None, colour="red"),
    )
    event = {"type": "fleet", "seat": 0, "fleet": 4, "boats": [], "missing": []}
    turns = tuple(
        TurnRecord(seat=i % 2, round=1, actions=("fleet 4",) * 40, events=(event,), complete=True)
        for i in range(30)
    )
    text = log_text(
        _interaction(bot), HistoryResult(game_id=1, game="yamatai", players=players, turns=turns)
    )
    assert len(text) <= 2000 and text.startswith("**Recent turns**")
