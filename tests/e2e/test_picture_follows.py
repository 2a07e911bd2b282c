"""The answer does not wait for the picture (issue 25 item 1), through the Discord double.

The render pool is gated by an event: while it is closed no picture can be drawn, yet the
player's ``/play`` is answered and the turn message is posted; the picture is attached to that
message (an edit) once drawn. A picture owed when the bot stops is drawn after the restart, once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store.verify import verify_database
from bot.workers.render_pool import RenderPool
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import TIMEOUT, Env, Table, has_png, himiko_env, pngs, run
from tests.e2e.test_play import rest_of_turn, two_humans
from tests.waiting import eventually

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


class Gate(asyncio.Event):
    """Set: the pictures go through. ``held``: how many pictures have come to it so far."""

    def __init__(self) -> None:
        super().__init__()
        self.held = 0


def gate(pool: RenderPool) -> Gate:
    """Hold every picture of ``pool`` until the returned gate is set."""
    opened = Gate()
    draw = pool.draw_payload  # what the bot's pictures are drawn through (D133)

    async def gated(payload: bytes) -> bytes:
        opened.held += 1
        await opened.wait()
        return await draw(payload)

    pool.draw_payload = gated  # type: ignore[method-assign]
    return opened


async def held_at(opened: Gate, pictures: int = 1) -> None:
    """Wait until ``pictures`` pictures have come to the gate: what was to be drawn was sent
    to the pool, and waits there (no picture comes by another way)."""
    await eventually(lambda: opened.held >= pictures, f"{pictures} picture(s) at the gate")


async def turn_played_behind_a_closed_gate(
    env: Env,
) -> tuple[Table, UserSpec, Gate, MessageRecord]:
    """A whole turn played action by action; the last one while pictures are held: the turn
    message it posted, without its picture (checked), and the gate."""
    table, player, _ = await two_humans(env)
    actions = rest_of_turn(await env.match(table.id))
    for action in actions[:-1]:
        assert (await (await env.play(player, table.id, action)).reply(TIMEOUT)).content
    assert env.bot.render_pool is not None
    await env.quiet()  # the steps' pictures drawn: the next to come to the gate is the turn's
    opened = gate(env.bot.render_pool)
    before = {m.id for m in env.double.messages(table.id, include_ephemeral=False)}
    rec = await env.play(player, table.id, actions[-1])
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral and f"`{actions[-1]}`" in reply.content  # answered in words
    turn = await env.double.wait_for_message(
        table.id, lambda m: m.id not in before and not m.ephemeral, TIMEOUT
    )
    await held_at(opened)  # its picture waits to be drawn
    assert not has_png(turn) and not opened.is_set()
    return table, player, opened, turn


def edits_of(env: Env, message: MessageRecord) -> int:
    """How many times the bot edited a message (attaching its picture)."""
    return sum(
        1
        for r in env.double.requests
        if r.route == EDIT and r.path.endswith(f"/messages/{message.id}") and r.status == 200
    )


def test_the_reply_and_the_turn_message_come_before_the_picture(tmp_path: Path) -> None:
    """Pictures held: ``/play`` is answered and the turn message posted; the picture follows."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, _, opened, turn = await turn_played_behind_a_closed_gate(env)
            opened.set()
            pictured = await env.double.wait_for_message(
                table.id, lambda m: m.id == turn.id and has_png(m), TIMEOUT
            )
            # the words became its card: the turn told, its turn picture and the board
            assert pictured.is_v2 and pictured.content == "" and len(pngs(pictured)) == 2
            assert pictured.history[0]["content"].splitlines()[0] in pictured.text_displays()[1]
            assert [a.filename for a in pictured.gallery_attachments()] == [
                "turn.png",
                "board.png",
            ]
            await env.bot.outbox.pictures.idle()
            assert edits_of(env, turn) == 1
            game = await env.game(table.id)
            assert game.announced_version == game.version
            assert await env.bot.rooms.reports.owed_pictures() == []

    run(body)


def test_a_picture_owed_when_the_bot_stops_is_attached_after_the_restart_once(
    tmp_path: Path,
) -> None:
    """Stopped between the turn message and its picture: the restarted bot draws it, once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, _, _, turn = await turn_played_behind_a_closed_gate(env)
            owed = await env.bot.rooms.reports.owed_pictures()
            assert [(o.message_id, o.game_id) for o in owed] == [(turn.id, owed[0].game_id)]
            await env.restart()  # the held picture is never drawn by the first process
            pictured = await env.double.wait_for_message(
                table.id, lambda m: m.id == turn.id and has_png(m), TIMEOUT
            )
            assert pictured.is_v2 and len(pngs(pictured)) == 2
            await env.bot.outbox.pictures.idle()
            await env.bot.sweep()  # a later sweep finds nothing owed: no second edit
            await env.bot.outbox.pictures.idle()
            assert edits_of(env, turn) == 1
            assert await env.bot.rooms.reports.owed_pictures() == []
            turns = [m for m in env.turn_messages(table.id) if m.id == turn.id]
            assert len(turns) == 1
            report = await verify_database(env.database)
            assert report.ok and report.checked >= 1, report.problems

    run(body)
