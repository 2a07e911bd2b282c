"""Two ``python -m bot`` processes, shard 0 and shard 1 of 2, on one PostgreSQL database.

Guild A is on shard 0, guild B on shard 1 (``(guild_id >> 22) % 2``); the double routes each
guild's events to the session of its shard, as Discord does. Each process answers its own
guilds, a process restarted while the other is down does not play or post the other's games,
and a game survives killing its process: the restarted process plays on, nothing posted twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
from functools import partial
from pathlib import Path

import pytest

from bot.store import Game, GameRepository, open_store
from engine import games
from tests.backends import create_database, drop_databases, server_url, url_of
from tests.discord_double import DiscordDouble, GuildSpec, MessageRecord
from tests.e2e import quick_bot
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    TOKEN,
    WATCHER,
    Env,
    Table,
    custom_id,
    has_png,
    run,
)
from tests.e2e.test_play import rest_of_turn
from tests.e2e.test_process import REPO
from tests.waiting import found

pytestmark = pytest.mark.skipif(server_url() is None, reason="no PostgreSQL test server")

GUILD_B = GUILD + (1 << 22)  # the next shard
CHANNEL_B = CHANNEL + 1_000
SLOW = "30"  # COMPUTER_PAUSE that keeps a computer turn waiting until the process is killed


def _double() -> DiscordDouble:
    members = [HOST, GUEST, WATCHER]
    return DiscordDouble(
        token=TOKEN,
        guilds=[
            GuildSpec(GUILD, "Shard zero club", text_channel_ids=[CHANNEL], members=members),
            GuildSpec(GUILD_B, "Shard one club", text_channel_ids=[CHANNEL_B], members=members),
        ],
    )


class Shard:
    """One bot process running one shard of two."""

    def __init__(self, double: DiscordDouble, url: str, shard_id: int, tmp_path: Path) -> None:
        self.double, self.url, self.shard_id, self.tmp_path = double, url, shard_id, tmp_path
        self.process: asyncio.subprocess.Process | None = None
        self.logs: list[str] = []

    async def start(self, pause: str = "0") -> None:
        """Start ``python -m bot`` for this shard; return once its shard is ready."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DEV_GUILD", "DATABASE_", "SHARD_"))
        }
        env.update(
            PYTHONPATH=str(REPO),
            DISCORD_TOKEN=self.double.token,
            DATABASE_URL=self.url,
            DISCORD_API_BASE=self.double.api_base,
            DISCORD_GATEWAY_URL=self.double.gateway_url,
            SHARD_COUNT="2",
            SHARD_IDS=str(self.shard_id),
            COMPUTER_PAUSE=pause,
            LOG_LEVEL="INFO",
            RENDER_PROCESSES="0",  # drawing and thinking in threads: no worker processes
            THINK_PROCESSES="0",
        )
        self.process = await asyncio.create_subprocess_exec(
            *quick_bot.command(),
            cwd=self.tmp_path,  # no developer's .env
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        await self.double.wait_shard_ready(self.shard_id, 2, 30)

    async def stop(self, number: signal.Signals = signal.SIGTERM) -> int:
        """Signal the process (SIGKILL: killed at once); its exit code."""
        process, self.process = self.process, None
        assert process is not None
        process.send_signal(number)
        out, err = await asyncio.wait_for(process.communicate(), 30)
        self.logs.append(err.decode() + out.decode())
        await self.double.wait_shard_gone(self.shard_id, 2, TIMEOUT)
        assert process.returncode is not None
        return process.returncode

    async def kill_if_running(self) -> None:
        """Cleanup: kill a process a failed test left running."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


async def _start_game(env: Env, channel_id: int) -> Table:
    """``/new`` with one computer seat in ``channel_id``, then Start; the thread and opening."""
    double = env.double
    lobby_rec = await double.slash(
        HOST, channel_id, "new", {"game": "yamatai", "seats": 2, "computers": True}
    )
    lobby = await lobby_rec.reply(TIMEOUT)
    start = custom_id(lobby, "himiko:lobby:start:")
    before = {t.id for t in double.threads(channel_id)}
    click = await double.click(HOST, channel_id, lobby.id, start)
    await click.wait_event("edit_original", TIMEOUT)
    thread = await double.wait_for_thread(channel_id, lambda t: t.id not in before)
    opening = await double.wait_for_message(thread.id, has_png, TIMEOUT)
    return Table(thread, opening, lobby)


async def _play_host_turn(env: Env, repo: GameRepository, table: Table) -> Game:
    """If the host is to act, play their whole turn, one ``/play`` per action; the game."""
    game = await repo.load_game_by_thread(table.id)
    if game.current_user_id == HOST.id:
        for action in rest_of_turn(games.from_json(game.snapshot)):
            reply = await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
            assert not reply.loading, reply
        game = await repo.load_game(game.id)
    return game


async def _hosts_turn(repo: GameRepository, game_id: int, posted: bool = False) -> Game | None:
    """The game (of another process's database) once the host is to play, and if ``posted``
    once its turn is posted; None before."""
    game = await repo.load_game(game_id)
    if game.current_user_id != HOST.id or (posted and game.announced_version != game.version):
        return None
    return game


async def _host_plays_a_turn(env: Env, repo: GameRepository, table: Table) -> None:
    """Once the host is to act (the computer may play first), play their turn; wait for the
    computer's turn that follows it."""
    game_id = (await repo.load_game_by_thread(table.id)).id
    await found(partial(_hosts_turn, repo, game_id), "the host to play", TIMEOUT, step=0.05)
    known = {m.id for m in _bot_posts(env.double, table.id)}
    await _play_host_turn(env, repo, table)
    await env.double.wait_for_message(
        table.id, lambda m: has_png(m) and m.id not in known and m.author_id != HOST.id, TIMEOUT
    )


def _bot_posts(double: DiscordDouble, thread_id: int) -> list[MessageRecord]:
    return [
        m
        for m in double.messages(thread_id, include_ephemeral=False)
        if m.author_id == double.app_id
    ]


def _interaction_guilds(double: DiscordDouble, shard: list[int]) -> set[str]:
    """The guilds whose interactions the double sent to sessions of ``shard``."""
    return {
        str(payload["d"].get("guild_id"))
        for session in double.gateway.sessions.values()
        if session.shard == shard
        for _, payload in session.backlog
        if payload["t"] == "INTERACTION_CREATE"
    }


def test_two_shard_processes_share_one_database_and_survive_a_kill(tmp_path: Path) -> None:
    """Each process serves its guild; the other's games wait for their own process."""

    async def body() -> None:
        name = create_database()
        url = url_of(name)
        repo: GameRepository | None = None
        async with _double() as double:
            first = Shard(double, url, 0, tmp_path)
            second = Shard(double, url, 1, tmp_path)
            try:
                await asyncio.gather(first.start(pause=SLOW), second.start(pause=SLOW))
                await double.wait_for_commands(None, 30)
                env = Env(double, url)  # the users' side only
                repo = store = await open_store(url)

                # a game in each guild, both waiting for their computer (paused 30 s)
                tables = [await _start_game(env, CHANNEL), await _start_game(env, CHANNEL_B)]
                for table in tables:
                    waiting = await _play_host_turn(env, repo, table)
                    assert waiting.current_user_id == 0, "the computer is to act"
                table_a, table_b = tables
                version_b = waiting.version
                await second.stop(signal.SIGKILL)  # its computer turn was waiting: not played
                posts_b = len(_bot_posts(double, table_b.id))

                # shard 0 restarts while shard 1 is down: its start-up sweep plays guild A's
                # computer turn and must leave guild B's game alone
                known_a = {m.id for m in _bot_posts(double, table_a.id)}
                assert await first.stop() == 0  # also while its computer turn was waiting
                await first.start()
                await double.wait_for_message(
                    table_a.id, lambda m: has_png(m) and m.id not in known_a, TIMEOUT
                )
                answer = await (await double.slash(WATCHER, CHANNEL, "games")).reply(TIMEOUT)
                assert answer.ephemeral
                await _host_plays_a_turn(env, repo, table_a)  # and plays on in guild A
                game_b = await repo.load_game_by_thread(table_b.id)
                assert game_b.version == version_b and game_b.current_user_id == 0
                assert len(_bot_posts(double, table_b.id)) == posts_b

                # shard 1 comes back: its computer plays the turn and posts it, once
                known = {m.id for m in _bot_posts(double, table_b.id)}
                await second.start()
                await double.wait_for_message(
                    table_b.id, lambda m: has_png(m) and m.id not in known, TIMEOUT
                )  # the computer's turn
                game_b = await found(
                    partial(_hosts_turn, store, game_b.id, posted=True),
                    "the computer's turn posted",
                    TIMEOUT,
                    step=0.05,
                )
                assert game_b.version > version_b and game_b.current_user_id == HOST.id
                for table in (table_a, table_b):
                    nonces = [m.nonce for m in _bot_posts(double, table.id) if m.nonce]
                    assert len(nonces) == len(set(nonces)), "a message was posted twice"
                assert _interaction_guilds(double, [0, 2]) == {str(GUILD)}
                assert _interaction_guilds(double, [1, 2]) == {str(GUILD_B)}

                assert await first.stop() == 0
                assert await second.stop(signal.SIGINT) == 0
                for log in first.logs + second.logs[1:]:
                    assert "Traceback" not in log and " ERROR " not in log, log
                assert "connected as" in first.logs[-1] and "shards 0 of 2" in first.logs[-1]
                assert double.unexpected_requests == []
            finally:
                if repo is not None:
                    await repo.close()
                await first.kill_if_running()
                await second.kill_if_running()
        drop_databases([name])

    run(body, timeout=240)
