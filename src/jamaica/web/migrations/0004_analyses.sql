-- Post-game analyses (issue 28): master's verdicts on one seat's decisions of a finished table,
-- worked out once (tens of seconds of search) and kept with the table, one row per seat, so that
-- a restart, a deploy or another node serves them without searching again.
-- `version`: what the search depends on (the analysis's version, its budget and seed, and a
-- fingerprint of the engine's, the bots' and the analysis's code); `words`: what its words
-- depend on (the languages, and a fingerprint of the catalogs and of the code that says them);
-- `game`: a digest of what was judged (the settings, every decision, the steps a bot or the clock
-- answered for the seat, the seats' names). A row whose version or game differ is worked out
-- again; whose words differ, only said again. `at`: when the search was made. `body`: the
-- analysis and its words in every language, JSON compressed with zlib (a few kB; at most
-- `analysis_store.MAX_STORED` bytes).
CREATE TABLE analyses (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    version TEXT NOT NULL,
    words TEXT NOT NULL,
    game TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (table_id, seat)
)
