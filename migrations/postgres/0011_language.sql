-- PostgreSQL's text of ../0011_language.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- 0011_language: which language a game's public messages and pictures use (issue 14).
-- games.language: 'en', 'fr', 'it' or 'pl', chosen in the lobby; NULL (games made before it) means
-- the server's preferred locale, as before. guild_settings: per-server settings; language is the
-- server's default for new lobbies and league posts (/server language), NULL: none set.

ALTER TABLE games ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'fr', 'it', 'pl'));

CREATE TABLE guild_settings (
    guild_id   BIGINT     NOT NULL PRIMARY KEY,
    language   TEXT       CHECK (language IS NULL OR language IN ('en', 'fr', 'it', 'pl')),
    updated_by BIGINT     NOT NULL,
    updated_at BIGINT     NOT NULL
);
