"""The more-time part of the repository: "24 h more" asked on a turn, and granted."""

from __future__ import annotations

from dataclasses import dataclass

from . import queries as q
from .base import StoreBase
from .models import check_int64
from .rows import optional_int


@dataclass(frozen=True, slots=True)
class Extension:
    """More time asked on a turn: by whom, and who granted it (None: not yet)."""

    asked_by: int
    granted_by: int | None


class MoreTimePart(StoreBase):
    """More time on a turn (issue 39 item 4): asked once, granted once."""

    async def ask_more_time(self, game_id: int, turn: str, user_id: int, *, now: int) -> bool:
        """Record that the turn's player asks for more time; False if it was asked already."""
        check_int64("user_id", user_id)
        async with self._write() as conn:
            cursor = await conn.execute(q.INSERT_EXTENSION_ASKED, (game_id, turn, user_id, now))
            return cursor.rowcount == 1

    async def more_time_of(self, game_id: int, turn: str) -> Extension | None:
        """The more time asked on a turn, if any."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_EXTENSION, (game_id, turn))
        if not rows:
            return None
        return Extension(int(rows[0]["asked_by"]), optional_int(rows[0]["granted_by"]))

    async def grant_more_time(
        self, game_id: int, turn: str, user_id: int, seconds: int, *, now: int
    ) -> bool:
        """Grant the more time asked on a turn and move its deadline and unsent reminders on
        by ``seconds``, in one transaction; False (nothing changed) if it was not asked or was
        granted already."""
        check_int64("user_id", user_id)
        async with self._write() as conn:
            cursor = await conn.execute(q.GRANT_EXTENSION, (user_id, now, game_id, turn))
            if cursor.rowcount != 1:
                return False
            await conn.execute(q.EXTEND_TURN_REMINDERS, (seconds, seconds, game_id, turn))
            return True
