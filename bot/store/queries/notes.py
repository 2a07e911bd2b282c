"""A player's private notes on a game (migration 0018)."""

from __future__ import annotations

SELECT_NOTE = "SELECT body FROM game_notes WHERE game_id = ? AND user_id = ?"

UPSERT_NOTE = """
INSERT INTO game_notes (game_id, user_id, body, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (game_id, user_id) DO UPDATE SET body = excluded.body,
    updated_at = excluded.updated_at
"""

DELETE_NOTE = "DELETE FROM game_notes WHERE game_id = ? AND user_id = ?"
