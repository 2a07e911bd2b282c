"""Reminders and time banks, rematches, per-user and per-server settings, and skip votes."""

from __future__ import annotations

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
