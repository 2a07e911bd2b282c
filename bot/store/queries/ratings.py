"""Ratings (issue 15)."""

from __future__ import annotations

# Ratings (issue 15). Finished games are rated in the order they ended.
SELECT_UNRATED_GAMES = """
SELECT g.id FROM games g LEFT JOIN rated_games r ON r.game_id = g.id
WHERE g.status = 'finished' AND r.game_id IS NULL ORDER BY g.ended_at, g.id
"""

SELECT_FINISHED_GAMES = "SELECT id FROM games WHERE status = 'finished' ORDER BY ended_at, id"

SELECT_LATEST_RATED_END = """
SELECT MAX(g.ended_at) AS ended_at FROM rated_games r JOIN games g ON g.id = r.game_id
"""

SELECT_RATING = """
SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_key = ? AND user_id = ?
"""

SELECT_GAME_RATINGS = """
SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_key = ?
"""

CLAIM_RATED_GAME = """
INSERT INTO rated_games (game_id, seq)
SELECT ?, COALESCE(MAX(seq), 0) + 1 FROM rated_games WHERE 1 = 1
ON CONFLICT (game_id) DO NOTHING
"""

SELECT_PLAYER_RATING = """
SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_key = ? AND user_id = ?
"""

UPSERT_RATING = """
INSERT INTO ratings (guild_id, game_key, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?, 1)
ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
    games = ratings.games + 1
"""

INSERT_RATING_HISTORY = """
INSERT INTO rating_history (game_id, user_id, guild_id, game_key, mu_before, sigma_before, mu,
                            sigma)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
"""

SELECT_RATING_HISTORY = """
SELECT h.game_id, h.user_id, h.mu_before, h.sigma_before, h.mu, h.sigma
FROM rating_history h JOIN rated_games r ON r.game_id = h.game_id
WHERE h.guild_id = ? AND h.game_key = ? AND h.user_id = ? ORDER BY r.seq
"""

SELECT_GAMES_HISTORY = """
SELECT game_id, user_id, mu_before, sigma_before, mu, sigma FROM rating_history
WHERE game_id = ? ORDER BY user_id
"""

SELECT_PLAYER_GAME_KEYS = """
SELECT game_key FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY games DESC, game_key
"""

SELECT_ALL_RATINGS = """
SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings
ORDER BY guild_id, game_key, user_id
"""

DELETE_RATING_HISTORY = "DELETE FROM rating_history"
DELETE_RATED_GAMES = "DELETE FROM rated_games"
DELETE_RATINGS = "DELETE FROM ratings"

SELECT_GAME_FORFEITS = """
SELECT s.user_id FROM league_seats s
JOIN league_tables t ON t.league_id = s.league_id AND t.round = s.round AND t.table_no = s.table_no
WHERE t.game_id = ? AND s.forfeited = 1 ORDER BY s.user_id
"""

SELECT_RATED_GUILDS = "SELECT DISTINCT guild_id FROM ratings WHERE user_id = ? ORDER BY guild_id"
