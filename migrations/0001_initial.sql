-- 0001_initial: games, their seats, the action log (source of truth) and one state snapshot
-- per game. Plain types only; see docs/storage.md for the PostgreSQL mapping.

CREATE TABLE games (
    id           INTEGER     NOT NULL PRIMARY KEY,
    guild_id     BIGINT      NOT NULL,
    channel_id   BIGINT      NOT NULL,
    thread_id    BIGINT      NOT NULL,
    game_key     VARCHAR(64) NOT NULL,
    options      TEXT,
    seed         BIGINT      NOT NULL,
    status       VARCHAR(16) NOT NULL
        CHECK (status IN ('active', 'finished', 'abandoned')),
    version      INTEGER     NOT NULL CHECK (version >= 1),
    action_count INTEGER     NOT NULL CHECK (action_count >= 0),
    current_seat INTEGER,
    end_reason   TEXT,
    created_at   VARCHAR(32) NOT NULL,
    updated_at   VARCHAR(32) NOT NULL,
    ended_at     VARCHAR(32)
);

-- One active game per thread; finished and abandoned games free the thread.
CREATE UNIQUE INDEX games_one_active_per_thread ON games (thread_id) WHERE status = 'active';
CREATE INDEX games_by_guild_status ON games (guild_id, status);

CREATE TABLE seats (
    game_id     INTEGER      NOT NULL REFERENCES games (id),
    seat        INTEGER      NOT NULL CHECK (seat >= 0),
    user_id     BIGINT       NOT NULL,
    player      VARCHAR(100) NOT NULL,
    colour      VARCHAR(32)  NOT NULL,
    final_score INTEGER,
    final_rank  INTEGER,
    winner      INTEGER CHECK (winner IN (0, 1)),
    score_lines TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, colour)
);

CREATE INDEX seats_by_user ON seats (user_id, game_id);

CREATE TABLE actions (
    game_id    INTEGER     NOT NULL,
    seq        INTEGER     NOT NULL CHECK (seq >= 1),
    seat       INTEGER     NOT NULL,
    notation   TEXT        NOT NULL,
    created_at VARCHAR(32) NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id) REFERENCES games (id),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
);

CREATE TABLE snapshots (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games (id),
    state   TEXT    NOT NULL
);
