"""The queue (migration 0017): players waiting for a game, the groups it matched."""

from __future__ import annotations

ENTRY_COLUMNS = "guild_id, user_id, game_key, name, fewest, most, channel_id, joined_at, expires_at"
MATCH_COLUMNS = (
    "id, guild_id, channel_id, game_key, players, language, created_at, message_id, thread_id, "
    "game_id"
)

UPSERT_QUEUE_ENTRY = f"""
INSERT INTO queue_entries ({ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, game_key) DO UPDATE SET name = excluded.name,
    fewest = excluded.fewest, most = excluded.most, channel_id = excluded.channel_id,
    joined_at = excluded.joined_at, expires_at = excluded.expires_at
"""

DELETE_QUEUE_ENTRIES_OF_USER = "DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ?"

DELETE_QUEUE_ENTRY = """
DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ? AND game_key = ? AND joined_at = ?
"""

SELECT_QUEUE = f"""
SELECT {ENTRY_COLUMNS} FROM queue_entries WHERE guild_id = ? ORDER BY joined_at, user_id
"""

SELECT_QUEUE_GUILDS = "SELECT DISTINCT guild_id FROM queue_entries ORDER BY guild_id"

SELECT_EXPIRED_QUEUE = f"""
SELECT {ENTRY_COLUMNS} FROM queue_entries WHERE expires_at <= ? ORDER BY expires_at, user_id
"""

INSERT_QUEUE_MATCH = """
INSERT INTO queue_matches (guild_id, channel_id, game_key, players, language, created_at)
VALUES (?, ?, ?, ?, ?, ?)
RETURNING id
"""

SELECT_OWED_MATCHES = f"""
SELECT {MATCH_COLUMNS} FROM queue_matches WHERE game_id IS NULL ORDER BY id
"""

SELECT_QUEUE_MATCH = f"SELECT {MATCH_COLUMNS} FROM queue_matches WHERE id = ?"

SET_MATCH_MESSAGE = """
UPDATE queue_matches SET message_id = ? WHERE id = ? AND message_id IS NULL
"""

SET_MATCH_GAME = "UPDATE queue_matches SET thread_id = ?, game_id = ? WHERE id = ?"

SELECT_QUEUE_CHANNEL = "SELECT queue_channel_id FROM guild_settings WHERE guild_id = ?"

UPSERT_QUEUE_CHANNEL = """
INSERT INTO guild_settings (guild_id, queue_channel_id, updated_by, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET queue_channel_id = excluded.queue_channel_id,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at
"""
