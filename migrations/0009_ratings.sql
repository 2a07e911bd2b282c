-- Ratings (issue 15): one openskill (Plackett-Luce) rating per server, game and player, from every
-- finished game. rated_games marks each game rated exactly once (its insert and the rating changes
-- commit together); rating_history keeps every change, for the chart and the rebuild check.

CREATE TABLE ratings (
    guild_id BIGINT      NOT NULL,
    game_key VARCHAR(64) NOT NULL,
    user_id  BIGINT      NOT NULL,
    mu       REAL        NOT NULL,
    sigma    REAL        NOT NULL,
    games    INTEGER     NOT NULL CHECK (games >= 0),
    PRIMARY KEY (guild_id, game_key, user_id)
);

CREATE TABLE rated_games (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games (id),
    seq     INTEGER NOT NULL UNIQUE
);

CREATE TABLE rating_history (
    game_id      INTEGER     NOT NULL REFERENCES games (id),
    user_id      BIGINT      NOT NULL,
    guild_id     BIGINT      NOT NULL,
    game_key     VARCHAR(64) NOT NULL,
    mu_before    REAL        NOT NULL,
    sigma_before REAL        NOT NULL,
    mu           REAL        NOT NULL,
    sigma        REAL        NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_by_player ON rating_history (guild_id, game_key, user_id);
