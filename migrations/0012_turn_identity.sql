-- 0012_turn_identity (issue 24): every turn has its own identity. Reminders and deadline votes
-- were keyed by round.seat, which the two turns of one seat in one round share (two-player
-- Yamatai). Rows written from now on are keyed round.seat.start, start being how many actions
-- were played before the turn began (bot/service/games.py, ``Turn``). The turn each active game
-- is playing now keeps its rows (and the buttons already posted for it) under the old key:
-- old_turn_keys holds how many actions the game had when this ran, and a turn that began after
-- at most that many actions is looked up by round.seat; every later turn by its new key, so an
-- old button never acts on a later turn.
-- reminders.claims counts the claims of a row: a row claimed again may have been sent by the
-- claim before it, so the channel is checked before it is sent again (bot/scheduler.py).

CREATE TABLE old_turn_keys (
    game_id INTEGER NOT NULL REFERENCES games (id),
    actions INTEGER NOT NULL CHECK (actions >= 0),
    PRIMARY KEY (game_id)
);

INSERT INTO old_turn_keys (game_id, actions)
    SELECT id, action_count FROM games WHERE status = 'active';

ALTER TABLE reminders ADD COLUMN claims INTEGER NOT NULL DEFAULT 0 CHECK (claims >= 0);

UPDATE reminders SET claims = 1 WHERE claimed_until IS NOT NULL;
