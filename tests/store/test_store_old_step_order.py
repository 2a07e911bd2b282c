"""Migration 0003: a store written before the rulebook step order loads, verifies and plays on."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.store import open_store
from bot.store.verify import verify_database
from engine import games
from tests.store.store_helpers import run

FIXTURE = Path(__file__).parent / "fixtures" / "old_order.sqlite3"


def test_a_game_stored_under_the_old_order_verifies_and_plays_on(tmp_path: Path) -> None:
    """The fixture was written by commit f0a47ad (recruit, then 'end keep') at schema 2."""
    db = tmp_path / "himiko.sqlite3"
    shutil.copy(FIXTURE, db)

    async def main() -> None:
        repo = await open_store(db)  # applies 0003
        try:
            (game_id,) = await repo.game_ids()
            game, actions = await repo.load_game_with_actions(game_id)
            texts = [a.notation for a in actions]
            recruit = next(i for i, t in enumerate(texts) if t.startswith("recruit"))
            assert texts[recruit + 1].startswith("end keep")  # the old order: harbor last
            assert game.options == {"board": "default", "step_order": "recruit-first"}
            match = games.from_json(game.snapshot)
            assert match.state.step_order == "recruit-first"
            for _ in range(40):  # a few whole turns under the old order
                seat = match.current_seat
                assert seat is not None
                match.play(match.legal_actions()[-1], seat=seat)
            await repo.append_match(game, match)
        finally:
            await repo.close()
        report = await verify_database(db)
        assert report.checked == 1 and report.ok, report.problems

    run(main())
