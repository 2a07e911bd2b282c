-- 0005_reminders: slow games keep moving. games.turn_deadline is the time a player has for a
-- turn, in seconds (NULL: no deadline; games stored before this have none). The reminders table
-- is the schedule: one row per (game, turn, kind), due at due_at (UTC unix seconds), claimed by
-- an atomic UPDATE that sets claimed_until (a lease: an unfinished claim is retried once it
-- runs out), marked sent_at once posted, cancelled_at when the turn was played first.

ALTER TABLE games ADD COLUMN turn_deadline INTEGER CHECK (turn_deadline IS NULL OR turn_deadline > 0);

CREATE TABLE reminders (
    id            INTEGER     NOT NULL PRIMARY KEY,
    game_id       INTEGER     NOT NULL REFERENCES games (id),
    turn          VARCHAR(32) NOT NULL,
    seat          INTEGER     NOT NULL CHECK (seat >= 0),
    user_id       BIGINT      NOT NULL,
    kind          VARCHAR(16) NOT NULL CHECK (kind IN ('half', 'near', 'deadline')),
    due_at        INTEGER     NOT NULL,
    deadline_at   INTEGER     NOT NULL,
    claimed_until INTEGER,
    sent_at       INTEGER,
    cancelled_at  INTEGER,
    UNIQUE (game_id, turn, kind)
);

CREATE INDEX reminders_due ON reminders (due_at) WHERE sent_at IS NULL AND cancelled_at IS NULL;
