"""Opening a store from its URL (`sqlite:///FILE`, the default, or `postgresql://…`), and
`jamaica db …`: upgrading a database's schema and copying a server's history between databases."""

from __future__ import annotations

import os

from .store import SQLStore, StoreError, safe_url

__all__ = ["DEFAULT_DB", "copy_history", "db_url", "open_store", "safe_url"]

DEFAULT_DB = "sqlite:///jamaica.db"


def db_url(given: str | None) -> str:
    """`--db`, else `JAMAICA_DB`, else the default SQLite file."""
    return given or os.environ.get("JAMAICA_DB") or DEFAULT_DB


def open_store(url: str, *, upgrade: bool | None = None) -> SQLStore:
    """The store for `--db URL`; a StoreError with a one-line message if it cannot be used (bad
    URL, not a database, in use by another server, unreachable, a schema this code does not
    know). `upgrade`: migrate an older schema (default: yes for a SQLite file, which one server
    owns; no for PostgreSQL, which several nodes share — run `jamaica db upgrade`)."""
    if url.startswith("sqlite:///"):
        from .store_sqlite import SQLiteStore

        return SQLiteStore.from_url(url, upgrade=True if upgrade is None else upgrade)
    if url.startswith(("postgresql://", "postgres://")):
        try:
            from .store_pg import PostgresStore
        except ImportError:
            raise StoreError(
                "PostgreSQL needs psycopg, the scale extra: pip install -e '.[scale]'"
            ) from None
        return PostgresStore(url, upgrade=bool(upgrade))
    raise StoreError(
        f"--db must look like sqlite:///FILE or postgresql://USER@HOST/NAME, not {url!r}"
    )


# Every table of the schema a server's history lives in, parents first, with its columns (the
# owners and nodes of a running service are not history: they are not copied).
HISTORY = (
    ("tables", "id, config, seats, seed, seconds_per_decision, created, finished, started, "
               "creator, rematch, deadline, rated, rating_low, rating_high, summary"),
    ("players", "id, name, key_hash, created"),
    ("actions", "table_id, seq, action, by, at"),
    ("early_choices", "table_id, round, seat, action"),
    ("chat", "table_id, seq, at, seat, name, text"),
    ("ratings", "player_id, edition, mu, sigma, games"),
    ("results", "table_id, seat, player_id, bot, name, edition, players, place, score, "
                "abandoned, rated, mu_before, sigma_before, mu_after, sigma_after, at, won"),
    ("analyses", "table_id, seat, version, words, game, at, body"),
)  # fmt: skip
COPY_BATCH = 2000  # rows a statement


def copy_history(source: SQLStore, target: SQLStore) -> dict[str, int]:
    """Every table, decision, early choice, player and chat line of `source` into `target`, in
    one transaction (all or nothing); the rows copied per table. The target must be empty."""
    if target.table_ids() or target.count("players"):
        raise StoreError("the target database is not empty: copy into a new database")
    counts = {}
    with target.write() as db:
        for name, columns in HISTORY:
            marks = ", ".join("?" for _ in columns.split(","))
            rows = source.rows(f"SELECT {columns} FROM {name}")
            for start in range(0, len(rows), COPY_BATCH):
                db.run_many(f"INSERT INTO {name} ({columns}) VALUES ({marks})",
                            rows[start : start + COPY_BATCH])  # fmt: skip
            counts[name] = len(rows)
    return counts
