"""The server's open lobbies (migration 0020)."""

from __future__ import annotations

LOBBY_COLUMNS = (
    "message_id, guild_id, channel_id, game_key, seats, players, computers, deadline_hours, "
    "bank_hours, increment_hours, language, opened_at"
)

UPSERT_OPEN_LOBBY = f"""
INSERT INTO open_lobbies ({LOBBY_COLUMNS}, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (message_id) DO UPDATE SET game_key = excluded.game_key, seats = excluded.seats,
    players = excluded.players, computers = excluded.computers,
    deadline_hours = excluded.deadline_hours, bank_hours = excluded.bank_hours,
    increment_hours = excluded.increment_hours, language = excluded.language,
    updated_at = excluded.updated_at
"""

DELETE_OPEN_LOBBY = "DELETE FROM open_lobbies WHERE message_id = ?"

SELECT_OPEN_LOBBIES = f"""
SELECT {LOBBY_COLUMNS} FROM open_lobbies WHERE guild_id = ? ORDER BY opened_at, message_id
"""
