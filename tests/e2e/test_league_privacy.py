"""League and rating replies keep the ``/help`` promise (issue 21 item 8, D84).

Refusals and personal answers (sign-up, a rating, standings and the leaderboard on request) are
private; a league's start and what is asked for with ``public:true`` are public. ``/leaderboard``
without a game shows the server's most played game.
"""

from __future__ import annotations

from pathlib import Path

from tests.discord_double import UserSpec
from tests.discord_double.records import MessageRecord
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, Env, has_png, himiko_env, run

FOURTH = UserSpec(322_000_000_000_000_004, "ren", global_name="Ren")
PLAYERS = (HOST, GUEST, WATCHER, FOURTH)


def card_text(message: MessageRecord) -> str:
    """What a card says (its text displays, in order); the answer is a card (D203)."""
    assert message.is_v2 and message.content == ""
    return "\n".join(message.text_displays())


async def _reply(
    env: Env, user: UserSpec, command: str, options: dict[str, object]
) -> MessageRecord:
    """Run a command in the channel; its first visible reply."""
    rec = await env.double.slash(user, CHANNEL, command, options)
    return await rec.reply(TIMEOUT)


async def _play_round(env: Env) -> None:
    """Play every table of the round to its end, each player taking the last legal action."""
    users = {p.id: p for p in PLAYERS}
    for thread in env.double.threads(CHANNEL):
        await env.double.wait_for_message(thread.id, has_png, TIMEOUT)
        while (current := await env.current_user(thread.id)) is not None:
            action = (await env.match(thread.id)).legal_actions()[-1]
            await (await env.play(users[current], thread.id, action)).reply(TIMEOUT)


def test_refusals_and_personal_answers_are_private_the_rest_public(tmp_path: Path) -> None:
    """Sign-up and refusals answer privately; the start is public; standings, ratings and the
    leaderboard are private unless ``public:true``; the leaderboard defaults to Nim, the only
    game played here (Yamatai is the first game of the list)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            options = {"name": "Piles", "game": "nim", "rounds": 2, "table_size": 2}
            created = await _reply(env, HOST, "league create", options)
            assert not created.ephemeral and "created" in created.content
            early = await _reply(env, HOST, "league start", {"name": "Piles"})
            assert early.ephemeral and "has 0 players" in early.content
            for player in PLAYERS:
                joined = await _reply(env, player, "league join", {"name": "Piles"})
                assert joined.ephemeral and "You joined" in joined.content
            refused = await _reply(env, GUEST, "league start", {"name": "Piles"})
            assert refused.ephemeral and "Only the organisers" in refused.content
            started = await _reply(env, HOST, "league start", {"name": "Piles"})
            assert not started.ephemeral and "has started" in started.content
            again = await _reply(env, HOST, "league start", {"name": "Piles"})
            assert again.ephemeral and "already" in again.content
            await _play_round(env)
            await env.double.wait_for_message(
                CHANNEL, lambda m: "round 1 is over" in m.content, TIMEOUT
            )
            mine = await _reply(env, GUEST, "league standings", {"name": "Piles"})
            assert mine.ephemeral and has_png(mine)
            shown = await _reply(env, GUEST, "league standings", {"name": "Piles", "public": True})
            assert not shown.ephemeral and has_png(shown)
            rating = await _reply(env, HOST, "rating", {"game": "nim"})
            assert rating.ephemeral and "Nim rating" in card_text(rating)
            told = await _reply(env, HOST, "rating", {"game": "nim", "public": True})
            assert not told.ephemeral and "Nim rating" in card_text(told)
            unrated = await _reply(env, HOST, "rating", {"game": "yamatai"})
            assert unrated.ephemeral and "no Yamatai rating" in card_text(unrated)
            board = await _reply(env, WATCHER, "leaderboard", {})
            assert board.ephemeral and "Nim leaderboard" in card_text(board)
            assert card_text(board).count("(games: ") == 4
            posted = await _reply(env, WATCHER, "leaderboard", {"public": True})
            assert not posted.ephemeral and "Nim leaderboard" in card_text(posted)
            empty = await _reply(env, WATCHER, "leaderboard", {"game": "yamatai"})
            assert empty.ephemeral and "Yamatai" in card_text(empty)

    run(body, timeout=120)
