"""The lobby is one card (issue 37 item 3, D201), on the Discord double: a section per seat, the
options as menus (the language too), Start and Cancel; classic lobbies posted before still work
and become the card."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import discord
import pytest

from bot.lobby_state import LobbyState, lobby_note_card
from bot.views.lobby import lobby_items
from bot.views.lobby_card import lobby_embed, lobby_view
from tests.discord_double import DROP, UserSpec
from tests.discord_double.records import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    SECTION,
    TEXT_DISPLAY,
    MessageRecord,
)
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    custom_id,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

EDIT_ORIGINAL = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"

SELECT = 3


def _count(components: list[dict[str, Any]]) -> int:
    """Components counted as Discord counts them: nested ones too (rows, sections' texts and
    accessories)."""
    total = 0
    for component in components:
        total += 1 + _count(component.get("components", []))
        if isinstance(component.get("accessory"), dict):
            total += 1
    return total


def _seats(lobby: MessageRecord) -> list[tuple[str, dict[str, Any]]]:
    """Each section of the card: (its text, its accessory)."""
    return [
        (section["components"][0]["content"], section["accessory"])
        for section in lobby.components_of_type(SECTION)
    ]


def _chosen(lobby: MessageRecord, menu: str) -> list[str]:
    """The values a menu of the card shows as chosen."""
    found = lobby.component(custom_id(lobby, f"himiko:lobby:{menu}:"))
    assert found is not None and found["type"] == SELECT
    return [o["value"] for o in found["options"] if o.get("default")]


async def _choose(env: Env, user: UserSpec, lobby: MessageRecord, menu: str, value: str) -> None:
    """Choose ``value`` in one of the card's menus; the card is edited in place."""
    shown = env.double.message(lobby.id)
    chosen = await env.double.click(
        user, CHANNEL, lobby.id, custom_id(shown, f"himiko:lobby:{menu}:"), [value]
    )
    assert (await chosen.response(TIMEOUT)).type == 7


async def _press(env: Env, user: UserSpec, lobby: MessageRecord, wanted: str) -> Any:
    """Click the button whose custom id starts with ``wanted`` on the card as it is now."""
    shown = env.double.message(lobby.id)
    return await env.double.click(user, CHANNEL, lobby.id, custom_id(shown, wanted))


def test_the_lobby_is_one_card_and_its_language_menu_re_renders_it(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            lobby = await env.open_lobby(HOST, seats=4, game="namiji")
            assert lobby.is_v2 and lobby.embeds == [] and not lobby.content
            assert len(lobby.components) == 1 and lobby.components[0]["type"] == CONTAINER
            heading = lobby.text_displays()[0]
            assert heading.startswith("## Namiji: a new game") and f"<@{HOST.id}>" in heading
            assert lobby.pinged_user_ids() == []  # the card names the host and pings nobody
            [(host_seat, badge), (free, join)] = _seats(lobby)
            assert host_seat == f"1. Hana (<@{HOST.id}>)" and badge["disabled"] is True
            assert badge["custom_id"] == f"himiko:lobby:player:{HOST.id}"
            assert free == "🪑 Free seats: 3" and join["custom_id"].startswith("himiko:lobby:join:")
            menus = [c["custom_id"].split(":")[2] for c in lobby.components_of_type(SELECT)]
            assert menus == [
                *("seats", "direction", "computers", "takeover", "coach", "deadline", "lang"),
            ]
            language = lobby.component(custom_id(lobby, "himiko:lobby:lang:"))
            assert language is not None
            assert [o["label"] for o in language["options"]] == [
                *("🌐 English", "🌐 Français", "🌐 Italiano", "🌐 Polski"),
            ]
            last_row = lobby.components[0]["components"][-1]
            assert last_row["type"] == ACTION_ROW
            assert [b["custom_id"].split(":")[2] for b in last_row["components"]] == [
                *("start", "cancel"),
            ]

            await _choose(env, HOST, lobby, "lang", "pl")
            shown = env.double.message(lobby.id)
            assert shown.is_v2 and _chosen(shown, "lang") == ["pl"]
            assert shown.text_displays()[0].startswith("## Namiji: nowa gra")
            assert "Gospodarz" in shown.text() and "Wolne miejsca: 3" in shown.text()
            assert [a["label"] for _, a in _seats(shown)] == ["Gospodarz", "Dołącz"]
            start = await env.lobby_click(HOST, shown, "start")  # asks: fewer, or computers?
            assert (await start.response(TIMEOUT)).type == 7
            asked = env.double.message(lobby.id)
            assert asked.is_v2 and "Dołącz" not in str(asked.components)
            assert [c.split(":")[2] for c in asked.custom_ids()] == ["fill", "back"]
            await env.restart()  # the question card is read back from the message too
            back = await env.lobby_click(HOST, env.double.message(lobby.id), "back")
            assert (await back.response(TIMEOUT)).type == 7
            back_again = env.double.message(lobby.id)
            assert _chosen(back_again, "lang") == ["pl"] and "Dołącz" in str(back_again.components)

    run(body)


def test_join_leave_kick_options_start_and_cancel_work_through_the_card(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=3, game="namiji")
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            [_, (guest_seat, leave), _] = _seats(double.message(lobby.id))
            assert guest_seat == f"2. Kenji (<@{GUEST.id}>)" and leave["label"] == "Leave"
            assert "disabled" not in leave or not leave["disabled"]

            seat = f"himiko:lobby:player:{GUEST.id}"
            refused = await _press(env, WATCHER, lobby, seat)  # not Kenji's, not the host
            assert "Only that player or the host (Hana)" in (await refused.reply(TIMEOUT)).content
            left = await _press(env, GUEST, lobby, seat)  # Kenji leaves
            assert (await left.response(TIMEOUT)).type == 7
            assert "Kenji" not in double.message(lobby.id).text()
            await (await env.lobby_click(GUEST, double.message(lobby.id), "join")).response(TIMEOUT)
            await (await env.lobby_click(WATCHER, double.message(lobby.id), "join")).response(
                TIMEOUT
            )
            shown = double.message(lobby.id)
            assert [text.split(" (")[0] for text, _ in _seats(shown)] == [
                *("1. Hana", "2. Kenji", "3. Mio"),
            ]  # full: no Join left
            assert not [c for c in shown.custom_ids() if ":join:" in c]
            kicked = await _press(env, HOST, lobby, seat)  # the host removes Kenji
            assert (await kicked.response(TIMEOUT)).type == 7
            assert "Kenji" not in double.message(lobby.id).text()

            guest_menu = await double.click(
                GUEST,
                CHANNEL,
                lobby.id,
                custom_id(double.message(lobby.id), "himiko:lobby:coach:"),
                ["coach_on"],
            )
            assert (await guest_menu.reply(TIMEOUT)).content.startswith("Only the host")
            for menu, value in (
                ("direction", "reversed"),
                ("coach", "coach_on"),
                ("takeover", "takeover_on"),
                ("computers", "strong"),
                ("deadline", "b72i12"),
                ("seats", "2"),
            ):
                await _choose(env, HOST, lobby, menu, value)
                assert _chosen(double.message(lobby.id), menu) == [value], menu
            assert "Direction of travel: reversed" in double.message(lobby.id).text_displays()[0]

            await env.restart()  # the card is read back from the message
            start = await env.lobby_click(HOST, double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            [thread] = double.threads(CHANNEL)
            assert thread.id == lobby.id  # the thread is started from the lobby card
            await double.wait_for_message(thread.id, has_png, TIMEOUT)
            game = await env.game(thread.id)
            assert [s.user_id for s in game.seats] == [HOST.id, WATCHER.id]
            assert game.coach and game.computer_takeover and game.time_bank == 72 * 3600
            closed = double.message(lobby.id)
            assert closed.is_v2 and closed.custom_ids() == []
            heading, note, players = closed.text_displays()
            assert heading.startswith("## Namiji: a new game")
            assert note == f"The game started in <#{thread.id}>."
            assert f"1. Hana (<@{HOST.id}>)\n2. Mio (<@{WATCHER.id}>)" in players

            other = await env.open_lobby(HOST, seats=2)
            cancel = await env.lobby_click(HOST, other, "cancel")
            assert (await cancel.response(TIMEOUT)).type == 7
            cancelled = double.message(other.id)
            assert cancelled.custom_ids() == []
            assert cancelled.text_displays()[1] == "This lobby was cancelled by the host."

    run(body)


def test_the_biggest_lobby_in_polish_fits_discord_s_limits(tmp_path: Path) -> None:
    """Four players with long names and every option, in Polish, with a free seat left (Join
    shown): within 40 components and 4,000 characters (the double refuses more)."""
    players = [
        UserSpec(900 + n, f"p{n}", global_name=f"{n}_*Żółw*_o bardzo długim imieniu{n}")
        for n in range(4)
    ]

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            host, *guests = players
            lobby = await env.open_lobby(host, seats=5, game="namiji")
            await _choose(env, host, lobby, "lang", "pl")
            for guest in guests:
                await (await env.lobby_click(guest, env.double.message(lobby.id), "join")).response(
                    TIMEOUT
                )
            for menu, value in (
                ("direction", "random"),
                ("computers", "strong"),
                ("takeover", "takeover_on"),
                ("coach", "coach_on"),
                ("deadline", "b168i24"),
            ):
                await _choose(env, host, lobby, menu, value)
            shown = env.double.message(lobby.id)
            assert len(_seats(shown)) == 5  # four players and the free seat
            assert _count(shown.components) <= 40
            assert sum(len(text) for text in shown.text_displays()) <= 4000
            assert "Dołącz" in str(shown.components) and shown.pinged_user_ids() == []

    run(body)


def test_an_old_classic_lobby_still_works_after_the_upgrade_and_becomes_the_card(
    tmp_path: Path,
) -> None:
    """A lobby posted before the card (an embed and rows of buttons, built as the bot built it):
    after a restart, its Leave and Join buttons work and its first click turns it into the
    card."""
    state = LobbyState("yamatai", 3, False, (HOST.id, GUEST.id), ("Hana", "Kenji"), language="en")

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            channel = env.bot.get_channel(CHANNEL)
            assert isinstance(channel, discord.TextChannel)
            at = cast(Any, None)  # a lobby with its language reads nothing from the interaction
            posted = await channel.send(
                embed=lobby_embed(env.bot, at, state),
                view=lobby_view(lobby_items(env.bot), at, state),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            old = env.double.message(posted.id)
            assert not old.is_v2 and old.embeds and ":leave:" in str(old.custom_ids())

            await env.restart()  # nothing cached: the state is read from the classic message
            leave = await env.double.click(
                GUEST, CHANNEL, old.id, custom_id(old, "himiko:lobby:leave:")
            )
            assert (await leave.response(TIMEOUT)).type == 7
            card = env.double.message(old.id)
            assert card.is_v2 and card.embeds == [] and not card.content
            assert [text for text, _ in _seats(card)] == [
                *(f"1. Hana (<@{HOST.id}>)", "🪑 Free seats: 2"),
            ]
            assert card.components_of_type(TEXT_DISPLAY) and card.components_of_type(BUTTON)

            # a second old lobby: Join on it, after another restart
            channel = env.bot.get_channel(CHANNEL)
            assert isinstance(channel, discord.TextChannel)
            again = await channel.send(
                embed=lobby_embed(env.bot, at, state),
                view=lobby_view(lobby_items(env.bot), at, state),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await env.restart()
            join = await env.double.click(
                WATCHER,
                CHANNEL,
                again.id,
                custom_id(env.double.message(again.id), "himiko:lobby:join:"),
            )
            assert (await join.response(TIMEOUT)).type == 7
            joined = env.double.message(again.id)
            assert joined.is_v2 and [t.split(" (")[0] for t, _ in _seats(joined)] == [
                *("1. Hana", "2. Kenji", "3. Mio"),
            ]

    run(body)


def test_the_thread_side_closes_a_lobby_card_with_its_note(tmp_path: Path) -> None:
    """What the game's end does to its lobby (``lobby_note_card``, read from the message alone):
    the heading and the players kept, the note replaced, no button or menu left; a classic
    lobby message gives None (its embed is edited as before)."""
    state = LobbyState("yamatai", 3, False, (HOST.id,), ("Hana",), language="en")

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            lobby = await env.open_lobby(HOST, seats=3)
            await (await env.lobby_click(GUEST, lobby, "join")).response(TIMEOUT)
            channel = env.bot.get_channel(CHANNEL)
            assert isinstance(channel, discord.TextChannel)
            shown = env.double.message(lobby.id).text_displays()
            message = await channel.fetch_message(lobby.id)
            ended = lobby_note_card(message, "The game ended: Hana won.")
            assert ended is not None
            await message.edit(view=ended, allowed_mentions=discord.AllowedMentions.none())
            closed = env.double.message(lobby.id)
            assert closed.is_v2 and closed.custom_ids() == []
            assert closed.text_displays() == [
                shown[0],
                "The game ended: Hana won.",
                "\n".join(
                    ["**👥 Players (2/3)**", f"1. Hana (<@{HOST.id}>)", f"2. Kenji (<@{GUEST.id}>)"]
                ),
            ]
            at = cast(Any, None)
            classic = await channel.send(
                embed=lobby_embed(env.bot, at, state),
                view=lobby_view(lobby_items(env.bot), at, state),
            )
            assert lobby_note_card(classic, "The game ended.") is None

    run(body)


def test_a_lobby_card_whose_closing_edit_failed_is_closed_by_the_sweep(tmp_path: Path) -> None:
    """Start made the game but the lobby's edit was lost: the host is told, and the bot's sweep
    closes the card (heading, the started note, the players; no button or menu)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2, computers=True)
            double.faults.fail(EDIT_ORIGINAL, status=DROP)
            start = await env.lobby_click(HOST, lobby, "start")
            told = await start.reply(TIMEOUT)
            assert told.ephemeral and f"<#{lobby.id}>" in told.content
            await env.settled()
            assert double.message(lobby.id).custom_ids()  # the edit is owed...
            await env.bot.sweep()
            closed = double.message(lobby.id)
            assert closed.is_v2 and closed.custom_ids() == []  # ...and done by the sweep
            heading, note, players = closed.text_displays()
            assert heading.startswith("## Yamatai: a new game")
            assert note == f"The game started in <#{lobby.id}>."
            # the game's seats, its computer's too (play-through 46, finding 24)
            assert players.endswith(f"1. Hana (<@{HOST.id}>)\n2. Computer 1 (normal)")

    run(body)
