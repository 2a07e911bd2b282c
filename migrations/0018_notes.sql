-- 0018_notes: a player's private notes on a game (issue 39 item 3): one text per game and player,
-- written with the Notes button of the player's panel or /notes in the game's thread, read back
-- only by its author; never in a record, a web page or a spectator's view. An empty note is no
-- row.

CREATE TABLE game_notes (
    game_id    INTEGER       NOT NULL REFERENCES games (id),
    user_id    BIGINT        NOT NULL,
    body       VARCHAR(4000) NOT NULL,
    updated_at INTEGER       NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
