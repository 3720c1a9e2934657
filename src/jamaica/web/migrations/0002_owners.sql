-- Several nodes (PostgreSQL): each live table has one owner node, with a lease the owner renews
-- and an epoch that grows at every change of owner (fencing: a write checks it). The deadline of
-- the pending question lets the next owner keep the timer. Unused by a single SQLite server.
CREATE TABLE owners (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL
);
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    draining INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE tables ADD COLUMN deadline DOUBLE PRECISION;
-- Each node renews its own leases (by node) and looks for orphans among unfinished tables every
-- second: neither reads the whole history.
CREATE INDEX owners_node ON owners (node);
CREATE INDEX tables_unfinished ON tables (created) WHERE finished = 0;
