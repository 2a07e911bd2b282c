"""Stand-ins and resignations, the computer's due seats, and the shard filter."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..models import Shards

# Stand-ins for absent players and resignations (migration 0010).
# A seat's stand-in changes only while the game is active; 'resigned' is never undone.
SET_STAND_IN = """
UPDATE seats SET stand_in = ?, stand_in_at = ?
WHERE game_id = ? AND seat = ? AND user_id <> 0
  AND (stand_in IS NULL OR stand_in <> 'resigned')
  AND game_id IN (SELECT id FROM games WHERE status = 'active')
"""

# /back: the user's away seats in active games (all of them, or one game's).
SELECT_AWAY_SEATS = """
SELECT g.id, g.thread_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
WHERE s.user_id = ? AND s.stand_in = 'away' AND g.status = 'active'
ORDER BY g.id, s.seat
"""

# A hand-over by the other players' vote: only the vote that changes the seat changes it, so
# simultaneous votes hand it over (and tell the thread) once.
HAND_OVER = """
UPDATE seats SET stand_in = 'away', stand_in_at = ?
WHERE game_id = ? AND seat = ? AND user_id <> 0 AND stand_in IS NULL
  AND game_id IN (SELECT id FROM games WHERE status = 'active')
"""

CLEAR_AWAY = """
UPDATE seats SET stand_in = NULL, stand_in_at = ?
WHERE game_id = ? AND seat = ? AND stand_in = 'away'
"""

# Users of a game on vacation at a time.
SELECT_VACATIONERS = """
SELECT s.user_id FROM seats s JOIN user_settings u ON u.user_id = s.user_id
WHERE s.game_id = ? AND u.vacation_until IS NOT NULL AND u.vacation_until > ?
"""

# Active games whose seat to act is played by the computer: a computer seat, a stand-in, or a
# player on vacation.
SELECT_COMPUTER_DUE = """
SELECT g.id FROM games g
JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat
LEFT JOIN user_settings u ON u.user_id = s.user_id
WHERE g.status = 'active'
  AND (s.user_id = 0 OR s.stand_in IS NOT NULL
       OR (u.vacation_until IS NOT NULL AND u.vacation_until > ?))
  {shards}
ORDER BY g.id
"""


def of_shards(sql: str, guild_column: str, shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """``sql`` with its ``{shards}`` slot limited to the guilds of ``shards`` (if given); the
    extra parameters, which come after the statement's own.

    ``guild_column`` is the guild id column, or ``game:<column>`` for rows that only name
    their game (the guild is then looked up in ``games``).
    """
    if shards is None or shards.everything:
        return sql.format(shards=""), ()
    ids = sorted(shards.ids)
    test = f"(({{}} >> 22) % ?) IN ({', '.join('?' * len(ids))})"
    if guild_column.startswith("game:"):
        # a correlated EXISTS (one primary-key look-up per row) keeps the statement on its own
        # index (the reminders' due time), where ``IN (SELECT ...)`` scanned every game
        column = guild_column.removeprefix("game:")
        owner = test.format("shard_game.guild_id")
        clause = (
            f"AND EXISTS (SELECT 1 FROM games shard_game WHERE shard_game.id = {column}"
            f" AND {owner})"
        )
    else:
        clause = f"AND {test.format(guild_column)}"
    return sql.format(shards=clause), (shards.count, *ids)
