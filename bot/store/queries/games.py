"""The games, their seats, actions and snapshots, and the outbox's marks."""

from __future__ import annotations

GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.options, g.seed, g.status, "
    "g.version, g.action_count, g.current_seat, g.end_reason, g.created_at, g.updated_at, "
    "g.ended_at, g.announced_version, g.turn_deadline, g.computer_takeover, g.computer_level, "
    "g.coach, g.time_bank, g.time_increment"
)

# A new game's row with every setting it is created with (migrations 0005, 0010, 0011, 0015,
# 0016 added them as columns; their defaults are ``GameSettings()``'s).
INSERT_GAME = """
INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, status, version,
                   action_count, current_seat, created_at, updated_at, turn_deadline,
                   computer_takeover, language, computer_level, coach, time_bank, time_increment)
VALUES (?, ?, ?, ?, ?, ?, 'active', 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id
"""

INSERT_SEAT = """
INSERT INTO seats (game_id, seat, user_id, player, colour) VALUES (?, ?, ?, ?, ?)
"""

INSERT_SNAPSHOT = "INSERT INTO snapshots (game_id, state) VALUES (?, ?)"

SELECT_GAME_BY_ID = f"""
SELECT {GAME_COLUMNS}, s.state, g.language
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.id = ?
"""

SELECT_ACTIVE_GAME_BY_THREAD = f"""
SELECT {GAME_COLUMNS}, s.state, g.language
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.thread_id = ? AND g.status = 'active'
"""

SELECT_LATEST_GAME_BY_THREAD = f"""
SELECT {GAME_COLUMNS}, s.state, g.language
FROM games g JOIN snapshots s ON s.game_id = g.id
WHERE g.id = (SELECT MAX(id) FROM games WHERE thread_id = ?)
"""

# A game with its seats in one statement: a row per seat (seat order), the game's columns in
# each, its snapshot only in seat 0's, with each seated user's vacation (issue 25 item 4).
SEAT_COLUMNS = """se.seat, se.user_id, se.player, se.colour, se.final_score, se.final_rank,
       se.winner, se.score_lines, se.stand_in, u.vacation_until"""

GAME_WITH_SEATS = f"""
SELECT {GAME_COLUMNS}, g.language, CASE WHEN se.seat = 0 THEN sn.state END AS state,
       {SEAT_COLUMNS}
FROM games g JOIN snapshots sn ON sn.game_id = g.id JOIN seats se ON se.game_id = g.id
LEFT JOIN user_settings u ON u.user_id = se.user_id
"""

SELECT_GAME_WITH_SEATS_BY_ID = GAME_WITH_SEATS + "WHERE g.id = ? ORDER BY se.seat"

SELECT_ACTIVE_GAME_WITH_SEATS_BY_THREAD = (
    GAME_WITH_SEATS + "WHERE g.thread_id = ? AND g.status = 'active' ORDER BY se.seat"
)

SELECT_LATEST_GAME_WITH_SEATS_BY_THREAD = (
    GAME_WITH_SEATS
    + "WHERE g.id = (SELECT MAX(id) FROM games WHERE thread_id = ?) ORDER BY se.seat"
)

# The same without the snapshot (its text is the bulk of a game): what autocomplete reads.
SELECT_LATEST_GAME_HEAD_BY_THREAD = f"""
SELECT {GAME_COLUMNS}, g.language, '' AS state, {SEAT_COLUMNS}
FROM games g JOIN seats se ON se.game_id = g.id
LEFT JOIN user_settings u ON u.user_id = se.user_id
WHERE g.id = (SELECT MAX(id) FROM games WHERE thread_id = ?) ORDER BY se.seat
"""

SELECT_ACTIVE_GAME_ID_BY_THREAD = """
SELECT id FROM games WHERE thread_id = ? AND status = 'active'
"""

SELECT_SEATS = """
SELECT seat, user_id, player, colour, final_score, final_rank, winner, score_lines, stand_in
FROM seats WHERE game_id = ? ORDER BY seat
"""

SELECT_GAME_STATE = "SELECT status, version, action_count FROM games WHERE id = ?"

SELECT_ACTION_COUNT = "SELECT action_count FROM games WHERE id = ?"

SELECT_USER_ACTIVE_GAMES = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.version, g.current_seat,
       cs.user_id AS current_user_id, my.seat AS my_seat, g.updated_at
FROM seats my
JOIN games g ON g.id = my.game_id
LEFT JOIN seats cs ON cs.game_id = g.id AND cs.seat = g.current_seat
WHERE my.user_id = ? AND g.status = 'active'
ORDER BY g.updated_at, g.id, my.seat
"""

#: A server's active games (``my_seat`` NULL: nobody's in particular), most recent first.
SELECT_GUILD_ACTIVE_GAMES = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.version, g.current_seat,
       cs.user_id AS current_user_id, NULL AS my_seat, g.updated_at
FROM games g
LEFT JOIN seats cs ON cs.game_id = g.id AND cs.seat = g.current_seat
WHERE g.guild_id = ? AND g.status = 'active'
ORDER BY g.updated_at DESC, g.id DESC
LIMIT ?
"""

#: A user's seats in a server's games of any status, the newest games first.
SELECT_PLAYER_GAMES = """
SELECT g.id, g.game_key, g.status, g.created_at, s.seat, s.stand_in
FROM seats s
JOIN games g ON g.id = s.game_id
WHERE s.user_id = ? AND g.guild_id = ?
ORDER BY g.id DESC, s.seat
LIMIT ?
"""

# The same on every server (``/profile`` in a direct message).
SELECT_PLAYER_GAMES_ANYWHERE = """
SELECT g.id, g.game_key, g.status, g.created_at, s.seat, s.stand_in
FROM seats s
JOIN games g ON g.id = s.game_id
WHERE s.user_id = ?
ORDER BY g.id DESC, s.seat
LIMIT ?
"""

SELECT_ACTIONS = """
SELECT seq, seat, notation, created_at FROM actions WHERE game_id = ? ORDER BY seq
"""

# The log a stored snapshot leaves out (bot/store/snapshots.py), read with the snapshot.
SELECT_LOG = "SELECT seat, notation FROM actions WHERE game_id = ? ORDER BY seq"

SELECT_ALL_GAME_IDS = "SELECT id FROM games ORDER BY id"

# Optimistic concurrency: each change applies only if the version is still the one read.
BUMP_FOR_APPEND = """
UPDATE games
SET version = version + 1, action_count = action_count + ?, current_seat = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'active'
RETURNING action_count
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

# The outbox: games whose latest version still has a thread message to post. Both read the
# partial index games_owing (migration 0014): the owing games only, by status.
SELECT_UNANNOUNCED = """
SELECT id FROM games
WHERE version > announced_version AND status IN ('active', 'finished') {shards}
ORDER BY id
"""

# The outbox of ended games: an abandoned game still owes its thread the message that says so.
SELECT_UNANNOUNCED_ABANDONED = """
SELECT id FROM games WHERE version > announced_version AND status = 'abandoned' {shards}
ORDER BY id
"""

# A game's version and the newest one whose thread message was posted: what is owed, without
# the game (no seats, no snapshot).
SELECT_GAME_VERSIONS = "SELECT version, announced_version FROM games WHERE id = ?"

# Only advances, and never past the game's version.
MARK_ANNOUNCED = """
UPDATE games SET announced_version = ?
WHERE id = ? AND announced_version < ? AND version >= ?
"""

# The same, for a turn message posted before its picture: the picture it owes, in the same
# statement (a newer turn message's replaces an older one's: that picture is never drawn).
MARK_ANNOUNCED_OWING_PICTURE = """
UPDATE games SET announced_version = ?, picture_message_id = ?, picture_version = ?
WHERE id = ? AND announced_version < ? AND version >= ?
"""

# Turn messages still owed their picture (after a restart), and the picture attached.
SELECT_OWED_PICTURES = """
SELECT id, picture_message_id, picture_version FROM games
WHERE picture_message_id IS NOT NULL {shards}
ORDER BY id
"""

CLEAR_OWED_PICTURE = """
UPDATE games SET picture_message_id = NULL, picture_version = NULL
WHERE id = ? AND picture_version = ?
"""

# A change with nothing to post: announced too if everything before it was.
CARRY_ANNOUNCED = "UPDATE games SET announced_version = ? WHERE id = ? AND announced_version = ?"

# Repair: the snapshot (and whose turn it is) rebuilt from the log, only if the game did not move.
REPAIR_GAME = "UPDATE games SET current_seat = ? WHERE id = ? AND version = ?"
