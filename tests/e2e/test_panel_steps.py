"""The phone picture at every panel step (issue 21 item 4), through the Discord double.

A whole turn of Yamatai and of Namiji is played through the turn panel only: groups chosen,
stages opened, actions played, one undone. After every step the panel carries a new turn
("focus") picture, 900 px wide (the board is 1,600), never the full board and never the picture
of an earlier step.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.games import presentation
from bot.service.panel import STAGE, checksum
from bot.service.tables import panel_choices
from engine import games
from engine.games import Match
from render.focus import WIDTH
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, himiko_env, pngs, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_STEPS = 80


def width(png: bytes) -> int:
    """A PNG's width in pixels."""
    return Image.open(io.BytesIO(png)).width


async def next_picture(env: Env, table: Table, panel_id: int, before: bytes | None) -> bytes:
    """Wait until the panel carries one picture other than ``before``; that picture."""

    def pictured(message: MessageRecord) -> bool:
        found = pngs(message)
        return message.id == panel_id and len(found) == 1 and found[0] != before

    message = await env.double.wait_for_message(table.id, pictured, TIMEOUT)
    return pngs(message)[0]


def way_to(message: MessageRecord, game: str, target: str) -> tuple[str, str, list[str]]:
    """The click on the panel that leads to playing ``target``: (kind, custom id, values)."""
    ids = message.custom_ids()
    for menu in (i for i in ids if i.startswith("himiko:panel:act:")):
        values = [o["value"] for o in (message.component(menu) or {}).get("options", [])]
        if target in values:
            return "act", menu, [target]
        stage = next((v for v in values if v.endswith(STAGE) and _under(target, v)), None)
        if stage is not None:
            return "stage", menu, [stage]
    button = next((i for i in ids if i.endswith(":" + checksum(target))), None)
    if button is not None and button.startswith("himiko:panel:do:"):
        return "act", button, []
    group = presentation(game).panel_group(target)
    category = next((i for i in ids if i.startswith("himiko:panel:cat:")), None)
    if category is not None:
        options = (message.component(category) or {}).get("options", [])
        chosen = [o for o in options if o["value"] == group and not o.get("default")]
        if chosen:
            return "group", category, [group]
    page = next((i for i in ids if i.startswith("himiko:panel:page:")), None)
    assert page is not None, (target, ids, message.content)
    return "page", page, []


def longer_turn(match: Match) -> str:
    """The first panel choice after which the turn goes on with more than ending it (else the
    first choice): a turn of several steps."""
    choices = panel_choices(match)
    for choice in choices[:20]:
        after = games.from_json(match.to_json())
        after.play(choice, seat=match.current_seat)
        if after.current_seat == match.current_seat and after.legal_actions() != ["end"]:
            return choice
    return choices[0]


def _under(action: str, stage: str) -> bool:
    prefix = stage.removesuffix(STAGE)
    return action == prefix or action.startswith(prefix + " ")


async def walk_a_turn(env: Env, table: Table, user: UserSpec) -> list[str]:
    """The user's whole turn through the panel (the first choice each time; the first action
    played is undone once); every step's picture checked. The kinds of steps taken."""
    opened = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
    shown = await next_picture(env, table, opened.id, None)
    assert width(shown) == WIDTH  # the first step already had it
    kinds: list[str] = []
    for _ in range(MAX_STEPS):
        match = await env.match(table.id)
        game = (await env.game(table.id)).game_key
        panel = env.double.message(opened.id)
        undone = "undo" in kinds or not kinds or kinds[-1] != "act"
        if not undone and match.can_undo(match.current_seat):
            kind, button = "undo", next(i for i in panel.custom_ids() if ":undo:" in i)
            click = await env.double.click(user, table.id, panel.id, button)
        else:
            kind, item, values = way_to(panel, game, longer_turn(match))
            click = await env.double.click(user, table.id, panel.id, item, values)
        await click.wait_event("edit_original", TIMEOUT)
        if await env.current_user(table.id) != user.id:  # the turn ended: the panel says done
            assert kind == "act"
            kinds.append("end")
            return kinds
        picture = await next_picture(env, table, opened.id, shown)
        assert width(picture) == WIDTH, (kind, width(picture))
        shown = picture
        kinds.append(kind)
    raise AssertionError(f"the turn did not end after {MAX_STEPS} panel steps: {kinds}")


def test_every_step_of_a_yamatai_turn_shows_the_turn_picture(tmp_path: Path) -> None:
    """Yamatai: every panel step (group, stage, action, undo) shows its own 900-px picture."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            first = await env.current_user(table.id)
            kinds = await walk_a_turn(env, table, HOST if first == HOST.id else GUEST)
            assert kinds.count("act") >= 3 and "undo" in kinds and kinds[-1] == "end", kinds

    run(body, timeout=120)


def test_every_step_of_a_namiji_turn_shows_the_turn_picture(tmp_path: Path) -> None:
    """Namiji: every panel step shows its own 900-px picture."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            # three boats: no neutral boat, whose turns are a move alone
            table = await env.start_game(HOST, [GUEST], computers=1, game="namiji")
            await env.settled()
            first = await env.current_user(table.id)
            kinds = await walk_a_turn(env, table, HOST if first == HOST.id else GUEST)
            assert "act" in kinds and "undo" in kinds and kinds[-1] == "end", kinds

    run(body, timeout=120)
