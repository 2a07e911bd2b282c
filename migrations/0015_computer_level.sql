-- 0015_computer_level: the computer seats' level and the coach, chosen in the lobby (issue 23).
-- games.computer_level: 'easy', 'normal' or 'strong' for the game's computer seats (stand-ins
-- for absent, resigned or withdrawn players always play strong); games made before it: 'normal',
-- the player they always had. games.coach: 1 when the players may ask for hints and turning
-- points; games made before it, and league games: 0.

ALTER TABLE games ADD COLUMN computer_level VARCHAR(8) NOT NULL DEFAULT 'normal'
    CHECK (computer_level IN ('easy', 'normal', 'strong'));

ALTER TABLE games ADD COLUMN coach INTEGER NOT NULL DEFAULT 0
    CHECK (coach IN (0, 1));
