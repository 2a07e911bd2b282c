-- Community leagues (issue 15): a league runs one season in one server. Players sign up while
-- status is 'signup'; 'running' once round 1 is seated; 'finished' after its last round.
-- league_tables holds each round's tables (seated in one transaction with their seats), then
-- the message, thread and game that each table's game was opened in, recorded step by step so
-- a restart finishes opening a table instead of opening it twice. posted_round is the latest
-- round whose standings were posted to the league's channel.

CREATE TABLE leagues (
    id             INTEGER      NOT NULL PRIMARY KEY,
    guild_id       BIGINT       NOT NULL,
    channel_id     BIGINT       NOT NULL,
    name           VARCHAR(64)  NOT NULL,
    name_key       VARCHAR(64)  NOT NULL,
    game_key       VARCHAR(64)  NOT NULL,
    rounds         INTEGER      NOT NULL CHECK (rounds BETWEEN 1 AND 50),
    table_size     INTEGER      NOT NULL CHECK (table_size >= 1),
    pairing        VARCHAR(16)  NOT NULL CHECK (pairing IN ('swiss', 'round-robin')),
    turn_deadline  INTEGER CHECK (turn_deadline IS NULL OR turn_deadline > 0),
    points         VARCHAR(200) NOT NULL,
    organiser_role BIGINT,
    creator_id     BIGINT       NOT NULL,
    status         VARCHAR(16)  NOT NULL CHECK (status IN ('signup', 'running', 'finished')),
    current_round  INTEGER      NOT NULL DEFAULT 0,
    posted_round   INTEGER      NOT NULL DEFAULT 0,
    created_at     INTEGER      NOT NULL,
    UNIQUE (guild_id, name_key)
);

CREATE TABLE league_players (
    league_id       INTEGER      NOT NULL REFERENCES leagues (id),
    user_id         BIGINT       NOT NULL,
    name            VARCHAR(100) NOT NULL,
    joined          INTEGER      NOT NULL,
    withdrawn_round INTEGER,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_tables (
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    round      INTEGER NOT NULL CHECK (round >= 1),
    table_no   INTEGER NOT NULL CHECK (table_no >= 1),
    message_id BIGINT,
    thread_id  BIGINT,
    game_id    INTEGER REFERENCES games (id),
    PRIMARY KEY (league_id, round, table_no),
    UNIQUE (game_id)
);

CREATE TABLE league_seats (
    league_id INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    table_no  INTEGER NOT NULL,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   BIGINT  NOT NULL,
    forfeited INTEGER NOT NULL DEFAULT 0 CHECK (forfeited IN (0, 1)),
    PRIMARY KEY (league_id, round, table_no, seat),
    UNIQUE (league_id, round, user_id),
    FOREIGN KEY (league_id, round, table_no) REFERENCES league_tables (league_id, round, table_no)
);
