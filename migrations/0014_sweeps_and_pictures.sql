-- 0014_sweeps_and_pictures (issue 25 items 1 and 5): the sweeps read indexes, not every game,
-- and a turn message posted before its picture remembers the picture it still owes.
--
-- games_owing holds only the games whose latest version still owes its thread a message (both
-- outbox sweeps, SELECT_UNANNOUNCED and SELECT_UNANNOUNCED_ABANDONED, read it); games_active
-- only the active games, with whose seat acts (the computer-turn sweep, SELECT_COMPUTER_DUE).
-- picture_message_id / picture_version: the turn message (its Discord id) posted for that
-- version without its picture; set with the announced version in one statement, cleared when
-- the picture is attached or superseded (bot/outbox.py). games_picture_owed: the sweep after a
-- restart.

ALTER TABLE games ADD COLUMN picture_message_id BIGINT;

ALTER TABLE games ADD COLUMN picture_version INTEGER;

CREATE INDEX games_owing ON games (status, id) WHERE version > announced_version;

CREATE INDEX games_active ON games (id, current_seat) WHERE status = 'active';

CREATE INDEX games_picture_owed ON games (id) WHERE picture_message_id IS NOT NULL;
