"""``/board`` after a resignation ended the game (play-through 47 finding 6) says it ended,
who resigned and who won, in words and on its picture: it drew the game as still running
("À Hana de jouer : déplacer un bateau", "Kenji a abandonné · l'ordinateur joue") under
"Tour 1. La partie est terminée."."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.service import build_rooms
from bot.store import open_store
from render.extras import Extras
from tests.backends import database
from tests.e2e.harness import GUEST, HOST, TIMEOUT, himiko_env, run
from tests.e2e.test_endings_honest import resign

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

ANN, BO = 101, 202
#: ``/board``'s caption after Kenji resigned and Hana won, in each language.
CAPTIONS = {
    "fr": "Tour 1. **Kenji** a abandonné",
    "pl": "Tura 1. **Kenji** poddaje grę",
}


@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_board_after_a_resignation_says_who_resigned_and_who_won(tmp_path: Path, game: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game=game)
            await resign(env, table.id, GUEST)
            for lang, start in CAPTIONS.items():
                for user in (HOST, GUEST):
                    rec = await env.double.slash(user, table.id, "board", {}, locale=lang)
                    said = str((await rec.reply(TIMEOUT)).content)
                    won = default_catalog().text(
                        "game.resigned_won", lang, player="Kenji", winner="Hana"
                    )
                    if game == "yamatai":  # counted in rounds
                        start = start.replace("Tour", "Manche").replace("Tura", "Runda")
                    assert said.startswith(start) and said.endswith(won), (lang, said)

    run(body)


class _Drawer:
    """Records what each picture was drawn with (its view and extras)."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, Any], Extras]] = []

    def __call__(self, view: dict[str, Any], events: Any, legal: Any, extras: Extras) -> bytes:
        self.calls.append((view, extras))
        return b"\x89PNG not drawn"


def test_the_board_after_a_resignation_is_drawn_ended_with_nobody_playing(tmp_path: Path) -> None:
    """The picture is drawn as the thread's final board is: ended by a resignation, and no
    computer playing on for the one who resigned."""

    async def body() -> None:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        try:
            drawer = _Drawer()
            rooms = build_rooms(repo, renderer=drawer, seed_source=lambda: 7)
            created = await rooms.playing.create_game(
                game_key="namiji",
                guild_id=9,
                channel_id=10,
                thread_id=500,
                players=[(ANN, "Ann"), (BO, "Bo")],
            )
            await rooms.endings.resign(BO, game_id=created.game_id)
            for user in (ANN, BO):
                board = await rooms.reading.board(user, thread_id=500)
                _, extras = drawer.calls[-1]
                assert board.over and board.ended is not None
                assert board.ended.reason == "resigned_won"
                assert extras.ended == "resigned" and not extras.stand_ins, extras
        finally:
            await repo.close()

    asyncio.run(body())
