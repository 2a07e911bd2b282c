"""Every SQL statement the repository runs: portable SQL, ``?`` parameters, plain types.

No PRAGMAs, no SQLite-only syntax here (those live in ``sqlite.py``), so a PostgreSQL
backend can reuse these statements with its own parameter style.
"""

from __future__ import annotations

GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.options, g.seed, g.status, "
    "g.version, g.action_count, g.current_seat, g.end_reason, g.created_at, g.updated_at, "
    "g.ended_at, g.announced_version"
)

INSERT_GAME = """
INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, status, version,
                   action_count, current_seat, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, 'active', 1, 0, ?, ?, ?)
RETURNING id
"""

INSERT_SEAT = """
INSERT INTO seats (game_id, seat, user_id, player, colour) VALUES (?, ?, ?, ?, ?)
"""

INSERT_SNAPSHOT = "INSERT INTO snapshots (game_id, state) VALUES (?, ?)"

SELECT_GAME_BY_ID = f"""
SELECT {GAME_COLUMNS}, s.state
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.id = ?
"""

SELECT_ACTIVE_GAME_BY_THREAD = f"""
SELECT {GAME_COLUMNS}, s.state
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.thread_id = ? AND g.status = 'active'
"""

SELECT_LATEST_GAME_BY_THREAD = f"""
SELECT {GAME_COLUMNS}, s.state
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.id = (SELECT MAX(id) FROM games WHERE thread_id = ?)
"""

SELECT_ACTIVE_GAME_ID_BY_THREAD = """
SELECT id FROM games WHERE thread_id = ? AND status = 'active'
"""

SELECT_SEATS = """
SELECT seat, user_id, player, colour, final_score, final_rank, winner, score_lines
FROM seats WHERE game_id = ? ORDER BY seat
"""

SELECT_GAME_STATE = "SELECT status, version, action_count FROM games WHERE id = ?"

SELECT_ACTION_COUNT = "SELECT action_count FROM games WHERE id = ?"

SELECT_USER_ACTIVE_GAMES = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.version, g.current_seat,
       cs.user_id, my.seat, g.updated_at
FROM seats my
JOIN games g ON g.id = my.game_id
LEFT JOIN seats cs ON cs.game_id = g.id AND cs.seat = g.current_seat
WHERE my.user_id = ? AND g.status = 'active'
ORDER BY g.updated_at, g.id, my.seat
"""

SELECT_ACTIONS = """
SELECT seq, seat, notation, created_at FROM actions WHERE game_id = ? ORDER BY seq
"""

SELECT_ALL_GAME_IDS = "SELECT id FROM games ORDER BY id"

# Optimistic concurrency: each change applies only if the version is still the one read.
BUMP_FOR_APPEND = """
UPDATE games
SET version = version + 1, action_count = action_count + ?, current_seat = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'active'
"""

BUMP_FOR_UNDO = """
UPDATE games
SET version = version + 1, action_count = action_count - 1, current_seat = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'active' AND action_count > 0
"""

INSERT_ACTION = """
INSERT INTO actions (game_id, seq, seat, notation, created_at) VALUES (?, ?, ?, ?, ?)
"""

DELETE_ACTION = "DELETE FROM actions WHERE game_id = ? AND seq = ?"

UPDATE_SNAPSHOT = "UPDATE snapshots SET state = ? WHERE game_id = ?"

FINISH_GAME = """
UPDATE games
SET status = 'finished', version = version + 1, current_seat = NULL, end_reason = ?,
    ended_at = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'active'
"""

# Used after an append in the same transaction: the version was already checked and bumped.
FINISH_AFTER_APPEND = """
UPDATE games
SET status = 'finished', current_seat = NULL, end_reason = ?, ended_at = ?
WHERE id = ? AND status = 'active'
"""

SET_SEAT_RESULT = """
UPDATE seats SET final_score = ?, final_rank = ?, winner = ?, score_lines = ?
WHERE game_id = ? AND seat = ?
"""

ABANDON_GAME = """
UPDATE games
SET status = 'abandoned', version = version + 1, current_seat = NULL, end_reason = ?,
    ended_at = ?, updated_at = ?
WHERE id = ? AND status = 'active'
"""

ABANDON_GAME_AT_VERSION = ABANDON_GAME.rstrip() + " AND version = ?\n"

# The outbox: games whose latest version still has a thread message to post.
SELECT_UNANNOUNCED = """
SELECT id FROM games WHERE version > announced_version AND status <> 'abandoned' ORDER BY id
"""

# The outbox of ended games: an abandoned game still owes its thread the message that says so.
SELECT_UNANNOUNCED_ABANDONED = """
SELECT id FROM games WHERE version > announced_version AND status = 'abandoned' ORDER BY id
"""

# Only advances, and never past the game's version.
MARK_ANNOUNCED = """
UPDATE games SET announced_version = ?
WHERE id = ? AND announced_version < ? AND version >= ?
"""

# A change with nothing to post: announced too if everything before it was.
CARRY_ANNOUNCED = "UPDATE games SET announced_version = ? WHERE id = ? AND announced_version = ?"

# Repair: the snapshot (and whose turn it is) rebuilt from the log, only if the game did not move.
REPAIR_GAME = "UPDATE games SET current_seat = ? WHERE id = ? AND version = ?"
