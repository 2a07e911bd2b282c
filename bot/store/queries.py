"""Every SQL statement the repository runs: portable SQL, ``?`` parameters, plain types.

No PRAGMAs, no SQLite-only syntax here (those live in ``sqlite.py``), so a PostgreSQL
backend can reuse these statements with its own parameter style.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Shards

GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.thread_id, g.game_key, g.options, g.seed, g.status, "
    "g.version, g.action_count, g.current_seat, g.end_reason, g.created_at, g.updated_at, "
    "g.ended_at, g.announced_version, g.turn_deadline, g.computer_takeover, g.computer_level, "
    "g.coach, g.time_bank, g.time_increment"
)

INSERT_GAME = """
INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, status, version,
                   action_count, current_seat, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, 'active', 1, 0, ?, ?, ?)
RETURNING id
"""

# A new game's turn deadline (migration 0005), in the transaction that creates it.
SET_TURN_DEADLINE = "UPDATE games SET turn_deadline = ?, computer_takeover = ? WHERE id = ?"

# A new game's language (migration 0011), in the transaction that creates it.
SET_GAME_LANGUAGE = "UPDATE games SET language = ? WHERE id = ?"

# A new game's computer level and coach (migration 0015), in the transaction that creates it.
SET_GAME_COMPUTERS = "UPDATE games SET computer_level = ?, coach = ? WHERE id = ?"

# A new game's time bank and increment (migration 0016), in the transaction that creates it.
SET_TIME_BANK = "UPDATE games SET time_bank = ?, time_increment = ? WHERE id = ?"

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

# The reminder schedule (migration 0005). Times are UTC unix seconds.
REMINDER_COLUMNS = "id, game_id, turn, seat, user_id, kind, due_at, deadline_at"
# A whole row: the columns, then its claim, sent and cancelled times and its claims (0012).
REMINDER_ROW = f"{REMINDER_COLUMNS}, claimed_until, sent_at, cancelled_at, claims"

# Rows of a game for other turns than the one now being played are cancelled.
CANCEL_OTHER_TURNS = """
UPDATE reminders SET cancelled_at = ?
WHERE game_id = ? AND turn <> ? AND sent_at IS NULL AND cancelled_at IS NULL
"""

CANCEL_GAME_REMINDERS = """
UPDATE reminders SET cancelled_at = ?
WHERE game_id = ? AND sent_at IS NULL AND cancelled_at IS NULL
"""

# A turn is scheduled once: a second call for the same (game, turn, kind) changes nothing.
INSERT_REMINDER = """
INSERT INTO reminders (game_id, turn, seat, user_id, kind, due_at, deadline_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (game_id, turn, kind) DO NOTHING
"""

SELECT_TURN_DEADLINE = """
SELECT MAX(deadline_at) AS deadline_at FROM reminders WHERE game_id = ? AND turn = ?
"""

# The claim: due, unsent, uncancelled rows whose lease (if any) ran out get a new lease, in one
# statement, so two schedulers (or two ticks) never claim the same row at once. ``claims``
# counts them: a row claimed before may have been sent by that claim (migration 0012).
CLAIM_DUE_REMINDERS = f"""
UPDATE reminders SET claimed_until = ?, claims = claims + 1
WHERE due_at <= ? AND sent_at IS NULL AND cancelled_at IS NULL
  AND (claimed_until IS NULL OR claimed_until <= ?)
  {{shards}}
RETURNING {REMINDER_ROW}
"""

MARK_REMINDER_SENT = "UPDATE reminders SET sent_at = ? WHERE id = ? AND sent_at IS NULL"

CANCEL_REMINDER = """
UPDATE reminders SET cancelled_at = ? WHERE id = ? AND sent_at IS NULL AND cancelled_at IS NULL
"""

SELECT_GAME_REMINDERS = f"""
SELECT {REMINDER_ROW} FROM reminders WHERE game_id = ? ORDER BY id
"""

# The deadline of a turn while it stands: its deadline row was not cancelled.
SELECT_STANDING_DEADLINE = """
SELECT deadline_at FROM reminders
WHERE game_id = ? AND turn = ? AND kind = 'deadline' AND cancelled_at IS NULL
"""

# The time bank's turns (migration 0016): a turn begins once (a second call changes nothing);
# beginning one ends the game's other open turns, and a game's end ends them all.
INSERT_BANK_TURN = """
INSERT INTO bank_turns (game_id, turn, seat, started_at, available) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game_id, turn) DO NOTHING
"""

END_OTHER_BANK_TURNS = """
UPDATE bank_turns SET ended_at = ? WHERE game_id = ? AND turn <> ? AND ended_at IS NULL
"""

END_BANK_TURNS = "UPDATE bank_turns SET ended_at = ? WHERE game_id = ? AND ended_at IS NULL"

SELECT_BANK_TURNS = """
SELECT turn, seat, started_at, available, ended_at FROM bank_turns
WHERE game_id = ? ORDER BY started_at, turn
"""

# A finished game's rematch lobby (migration 0016): the first recorded stays while it is open.
INSERT_REMATCH = """
INSERT INTO rematches (game_id, channel_id, message_id) VALUES (?, ?, ?)
ON CONFLICT (game_id) DO NOTHING
"""

# A closed rematch lobby no longer counts (issue 35 item 10): the next one takes its place, if
# the closed one is still the one recorded.
REPLACE_REMATCH = """
UPDATE rematches SET channel_id = ?, message_id = ? WHERE game_id = ? AND message_id = ?
"""

SELECT_REMATCH = "SELECT channel_id, message_id FROM rematches WHERE game_id = ?"

# Games whose turn in flight at migration 0012 keeps its old key round.seat: the number of
# actions they had then (a turn that began after at most that many is that turn or older).
SELECT_OLD_TURN_KEYS = "SELECT actions FROM old_turn_keys WHERE game_id = ?"

# Per-user settings (migration 0006).
SELECT_USER_SETTINGS = """
SELECT user_id, notify, time_zone, quiet_start, quiet_end, vacation_until
FROM user_settings WHERE user_id = ?
"""

UPSERT_USER_SETTINGS = """
INSERT INTO user_settings
    (user_id, notify, time_zone, quiet_start, quiet_end, vacation_until, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, time_zone = excluded.time_zone,
    quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
    vacation_until = excluded.vacation_until, updated_at = excluded.updated_at
"""

DELETE_USER_SETTINGS = "DELETE FROM user_settings WHERE user_id = ?"

# Per-server settings (migration 0011).
SELECT_GUILD_LANGUAGE = "SELECT language FROM guild_settings WHERE guild_id = ?"

UPSERT_GUILD_LANGUAGE = """
INSERT INTO guild_settings (guild_id, language, updated_by, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at
"""

# Skipping a turn at its deadline (migration 0007).
MARK_BY_COMPUTER = "UPDATE actions SET by_computer = 1 WHERE game_id = ? AND seq >= ? AND seq <= ?"

SELECT_COMPUTER_SEQS = "SELECT seq FROM actions WHERE game_id = ? AND by_computer = 1 ORDER BY seq"

INSERT_DEADLINE_VOTE = """
INSERT INTO deadline_votes (game_id, turn, voter, choice, created_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game_id, turn, voter) DO UPDATE SET choice = excluded.choice,
    created_at = excluded.created_at
"""

SELECT_DEADLINE_VOTERS = """
SELECT voter FROM deadline_votes WHERE game_id = ? AND turn = ? AND choice = ? ORDER BY voter
"""

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

# Ratings (issue 15). Finished games are rated in the order they ended.
SELECT_UNRATED_GAMES = """
SELECT g.id FROM games g LEFT JOIN rated_games r ON r.game_id = g.id
WHERE g.status = 'finished' AND r.game_id IS NULL ORDER BY g.ended_at, g.id
"""

SELECT_FINISHED_GAMES = "SELECT id FROM games WHERE status = 'finished' ORDER BY ended_at, id"

SELECT_LATEST_RATED_END = """
SELECT MAX(g.ended_at) AS ended_at FROM rated_games r JOIN games g ON g.id = r.game_id
"""

SELECT_RATING = """
SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_key = ? AND user_id = ?
"""

SELECT_GAME_RATINGS = """
SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_key = ?
"""

CLAIM_RATED_GAME = """
INSERT INTO rated_games (game_id, seq)
SELECT ?, COALESCE(MAX(seq), 0) + 1 FROM rated_games WHERE 1 = 1
ON CONFLICT (game_id) DO NOTHING
"""

SELECT_PLAYER_RATING = """
SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_key = ? AND user_id = ?
"""

UPSERT_RATING = """
INSERT INTO ratings (guild_id, game_key, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?, 1)
ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
    games = ratings.games + 1
"""

INSERT_RATING_HISTORY = """
INSERT INTO rating_history (game_id, user_id, guild_id, game_key, mu_before, sigma_before, mu,
                            sigma)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
"""

SELECT_RATING_HISTORY = """
SELECT h.game_id, h.user_id, h.mu_before, h.sigma_before, h.mu, h.sigma
FROM rating_history h JOIN rated_games r ON r.game_id = h.game_id
WHERE h.guild_id = ? AND h.game_key = ? AND h.user_id = ? ORDER BY r.seq
"""

SELECT_GAMES_HISTORY = """
SELECT game_id, user_id, mu_before, sigma_before, mu, sigma FROM rating_history
WHERE game_id = ? ORDER BY user_id
"""

SELECT_PLAYER_GAME_KEYS = """
SELECT game_key FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY games DESC, game_key
"""

SELECT_ALL_RATINGS = """
SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings
ORDER BY guild_id, game_key, user_id
"""

DELETE_RATING_HISTORY = "DELETE FROM rating_history"
DELETE_RATED_GAMES = "DELETE FROM rated_games"
DELETE_RATINGS = "DELETE FROM ratings"

SELECT_GAME_FORFEITS = """
SELECT s.user_id FROM league_seats s
JOIN league_tables t ON t.league_id = s.league_id AND t.round = s.round AND t.table_no = s.table_no
WHERE t.game_id = ? AND s.forfeited = 1 ORDER BY s.user_id
"""

# Stand-ins for absent players and resignations (migration 0010).
# A seat's stand-in changes only while the game is active; 'resigned' is never undone.
SET_STAND_IN = """
UPDATE seats SET stand_in = ?, stand_in_at = ?
WHERE game_id = ? AND seat = ? AND user_id <> 0
  AND (stand_in IS NULL OR stand_in <> 'resigned')
  AND game_id IN (SELECT id FROM games WHERE status = 'active')
"""

# /back: the user's away seats in active games (all of them, or one game's).
SELECT_AWAY_SEATS = """
SELECT g.id, g.thread_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
WHERE s.user_id = ? AND s.stand_in = 'away' AND g.status = 'active'
ORDER BY g.id, s.seat
"""

# A hand-over by the other players' vote: only the vote that changes the seat changes it, so
# simultaneous votes hand it over (and tell the thread) once.
HAND_OVER = """
UPDATE seats SET stand_in = 'away', stand_in_at = ?
WHERE game_id = ? AND seat = ? AND user_id <> 0 AND stand_in IS NULL
  AND game_id IN (SELECT id FROM games WHERE status = 'active')
"""

CLEAR_AWAY = """
UPDATE seats SET stand_in = NULL, stand_in_at = ?
WHERE game_id = ? AND seat = ? AND stand_in = 'away'
"""

# Users of a game on vacation at a time.
SELECT_VACATIONERS = """
SELECT s.user_id FROM seats s JOIN user_settings u ON u.user_id = s.user_id
WHERE s.game_id = ? AND u.vacation_until IS NOT NULL AND u.vacation_until > ?
"""

# Active games whose seat to act is played by the computer: a computer seat, a stand-in, or a
# player on vacation.
SELECT_COMPUTER_DUE = """
SELECT g.id FROM games g
JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat
LEFT JOIN user_settings u ON u.user_id = s.user_id
WHERE g.status = 'active'
  AND (s.user_id = 0 OR s.stand_in IS NOT NULL
       OR (u.vacation_until IS NOT NULL AND u.vacation_until > ?))
  {shards}
ORDER BY g.id
"""


def of_shards(sql: str, guild_column: str, shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """``sql`` with its ``{shards}`` slot limited to the guilds of ``shards`` (if given); the
    extra parameters, which come after the statement's own.

    ``guild_column`` is the guild id column, or ``game:<column>`` for rows that only name
    their game (the guild is then looked up in ``games``).
    """
    if shards is None or shards.everything:
        return sql.format(shards=""), ()
    ids = sorted(shards.ids)
    test = f"(({{}} >> 22) % ?) IN ({', '.join('?' * len(ids))})"
    if guild_column.startswith("game:"):
        # a correlated EXISTS (one primary-key look-up per row) keeps the statement on its own
        # index (the reminders' due time), where ``IN (SELECT ...)`` scanned every game
        column = guild_column.removeprefix("game:")
        owner = test.format("shard_game.guild_id")
        clause = (
            f"AND EXISTS (SELECT 1 FROM games shard_game WHERE shard_game.id = {column}"
            f" AND {owner})"
        )
    else:
        clause = f"AND {test.format(guild_column)}"
    return sql.format(shards=clause), (shards.count, *ids)
