"""The notes part of the repository: each player's private note on a game."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .errors import InvalidRequest
from .models import check_int64
from .rows import only

#: The most characters a note holds (a Discord modal's text input holds 4,000).
MAX_NOTE = 4000


class NotesPart(StoreBase):
    """A player's private note on a game (issue 39 item 3): read back only by its author."""

    async def note_of(self, game_id: int, user_id: int) -> str | None:
        """The player's note on the game (None: none written)."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_NOTE, (game_id, user_id))
        body = only(rows, "body")
        return None if body is None else str(body)

    async def save_note(self, game_id: int, user_id: int, body: str, *, now: int) -> None:
        """Store the player's note on the game, replacing the last one (empty: deleted)."""
        check_int64("user_id", user_id)
        if len(body) > MAX_NOTE:
            raise InvalidRequest(f"a note holds at most {MAX_NOTE} characters, not {len(body)}")
        async with self._write() as conn:
            if body.strip():
                await conn.execute(q.UPSERT_NOTE, (game_id, user_id, body, now))
            else:
                await conn.execute(q.DELETE_NOTE, (game_id, user_id))
