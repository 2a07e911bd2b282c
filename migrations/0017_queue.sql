-- 0017_queue: finding opponents (issue 39 item 1). queue_entries: one row per player waiting for a
-- game in a server (/queue join): the player counts they accept (fewest..most), the name they are
-- seated with, the channel they joined in, when (UTC unix seconds) and when the entry expires (a
-- week later; the player is told, then the row goes). queue_matches: a group the queue matched,
-- written in the same transaction that deletes its entries (nobody is matched twice); players is
-- a JSON array of [user id, name] in seat order; then the message posted for it, its thread and
-- its game, each recorded before the next step, so a restart finishes what is missing.
-- guild_settings.queue_channel_id: where the queue opens its games (/server queue-channel:),
-- NULL: the channel the oldest matched player joined in.

CREATE TABLE queue_entries (
    guild_id   BIGINT       NOT NULL,
    user_id    BIGINT       NOT NULL,
    game_key   VARCHAR(32)  NOT NULL,
    name       VARCHAR(100) NOT NULL,
    fewest     INTEGER      NOT NULL CHECK (fewest >= 1),
    most       INTEGER      NOT NULL CHECK (most >= fewest),
    channel_id BIGINT       NOT NULL,
    joined_at  INTEGER      NOT NULL,
    expires_at INTEGER      NOT NULL,
    PRIMARY KEY (guild_id, user_id, game_key)
);

CREATE TABLE queue_matches (
    id         INTEGER      NOT NULL PRIMARY KEY,
    guild_id   BIGINT       NOT NULL,
    channel_id BIGINT       NOT NULL,
    game_key   VARCHAR(32)  NOT NULL,
    players    TEXT         NOT NULL,
    language   VARCHAR(8)   CHECK (language IS NULL OR language IN ('en', 'fr', 'it', 'pl')),
    created_at INTEGER      NOT NULL,
    message_id BIGINT,
    thread_id  BIGINT,
    game_id    INTEGER REFERENCES games (id)
);

CREATE INDEX queue_matches_owed ON queue_matches (game_id);

ALTER TABLE guild_settings ADD COLUMN queue_channel_id BIGINT;
