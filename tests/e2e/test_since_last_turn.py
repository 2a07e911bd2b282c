"""Since your last turn (issue 21 item 5), through the Discord double: a player who opens their
turn (``/turn``, or the turn message's button) reads, privately, what everyone else did since
their previous turn, in their own language; the public turn message still says what the last
player did."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.service.history import since_last_turn
from bot.summary import Summary
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    as_posted,
    custom_id,
    himiko_env,
    run,
)
from tests.e2e.test_play import rest_of_turn

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {u.id: u for u in (HOST, GUEST, WATCHER)}


async def play_a_turn(env: Env, table: Table) -> UserSpec:
    """The player to act plays a whole turn by ``/play``, action by action; who it was."""
    user = USERS[await env.current_user(table.id) or 0]
    for action in rest_of_turn(await env.match(table.id)):
        reply = await (await env.play(user, table.id, action)).reply(TIMEOUT)
        assert f"`{action}`" in reply.content, reply.content
    await env.settled()
    return user


async def opened(env: Env, table: Table, user: UserSpec, locale: str) -> MessageRecord:
    """The user's panel, opened by ``/turn`` in ``locale``."""
    rec = await env.double.slash(user, table.id, "turn", {}, locale=locale)
    panel = await rec.reply(TIMEOUT)
    assert panel.ephemeral
    return panel


async def expected_lines(env: Env, table: Table, locale: str) -> list[str]:
    """The digest's lines for the player to act, in ``locale``, from the stored log."""
    match = await env.match(table.id)
    seat = match.current_seat
    assert seat is not None
    words = Summary(default_catalog(), locale, match.game_key)
    names = list(match.players)
    return [
        default_catalog().text(
            "panel.since_turn",
            locale,
            player=names[turn.seat],
            words=words.actions(turn.events, names),
        )
        for turn in since_last_turn(match, seat).turns
    ]


@pytest.mark.parametrize(
    ("locale", "start", "title"),
    [
        ("en-US", "**Since the game began:**", "**Since your last turn:**"),
        # French puts a no-break space before the colon
        ("fr", "**Depuis le début de la partie\u00a0:**", "**Depuis ton dernier tour\u00a0:**"),
    ],
)
def test_the_third_player_reads_the_two_others_moves(
    tmp_path: Path, locale: str, start: str, title: str
) -> None:
    """Three seats: the third player's panel lists the two others' turns in words (in the
    reader's language), since the game began (the player's first turn); a round later the
    first player's lists only the turns after theirs, since their last turn."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST, WATCHER])
            first = await play_a_turn(env, table)
            second = await play_a_turn(env, table)
            third = USERS[await env.current_user(table.id) or 0]
            assert len({first.id, second.id, third.id}) == 3
            lang = locale.split("-")[0]
            lines = await expected_lines(env, table, lang)
            assert len(lines) == 2
            panel = await opened(env, table, third, locale)
            said = panel.text()  # the card's texts: the step, then the digest (D202)
            assert panel.is_v2 and start in said and title not in said, said
            digest = said.split(start, 1)[1]
            assert digest.strip().splitlines() == lines, said
            assert str(first.global_name) in lines[0] and str(second.global_name) in lines[1]
            # the public turn message still tells the last player's turn only
            last = env.turn_messages(table.id)[-1]
            told = last.text_displays()[1]  # the turn told in words, under the card's heading
            assert str(second.global_name) in told and start not in last.text()

            await play_a_turn(env, table)
            await env.settled()
            match = await env.match(table.id)
            user = USERS[await env.current_user(table.id) or 0]
            lines = await expected_lines(env, table, lang)
            mine = match.players[match.current_seat or 0]
            assert lines and all(not line.startswith(f"• {mine}") for line in lines)
            # opened from the turn message that pinged the player: the same digest
            ping = env.turn_messages(table.id)[-1]
            button = custom_id(ping, "himiko:open:")
            rec = await env.double.click(user, table.id, ping.id, button, locale=locale)
            panel = await rec.reply(TIMEOUT)
            assert panel.ephemeral and user.id in as_posted(env.double, ping).pinged_user_ids()
            assert panel.is_v2 and start not in panel.text()
            assert panel.text().split(title, 1)[1].strip().splitlines() == lines

    run(body, timeout=120)


def test_the_first_player_of_a_game_reads_no_digest(tmp_path: Path) -> None:
    """Nobody has played yet: the panel says whose turn it is, and nothing since."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST, WATCHER])
            user = USERS[await env.current_user(table.id) or 0]
            panel = await opened(env, table, user, "en-US")
            assert panel.is_v2 and "Your turn" in panel.text()
            assert "Since your last turn" not in panel.text()

    run(body)
