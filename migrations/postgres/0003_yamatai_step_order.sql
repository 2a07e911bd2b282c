-- 0003_yamatai_step_order on PostgreSQL: the portable file uses SQLite's json_set and json_valid.
-- Same change with jsonb_set (the text is stored back as compact JSON; verify compares parsed
-- JSON). PostgreSQL 15 has no json_valid, so a damaged snapshot stops this migration (rolled back,
-- nothing changed) instead of being skipped: repair it on the database it came from first. A
-- PostgreSQL database only ever starts at this code, so in practice these tables are empty here.

UPDATE games
SET options = jsonb_set(COALESCE(options, '{}')::jsonb, '{step_order}', '"recruit-first"')::text
WHERE game_key = 'yamatai';

UPDATE snapshots
SET state = jsonb_set(
    jsonb_set(
        jsonb_set(state::jsonb, '{options,step_order}', '"recruit-first"'),
        '{state,schema}', '2'
    ),
    '{state,step_order}', '"recruit-first"'
)::text
WHERE game_id IN (SELECT id FROM games WHERE game_key = 'yamatai');
