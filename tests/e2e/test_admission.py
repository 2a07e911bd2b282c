"""Admission under overload (issue 25 item 3, D115, D117), through the Discord double: a burst
of commands is deferred at once, run at most ``limit`` at a time in arrival order, each answered
and saved once; a long wait is told; past the bound of expected waiting a command is refused at
once in its player's language and changes nothing; at a stop the waiting commands are told
nothing was played and change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.admission import Admission
from bot.catalog import default_catalog
from bot.store.verify import verify_database
from tests.discord_double import InteractionRecord, MessageRecord
from tests.e2e.harness import TIMEOUT, Env, himiko_env, run
from tests.e2e.test_panel_steps import longer_turn, way_to
from tests.e2e.test_play import rest_of_turn, two_humans

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

DEFERRED = 5  # the interaction callback type of a deferred ("thinking") answer
MESSAGE = 4  # the interaction callback type of an answer with its message
EPHEMERAL = 64
QUEUED = default_catalog().text("busy.queued", "en-US")
STOPPING = default_catalog().text("busy.stopping", "en-US")
REFUSED_FR = default_catalog().text("busy.refused", "fr")


class Held:
    """``/play``'s service, counting how many run at once; the first is held until opened."""

    def __init__(self, env: Env) -> None:
        self.opened = asyncio.Event()
        self.first = asyncio.Event()
        self.running = 0
        self.most = 0
        self.calls = 0
        playing = env.bot.rooms.playing
        play: Callable[..., Awaitable[Any]] = playing.play

        async def held(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            self.running += 1
            self.most = max(self.most, self.running)
            try:
                if self.calls == 1:
                    self.first.set()
                    await self.opened.wait()
                return await play(*args, **kwargs)
            finally:
                self.running -= 1

        playing.play = held  # type: ignore[method-assign]


async def answers(rec: InteractionRecord, wanted: int) -> list[MessageRecord]:
    """The interaction's first ``wanted`` follow-up messages (after its deferral)."""
    return [await rec.followup(i, TIMEOUT) for i in range(wanted)]


def test_a_burst_is_deferred_at_once_run_in_turn_and_each_command_saved_and_answered_once(
    tmp_path: Path,
) -> None:
    """One place: the player's whole turn sent as a burst of ``/play``s is acknowledged at once,
    played one at a time in the order sent (each action legal after the one before), each
    answered once; those that waited long were told so; the turn's message is posted once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            assert len(actions) >= 3
            before = (await env.game(table.id)).action_count
            env.bot.admission = Admission(limit=1, patience=0.3, answer_within=0.2)
            service = Held(env)
            posted = len(env.double.messages(table.id, include_ephemeral=False))
            recs = [await env.play(player, table.id, a) for a in actions]
            await asyncio.wait_for(service.first.wait(), TIMEOUT)
            for rec in recs:  # acknowledged while the first command is still held
                assert (await rec.response(2.0)).type == DEFERRED
            for rec in recs[1:]:
                assert (await rec.followup(0, TIMEOUT)).content == QUEUED
            assert service.calls == 1  # nothing else started meanwhile
            service.opened.set()
            for rec, action in zip(recs, actions, strict=True):
                said = await answers(rec, 1 if rec is recs[0] else 2)
                assert f"`{action}`" in said[-1].content, said[-1].content
            await env.quiet()  # any answer or a message too many, were one sent, is sent by now
            for rec in recs:
                assert len(rec.followups()) == (1 if rec is recs[0] else 2)
            assert service.most == 1 and service.calls == len(actions)
            game = await env.game(table.id)
            assert game.action_count == before + len(actions)
            turn_messages = env.double.messages(table.id, include_ephemeral=False)[posted:]
            assert len(turn_messages) == 1

    run(body)


def test_at_a_stop_the_waiting_commands_are_told_and_change_nothing(tmp_path: Path) -> None:
    """The bot stops while one command runs and two wait: the running one is saved and
    answered; the waiting ones are told to play again and saved nothing; verify is clean."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))[:3]
            before = (await env.game(table.id)).action_count
            env.bot.admission = Admission(limit=1, patience=30.0, answer_within=0.2)
            service = Held(env)
            recs = [await env.play(player, table.id, a) for a in actions]
            await asyncio.wait_for(service.first.wait(), TIMEOUT)
            for rec in recs:
                assert (await rec.response(2.0)).type == DEFERRED
            stopping = asyncio.create_task(env.stop_bot())
            try:
                for rec in recs[1:]:
                    assert (await rec.followup(0, 3.0)).content == STOPPING
            finally:
                service.opened.set()  # a failure must not hold the bot's stop forever
            assert f"`{actions[0]}`" in (await rec_answer(recs[0])).content
            await stopping
            assert service.calls == 1
            for rec in recs[1:]:
                assert len(rec.followups()) == 1
            await env.start_bot()
            assert (await env.game(table.id)).action_count == before + 1
            await env.settled()
            report = await verify_database(env.database)
            assert not report.problems

    run(body)


async def rec_answer(rec: InteractionRecord) -> MessageRecord:
    """The running command's answer."""
    return await rec.followup(0, TIMEOUT)


def test_past_the_bound_a_burst_is_refused_at_once_in_the_players_language_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """One place held by a slow command, a place held 1 s lately, a bound of 1.5 s: the next
    command (expected wait 1 s) is admitted, the ones after it (2 s and more) are refused at once,
    privately, in French, as their first and only response; they leave the game's version and
    the thread as they were; the two admitted are answered and saved once each."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            assert len(actions) >= 4
            version = await env.version(table.id)
            before = (await env.game(table.id)).action_count
            gate = env.bot.admission = Admission(limit=1, patience=30.0, answer_within=0.2)
            gate.bound, gate.held = 1.5, 1.0
            service = Held(env)
            posted = len(env.double.messages(table.id, include_ephemeral=False))
            play = env.double.slash
            first = await play(player, table.id, "play", {"action": actions[0]}, locale="fr")
            await asyncio.wait_for(service.first.wait(), TIMEOUT)
            recs = [
                await play(player, table.id, "play", {"action": a}, locale="fr")
                for a in actions[1:]
            ]
            admitted, refused = recs[0], recs[1:]
            assert (await first.response(2.0)).type == DEFERRED  # held past answer_within
            assert (await admitted.response(2.0)).type == DEFERRED
            for rec in refused:
                answer = await rec.response(2.0)
                assert answer.type == MESSAGE and answer.data["flags"] & EPHEMERAL
                assert answer.data["content"] == REFUSED_FR
            assert await env.version(table.id) == version  # nothing saved while refusing
            assert len(env.double.messages(table.id, include_ephemeral=False)) == posted
            service.opened.set()
            for rec, action in zip((first, admitted), actions, strict=False):
                assert f"`{action}`" in (await rec.followup(0, TIMEOUT)).content
            await env.quiet()  # any answer or a message too many, were one sent, is sent by now
            for rec in refused:
                assert len(rec.callbacks) == 1 and not rec.followups()
            assert len(first.followups()) == 1 and len(admitted.followups()) == 1
            assert service.calls == 2
            assert (await env.game(table.id)).action_count == before + 2
            assert gate.refused == len(refused)

    run(body)


def test_a_short_queue_is_never_refused(tmp_path: Path) -> None:
    """One place, a place held 0.2 s lately and the module's bound: a burst of three whose
    expected waits stay under the bound is deferred, played and answered, none refused."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))[:3]
            before = (await env.game(table.id)).action_count
            gate = env.bot.admission = Admission(limit=1, patience=30.0, answer_within=0.2)
            gate.held = 0.2  # waits of 0.2 and 0.4 s: under BOUND
            service = Held(env)
            recs = [await env.play(player, table.id, a) for a in actions]
            await asyncio.wait_for(service.first.wait(), TIMEOUT)
            for rec in recs:
                assert (await rec.response(2.0)).type == DEFERRED
            service.opened.set()
            for rec, action in zip(recs, actions, strict=True):
                assert f"`{action}`" in (await rec.followup(0, TIMEOUT)).content
            await env.settled()
            assert gate.refused == 0 and service.calls == len(actions)
            assert (await env.game(table.id)).action_count == before + len(actions)

    run(body)


DEFERRED_UPDATE = 6  # the interaction callback type of a click deferred as an update


def test_panel_clicks_pass_the_gate_deferred_as_updates_and_refused_past_the_bound(
    tmp_path: Path,
) -> None:
    """A turn panel's clicks pass the gate as commands do (D134): with its one place held and
    a place held 1 s lately (bound 1.5 s), the first click is deferred at once as an update of
    the panel and waits; the next is refused at once, privately, in French, as its first and
    only response, changing nothing; once the place is free the first click is played once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            opened = await (await env.double.slash(player, table.id, "turn", {})).reply(TIMEOUT)
            await env.settled()
            panel = env.double.message(opened.id)
            game = (await env.game(table.id)).game_key
            _, item, values = way_to(panel, game, longer_turn(await env.match(table.id)))
            version = await env.version(table.id)
            gate = env.bot.admission = Admission(limit=1, patience=30.0, answer_within=0.2)
            gate.bound, gate.held = 1.5, 1.0
            holding, release = asyncio.Event(), asyncio.Event()

            async def hold_the_place() -> None:
                async with gate.place(lambda: asyncio.sleep(0)):
                    holding.set()
                    await release.wait()

            holder = asyncio.create_task(hold_the_place())
            try:
                await asyncio.wait_for(holding.wait(), TIMEOUT)
                click = env.double.click
                first = await click(player, table.id, panel.id, item, values, locale="fr")
                assert (await first.response(2.0)).type == DEFERRED_UPDATE
                second = await click(player, table.id, panel.id, item, values, locale="fr")
                answer = await second.response(2.0)
                assert answer.type == MESSAGE and answer.data["flags"] & EPHEMERAL
                assert answer.data["content"] == REFUSED_FR
                assert await env.version(table.id) == version  # the first still waits
                assert not [e for e in first.events if e.kind == "edit_original"]
            finally:
                release.set()
                await holder
            await first.wait_event("edit_original", TIMEOUT)
            await env.quiet()  # any answer too many, were one sent, is sent by now
            assert len(first.callbacks) == 1 and len(second.callbacks) == 1
            assert not second.followups() and gate.refused == 1

    run(body)


CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


def test_a_command_with_a_free_place_answers_directly_and_a_slow_one_is_deferred_first(
    tmp_path: Path,
) -> None:
    """D139: a /play finding a place free is answered with its result as its first and only
    response (no deferral), its step picture attached by an edit after; one that has not
    answered within ``answer_within`` is deferred then, and its result replaces the "thinking"
    message (one follow-up); each is saved once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            assert len(actions) >= 3
            before = (await env.game(table.id)).action_count
            fast = await env.play(player, table.id, actions[0])
            answer = await fast.response(TIMEOUT)
            assert answer.type == MESSAGE and answer.data["flags"] & EPHEMERAL
            assert f"`{actions[0]}`" in answer.data["content"]
            await fast.wait_event("edit_original", TIMEOUT)  # the step picture follows
            env.bot.admission = Admission(answer_within=0.2)
            service = Held(env)
            slow = await env.play(player, table.id, actions[1])
            await asyncio.wait_for(service.first.wait(), TIMEOUT)
            assert (await slow.response(2.0)).type == DEFERRED
            service.opened.set()
            assert f"`{actions[1]}`" in (await slow.followup(0, TIMEOUT)).content
            await env.quiet()  # any answer too many, were one sent, is sent by now
            assert len(fast.callbacks) == 1 and fast.followups() == []
            assert len(slow.callbacks) == 1 and len(slow.followups()) == 1
            assert (await env.game(table.id)).action_count == before + 2

    run(body)


@pytest.mark.parametrize("lost", [False, True], ids=["5xx", "lost"])
def test_a_failed_direct_answer_neither_loses_nor_doubles_the_move(
    tmp_path: Path, lost: bool
) -> None:
    """A /play's direct answer fails: Discord answers 503 (discord.py sends it again), or it
    is done but its response is lost (the bot's error reply is then refused by Discord, and
    logged). Either way the player reads the result once, the action is played once, and the
    next /play goes on from it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            before = (await env.game(table.id)).action_count
            faults = env.double.faults
            fault = faults.lose_response(CALLBACK) if lost else faults.fail(CALLBACK, status=503)
            rec = await env.play(player, table.id, actions[0])
            reply = await rec.reply(TIMEOUT)
            assert fault.hits == 1 and reply.ephemeral and f"`{actions[0]}`" in reply.content
            await env.quiet()  # any answer too many, were one sent, is sent by now
            assert len(rec.callbacks) == 1 and rec.followups() == []
            assert (await env.game(table.id)).action_count == before + 1
            failed = [r for r in env.log.records if "failed after saving" in r.getMessage()]
            assert len(failed) == (1 if lost else 0)  # the lost answer's failure is logged
            for record in failed:
                env.log.records.remove(record)
            nxt = await env.play(player, table.id, actions[1])
            assert f"`{actions[1]}`" in (await nxt.reply(TIMEOUT)).content
            assert (await env.game(table.id)).action_count == before + 2

    run(body)
