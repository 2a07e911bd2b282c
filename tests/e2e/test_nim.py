"""Nim, a game that lives only in the tests, played through the real bot on the Discord double.

It proves the seam: no code of ``bot/`` or ``render/`` knows Nim, yet ``/new``, the lobby,
``/play``, the turn panel, a picture per turn, the final scores, ``/log``, ``/board`` and
``/rules`` work.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    has_png,
    himiko_env,
    pngs,
    run,
)
from tests.nim.picture import HEIGHT, WIDTH

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def _new_picture(known: set[int]) -> Callable[[MessageRecord], bool]:
    """A message with a picture that was not there before."""
    return lambda message: has_png(message) and message.id not in known


def test_a_game_of_nim_from_lobby_to_final_scores(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            lobby = await env.open_lobby(HOST, seats=2, game="nim")
            assert "Nim" in lobby.text()
            rec = await double.slash(HOST, lobby.channel_id, "new", {"game": "nim", "seats": 4})
            refusal = await rec.reply(TIMEOUT)
            assert refusal.ephemeral and "2 to 2 players" in refusal.content
            table = await env.start_game(HOST, [GUEST], game="nim")
            assert _size(pngs(table.opening)[0]) == (WIDTH, HEIGHT)
            users = {HOST.id: HOST, GUEST.id: GUEST}
            moves = 0
            while (current := await env.current_user(table.id)) is not None:
                player = users[current]
                match = await env.match(table.id)
                action = match.legal_actions()[-1]
                known = {m.id for m in env.turn_messages(table.id)}
                if moves % 2 == 0:  # by /play
                    assert action in await env.choices(player, table.id, action[:6])
                    reply = await (await env.play(player, table.id, action)).reply(TIMEOUT)
                    assert reply.ephemeral
                else:  # by the turn panel
                    panel = await (await double.slash(player, table.id, "turn", {})).reply(TIMEOUT)
                    assert panel.ephemeral and has_png(panel) and "Your turn" in panel.text()
                    menus = [c for c in panel.custom_ids() if c.startswith("himiko:panel:act:")]
                    if menus:
                        options = panel.component(menus[0])
                        assert options is not None and "Pile" in str(options.get("placeholder"))
                        value = options["options"][-1]["value"]
                        chosen = await double.click(player, table.id, panel.id, menus[0], [value])
                    else:  # a single choice is a button
                        button = next(
                            c for c in panel.custom_ids() if c.startswith("himiko:panel:do:")
                        )
                        chosen = await double.click(player, table.id, panel.id, button)
                    await chosen.wait_event("edit_original", TIMEOUT)
                await double.wait_for_message(table.id, _new_picture(known), TIMEOUT)
                moves += 1
            final = env.turn_messages(table.id)[-1].text()  # the last turn's card
            assert "took the last stone" in final and "1 for the last stone" in final
            log = await (await double.slash(WATCHER, table.id, "log", {})).reply(TIMEOUT)
            assert "take " in log.content and "took " in log.content
            board = await (await double.slash(WATCHER, table.id, "board", {})).reply(TIMEOUT)
            assert has_png(board)
            rules = await (
                await double.slash(WATCHER, table.id, "rules", {"topic": "notation"})
            ).reply(TIMEOUT)
            assert "take N from PILE" in rules.content
            assert (await env.game(table.id)).status == "finished"

    run(body)
