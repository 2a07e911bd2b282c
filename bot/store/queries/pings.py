"""Per-game pings and a server's limit on games (migration 0021)."""

from __future__ import annotations

SELECT_GAME_PINGS = "SELECT user_id, mode FROM game_pings WHERE game_id = ? ORDER BY user_id"

SELECT_USER_GAME_PINGS = "SELECT game_id, mode FROM game_pings WHERE user_id = ? ORDER BY game_id"

UPSERT_GAME_PING = """
INSERT INTO game_pings (game_id, user_id, mode, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (game_id, user_id) DO UPDATE SET mode = excluded.mode,
    updated_at = excluded.updated_at
"""

DELETE_GAME_PING = "DELETE FROM game_pings WHERE game_id = ? AND user_id = ?"

DELETE_USER_GAME_PINGS = "DELETE FROM game_pings WHERE user_id = ?"

SELECT_MAX_GAMES = "SELECT max_games FROM guild_settings WHERE guild_id = ?"

UPSERT_MAX_GAMES = """
INSERT INTO guild_settings (guild_id, max_games, updated_by, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET max_games = excluded.max_games,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at
"""
