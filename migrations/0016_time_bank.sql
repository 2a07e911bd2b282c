-- 0016_time_bank: a game's time bank (issue 21 item 13), Board Game Arena's clock for turn-based
-- games, chosen in the lobby instead of a fixed deadline. games.time_bank: the seconds each
-- player's bank starts with, also its most (NULL: no bank, the game keeps turn_deadline);
-- games.time_increment: the seconds a player's bank gains when their turn begins. bank_turns:
-- one row per turn of a game with a bank, written once when the turn begins (its key as in
-- reminders.turn, the seat, started_at in UTC unix seconds and the seconds available for it:
-- the seat's bank then, increment included); ended_at once another turn began or the game
-- ended. A seat's bank is what its last row left: available - (ended_at - started_at), at
-- least 0. Games made before: no bank.
-- rematches (issue 21 item 12): the lobby message a finished game's Rematch button opened, one
-- per game (the first recorded wins), so a second click points to it instead of opening another.

ALTER TABLE games ADD COLUMN time_bank INTEGER CHECK (time_bank IS NULL OR time_bank > 0);

ALTER TABLE games ADD COLUMN time_increment INTEGER NOT NULL DEFAULT 0
    CHECK (time_increment >= 0);

CREATE TABLE bank_turns (
    game_id    INTEGER     NOT NULL REFERENCES games (id),
    turn       VARCHAR(32) NOT NULL,
    seat       INTEGER     NOT NULL CHECK (seat >= 0),
    started_at INTEGER     NOT NULL,
    available  INTEGER     NOT NULL CHECK (available >= 0),
    ended_at   INTEGER,
    PRIMARY KEY (game_id, turn)
);

CREATE TABLE rematches (
    game_id    INTEGER NOT NULL PRIMARY KEY REFERENCES games (id),
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL
);
