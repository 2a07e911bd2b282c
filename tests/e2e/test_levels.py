"""Computer levels (issue 23): the lobby's level reaches the game, stand-ins play strong, the
decisions are made in the think pool without holding other games up, and a computer turn
interrupted between its decision and its save is played again, once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.service.thinking import computer_moves
from bot.workers.think_pool import ThinkPool
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    custom_id,
    himiko_env,
    run,
    told,
)
from tests.e2e.test_play import rest_of_turn
from tests.e2e.test_recovery import finish_turn

T = TypeVar("T")
pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


class RecordingPool(ThinkPool):
    """A thread pool that records the levels each computer batch was asked to play with."""

    def __init__(self) -> None:
        super().__init__(0)
        self.levels: list[dict[int, str]] = []

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """Record, then think in a thread."""
        if work is computer_moves:
            levels: Mapping[int, str] = args[1]
            self.levels.append(dict(levels))
        return await super().think(work, *args)


class GatedPool(RecordingPool):
    """Decides, says so, then holds the answer until the gate opens (a slow decision, or a
    bot killed between a decision and its save when the gate never opens)."""

    def __init__(self) -> None:
        super().__init__()
        self.decided = asyncio.Event()
        self.gate = asyncio.Event()

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """Think, then wait for the gate."""
        result = await super().think(work, *args)
        self.decided.set()
        await self.gate.wait()
        return result


def use_pool(env: Env, pool: ThinkPool) -> None:
    """Let the running bot's computer players think in ``pool``."""
    env.bot.rooms.computers.pool = pool


async def start_with_computer(env: Env, level: str | None = None) -> Table:
    """A game of the host and one computer (of ``level``, chosen in the lobby's menu)."""
    lobby = await env.open_lobby(HOST, seats=2, computers=True)
    if level is not None:
        menu = custom_id(env.double.message(lobby.id), "himiko:lobby:computers:")
        chosen = await env.double.click(HOST, CHANNEL, lobby.id, menu, values=[level])
        assert (await chosen.response(TIMEOUT)).type == 7
    before = {t.id for t in env.double.threads(CHANNEL)}
    start = await env.lobby_click(HOST, env.double.message(lobby.id), "start")
    await start.wait_event("edit_original", TIMEOUT)
    thread = await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in before)
    # its picture follows the words (D89), after the computer's first decision if it starts
    opening = await env.double.wait_for_message(thread.id, lambda m: "begins" in m.text(), TIMEOUT)
    return Table(thread, opening, lobby)


async def play_turn(env: Env, player: UserSpec, table: Table) -> None:
    """The player's whole turn, one ``/play`` per action, each answered; unlike
    ``finish_turn`` it waits for no computer turn (they are held at the gate here)."""
    for action in rest_of_turn(await env.match(table.id)):
        reply = await (await env.play(player, table.id, action)).reply(TIMEOUT)
        assert not reply.loading


def computer_posts(env: Env, table: Table, name: str) -> list[MessageRecord]:
    """The turn messages that start with the computer's moves."""
    posted = env.double.messages(table.id, include_ephemeral=False)  # pictures may follow
    return [m for m in posted if told(m).startswith(f"**{name}**")]


def test_the_level_chosen_in_the_lobby_reaches_the_game_and_its_name(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            pool = RecordingPool()
            use_pool(env, pool)
            lobby = await env.open_lobby(HOST, seats=2, computers=True)
            assert "Computer players' level: normal" in env.double.message(lobby.id).text()
            table = await start_with_computer(env, "strong")
            game = await env.game(table.id)
            assert game.computer_level == "strong" and not game.coach
            assert [s.player for s in game.seats][1] == "Computer 1 (strong)"
            assert "Computer 1 (strong)" in table.thread.name
            if await env.current_user(table.id) == HOST.id:
                await finish_turn(env, HOST, table)
            await env.bot.runner.idle()
            assert pool.levels and all(levels == {1: "strong"} for levels in pool.levels)
            assert computer_posts(env, table, "Computer 1 (strong)")

    run(body)


def test_the_level_in_lobby_words_and_old_menus_still_work(tmp_path: Path) -> None:
    """The French lobby names the levels; the menu's old values (1, 0) keep the level."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="fr") as env:
            lobby = await env.open_lobby(HOST, seats=2, computers=False)
            menu = custom_id(env.double.message(lobby.id), "himiko:lobby:computers:")
            click = await env.double.click(HOST, CHANNEL, lobby.id, menu, values=["easy"])
            assert (await click.response(TIMEOUT)).type == 7
            shown = env.double.message(lobby.id)
            assert "Niveau des joueurs ordinateur\xa0: facile" in shown.text()
            menu = custom_id(shown, "himiko:lobby:computers:")
            assert menu.endswith(":easy")
            for value, computers in (("0", "non"), ("1", "oui")):  # an old menu's values
                old = await env.double.forged_click(HOST, CHANNEL, lobby.id, menu, values=[value])
                assert (await old.response(TIMEOUT)).type == 7
                text = env.double.message(lobby.id).text()
                # the level is kept; it is said only where computers play
                said = "Niveau des joueurs ordinateur\xa0: facile" in text
                assert said == (computers == "oui"), text
                assert f"tenues par l'ordinateur\xa0: {computers}" in text, text
                menu = custom_id(env.double.message(lobby.id), "himiko:lobby:computers:")
                assert menu.endswith(":easy")

    run(body)


def test_a_resigned_player_s_stand_in_plays_strong_and_computer_seats_their_level(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            pool = RecordingPool()
            use_pool(env, pool)
            table = await env.start_game(HOST, [GUEST, WATCHER])
            first = await env.current_user(table.id)
            quitter = next(u for u in (HOST, GUEST, WATCHER) if u.id == first)
            ask = await (await env.double.slash(quitter, table.id, "resign")).reply(TIMEOUT)
            ok = custom_id(ask, "himiko:resign:ok:")
            await (await env.double.click(quitter, table.id, ask.id, ok)).reply(TIMEOUT)
            await env.bot.runner.idle()
            seat = next(s.seat for s in (await env.game(table.id)).seats if s.user_id == first)
            assert pool.levels == [{seat: "strong"}]
            assert (await env.game(table.id)).computer_level == "normal"  # the lobby's

    run(body)


def test_a_slow_computer_decision_holds_no_other_game_up(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            slow = GatedPool()
            use_pool(env, slow)
            computer = await start_with_computer(env)
            if await env.current_user(computer.id) == HOST.id:
                await play_turn(env, HOST, computer)
            await asyncio.wait_for(slow.decided.wait(), TIMEOUT)
            humans = await env.start_game(GUEST, [WATCHER])
            player = GUEST if await env.current_user(humans.id) == GUEST.id else WATCHER
            await play_turn(env, player, humans)  # answered while the other game thinks
            assert not slow.gate.is_set()
            assert await env.current_user(humans.id) != player.id  # saved and answered
            assert not computer_posts(env, computer, "Computer 1 (normal)")
            slow.gate.set()
            await env.bot.runner.idle()
            assert len(computer_posts(env, computer, "Computer 1 (normal)")) == 1
            assert await env.current_user(computer.id) == HOST.id

    run(body)


def test_a_computer_turn_killed_between_decision_and_save_is_played_again_once(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            killed = GatedPool()  # its gate never opens: the bot dies holding the decision
            use_pool(env, killed)
            table = await start_with_computer(env)
            if await env.current_user(table.id) == HOST.id:
                await play_turn(env, HOST, table)
            await asyncio.wait_for(killed.decided.wait(), TIMEOUT)
            version = await env.version(table.id)
            await env.bot.runner.stop()  # the kill: nothing after the decision ran
            assert await env.version(table.id) == version
            await env.restart()
            await env.bot.runner.idle()
            assert len(computer_posts(env, table, "Computer 1 (normal)")) == 1
            assert await env.current_user(table.id) == HOST.id
            assert await env.version(table.id) == version + 1  # one batch, saved once

    run(body)
