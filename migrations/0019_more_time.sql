-- 0019_more_time: "24 h more" on a turn (issue 39 item 4). turn_extensions: one row per turn a
-- player asked more time for (its key as in reminders.turn), who asked and when; granted_by and
-- granted_at once another player of the game granted it, in the transaction that moved the
-- turn's deadline and its unsent reminders on by the extension. A turn is asked for and granted
-- at most once; games with a time bank never are.

CREATE TABLE turn_extensions (
    game_id    INTEGER     NOT NULL REFERENCES games (id),
    turn       VARCHAR(32) NOT NULL,
    asked_by   BIGINT      NOT NULL,
    asked_at   INTEGER     NOT NULL,
    granted_by BIGINT,
    granted_at INTEGER,
    PRIMARY KEY (game_id, turn)
);
