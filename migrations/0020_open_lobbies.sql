-- 0020_open_lobbies: the server's table (issue 39 item 2). One row per lobby open in a server,
-- kept up to date by every change of the lobby (players, seats, deadline or time bank,
-- language) and deleted when it starts or is cancelled, so /games lists the open lobbies after
-- a restart too. opened_at: when it was first listed (UTC unix seconds).

CREATE TABLE open_lobbies (
    message_id      BIGINT      NOT NULL PRIMARY KEY,
    guild_id        BIGINT      NOT NULL,
    channel_id      BIGINT      NOT NULL,
    game_key        VARCHAR(32) NOT NULL,
    seats           INTEGER     NOT NULL CHECK (seats >= 1),
    players         INTEGER     NOT NULL CHECK (players >= 1),
    computers       INTEGER     NOT NULL CHECK (computers IN (0, 1)),
    deadline_hours  INTEGER     NOT NULL CHECK (deadline_hours >= 0),
    bank_hours      INTEGER,
    increment_hours INTEGER,
    language        VARCHAR(8),
    opened_at       INTEGER     NOT NULL,
    updated_at      INTEGER     NOT NULL
);

CREATE INDEX open_lobbies_by_guild ON open_lobbies (guild_id, opened_at);
