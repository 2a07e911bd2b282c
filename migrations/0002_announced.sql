-- 0002_announced: the outbox of thread messages. announced_version is the newest game version
-- whose thread message was posted (or that needed none); a game with version > announced_version
-- still has its latest turn to post. Games that exist already were announced by the old code.

ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT 0;

UPDATE games SET announced_version = version;
