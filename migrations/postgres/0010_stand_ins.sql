-- PostgreSQL's text of ../0010_stand_ins.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- 0010_stand_ins: absent players (issue 12) and resigning (issue 13). seats.stand_in says who
-- plays a human seat instead of its player: NULL the player, 'away' the computer until the player
-- uses /back (handed over by a vote of the others, or at the deadline with the game's
-- computer_takeover option), 'resigned' the computer to the end of the game (the player ranks
-- last). stand_in_at is when it was set (UTC unix seconds). user_settings.vacation_until: the
-- player is on vacation until then (UTC unix seconds; the computer plays their turns). The
-- deadline vote gains its second choice, 'away' (hand the seat to the computer): SQLite cannot
-- change a CHECK, so deadline_votes is rebuilt with its rows.

ALTER TABLE seats ADD COLUMN stand_in TEXT
    CHECK (stand_in IS NULL OR stand_in IN ('away', 'resigned'));
ALTER TABLE seats ADD COLUMN stand_in_at BIGINT;

ALTER TABLE games ADD COLUMN computer_takeover BIGINT  NOT NULL DEFAULT 0
    CHECK (computer_takeover IN (0, 1));

ALTER TABLE user_settings ADD COLUMN vacation_until BIGINT;

CREATE TABLE deadline_votes_new (
    game_id    BIGINT      NOT NULL REFERENCES games (id),
    turn       TEXT        NOT NULL,
    voter      BIGINT      NOT NULL,
    choice     TEXT        NOT NULL CHECK (choice IN ('skip', 'away')),
    created_at BIGINT      NOT NULL,
    PRIMARY KEY (game_id, turn, voter)
);
INSERT INTO deadline_votes_new (game_id, turn, voter, choice, created_at)
    SELECT game_id, turn, voter, choice, created_at FROM deadline_votes;
DROP TABLE deadline_votes;
ALTER TABLE deadline_votes_new RENAME TO deadline_votes;
