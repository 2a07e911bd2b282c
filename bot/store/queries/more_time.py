"""More time on a turn (migration 0019): asked once, granted once, the deadline moved on."""

from __future__ import annotations

INSERT_EXTENSION_ASKED = """
INSERT INTO turn_extensions (game_id, turn, asked_by, asked_at) VALUES (?, ?, ?, ?)
ON CONFLICT (game_id, turn) DO NOTHING
"""

SELECT_EXTENSION = """
SELECT asked_by, granted_by FROM turn_extensions WHERE game_id = ? AND turn = ?
"""

GRANT_EXTENSION = """
UPDATE turn_extensions SET granted_by = ?, granted_at = ?
WHERE game_id = ? AND turn = ? AND granted_by IS NULL
"""

# The turn's standing rows: every one's deadline, the unsent ones' due time too.
EXTEND_TURN_REMINDERS = """
UPDATE reminders SET deadline_at = deadline_at + ?,
    due_at = CASE WHEN sent_at IS NULL THEN due_at + ? ELSE due_at END
WHERE game_id = ? AND turn = ? AND cancelled_at IS NULL
"""
