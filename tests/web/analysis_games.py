"""Finished games stored for the analysis tests: seat 0 an invite link (its token), seat 1 a
player with a key, the others bots."""

from __future__ import annotations

import time
from pathlib import Path

from jamaica import Config
from jamaica.bots import GreedyBot
from jamaica.rules.driver import play_game
from jamaica.web.players import key_hash
from jamaica.web.store import ActionRow, PlayerRecord, TableRecord
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import token_hash

TOKEN = "t" * 32  # seat 0's link
KEY = "k" * 43  # Ben's key: he holds seat 1
OTHER_KEY = "o" * 43  # a player who sat at no table


def store_game(
    db: Path, table_id: str = "done", players: int = 2, rounds: int = 3, seed: int = 3,
    finished: bool = True, by_bot: frozenset[int] = frozenset(),
) -> list[int]:  # fmt: skip
    """A game of `rounds` rounds at most, stored as table `table_id`; its history (without its
    last decisions when not `finished`); the steps of `by_bot` stored as a bot's answers (a bot
    played for the seat there)."""
    config = Config(players=players, max_rounds=rounds)
    history = play_game(config, [GreedyBot(i) for i in range(players)], seed=seed).actions
    if not finished:
        history = history[: len(history) // 2]
    store = SQLiteStore(db)
    if store.player_by_key(key_hash(KEY)) is None:
        store.create_player(PlayerRecord("id-ben", "Ben", key_hash(KEY), time.time()))
        store.create_player(PlayerRecord("id-olga", "Olga", key_hash(OTHER_KEY), time.time()))
    seats = [{"kind": "invite", "name": "Ann", "bot": None, "token_hash": token_hash(TOKEN),
              "player": None},
             {"kind": "player", "name": "Ben", "bot": None, "token_hash": None,
              "player": "id-ben"}]  # fmt: skip
    seats += [{"kind": "bot", "name": f"Bot {i}", "bot": "greedy", "token_hash": None}
              for i in range(2, players)]  # fmt: skip
    store.create_table(TableRecord(table_id, config.to_dict(), seats, seed, None, time.time(),
                                   finished=finished))  # fmt: skip
    rows = [ActionRow(i, int(a), "bot" if i in by_bot else "player") for i, a in enumerate(history)]
    store.append_many(table_id, rows)
    store.close()
    return list(history)
