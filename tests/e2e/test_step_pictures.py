"""A step's answer does not wait for its picture (issue 25 item 1, D100), through the double.

The render pool is held shut by a gate: a mid-turn ``/play`` and a panel click are answered in
words all the same; the step's picture is attached to the same answer by an edit once drawn.
Steps that follow each other faster than their pictures are drawn draw only the newest one not
started. An edit that fails (Discord 5xx, the answer's token expired) loses the picture only.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.service.panel import checksum
from tests.discord_double import InteractionRecord, MessageRecord, UserSpec
from tests.e2e.harness import TIMEOUT, Env, Table, has_png, himiko_env, pngs, run
from tests.e2e.test_panel_steps import way_to, width
from tests.e2e.test_picture_follows import gate, held_at
from tests.e2e.test_play import rest_of_turn, two_humans

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

WEBHOOK_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"


async def pictured(env: Env, table: Table, message: MessageRecord) -> MessageRecord:
    """The message once it carries its picture."""
    return await env.double.wait_for_message(
        table.id, lambda m: m.id == message.id and has_png(m), TIMEOUT
    )


async def open_panel(env: Env, table: Table, user: UserSpec) -> MessageRecord:
    """``/turn``: the user's panel (its first picture drawn before it is shown)."""
    panel = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
    assert panel.is_v2 and has_png(panel) and panel.gallery_attachments()  # a card (D202)
    return panel


async def click_first_action(
    env: Env, table: Table, user: UserSpec, panel: MessageRecord
) -> InteractionRecord:
    """Choose the first action of the panel's first menu; wait for the answer in words."""
    menu = next(i for i in panel.custom_ids() if i.startswith("himiko:panel:act:"))
    options = (panel.component(menu) or {})["options"]
    value = next(o["value"] for o in options if not o["value"].endswith(" …"))
    click = await env.double.click(user, table.id, panel.id, menu, [value])
    await click.wait_event("edit_original", TIMEOUT)
    return click


def test_a_mid_turn_play_and_a_panel_click_are_answered_before_their_picture(
    tmp_path: Path,
) -> None:
    """Pictures held: both answers come in words; each picture follows on the same message."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            assert env.bot.render_pool is not None
            await env.quiet()  # nothing drawn meanwhile: the next picture at the gate is the step's
            opened = gate(env.bot.render_pool)
            action = rest_of_turn(await env.match(table.id))[0]
            version = await env.version(table.id)
            reply = await (await env.play(player, table.id, action)).reply(TIMEOUT)
            assert f"(notation: `{action}`)" in reply.content and "Step:" in reply.content
            await held_at(opened)  # the step's picture waits to be drawn
            assert not has_png(env.double.message(reply.id)) and not opened.is_set()
            assert await env.version(table.id) == version + 1  # played, answered, no picture
            opened.set()
            followed = await pictured(env, table, reply)
            assert followed.content == reply.content
            assert width(pngs(followed)[0]) == 900  # the phone-sized turn picture (QA)

            panel = await open_panel(env, table, player)
            closed = gate(env.bot.render_pool)
            await click_first_action(env, table, player, panel)
            answered = env.double.message(panel.id)
            assert "— next: " in answered.text() and not has_png(answered)  # what was played
            assert answered.is_v2 and not answered.gallery_urls()  # the card in words
            await held_at(closed)  # the new step's picture waits to be drawn
            assert not has_png(env.double.message(panel.id))  # the old step's picture is gone
            assert await env.version(table.id) == version + 2
            closed.set()
            shown = await pictured(env, table, panel)
            assert shown.text() == answered.text() and width(pngs(shown)[0]) == 900
            assert [a.data for a in shown.gallery_attachments()] == pngs(shown)  # in its gallery

    run(body)


def test_only_the_newest_step_picture_is_drawn(tmp_path: Path) -> None:
    """Groups chosen one after another while pictures are held: a step whose picture has not
    started is replaced by the next; only the newest picture is attached."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            match = await env.match(table.id)
            await (await env.play(player, table.id, rest_of_turn(match)[0])).reply(TIMEOUT)
            panel = await open_panel(env, table, player)
            menu = next(i for i in panel.custom_ids() if i.startswith("himiko:panel:cat:"))
            groups = [o["value"] for o in (panel.component(menu) or {})["options"]]
            queue = env.bot.outbox.pictures
            others = [g for g in groups if g != groups[0]]
            assert len(others) >= 2, groups
            steps = [others[i % len(others)] for i in range(queue.workers + 2)]
            assert env.bot.render_pool is not None
            drawn: list[object] = []
            draw = env.bot.render_pool.draw_payload

            async def counted(payload: bytes) -> bytes:
                drawn.append(payload)
                return await draw(payload)

            env.bot.render_pool.draw_payload = counted  # type: ignore[method-assign]
            opened = gate(env.bot.render_pool)
            superseded = queue.superseded
            for group in steps:
                current = env.double.message(panel.id)
                click = await env.double.click(player, table.id, panel.id, menu, [group])
                await click.wait_event("edit_original", TIMEOUT)
                assert env.double.message(panel.id).text() != "" and current.id == panel.id
            opened.set()
            shown = await pictured(env, table, panel)
            await queue.idle()
            assert queue.superseded > superseded and len(drawn) < len(steps)
            newest = await env.bot.rooms.playing.panel(
                player.id, game_id=(await env.game(table.id)).id, category=steps[-1]
            )
            assert pngs(env.double.message(panel.id)) == [newest.picture] == pngs(shown)

    run(body)


async def step_behind_a_fault(
    env: Env, table: Table, player: UserSpec, status: int
) -> tuple[InteractionRecord, MessageRecord, int]:
    """A panel click answered in words; then its picture's edit answered ``status`` once
    (waited for): the click, the panel as answered, the version before the click."""
    panel = await open_panel(env, table, player)
    version = await env.version(table.id)
    assert env.bot.render_pool is not None
    opened = gate(env.bot.render_pool)
    click = await click_first_action(env, table, player, panel)
    answered = env.double.message(panel.id)
    fault = env.double.faults.fail(WEBHOOK_EDIT, status=status, token=click.token)
    opened.set()
    await env.double.state.notifier.wait_for(
        lambda: fault.spent or None, TIMEOUT, f"the picture's edit answered {status}"
    )
    return click, answered, version


def test_a_discord_5xx_on_the_picture_edit_delays_the_picture_only(tmp_path: Path) -> None:
    """A 503 on the picture's edit: discord.py tries again (a second later) and the picture
    arrives; the action was played and answered before, nothing else is said."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            click, answered, version = await step_behind_a_fault(env, table, player, 503)
            shown = await pictured(env, table, answered)
            assert shown.text() == answered.text() and len(pngs(shown)) == 1
            assert await env.version(table.id) == version + 1 and not click.followup_ids

    run(body)


def test_an_expired_answer_loses_the_picture_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The answer's token expired (15 minutes: Discord says 404): the picture is lost and
    logged, the action stays played and answered, the player is told nothing more; the next
    step gets its picture again."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            with caplog.at_level(logging.WARNING, logger="bot.views.panel"):
                click, answered, version = await step_behind_a_fault(env, table, player, 404)
                await env.bot.outbox.pictures.idle()
            assert "a step's picture was lost" in caplog.text
            now = env.double.message(answered.id)
            assert now.text() == answered.text() and not has_png(now)
            assert await env.version(table.id) == version + 1
            assert not click.followup_ids  # no error said to the player
            assert await env.current_user(table.id) == player.id  # the turn goes on
            await click_first_action(env, table, player, now)
            await pictured(env, table, now)

    run(body)


def test_a_step_picture_drawn_after_the_turn_ended_is_not_attached(tmp_path: Path) -> None:
    """A panel step's picture is being drawn when the next click ends the turn: the panel says
    the turn is over and stays without a picture (the older step's is stale)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            for action in actions[:-2]:
                await (await env.play(player, table.id, action)).reply(TIMEOUT)
            panel = await open_panel(env, table, player)
            assert env.bot.render_pool is not None
            opened = gate(env.bot.render_pool)
            for _ in range(10):  # to the turn's last but one action through the panel
                if len((await env.match(table.id)).log) == len(actions) - 1:
                    break
                _, item, values = way_to(env.double.message(panel.id), "yamatai", actions[-2])
                click = await env.double.click(player, table.id, panel.id, item, values)
                await click.wait_event("edit_original", TIMEOUT)
            ending = ":" + checksum(actions[-1])
            end = next(i for i in env.double.message(panel.id).custom_ids() if i.endswith(ending))
            click = await env.double.click(player, table.id, panel.id, end)
            done = await env.double.wait_for_message(
                table.id, lambda m: m.id == panel.id and "Your turn is over" in m.text(), TIMEOUT
            )
            opened.set()
            await env.quiet()  # the stale picture drawn, and attached were it to be
            now = env.double.message(panel.id)
            assert now.text() == done.text() and not has_png(now) and not now.gallery_urls()

    run(body)
