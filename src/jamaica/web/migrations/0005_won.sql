-- Who won (issue 28 review): a result's `place` is the player's among the players, the Ghost Ship
-- left out, as the ratings compare players; but the Ghost Ship scores like a player and can win
-- (RULES §10), and then no player won, though one has place 1. `won` says whether the seat's
-- ship won the game (1) or not (0); NULL for results stored before it (read as place = 1).
ALTER TABLE results ADD COLUMN won INTEGER;
