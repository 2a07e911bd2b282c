"""Rematch (issue 21 item 12) on the Discord double: the final message's button opens one new
lobby with the same game, seats, options and language, inviting the same players, in the same
channel; refused to a non-player; after a restart it points to the same lobby."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import Game, GameStatus, Seat
from bot.views.rematch import final_view, rematch_state
from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    as_posted,
    custom_id,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"


def lobbies(env: Env) -> list[MessageRecord]:
    """The bot's lobby messages in the channel, oldest first."""
    return [
        m
        for m in env.double.messages(CHANNEL, include_ephemeral=False)
        if any(c.startswith("himiko:lobby:") for c in m.custom_ids())
    ]


def invites(env: Env) -> list[MessageRecord]:
    """The bot's rematch lobby messages in the channel (open or closed), oldest first: posted
    with the invitation as content, the ping's words, before it became the lobby card."""
    return [
        m
        for m in env.double.messages(CHANNEL, include_ephemeral=False)
        if m.author_id == env.double.app_id
        and any("Rematch!" in (shown.get("content") or "") for shown in [*m.history, vars(m)])
    ]


async def choose(env: Env, lobby: MessageRecord, menu: str, value: str) -> None:
    """The host chooses ``value`` in one of the lobby's menus."""
    menu_id = custom_id(env.double.message(lobby.id), f"himiko:lobby:{menu}:")
    chosen = await env.double.click(HOST, CHANNEL, lobby.id, menu_id, values=[value])
    assert (await chosen.response(TIMEOUT)).type == 7


async def finished_nim(env: Env) -> tuple[int, MessageRecord]:
    """A game of Nim between the host and the guest (24 h deadline, coach on) played to its
    end: (its thread, the final message)."""
    lobby = await env.open_lobby(HOST, seats=2, game="nim")
    await choose(env, lobby, "deadline", "24")
    await choose(env, lobby, "coach", "coach_on")
    joined = await env.lobby_click(GUEST, env.double.message(lobby.id), "join")
    assert (await joined.response(TIMEOUT)).type == 7
    start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
    await start.wait_event("edit_original", TIMEOUT)
    [thread] = env.double.threads(CHANNEL)
    await env.double.wait_for_message(thread.id, has_png, TIMEOUT)
    users = {HOST.id: HOST, GUEST.id: GUEST}
    while (current := await env.current_user(thread.id)) is not None:
        action = (await env.match(thread.id)).legal_actions()[-1]
        reply = await (await env.play(users[current], thread.id, action)).reply(TIMEOUT)
        assert not reply.loading
        await env.settled()
    final = await env.double.wait_for_message(
        thread.id, lambda m: any(c.startswith("himiko:rematch:") for c in m.custom_ids()), TIMEOUT
    )
    return thread.id, final


def test_rematch_opens_one_lobby_for_the_same_table_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            thread, final = await finished_nim(env)
            game = await env.game(thread)
            rematch = custom_id(final, "himiko:rematch:")
            assert rematch == f"himiko:rematch:{game.id}"
            assert "🔁 Rematch" in str(final.components)
            before = len(lobbies(env))

            watcher = await env.double.click(WATCHER, thread, final.id, rematch)
            refusal = await watcher.reply(TIMEOUT)
            assert refusal.ephemeral and "Only the players of this game" in refusal.content
            assert len(lobbies(env)) == before

            clicks = await asyncio.gather(
                *(env.double.click(GUEST, thread, final.id, rematch) for _ in range(2))
            )
            replies = sorted([(await c.reply(TIMEOUT)).content for c in clicks])
            assert "already open" in replies[0] and "is open" in replies[1]
            [lobby] = lobbies(env)[before:]
            link = f"https://discord.com/channels/{game.guild_id}/{CHANNEL}/{lobby.id}"
            assert all(link in r for r in replies)
            posted = as_posted(env.double, lobby)
            assert posted.pinged_user_ids() == [HOST.id] and "Rematch!" in posted.content
            assert lobby.is_v2 and "Rematch!" in lobby.text_displays()[1]
            assert "Nim" in lobby.text() and "24 hours" in lobby.text()
            assert "Coach on" in lobby.text()

            await env.restart()
            again = await env.double.click(HOST, thread, final.id, rematch)
            assert link in (await again.reply(TIMEOUT)).content
            assert lobbies(env)[before:] == [env.double.message(lobby.id)]

            joined = await env.lobby_click(HOST, env.double.message(lobby.id), "join")
            assert (await joined.response(TIMEOUT)).type == 7  # one click
            known = {t.id for t in env.double.threads(CHANNEL)}
            start = await env.lobby_click(GUEST, env.double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            new = await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in known)
            await env.double.wait_for_message(new.id, has_png, TIMEOUT)
            second = await env.game(new.id)
            assert (second.game_key, second.turn_deadline, second.coach) == ("nim", 86400, True)
            assert [s.user_id for s in second.seats] == [GUEST.id, HOST.id]

    run(body, timeout=120)


def test_the_rematch_lobby_keeps_computer_seats_their_level_options_and_language() -> None:
    """Three seats, one a strong computer, in French with a time bank and the take-over."""
    seats = (Seat(0, 5, "Ann", "red"), Seat(1, 0, "Computer 1", "blue"), Seat(2, 6, "Bo", "x"))
    game = Game(
        id=1,
        guild_id=2,
        channel_id=3,
        thread_id=4,
        game_key="yamatai",
        options=None,
        seed=1,
        status=GameStatus.FINISHED,
        version=9,
        action_count=8,
        current_seat=None,
        end_reason=None,
        created_at=datetime.now(UTC),
        updated_at=datetime.now(UTC),
        ended_at=None,
        seats=seats,
        snapshot="{}",
        computer_takeover=True,
        language="fr",
        computer_level="strong",
        coach=True,
        time_bank=72 * 3600,
        time_increment=12 * 3600,
    )
    state = rematch_state(game, 6, "Bo")
    assert (state.game, state.seats, state.computers, state.level) == ("yamatai", 3, True, "strong")
    assert (state.players, state.language, state.takeover, state.coach) == ((6,), "fr", True, True)
    assert state.bank == (72, 12) and state.turn_deadline is None
    assert state.table(lambda n: f"C{n}") == [(6, "Bo"), (None, "C1"), (None, "C2")]


def test_a_namiji_rematch_keeps_the_direction_of_travel() -> None:
    """A reversed Namiji game's rematch lobby is reversed too (a random one: the one drawn)."""
    seats = (Seat(0, 5, "Ann", "red"), Seat(1, 6, "Bo", "blue"))
    now = datetime.now(UTC)
    game = Game(
        id=1,
        guild_id=2,
        channel_id=3,
        thread_id=4,
        game_key="namiji",
        options={"direction": "reversed"},
        seed=1,
        status=GameStatus.FINISHED,
        version=9,
        action_count=8,
        current_seat=None,
        end_reason=None,
        created_at=now,
        updated_at=now,
        ended_at=None,
        seats=seats,
        snapshot="{}",
    )
    assert rematch_state(game, 5, "Ann").direction == "reversed"
    assert rematch_state(replace(game, options=None), 5, "Ann").direction == "clockwise"


async def carrying(env: Env, thread_id: int, game_id: int) -> int:
    """A message in the thread carrying game ``game_id``'s Rematch button, posted through the
    bot's own client (discord.py drops a click whose id its message does not carry, so a made-up
    id needs a message with it); its id."""
    channel = env.bot.get_partial_messageable(thread_id)
    message = await channel.send("made up", view=final_view(env.bot, game_id, None, coach=False))
    return message.id


def test_a_rematch_of_a_running_game_is_refused_until_it_is_over(tmp_path: Path) -> None:
    """Issue 35 item 8: a Rematch id of a game still being played opens no lobby, pings nobody
    and records nothing; its players are told why in their own language. Once the game is over
    (a resignation), the same button opens the lobby."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="nim")
            game = await env.game(table.id)
            rematch = f"himiko:rematch:{game.id}"
            message = await carrying(env, table.id, game.id)
            before = len(lobbies(env))
            said = {"en-US": "still being played", "fr": "encore en cours"}
            for user in (GUEST, HOST):
                locale = "en-US" if user is GUEST else "fr"
                click = await env.double.click(user, table.id, message, rematch, locale=locale)
                refusal = await click.reply(TIMEOUT)
                assert refusal.ephemeral and said[locale] in refusal.content
            assert lobbies(env)[before:] == []
            assert all(not m.pinged_user_ids() for m in env.double.messages(CHANNEL))
            repo = env.bot.repo
            assert repo is not None and await repo.rematch_of(game.id) is None

            ask = await (await env.double.slash(HOST, table.id, "resign")).reply(TIMEOUT)
            ok = custom_id(ask, "himiko:resign:ok:")
            yes = await env.double.click(HOST, table.id, ask.id, ok)
            assert (await yes.reply(TIMEOUT)).content == "You resigned."
            assert (await env.game(table.id)).status == GameStatus.FINISHED
            opened = await env.double.click(GUEST, table.id, message, rematch)
            assert "is open" in (await opened.reply(TIMEOUT)).content
            [lobby] = lobbies(env)[before:]
            assert as_posted(env.double, lobby).pinged_user_ids() == [HOST.id]
            assert await repo.rematch_of(game.id) == (CHANNEL, lobby.id)

    run(body, timeout=120)


def test_a_closed_rematch_lobby_no_longer_counts(tmp_path: Path) -> None:
    """Issue 35 item 10: the rematch lobby is cancelled by its host; two clicks at once then open
    one new lobby, recorded in place of the cancelled one, and after a restart a click points to
    it. Once that one has started its game it is closed too: the next click opens another."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            thread, final = await finished_nim(env)
            game = await env.game(thread)
            rematch = custom_id(final, "himiko:rematch:")
            opened = await env.double.click(GUEST, thread, final.id, rematch)
            assert "is open" in (await opened.reply(TIMEOUT)).content
            [cancelled] = invites(env)
            cancel = await env.lobby_click(GUEST, cancelled, "cancel")
            assert (await cancel.response(TIMEOUT)).type == 7
            assert "cancelled" in env.double.message(cancelled.id).text()

            clicks = await asyncio.gather(
                *(env.double.click(user, thread, final.id, rematch) for user in (HOST, GUEST))
            )
            replies = sorted([(await c.reply(TIMEOUT)).content for c in clicks])
            [_, lobby] = invites(env)
            link = f"https://discord.com/channels/{game.guild_id}/{CHANNEL}/{lobby.id}"
            assert "already open" in replies[0] and "is open" in replies[1]
            assert all(link in r for r in replies)
            repo = env.bot.repo
            assert repo is not None and await repo.rematch_of(game.id) == (CHANNEL, lobby.id)

            await env.restart()
            again = await env.double.click(GUEST, thread, final.id, rematch)
            assert link in (await again.reply(TIMEOUT)).content
            assert len(invites(env)) == 2

            host = HOST if as_posted(env.double, lobby).pinged_user_ids() == [GUEST.id] else GUEST
            guest = GUEST if host is HOST else HOST
            joined = await env.lobby_click(guest, env.double.message(lobby.id), "join")
            assert (await joined.response(TIMEOUT)).type == 7
            known = {t.id for t in env.double.threads(CHANNEL)}
            start = await env.lobby_click(host, env.double.message(lobby.id), "start")
            await start.wait_event("edit_original", TIMEOUT)
            await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in known)
            await env.settled()
            third = await env.double.click(GUEST, thread, final.id, rematch)
            assert "is open" in (await third.reply(TIMEOUT)).content
            [_, _, newest] = invites(env)
            assert env.bot.repo is not None
            assert await env.bot.repo.rematch_of(game.id) == (CHANNEL, newest.id)

    run(body, timeout=120)


def test_the_rematch_lobby_is_a_card_whose_post_pinged_the_invited_and_keeps_the_invitation(
    tmp_path: Path,
) -> None:
    """The rematch lobby is posted in words with the ping of the invited players (a ping inside
    a card gives an empty push, D200), then edited at once into the lobby card, whose note
    keeps the invitation: after the Start question and Back, after a Join, after a restart."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            thread, final = await finished_nim(env)
            rematch = custom_id(final, "himiko:rematch:")
            opened = await env.double.click(GUEST, thread, final.id, rematch)
            assert "is open" in (await opened.reply(TIMEOUT)).content
            [lobby] = invites(env)
            posted = as_posted(env.double, lobby)
            assert not posted.is_v2 and posted.pinged_user_ids() == [HOST.id]
            assert posted.content.startswith(f"Rematch! <@{HOST.id}>")
            invitation = posted.content

            card = env.double.message(lobby.id)
            assert card.is_v2 and not card.content and card.embeds == []
            heading, note, *_ = card.text_displays()
            assert heading.startswith("## Nim: a new game") and f"<@{GUEST.id}>" in heading
            assert note.splitlines()[0] == f"🔁 {invitation}"
            assert card.pinged_user_ids() == [HOST.id]  # the edit kept the post's mentions

            start = await env.lobby_click(GUEST, card, "start")  # one player: the question
            assert (await start.response(TIMEOUT)).type == 7
            asked = env.double.message(lobby.id)
            assert asked.text_displays()[1].splitlines()[0] == f"🔁 {invitation}"
            back = await env.lobby_click(GUEST, asked, "back")
            assert (await back.response(TIMEOUT)).type == 7
            await env.restart()  # read back from the message alone
            joined = await env.lobby_click(HOST, env.double.message(lobby.id), "join")
            assert (await joined.response(TIMEOUT)).type == 7
            shown = env.double.message(lobby.id)
            assert shown.text_displays()[1].splitlines()[0] == f"🔁 {invitation}"
            assert f"2. Hana (<@{HOST.id}>)" in shown.text_displays()

    run(body, timeout=120)


def test_an_old_classic_rematch_lobby_keeps_its_invitation_when_it_becomes_the_card(
    tmp_path: Path,
) -> None:
    """A rematch lobby posted classic before cards (its invitation as content, an embed and
    rows; or one whose edit into the card failed): its first click turns it into the card,
    and the invitation moves into the card's note instead of vanishing."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            thread, final = await finished_nim(env)
            rematch = custom_id(final, "himiko:rematch:")
            await env.settled()  # the first lobby's closing edit is done
            env.double.faults.fail(EDIT_MESSAGE, status=400, channel_id=CHANNEL)
            opened = await env.double.click(GUEST, thread, final.id, rematch)
            assert "is open" in (await opened.reply(TIMEOUT)).content
            [lobby] = invites(env)
            classic = env.double.message(lobby.id)  # (the double edits it in place)
            invitation = classic.content
            assert not classic.is_v2 and classic.embeds and invitation.startswith("Rematch!")

            joined = await env.lobby_click(HOST, classic, "join")
            assert (await joined.response(TIMEOUT)).type == 7
            card = env.double.message(lobby.id)
            assert card.is_v2 and not card.content
            assert card.text_displays()[1].splitlines()[0] == f"🔁 {invitation}"

    run(body, timeout=120)
