"""Namiji through the real bot on the Discord double: humans with a computer, and two players with
the neutral boat; hidden cards stay with their owner."""

from __future__ import annotations

import re
from pathlib import Path

from bot.store import GameStatus
from engine import games
from tests.discord_double import UserSpec
from tests.e2e.harness import (
    GUEST,
    HOST,
    TIMEOUT,
    Env,
    Table,
    has_png,
    himiko_env,
    run,
)

MAX_ACTIONS = 600
CARD = re.compile(r"\b(R\d\d|[MU]\d{1,2})\b")


async def _play_to_the_end(env: Env, table: Table, users: dict[int, UserSpec]) -> int:
    """The humans play the game's computer choice by ``/play`` until the game ends."""
    choose = games.computer_player("namiji")
    actions = 0
    while True:
        await env.settled()
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            return actions
        match = await env.match(table.id)
        seat = match.current_seat
        assert seat is not None and game.current_user_id in users
        user = users[game.current_user_id]
        if actions % 10 == 5:  # now and then through the turn panel: its first group's last choice
            await _by_panel(env, table, user)
        else:
            action = choose(match.view(seat), actions)
            reply = await (await env.play(user, table.id, action)).reply(TIMEOUT)
            assert reply.ephemeral and f"(notation: `{action}`)" in reply.content, reply.content
        actions += 1
        assert actions < MAX_ACTIONS, "the game does not end"


async def _by_panel(env: Env, table: Table, user: UserSpec) -> None:
    """``/turn``, then the last option of the first menu of actions; the game moves on."""
    before = await env.version(table.id)
    panel = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
    assert panel.ephemeral and has_png(panel) and "Your turn" in panel.text()
    menus = [c for c in panel.custom_ids() if c.startswith("himiko:panel:act:")]
    if not menus:  # single choices (a lone option, ending the turn) are buttons: the first
        button = next(c for c in panel.custom_ids() if c.startswith("himiko:panel:do:"))
        chosen = await env.double.click(user, table.id, panel.id, button)
        await chosen.wait_event("edit_original", TIMEOUT)
        assert await env.version(table.id) > before
        return
    act = menus[0]
    options = panel.component(act)
    assert options is not None
    last = [o["value"] for o in options["options"] if not o["value"].endswith(" …")][-1]
    chosen = await env.double.click(user, table.id, panel.id, act, [last])
    await chosen.wait_event("edit_original", TIMEOUT)
    assert await env.version(table.id) > before


def _public_text(env: Env, table: Table) -> list[str]:
    """What the thread's public messages say (a turn message's card: its texts, D200)."""
    return [m.text() for m in env.double.messages(table.id, include_ephemeral=False)]


def test_namiji_with_two_humans_and_a_computer(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], computers=1, game="namiji")
            assert "Namiji" in table.thread.name and has_png(table.opening)
            await _play_to_the_end(env, table, {HOST.id: HOST, GUEST.id: GUEST})
            game = await env.game(table.id)
            assert game.status == GameStatus.FINISHED
            public = _public_text(env, table)
            final = public[-1]
            assert "Every boat has reached the port" in final and "for the arrival" in final
            # sacred rock cards are named in public only once revealed at the end
            before_end = " ".join(public[:-1])
            assert not re.search(r"\bR\d\d\b", before_end.replace("rock (a card kept", ""))
            assert all(has_png(m) for m in env.turn_messages(table.id))

    run(body, timeout=240)


def test_namiji_for_two_with_the_neutral_boat(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="namiji")
            await _play_to_the_end(env, table, {HOST.id: HOST, GUEST.id: GUEST})
            public = " ".join(_public_text(env, table))
            assert "the neutral boat" in public
            assert (await env.game(table.id)).status == GameStatus.FINISHED

    run(body, timeout=240)
