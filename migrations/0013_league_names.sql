-- League names are text (issue 24). name_key becomes the normalized form two names are compared
-- in (NFKC, case-folded, invisible characters removed: bot/league/names.py), still unique per
-- server. SQL cannot normalize Unicode, so the runner rewrites every league's name and key in
-- Python right after this file, in the same transaction (migrate.py, DATA_STEPS): invisible
-- characters are removed from stored names, keys are recomputed, and of two look-alikes the
-- older league keeps the key while the newer one gets a key nobody can type (it stays reachable
-- by its exact name).

-- Points were refused only outside 0..1000, so "nan" could be stored: such a league gets the
-- default points (its standings could not be computed).
UPDATE leagues SET points = '3,2,1,0' WHERE LOWER(points) LIKE '%nan%';
