-- PostgreSQL's text of ../0007_deadline_skip.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- 0007_deadline_skip: at a turn's deadline the other players may vote to skip the absent
-- player's turn (a computer plays it for them). deadline_votes holds the votes, one per voter and
-- turn; actions.by_computer marks the actions a computer played for a human seat, so the log
-- shows them.

ALTER TABLE actions ADD COLUMN by_computer BIGINT  NOT NULL DEFAULT 0 CHECK (by_computer IN (0, 1));

CREATE TABLE deadline_votes (
    game_id    BIGINT      NOT NULL REFERENCES games (id),
    turn       TEXT        NOT NULL,
    voter      BIGINT      NOT NULL,
    choice     TEXT        NOT NULL CHECK (choice IN ('skip')),
    created_at BIGINT      NOT NULL,
    PRIMARY KEY (game_id, turn, voter)
);
