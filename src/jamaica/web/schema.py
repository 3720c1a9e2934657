"""The database schema's versions: a small ordered list of SQL files, `migrations/NNNN_name.sql`,
and a one-row `schema_version` table saying which of them a database has.

Why not Alembic: the schema is five tables of plain SQL that both SQLite and PostgreSQL read as
they are; numbered files applied in order, each in its own transaction with the version row,
are all it needs, and an operator can read exactly what `jamaica db upgrade` will do.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def _statements(text: str) -> tuple[str, ...]:
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("--")]
    return tuple(s.strip() for s in "\n".join(lines).split(";") if s.strip())


def migrations() -> list[Migration]:
    """Every migration, in order; their numbers run 1, 2, 3… without gaps."""
    found = []
    for entry in resources.files("jamaica.web").joinpath("migrations").iterdir():
        name = entry.name
        if name.endswith(".sql"):
            number, _, rest = name.removesuffix(".sql").partition("_")
            found.append(Migration(int(number), rest, _statements(entry.read_text("utf-8"))))
    found.sort(key=lambda m: m.version)
    assert [m.version for m in found] == list(range(1, len(found) + 1)), "migrations have a gap"
    return found


LATEST = len(migrations())
VERSION_TABLE = "CREATE TABLE schema_version (version INTEGER NOT NULL)"
