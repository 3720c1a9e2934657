"""Post-game analyses kept with their tables (issue 28): what is stored, under which key, and
when a stored analysis is still the one this code would make.

The analysis of seat P of a finished table is a pure function of the game (its settings, every
decision, the steps a bot or the clock answered for P, the seats' names), of the budget and seed
of master's search, and of the code. It is stored once worked out — in the table's database, as
the table's decisions are: SQLite by default, PostgreSQL shared by several nodes — one row per
(table, seat) of the `analyses` table (migration 4), under three keys:

- `version`: ANALYSIS_VERSION, the budget, the seed, and a fingerprint of the code the verdicts
  come from (the engine, the bots, the analysis): a row of another version is worked out again;
- `words`: the languages and a fingerprint of the catalogs and of the code that says the
  verdicts: a row whose only difference is its words is said again from its verdicts (a few
  milliseconds in the worker), not searched again;
- `game`: a digest of what was judged: a row of another game is never served.

The body is the language-neutral analysis (`GameAnalysis.to_dict`) and its words in every
language (the JSON the page gets), compressed with zlib: 5 to 8 kB for a whole game of 2 to 6
players (about 50 kB before compression); MAX_STORED bounds it.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from ..analysis.core import GameAnalysis
from ..i18n import LANGUAGES
from .store import AnalysisRow, Store, StoreError

ANALYSIS_VERSION = 1  # bump when what a verdict means changes without its code changing
MAX_STORED = 256_000  # bytes of one seat's stored analysis, compressed (measured: 5 to 8 kB)
MAX_INFLATED = 16 * MAX_STORED  # bytes it may inflate to (measured: about 8 times its size)
# The code each key depends on: (package, file patterns) — every file of those names under it.
SEARCH_CODE = (("jamaica.rules", ("*.py", "*.json")), ("jamaica.bots", ("*.py", "*.json")),
               ("jamaica.analysis", ("core.py", "__init__.py")))  # fmt: skip
WORDS_CODE = (("jamaica.analysis", ("words.py",)), ("jamaica.i18n", ("*.py", "*.mo")))


@dataclass(frozen=True)
class Kept:
    """An analysis worked out: when its search was made, the language-neutral analysis, and its
    words in each language (the JSON the page gets)."""

    at: float
    analysis: dict[str, Any]
    said: dict[str, bytes]


@dataclass(frozen=True)
class Key:
    version: str
    words: str
    game: str


def _files(root: Traversable, patterns: tuple[str, ...], path: str = "") -> list[tuple[str, bytes]]:
    out = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        name = f"{path}/{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                out += _files(entry, patterns, name)
        elif any(_matches(entry.name, p) for p in patterns):
            out.append((name, entry.read_bytes()))
    return out


def _matches(name: str, pattern: str) -> bool:
    return name.endswith(pattern[1:]) if pattern.startswith("*") else name == pattern


@cache
def fingerprint(code: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """A digest of the files named by `code` (read once per process)."""
    h = hashlib.sha256()
    for package, patterns in code:
        for name, data in _files(resources.files(package), patterns):
            h.update(f"{package}{name}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()[:16]


def key_of(
    iterations: int, seed: int, config: dict[str, Any], history: tuple[int, ...],
    skip: tuple[int, ...], names: tuple[str, ...],
) -> Key:  # fmt: skip
    """The keys of an analysis made by this code with this budget and seed, of this game."""
    game = json.dumps({"config": config, "history": history, "skip": sorted(skip),
                       "names": names}, sort_keys=True, separators=(",", ":"))  # fmt: skip
    return Key(
        f"{ANALYSIS_VERSION}:{iterations}:{seed}:{fingerprint(SEARCH_CODE)}",
        f"{','.join(LANGUAGES)}:{fingerprint(WORDS_CODE)}",
        hashlib.sha256(game.encode()).hexdigest(),
    )


def pack(kept: Kept) -> bytes:
    """The stored body of an analysis."""
    text = json.dumps({"analysis": kept.analysis,
                       "said": {lang: b.decode() for lang, b in kept.said.items()}},
                      ensure_ascii=False, separators=(",", ":"))  # fmt: skip
    return zlib.compress(text.encode(), 6)


def unpack(body: bytes, at: float) -> Kept:
    """A stored body back; a ValueError if it is not one."""
    try:
        inflate = zlib.decompressobj()
        text = inflate.decompress(body, MAX_INFLATED)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError("not a stored analysis: too large or cut short")
        d = json.loads(text)
    except (zlib.error, RecursionError) as e:
        raise ValueError(f"not a stored analysis: {e}") from None
    if not (isinstance(d, dict) and isinstance(d.get("analysis"), dict)
            and isinstance(d.get("said"), dict)
            and all(isinstance(v, str) for v in d["said"].values())):  # fmt: skip
        raise ValueError("not a stored analysis")
    return Kept(at, d["analysis"], {lang: v.encode() for lang, v in d["said"].items()})


def save(store: Store, table_id: str, seat: int, key: Key, kept: Kept) -> int:
    """Store the analysis (blocking: call it in a thread); its size in bytes, or 0 if it is over
    MAX_STORED and was not stored (it is then kept in memory only)."""
    body = pack(kept)
    if len(body) > MAX_STORED:
        return 0
    store.save_analysis(table_id, seat, AnalysisRow(key.version, key.words, key.game, kept.at,
                                                    body))  # fmt: skip
    return len(body)


def recall(store: Store, table_id: str, seat: int, key: Key) -> Kept | None:
    """The stored analysis of this game if this code would make the same (blocking: call it in a
    thread): with its words if they are current, else with none (`said` empty: to be said
    again). None if there is none, or it is of another version or game, or damaged."""
    try:
        row = store.analysis(table_id, seat)
    except StoreError:
        raise
    except ValueError:  # a damaged row: made again, and replaced
        return None
    if row is None or row.version != key.version or row.game != key.game:
        return None
    try:
        kept = unpack(row.body, row.at)
        GameAnalysis.from_dict(kept.analysis)  # its verdicts can be said again
    except (ValueError, KeyError, TypeError):
        return None
    if row.words != key.words or set(kept.said) != set(LANGUAGES):
        return Kept(kept.at, kept.analysis, {})
    return kept
