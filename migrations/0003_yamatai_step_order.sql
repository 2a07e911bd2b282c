-- 0003_yamatai_step_order: Yamatai games stored until now were played with recruiting (step 5)
-- before the harbor (step 4). The engine now follows the rulebook's order for new games and keeps
-- the old order for these, named by the option step_order = 'recruit-first' (docs/rules.md R2).
-- The snapshot is the whole match as JSON: its options and its state (schema 2) say the same.
-- A snapshot that is not JSON (damaged) is left for `python -m bot.store repair`, which rebuilds it
-- from the log and the migrated options.

UPDATE games
SET options = json_set(COALESCE(options, '{}'), '$.step_order', 'recruit-first')
WHERE game_key = 'yamatai' AND (options IS NULL OR json_valid(options));

UPDATE snapshots
SET state = json_set(
    state,
    '$.options.step_order', 'recruit-first',
    '$.state.schema', 2,
    '$.state.step_order', 'recruit-first'
)
WHERE json_valid(state) AND game_id IN (SELECT id FROM games WHERE game_key = 'yamatai');
