-- The tables, their decisions, early card choices, players and chat (the schema of every
-- release before schema versions existed; an older SQLite file is adopted as this version).
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seconds_per_decision DOUBLE PRECISION,
    created DOUBLE PRECISION NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    started INTEGER NOT NULL DEFAULT 1,
    creator TEXT,
    rematch TEXT
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    action INTEGER NOT NULL,
    by TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE early_choices (
    table_id TEXT NOT NULL REFERENCES tables(id),
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, round, seat)
);
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
