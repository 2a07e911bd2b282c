"""Leagues: sign-up, rounds, tables and seats (issue 15)."""

from __future__ import annotations

# Leagues (issue 15).
LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, game_key, rounds, table_size, pairing, turn_deadline, "
    "points, organiser_role, creator_id, status, current_round, posted_round"
)

INSERT_LEAGUE = """
INSERT INTO leagues (guild_id, channel_id, name, name_key, game_key, rounds, table_size, pairing,
                     turn_deadline, points, organiser_role, creator_id, status, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?)
RETURNING id
"""

# By key (migration 0013: NFKC, case-folded, invisible characters removed); the exact name first,
# for two look-alikes created before keys were normalized.
SELECT_LEAGUE_BY_NAME = f"""
SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND (name = ? OR name_key = ?)
ORDER BY CASE WHEN name = ? THEN 0 ELSE 1 END, id
"""

SELECT_LEAGUE_BY_ID = f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?"

SELECT_GUILD_LEAGUES = f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY name_key"

SELECT_RUNNING_LEAGUES = (
    f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' ORDER BY id"
)

# Joins, leaves, withdrawals and seating a round each write the league's row first: its lock
# orders them (PostgreSQL refuses the later of two that overlap, and the call runs again), so
# seating reads exactly the players whose join or leave committed before it (issue 24).
HOLD_LEAGUE = "UPDATE leagues SET status = status WHERE id = ? AND status = ?"

# Joining and leaving only while sign-up is open; a second join changes nothing.
JOIN_LEAGUE = """
INSERT INTO league_players (league_id, user_id, name, joined)
SELECT id, ?, ?, ? FROM leagues WHERE id = ? AND status = 'signup'
ON CONFLICT (league_id, user_id) DO NOTHING
"""

LEAVE_LEAGUE = """
DELETE FROM league_players
WHERE league_id = ? AND user_id = ?
  AND EXISTS (SELECT 1 FROM leagues WHERE id = ? AND status = 'signup')
"""

WITHDRAW_PLAYER = """
UPDATE league_players SET withdrawn_round = (SELECT current_round FROM leagues WHERE id = ?)
WHERE league_id = ? AND user_id = ? AND withdrawn_round IS NULL
RETURNING withdrawn_round
"""

# The running games of a withdrawing player's seats are written, so a game that ends meanwhile
# conflicts with the withdrawal instead of being forfeited after it ended (write skew,
# docs/storage.md).
HOLD_RUNNING_GAMES = """
UPDATE games SET status = status
WHERE status = 'active' AND id IN (
  SELECT t.game_id FROM league_tables t JOIN league_seats s
    ON s.league_id = t.league_id AND s.round = t.round AND s.table_no = t.table_no
  WHERE s.league_id = ? AND s.user_id = ? AND s.round >= ?
)
"""

# A withdrawal forfeits the seats whose game has not ended (or not opened yet): a game that
# ended keeps its result, and its rating, which a rebuild must find again (issue 24).
FORFEIT_SEATS = """
UPDATE league_seats SET forfeited = 1
WHERE league_id = ? AND user_id = ? AND round >= ?
  AND NOT EXISTS (
    SELECT 1 FROM league_tables t JOIN games g ON g.id = t.game_id
    WHERE t.league_id = league_seats.league_id AND t.round = league_seats.round
      AND t.table_no = league_seats.table_no AND g.status <> 'active'
  )
"""

SELECT_PLAYING = """
SELECT user_id FROM league_players WHERE league_id = ? AND withdrawn_round IS NULL
"""

SELECT_LEAGUE_PLAYERS = """
SELECT user_id, name, joined, withdrawn_round FROM league_players
WHERE league_id = ? ORDER BY joined, user_id
"""

# Seating a round: only from the round before it, so two callers seat it once.
ADVANCE_ROUND = """
UPDATE leagues SET status = 'running', current_round = ?
WHERE id = ? AND current_round = ? AND status <> 'finished'
"""

INSERT_LEAGUE_TABLE = "INSERT INTO league_tables (league_id, round, table_no) VALUES (?, ?, ?)"

INSERT_LEAGUE_SEAT = """
INSERT INTO league_seats (league_id, round, table_no, seat, user_id) VALUES (?, ?, ?, ?, ?)
"""

SELECT_LEAGUE_TABLES = """
SELECT round, table_no, message_id, thread_id, game_id FROM league_tables
WHERE league_id = ? ORDER BY round, table_no
"""

SELECT_LEAGUE_SEATS = """
SELECT round, table_no, seat, user_id, forfeited FROM league_seats
WHERE league_id = ? ORDER BY round, table_no, seat
"""

SET_TABLE_MESSAGE = """
UPDATE league_tables SET message_id = ?
WHERE league_id = ? AND round = ? AND table_no = ? AND message_id IS NULL
"""

SET_TABLE_GAME = """
UPDATE league_tables SET thread_id = ?, game_id = ?
WHERE league_id = ? AND round = ? AND table_no = ? AND game_id IS NULL
"""

SELECT_LEAGUE_OF_GAME = "SELECT league_id FROM league_tables WHERE game_id = ?"

FINISH_LEAGUE = "UPDATE leagues SET status = 'finished' WHERE id = ? AND status = 'running'"

MARK_ROUND_POSTED = "UPDATE leagues SET posted_round = ? WHERE id = ? AND posted_round < ?"
