-- PostgreSQL's text of ../0009_ratings.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- Ratings (issue 15): one openskill (Plackett-Luce) rating per server, game and player, from every
-- finished game. rated_games marks each game rated exactly once (its insert and the rating changes
-- commit together); rating_history keeps every change, for the chart and the rebuild check.

CREATE TABLE ratings (
    guild_id BIGINT      NOT NULL,
    game_key TEXT        NOT NULL,
    user_id  BIGINT      NOT NULL,
    mu       DOUBLE PRECISION        NOT NULL,
    sigma    DOUBLE PRECISION        NOT NULL,
    games    BIGINT      NOT NULL CHECK (games >= 0),
    PRIMARY KEY (guild_id, game_key, user_id)
);

CREATE TABLE rated_games (
    game_id BIGINT NOT NULL PRIMARY KEY REFERENCES games (id),
    seq     BIGINT  NOT NULL UNIQUE
);

CREATE TABLE rating_history (
    game_id      BIGINT      NOT NULL REFERENCES games (id),
    user_id      BIGINT      NOT NULL,
    guild_id     BIGINT      NOT NULL,
    game_key     TEXT        NOT NULL,
    mu_before    DOUBLE PRECISION        NOT NULL,
    sigma_before DOUBLE PRECISION        NOT NULL,
    mu           DOUBLE PRECISION        NOT NULL,
    sigma        DOUBLE PRECISION        NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_by_player ON rating_history (guild_id, game_key, user_id);
