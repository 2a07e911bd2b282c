-- PostgreSQL's text of ../0002_announced.sql: the same schema in PostgreSQL's types (BIGINT for
-- SQLite's 64-bit INTEGER, TEXT for VARCHAR(n), an identity column for INTEGER PRIMARY KEY).
-- 0002_announced: the outbox of thread messages. announced_version is the newest game version
-- whose thread message was posted (or that needed none); a game with version > announced_version
-- still has its latest turn to post. Games that exist already were announced by the old code.

ALTER TABLE games ADD COLUMN announced_version BIGINT  NOT NULL DEFAULT 0;

UPDATE games SET announced_version = version;
