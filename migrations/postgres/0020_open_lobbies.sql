-- PostgreSQL's text of ../0020_open_lobbies.sql: the same schema in PostgreSQL's types (BIGINT
-- for SQLite's 64-bit INTEGER, TEXT for VARCHAR(n)).
-- 0020_open_lobbies: the server's table (issue 39 item 2). One row per lobby open in a server,
-- kept up to date by every change of the lobby (players, seats, deadline or time bank,
-- language) and deleted when it starts or is cancelled, so /games lists the open lobbies after
-- a restart too. opened_at: when it was first listed (UTC unix seconds).

CREATE TABLE open_lobbies (
    message_id      BIGINT NOT NULL PRIMARY KEY,
    guild_id        BIGINT NOT NULL,
    channel_id      BIGINT NOT NULL,
    game_key        TEXT   NOT NULL,
    seats           BIGINT NOT NULL CHECK (seats >= 1),
    players         BIGINT NOT NULL CHECK (players >= 1),
    computers       BIGINT NOT NULL CHECK (computers IN (0, 1)),
    deadline_hours  BIGINT NOT NULL CHECK (deadline_hours >= 0),
    bank_hours      BIGINT,
    increment_hours BIGINT,
    language        TEXT,
    opened_at       BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);

CREATE INDEX open_lobbies_by_guild ON open_lobbies (guild_id, opened_at);
