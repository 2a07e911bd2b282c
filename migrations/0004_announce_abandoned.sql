-- 0004_announce_abandoned: an abandoned game's last message (a resignation, a cancelled start)
-- is owed to its thread like any turn message. Games abandoned before this were announced by the
-- old code (it posted that message or nothing), so none of them is owed now.

UPDATE games SET announced_version = version WHERE status = 'abandoned';
