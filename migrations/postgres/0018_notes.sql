-- PostgreSQL's text of ../0018_notes.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n)).
-- 0018_notes: a player's private notes on a game (issue 39 item 3): one text per game and player,
-- written with the Notes button of the player's panel or /notes in the game's thread, read back
-- only by its author; never in a record, a web page or a spectator's view. An empty note is no
-- row.

CREATE TABLE game_notes (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL,
    body       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
