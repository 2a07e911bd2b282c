"""Issue 25 item 1 under SIGKILL: ``python -m bot`` killed between a turn message and its
picture, between a mid-turn answer and its step picture, and with commands waiting in the
admission gate (D115); the next process finishes what was owed, once, and the game goes on.

Each kill point is reached deterministically through the Discord double: a request whose
answer is held (the effect happened, the process never learns it) or that fails (the process
is then idle or sleeping before a retry). The processes draw their pictures in a thread
(``RENDER_PROCESSES=0``) so that killing the bot's process leaves no worker behind. A test's
processes are forks of one fork server (``ForkedBot``): the same entry point on the same
settings, the bot's modules imported once per test instead of once per process.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.store import Game, Target, is_url
from bot.store.repository import GameRepository
from bot.store.verify import verify_database
from engine import games
from engine.games import Match
from tests.backends import database
from tests.discord_double import DiscordDouble, InteractionRecord, MessageRecord, UserSpec
from tests.e2e import quick_bot
from tests.e2e.harness import (
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    has_png,
    himiko_env,
    make_double,
    pngs,
    run,
    shown,
)
from tests.e2e.test_play import rest_of_turn, two_humans
from tests.e2e.test_process import _environment
from tests.waiting import eventually

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
EDIT_ANSWER = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"  # a command's first answer
DEFERRED = 5  # the interaction callback type of a deferred ("thinking") answer
PLACES = 8  # bot.admission.LIMIT: commands run at once in a process
QUEUED = default_catalog().text("busy.queued", "en-US")


class Bot:
    """One ``python -m bot`` process on the test's database; its output in ``<name>.log``."""

    def __init__(self, double: DiscordDouble, tmp_path: Path, target: Target) -> None:
        self.double, self.tmp_path, self.target = double, tmp_path, target
        self.process: asyncio.subprocess.Process | None = None
        self.asked = 0  # SIGUSR1s sent to the running process

    def environment(self) -> dict[str, str]:
        """``python -m bot``'s settings: the double, the database, pictures in a thread."""
        env = _environment(self.double, self.tmp_path, self.double.token)
        if is_url(self.target):
            del env["DATABASE_PATH"]
            env["DATABASE_URL"] = str(self.target)
        env.update(RENDER_PROCESSES="0", THINK_PROCESSES="0")
        return env

    async def start(self, name: str) -> None:
        """Start a process and wait until it has synced its commands and is connected (the
        double's ready and command events stay set from a first process: its shard is asked)."""
        log = (self.tmp_path / f"{name}.log").open("wb")
        self.process = await asyncio.create_subprocess_exec(
            *quick_bot.command(),
            cwd=self.tmp_path,
            env=self.environment(),
            stdout=log,
            stderr=log,
        )
        self.asked = 0
        await self.double.wait_for_commands(GUILD, 30)
        await self.double.wait_shard_ready(0, 1, 30)

    async def swept(self, name: str) -> None:
        """Wait until the process called ``name`` is ready and its start-up sweep has sent
        what it owes (the process is quiet)."""
        await eventually(lambda: quick_bot.PROBE in self.log(name), "on_ready", 30)
        await self.quiet(name)

    async def quiet(self, name: str) -> None:
        """Wait until the running process (called ``name``) says it is quiet: its first sweep
        done, no command, computer turn or picture under way (tests/e2e/quick_bot.py)."""
        assert self.process is not None
        self.asked += 1
        said = f"{quick_bot.QUIET} {self.asked}\n"
        self.process.send_signal(signal.SIGUSR1)
        await eventually(lambda: said in self.log(name), f"{name} quiet", 30)

    async def kill(self) -> None:
        """SIGKILL the process (if it still runs) and reap it."""
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()
            await self.double.wait_shard_gone(0, 1, TIMEOUT)

    def log(self, name: str) -> str:
        """What the process called ``name`` wrote."""
        return (self.tmp_path / f"{name}.log").read_text()


class ForkedBot(Bot):
    """``Bot``, each start a fork of one fork server that imported the bot's modules once
    (``quick_bot.forks``): the same ``entry.main()`` on the same settings, without importing
    the bot again for the restart."""

    def __init__(self, double: DiscordDouble, tmp_path: Path, target: Target) -> None:
        super().__init__(double, tmp_path, target)
        self.forks: asyncio.subprocess.Process | None = None
        self.pid: int | None = None  # the running bot's process

    async def ask(self, line: str) -> int:
        """A line to the fork server; its answer (a number)."""
        if self.forks is None:
            self.forks = await asyncio.create_subprocess_exec(
                *quick_bot.forks_command(),
                cwd=self.tmp_path,
                env=self.environment(),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
        assert self.forks.stdin is not None and self.forks.stdout is not None
        self.forks.stdin.write(f"{line}\n".encode())
        await self.forks.stdin.drain()
        return int(await asyncio.wait_for(self.forks.stdout.readline(), 30))

    async def start(self, name: str) -> None:
        """Start a process and wait until it has synced its commands and is connected (the
        double's ready and command events stay set from a first process: its shard is asked)."""
        self.pid = await self.ask(f"start {self.tmp_path / f'{name}.log'}")
        self.asked = 0
        await self.double.wait_for_commands(GUILD, 30)
        await self.double.wait_shard_ready(0, 1, 30)

    async def quiet(self, name: str) -> None:
        """Wait until the running process (called ``name``) says it is quiet: its first sweep
        done, no command, computer turn or picture under way (tests/e2e/quick_bot.py)."""
        assert self.pid is not None
        self.asked += 1
        said = f"{quick_bot.QUIET} {self.asked}\n"
        os.kill(self.pid, signal.SIGUSR1)
        await eventually(lambda: said in self.log(name), f"{name} quiet", 30)

    async def kill(self) -> None:
        """SIGKILL the process (if it still runs) and reap it."""
        pid, self.pid = self.pid, None
        if pid is not None:
            os.kill(pid, signal.SIGKILL)  # not reaped yet: still this pid, maybe a zombie
            await self.ask(f"reap {pid}")
            await self.double.wait_shard_gone(0, 1, TIMEOUT)

    async def close(self) -> None:
        """The bot killed, then the fork server ended (it kills a bot it did not reap)."""
        try:
            await self.kill()
        finally:
            forks, self.forks = self.forks, None
            if forks is not None:
                assert forks.stdin is not None
                forks.stdin.close()
                try:
                    await asyncio.wait_for(forks.wait(), TIMEOUT)
                finally:
                    if forks.returncode is None:
                        forks.kill()
                        await forks.wait()


@asynccontextmanager
async def bot_on_double(tmp_path: Path) -> AsyncIterator[tuple[DiscordDouble, ForkedBot]]:
    """The double and a first process; whatever happens, no process is left running."""
    async with make_double() as double:
        bot = ForkedBot(double, tmp_path, database(tmp_path, "himiko.sqlite3"))
        try:
            await bot.start("first")
            yield double, bot
        finally:
            double.faults.clear()  # held answers go out (to a dead process)
            await bot.close()


async def stored(target: Target, thread_id: int) -> Game:
    """The thread's game as stored now (read through a connection of the test's own)."""
    repo = await GameRepository.connect(target)
    try:
        return await repo.load_game_by_thread(thread_id)
    finally:
        await repo.close()


async def owed_pictures(target: Target) -> list[tuple[int, int]]:
    """The turn messages still owed their picture: (game id, message id)."""
    repo = await GameRepository.connect(target)
    try:
        return [(o.game_id, o.message_id) for o in await repo.owed_pictures()]
    finally:
        await repo.close()


def match_of(game: Game) -> Match:
    """The stored game as the engine sees it."""
    return games.from_json(game.snapshot)


async def player_of(target: Target, table: Table) -> UserSpec:
    """The human to act in the thread's game."""
    user = (await stored(target, table.id)).current_user_id
    return next(u for u in (HOST, GUEST) if u.id == user)


def edits(double: DiscordDouble, table: Table, since: int, message: MessageRecord | None) -> int:
    """How many edits of ``message`` (None: of any message of the thread) succeeded from
    request number ``since`` on."""
    return sum(
        1
        for r in double.requests[since:]
        if r.route == EDIT
        and r.status == 200
        and f"/channels/{table.id}/" in r.path
        and (message is None or r.path.endswith(f"/messages/{message.id}"))
    )


def thread_ids(double: DiscordDouble, table: Table) -> list[int]:
    """Every message of the thread, the private answers included, oldest first."""
    return [m.id for m in double.messages(table.id)]


async def answered(rec: InteractionRecord, action: str) -> None:
    """The command was answered with its action played (in words)."""
    reply = await rec.reply(TIMEOUT)
    assert f"`{action}`" in reply.content, reply.content


# -- 1. a turn message killed before its picture ---------------------------------------------------

#: Where the first process dies: its turn message posted and the answer held (so not recorded
#: as announced); recorded, its picture's edit failed (owed in the store); the picture attached
#: and the edit's answer held (so not recorded as attached).
TURN_KILLS = ("posted, not recorded", "recorded, picture not attached", "attached, not recorded")


@pytest.mark.parametrize("kill_at", TURN_KILLS)
def test_a_picture_owed_at_a_kill_is_attached_to_the_same_message_once(
    tmp_path: Path, kill_at: str
) -> None:
    """A /play ends the turn; the process is killed between its turn message and the picture.
    The next process attaches the picture to that same message (one edit), posts no second
    turn message, and the game's state is the one saved before the kill; the game goes on."""

    async def body() -> None:
        async with bot_on_double(tmp_path) as (double, bot):
            table = await Env(double, bot.target).start_game(HOST, [GUEST])
            player = await player_of(bot.target, table)
            actions = rest_of_turn(match_of(await stored(bot.target, table.id)))
            for action in actions[:-1]:
                await answered(await Env(double, bot.target).play(player, table.id, action), action)
            if kill_at == "posted, not recorded":
                fault = double.faults.hold_response(POST, channel_id=table.id)
            elif kill_at == "recorded, picture not attached":
                fault = double.faults.fail(EDIT, status=503, channel_id=table.id)
            else:
                fault = double.faults.hold_response(EDIT, channel_id=table.id)
            before = set(thread_ids(double, table))
            last = await Env(double, bot.target).play(player, table.id, actions[-1])
            await eventually(lambda: fault.hits == 1, "the kill point")
            await bot.kill()
            fault.release()
            [turn] = [
                m for m in double.messages(table.id, include_ephemeral=False) if m.id not in before
            ]
            assert turn.author_id == double.app_id
            posted = thread_ids(double, table)
            assert (kill_at == "attached, not recorded") == has_png(turn)
            saved = await stored(bot.target, table.id)
            assert saved.action_count == len(actions) and saved.current_user_id != player.id
            recorded = kill_at != "posted, not recorded"
            assert (saved.announced_version == saved.version) == recorded
            owed = await owed_pictures(bot.target)
            assert owed == ([(saved.id, turn.id)] if recorded else [])
            if recorded:
                await answered(last, actions[-1])
            else:  # saved, yet never answered "Played": that answer follows the turn message
                # (killed before its direct answer, D139; deferred if it took 1.5 s to get there)
                assert last.followups() == [] and all(c.type == DEFERRED for c in last.callbacks)
            answers = len(last.followups())

            since = len(double.requests)
            await bot.start("second")
            await eventually(lambda: edits(double, table, since, None) > 0, "a picture attached")
            await bot.quiet("second")  # a second edit or message, were one sent, is sent
            assert edits(double, table, since, turn) == edits(double, table, since, None) == 1
            assert thread_ids(double, table) == posted
            carded = double.message(turn.id)  # its card: each picture once
            assert carded.is_v2 and shown(carded) == ["turn.png", "board.png"]
            assert sorted(a.filename for a in carded.attachments) == ["board.png", "turn.png"]
            assert await owed_pictures(bot.target) == []
            again = await stored(bot.target, table.id)
            assert (again.version, again.action_count) == (saved.version, saved.action_count)
            assert again.announced_version == again.version
            assert len(last.followups()) == answers  # nobody answers the dead command later

            other = await player_of(bot.target, table)  # the game goes on
            action = rest_of_turn(match_of(again))[0]
            await answered(await Env(double, bot.target).play(other, table.id, action), action)
            assert (await stored(bot.target, table.id)).action_count == saved.action_count + 1
            await bot.kill()
        assert "Traceback" not in bot.log("second"), bot.log("second")
        report = await verify_database(bot.target)
        assert report.ok and report.checked == 1, report.problems

    run(body, timeout=60)


# -- 2. a mid-turn answer killed before its step picture ----------------------------------------

#: Where the first process dies after a mid-turn /play: its answer in words sent and the answer
#: to that request held; or answered, its step picture drawn and the edit attaching it failing
#: (discord.py sleeps before a retry).
STEP_KILLS = ("answer sent, not acknowledged", "picture's edit failing")


@pytest.mark.sqlite_only  # the bot's behaviour at a kill; both stores: the turn picture test
@pytest.mark.parametrize("kill_at", STEP_KILLS)
def test_a_mid_turn_play_killed_before_its_step_picture_posts_nothing_twice(
    tmp_path: Path, kill_at: str
) -> None:
    """A /play in the middle of a turn is saved and answered in words; the process dies before
    its step picture is attached. The next process sends nothing for it (that picture is lost:
    the interaction died with the process), the action stays played, and the player finishes
    the turn: one turn message, with its picture."""

    async def body() -> None:
        async with bot_on_double(tmp_path) as (double, bot):
            env = Env(double, bot.target)
            table = await env.start_game(HOST, [GUEST])
            player = await player_of(bot.target, table)
            actions = rest_of_turn(match_of(await stored(bot.target, table.id)))
            assert len(actions) >= 2
            if kill_at == "answer sent, not acknowledged":
                fault = double.faults.hold_response(CALLBACK)  # answered directly (D139)
            else:
                fault = double.faults.fail(EDIT_ANSWER, status=503, times=9, message_id="@original")
            rec = await env.play(player, table.id, actions[0])
            await eventually(lambda: fault.hits == 1, "the kill point")
            await bot.kill()
            double.faults.clear()  # Discord works again for the next process
            await answered(rec, actions[0])
            posted = thread_ids(double, table)
            assert (await stored(bot.target, table.id)).action_count == 1

            await bot.start("second")
            await bot.swept("second")
            assert thread_ids(double, table) == posted
            words = await rec.reply(TIMEOUT)
            assert len(rec.callbacks) == 1 and rec.followups() == []  # answered once
            assert not has_png(double.message(words.id))  # the step picture is lost
            for action in actions[1:]:  # the turn goes on where it was
                await answered(await env.play(player, table.id, action), action)
            turn = await double.wait_for_message(
                table.id, lambda m: not m.ephemeral and m.id not in posted and has_png(m), TIMEOUT
            )
            public = double.messages(table.id, include_ephemeral=False)
            assert [m.id for m in public if m.id not in posted] == [turn.id]
            saved = await stored(bot.target, table.id)
            assert saved.action_count == len(actions) and saved.announced_version == saved.version
            await bot.kill()
        assert "Traceback" not in bot.log("second"), bot.log("second")
        report = await verify_database(bot.target)
        assert report.ok and report.checked == 1, report.problems

    run(body, timeout=60)


# -- 3. commands waiting in the admission gate at a kill -----------------------------------------


@pytest.mark.sqlite_only  # the bot's behaviour at a kill; both stores: the turn picture test
def test_commands_waiting_in_the_gate_at_a_kill_saved_nothing_and_can_be_played_again(
    tmp_path: Path,
) -> None:
    """Eight commands hold the gate's places (their answers held by Discord); the player's two
    /plays are deferred and wait, and are told so. The process is killed: they stay deferred
    and unanswered (D115) and nothing was saved for them. After the restart the player sends
    them again; both are played and answered, once."""

    async def body() -> None:
        async with bot_on_double(tmp_path) as (double, bot):
            env = Env(double, bot.target)
            table = await env.start_game(HOST, [GUEST])
            player = await player_of(bot.target, table)
            game = await stored(bot.target, table.id)
            actions = rest_of_turn(match_of(game))[:2]
            held = double.faults.hold_response(CALLBACK, times=PLACES)  # answered directly
            for _ in range(PLACES):  # a spectator's refused /play: its answer is held
                await env.play(WATCHER, table.id, actions[0])
            await eventually(lambda: held.hits == PLACES, "every place taken")
            waiting = [await env.play(player, table.id, a) for a in actions]
            for rec in waiting:
                assert (await rec.response(TIMEOUT)).type == DEFERRED
                assert (await rec.followup(0, TIMEOUT)).content == QUEUED  # waits in the gate
            await bot.kill()
            held.release()
            for rec in waiting:  # deferred, told it waits, and nothing more
                assert [m.content for m in rec.followups()] == [QUEUED]
            again = await stored(bot.target, table.id)
            assert (again.version, again.action_count) == (game.version, game.action_count)

            await bot.start("second")
            await bot.swept("second")
            for action in actions:
                rec = await env.play(player, table.id, action)
                await answered(rec, action)
            saved = await stored(bot.target, table.id)
            assert saved.action_count == game.action_count + len(actions)
            await bot.quiet("second")  # an answer too many, were one sent, is sent
            for rec in waiting:
                assert len(rec.followups()) == 1
            await bot.kill()
        assert "Traceback" not in bot.log("second"), bot.log("second")
        report = await verify_database(bot.target)
        assert report.ok and report.checked == 1, report.problems

    run(body, timeout=60)


# -- found on the way: a picture's failing edit held the picture queue (D128) ----------------------


@pytest.mark.sqlite_only  # the picture queue's behaviour, not the store's
def test_a_step_picture_failing_to_attach_does_not_hold_back_the_turn_picture(
    tmp_path: Path,
) -> None:
    """A mid-turn /play's step picture cannot be attached (Discord answers 503, and discord.py
    retries it for about 16 s); the turn the player ends right after gets its picture within a
    few seconds anyway: the picture queue draws, Discord's retries should not keep it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            assert len(actions) >= 2
            for action in actions[:-2]:
                await answered(await env.play(player, table.id, action), action)
            await env.settled()
            failing = env.double.faults.fail(EDIT_ANSWER, times=5, message_id="@original")
            await answered(await env.play(player, table.id, actions[-2]), actions[-2])
            await eventually(lambda: failing.hits == 1, "the step picture's first edit")
            before = {m.id for m in env.double.messages(table.id)}
            await answered(await env.play(player, table.id, actions[-1]), actions[-1])
            turn = await env.double.wait_for_message(
                table.id, lambda m: not m.ephemeral and m.id not in before, TIMEOUT
            )
            pictured = await env.double.wait_for_message(
                table.id, lambda m: m.id == turn.id and has_png(m), 3.0
            )
            assert shown(pictured) == ["turn.png", "board.png"] and len(pngs(pictured)) == 2
            env.double.faults.clear()

    run(body, timeout=60)


@pytest.mark.sqlite_only  # the picture queue's behaviour, not the store's
def test_a_turn_picture_failing_to_attach_does_not_hold_back_the_next_step_picture(
    tmp_path: Path,
) -> None:
    """The turn message's picture cannot be attached (Discord answers 500, and discord.py
    retries it for about 16 s); the next player's mid-turn /play gets its step picture within a
    few seconds anyway."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            for action in actions[:-1]:
                await answered(await env.play(player, table.id, action), action)
            await env.settled()
            failing = env.double.faults.fail(EDIT, status=500, times=5, channel_id=table.id)
            await answered(await env.play(player, table.id, actions[-1]), actions[-1])
            await eventually(lambda: failing.hits == 1, "the turn picture's first edit")
            action = rest_of_turn(await env.match(table.id))[0]
            rec = await env.play(other, table.id, action)
            await answered(rec, action)
            words = await rec.reply(TIMEOUT)
            pictured = await env.double.wait_for_message(
                table.id, lambda m: m.id == words.id and has_png(m), 3.0
            )
            assert len(pngs(pictured)) == 1
            env.double.faults.clear()

    run(body, timeout=60)
