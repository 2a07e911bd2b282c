"""Login, command sync, and a lobby that becomes a game thread with the opening board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games import rules_for
from tests.discord_double import UserSpec
from tests.e2e.harness import (
    CHANNEL,
    COMMANDS,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    custom_id,
    first_player_id,
    has_png,
    himiko_env,
    run,
)
from tests.e2e.test_anywhere import ANYWHERE

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


EXPECTED_OPTIONS: dict[str, dict[str, tuple[int, bool]]] = {
    # option name -> (Discord option type, required)
    "new": {
        "game": (3, True),
        "seats": (4, False),
        "computers": (5, False),
        "time_bank": (3, False),
        "increment": (3, False),
    },
    "play": {"action": (3, True)},
    "turn": {},
    "undo": {},
    "board": {"public": (5, False)},
    "log": {},
    "games": {},
    "mygames": {},
    "rules": {"topic": (3, False), "game": (3, False), "card": (3, False)},
    "resign": {},
}


def _options(command: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in command.get("options", [])}


def test_login_and_command_sync(tmp_path: Path) -> None:
    """The bot logs in, identifies, and syncs every command with its options to the dev guild."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double, bot = env.double, env.bot
            assert bot.user is not None and bot.user.id == double.app_id
            assert bot.get_guild(GUILD) is not None
            synced = await double.wait_for_commands(GUILD, TIMEOUT)
            assert sorted(c["name"] for c in synced) == sorted(COMMANDS)
            # while DEV_GUILD_ID is set only the commands a user may install are global (D239)
            assert sorted(c["name"] for c in double.commands()) == sorted(ANYWHERE)
            for name, expected in EXPECTED_OPTIONS.items():
                command = double.command(name, GUILD)
                assert command is not None, name
                assert command["description"], name
                options = _options(command)
                got = {k: (o["type"], bool(o.get("required"))) for k, o in options.items()}
                assert got == expected, name
            play = _options(double.command("play", GUILD) or {})["action"]
            assert play.get("autocomplete") is True
            assert play.get("max_length") == 2000
            new = _options(double.command("new", GUILD) or {})
            games = [c["value"] for c in new["game"]["choices"]]
            assert games[0] == "yamatai" and set(games) <= {"yamatai", "namiji", "nim"}
            most = max(rules_for(g).max_players for g in games)
            assert (new["seats"]["min_value"], new["seats"]["max_value"]) == (2, most)
            rules = _options(double.command("rules", GUILD) or {})
            assert rules["topic"].get("autocomplete") is True
            assert [c["value"] for c in rules["game"]["choices"]] == games
            offered = await double.autocomplete(
                WATCHER, CHANNEL, "rules", {"topic": ""}, "topic", timeout=TIMEOUT
            )
            topics = [c["value"] for c in offered]
            assert topics[0] == "overview" and "notation" in topics and topics[-1] == "commands"
            narrowed = await double.autocomplete(
                WATCHER, CHANNEL, "rules", {"topic": "harb"}, "topic", timeout=TIMEOUT
            )
            assert [c["value"] for c in narrowed] == ["end_turn"]
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"topic": "nonsense"})
            reply = await rec.reply(TIMEOUT)
            # the topics listed by their titles in the reader's words (D245)
            assert reply.ephemeral and "Action notation" in reply.content
            # a command answers once synced
            rec = await double.slash(WATCHER, CHANNEL, "rules", {"topic": "notation"})
            reply = await rec.reply(TIMEOUT)
            assert reply.ephemeral and "fleet 4" in reply.content

    run(body)


def test_lobby_join_start_posts_the_opening_board(tmp_path: Path) -> None:
    """``/new``: a lobby; Join (guest) and Start (host) make a public thread with the board."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2)
            assert "Hana" in lobby.text() and lobby.is_v2  # the lobby card (D201)
            for action in ("join", f"player:{HOST.id}", "start", "cancel"):
                custom_id(lobby, f"himiko:lobby:{action}")

            # only the host may start; a guest's Start is refused privately
            refused = await env.lobby_click(GUEST, lobby, "start")
            answer = await refused.reply(TIMEOUT)
            assert answer.ephemeral and "Only the host" in answer.content

            joined = await env.lobby_click(GUEST, lobby, "join")
            assert (await joined.response(TIMEOUT)).type == 7  # the lobby message is updated
            lobby = double.message(lobby.id)
            assert "Kenji" in lobby.text()

            start = await env.lobby_click(HOST, lobby, "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            assert thread.type == 11  # public thread
            assert thread.starter_message_id == lobby.id or thread.id == lobby.id
            assert "Hana" in thread.name and "Kenji" in thread.name
            opening = await double.wait_for_message(thread.id, has_png, TIMEOUT)
            assert opening.author_id == double.app_id
            [board] = opening.attachments
            assert board.filename.endswith(".png") and board.size > 1000
            assert set(opening.pinged_user_ids()) == {HOST.id, GUEST.id}
            assert not opening.pings_everyone()
            first = first_player_id(opening)
            assert first in (HOST.id, GUEST.id)
            assert first == await env.current_user(thread.id)
            custom_id(opening, "himiko:open:")
            # the lobby is closed: no buttons left, it links to the thread
            lobby = double.message(lobby.id)
            assert lobby.custom_ids() == []
            assert f"<#{thread.id}>" in lobby.text()

    run(body)


def test_the_fullest_lobby_fits_discord_and_starts_after_a_restart(tmp_path: Path) -> None:
    """Five players with the largest ids snowflakes and the store take, long names, a week's
    deadline, take-over and French: Discord (the double checks custom ids are 1 to 100
    characters) takes every edit; after a restart Start seats them all from the lobby message,
    in order, with every option."""
    biggest = (1 << 63) - 1  # signed 64-bit: Discord's snowflakes stay below until 2084
    host, *guests = [
        UserSpec(biggest - n, f"player{n}", global_name=f"{n}_*Player*_with a long name{n}")
        for n in range(5)
    ]

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(host, seats=5, game="namiji")
            chosen_options = (
                ("deadline", "168"),
                ("takeover", "takeover_on"),
                ("lang", "fr"),  # the language menu (D105)
            )
            for menu, value in chosen_options:
                wanted = custom_id(double.message(lobby.id), f"himiko:lobby:{menu}:")
                chosen = await double.click(host, CHANNEL, lobby.id, wanted, [value])
                assert (await chosen.response(TIMEOUT)).type == 7
            for guest in guests:
                joined = await env.lobby_click(guest, double.message(lobby.id), "join")
                assert (await joined.response(TIMEOUT)).type == 7  # the edit was accepted
            shown = double.message(lobby.id)
            assert all(len(c) <= 100 for c in shown.custom_ids())
            assert all(f"(<@{user.id}>)" in shown.text() for user in (host, *guests))
            assert "Joueurs (5/5)" in shown.text() and shown.pinged_user_ids() == []

            await env.restart()  # the lobby is read back from its message
            start = await env.lobby_click(host, double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            await double.wait_for_message(thread.id, has_png, TIMEOUT)
            game = await env.game(thread.id)
            assert [s.user_id for s in game.seats] == [u.id for u in (host, *guests)]
            assert [s.player for s in game.seats] == [u.global_name for u in (host, *guests)]
            assert game.turn_deadline == 168 * 3600 and game.computer_takeover
            assert game.language == "fr"

    run(body)
