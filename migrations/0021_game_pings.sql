-- 0021_game_pings: per-game quiet and a server's limit on games (issue 39 item 5). game_pings:
-- how a player is pinged in one game when it is not the default (pinged on their turn):
-- 'every' (also on every other turn message of the game) or 'reminders' (not on turn messages,
-- only by the deadline's reminders). guild_settings.max_games: how many active games one
-- player may hold in the server (NULL: no limit); joining past it is refused.

CREATE TABLE game_pings (
    game_id    INTEGER     NOT NULL REFERENCES games (id),
    user_id    BIGINT      NOT NULL,
    mode       VARCHAR(16) NOT NULL CHECK (mode IN ('every', 'reminders')),
    updated_at INTEGER     NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

ALTER TABLE guild_settings ADD COLUMN max_games INTEGER CHECK (max_games IS NULL OR max_games >= 1);
