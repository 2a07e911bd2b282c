-- PostgreSQL's text of ../0006_user_settings.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- 0006_user_settings: each player's settings, per Discord user across servers (/settings):
-- how to be told it is their turn (ping in the thread, direct message, both, none) and quiet
-- hours (quiet_start to quiet_end o'clock in time_zone, an IANA name). A user without a row has
-- the defaults; /settings delete removes the row.

CREATE TABLE user_settings (
    user_id     BIGINT      NOT NULL PRIMARY KEY,
    notify      TEXT        NOT NULL DEFAULT 'ping'
        CHECK (notify IN ('ping', 'dm', 'both', 'none')),
    time_zone   TEXT,
    quiet_start BIGINT  CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 23),
    quiet_end   BIGINT  CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 23),
    updated_at  BIGINT      NOT NULL
);
