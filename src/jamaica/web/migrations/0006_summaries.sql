-- Finished tables are read from the database, never rebuilt at start (issue 28 review: a restart
-- replayed every game ever finished, about 2.4 ms each, and kept 4 kB of each in memory).
-- `summary`: a finished table's lobby line (JSON: names, result, round; nothing secret), written
-- when the table leaves memory; NULL until then, and for tables stored before this version: the
-- line is then worked out by replaying the game, once, and written. The index gives the lobby
-- the newest finished tables without reading the others.
ALTER TABLE tables ADD COLUMN summary TEXT;
CREATE INDEX tables_finished ON tables (created) WHERE finished = 1;
