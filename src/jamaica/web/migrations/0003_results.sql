-- Rated play (issue 25). A table is rated or casual, and may admit only players whose shown
-- rating lies in a range (the creator's "within ±N of me"). Every finished table leaves one
-- result per seat: its place (ties shared, R8), its score, who sat there (a player, or a bot)
-- and, at a rated table, the player's rating before and after. The results are written in the
-- transaction that finishes the table, and their key (table, seat) makes a game count once.
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN rating_low INTEGER;
ALTER TABLE tables ADD COLUMN rating_high INTEGER;
CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players(id),
    edition TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, edition)
);
CREATE TABLE results (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player_id TEXT REFERENCES players(id),
    bot TEXT,
    name TEXT NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    place INTEGER NOT NULL,
    score INTEGER NOT NULL,
    abandoned INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    mu_before DOUBLE PRECISION,
    sigma_before DOUBLE PRECISION,
    mu_after DOUBLE PRECISION,
    sigma_after DOUBLE PRECISION,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_player ON results (player_id, at);
CREATE INDEX ratings_ladder ON ratings (edition, games);
