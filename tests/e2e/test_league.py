"""Leagues on the Discord double: the acceptance contract, errors, permissions, a whole round.

Create, four joins and start by the creator: a table's game starts in its own thread with its
board; ``/league standings`` answers with a PNG. A Nim league (two-seat tables) plays round 1 to
its end through ``/play``: the standings picture is posted and round 2 is seated in new threads.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.discord_double import UserSpec
from tests.discord_double.records import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    has_png,
    himiko_env,
    run,
)

FOURTH = UserSpec(322_000_000_000_000_004, "ren", global_name="Ren")
PLAYERS = (HOST, GUEST, WATCHER, FOURTH)


def _card_text(message: MessageRecord) -> str:
    """What a card says (its text displays, in order); the answer is a card (D203)."""
    assert message.is_v2 and message.content == ""
    return "\n".join(message.text_displays())


async def _say(env: Env, user: UserSpec, command: str, options: dict[str, object]) -> str:
    """Run a command in the channel; the text of its reply."""
    rec = await env.double.slash(user, CHANNEL, command, options)
    return (await rec.reply(TIMEOUT)).content


def test_create_join_start_standings(tmp_path: Path) -> None:
    """The acceptance contract, with the refusals on the way (nothing changes on a refusal)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            created = await _say(env, HOST, "league create", {"name": "Spring", "game": "yamatai"})
            assert "Spring" in created and "created" in created
            again = await _say(env, GUEST, "league create", {"name": "spring", "game": "yamatai"})
            assert "already has a league named" in again
            unknown = await _say(env, GUEST, "league join", {"name": "Autumn"})
            assert "no league named **Autumn**" in unknown
            early = await _say(env, HOST, "league start", {"name": "Spring"})
            assert "has 0 players" in early
            for player in PLAYERS:
                joined = await _say(env, player, "league join", {"name": "Spring"})
                assert "You joined **Spring**" in joined
            twice = await _say(env, GUEST, "league join", {"name": "Spring"})
            assert "already signed up" in twice
            refused = await _say(env, GUEST, "league start", {"name": "Spring"})
            assert "Only the organisers" in refused
            assert double.threads(CHANNEL) == []
            started = await _say(env, HOST, "league start", {"name": "Spring"})
            assert "has started" in started
            thread = await double.wait_for_thread(CHANNEL, lambda t: True)
            opening = await double.wait_for_message(thread.id, has_png, TIMEOUT)
            assert opening.author_id == double.app_id
            game = await env.game(thread.id)
            assert sorted(s.user_id for s in game.seats) == sorted(p.id for p in PLAYERS)
            assert game.game_key == "yamatai" and game.turn_deadline == 48 * 3600
            late = await _say(env, FOURTH, "league join", {"name": "Spring"})
            assert "Sign-up for **Spring** is closed" in late
            rec = await double.slash(WATCHER, CHANNEL, "league standings", {"name": "Spring"})
            standings = await rec.reply(TIMEOUT)
            assert has_png(standings) and "rounds played: 0 of 3" in standings.content
            rec = await double.slash(HOST, CHANNEL, "league export", {"name": "Spring"})
            export = await rec.reply(TIMEOUT)
            names = sorted(a.filename for a in export.attachments)
            assert names == ["games.csv", "standings.csv"]
            assert len(double.threads(CHANNEL)) == 1  # one table, opened once

    run(body, timeout=120)


def test_a_nim_league_round_to_the_end(tmp_path: Path) -> None:
    """Round 1 of a Nim league is played out; standings are posted and round 2 is seated."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            options = {"name": "Piles", "game": "nim", "rounds": 2, "table_size": 2}
            assert "created" in await _say(env, HOST, "league create", options)
            for player in PLAYERS:
                await _say(env, player, "league join", {"name": "Piles"})
            await _say(env, HOST, "league start", {"name": "Piles"})
            threads = [t for t in double.threads(CHANNEL)]
            assert len(threads) == 2
            users = {p.id: p for p in PLAYERS}
            for thread in threads:
                await double.wait_for_message(thread.id, has_png, TIMEOUT)
                while (current := await env.current_user(thread.id)) is not None:
                    match = await env.match(thread.id)
                    action = match.legal_actions()[-1]
                    await (await env.play(users[current], thread.id, action)).reply(TIMEOUT)
            posted = await double.wait_for_message(
                CHANNEL, lambda m: "round 1 is over" in m.content, TIMEOUT
            )
            assert has_png(posted)
            round_two = await double.wait_for_thread(
                CHANNEL, lambda t: t.id not in {x.id for x in threads}
            )
            await double.wait_for_message(round_two.id, has_png, TIMEOUT)
            rating = await double.slash(HOST, CHANNEL, "rating", {"game": "nim"})
            reply = await rating.reply(TIMEOUT)
            assert has_png(reply) and "Nim rating" in _card_text(reply)
            asked = await double.slash(WATCHER, CHANNEL, "leaderboard", {"game": "nim"})
            board = _card_text(await asked.reply(TIMEOUT))
            assert board.count("(games: ") == 4

    run(body, timeout=120)


HOSTILE = "[click](https://e.vil) **Cup** @everyone"
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


def _markup_free(text: str) -> bool:
    """No masked link, emphasis or live @everyone left of the hostile name."""
    return not MASKED_LINK.search(text) and "**Cup**" not in text and "@everyone" not in text


def test_a_league_name_is_text_wherever_it_is_posted(tmp_path: Path) -> None:
    """A name written as markdown is shown escaped in every message and reply, raw in the
    thread's name and the autocomplete (which show text as it is); invisible characters and a
    look-alike of an existing league are refused."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            options = {"name": HOSTILE, "game": "nim", "rounds": 1, "table_size": 2}
            created = await _say(env, HOST, "league create", options)
            assert "created" in created and _markup_free(created)
            assert "\\[click\\]\\(https\\:\\/\\/e.vil\\) \\*\\*Cup\\*\\*" in created
            bidi = await _say(env, HOST, "league create", {"name": "Cup\u202eX", "game": "nim"})
            assert "U+202E" in bidi and "created" not in bidi
            twin: dict[str, object] = {"name": HOSTILE.upper(), "game": "nim"}
            assert "already has a league named" in await _say(env, GUEST, "league create", twin)
            unknown = await _say(env, GUEST, "league join", {"name": "[x](https://e.vil)"})
            assert "no league named" in unknown and _markup_free(unknown)
            choices = await double.autocomplete(
                GUEST, CHANNEL, "league join", {"name": "click"}, "name"
            )
            assert [c["name"] for c in choices] == [HOSTILE]
            for player in (HOST, GUEST):
                joined = await _say(env, player, "league join", {"name": HOSTILE})
                assert "You joined" in joined and _markup_free(joined)
            started = await _say(env, HOST, "league start", {"name": HOSTILE})
            assert "has started" in started and _markup_free(started)
            thread = await double.wait_for_thread(CHANNEL, lambda t: True)
            assert thread.name.startswith(HOSTILE[:20])
            await double.wait_for_message(thread.id, has_png, TIMEOUT)
            for command in ("league standings", "league export"):
                reply = await (
                    await double.slash(GUEST, CHANNEL, command, {"name": HOSTILE})
                ).reply(TIMEOUT)
                assert _markup_free(reply.content), reply.content
            posted = [m for m in double.messages(CHANNEL) if m.author_id == double.app_id]
            assert any("table 1" in m.content for m in posted)
            for message in posted:
                assert _markup_free(message.text()), message.content

    run(body, timeout=120)
