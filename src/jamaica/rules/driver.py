"""Playing whole games: the agent interface, a seeded driver, game records and their replay."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

from .actions import NUM_ACTIONS, Action
from .config import Config
from .data import FINISH_SCORE, MAX_HOLD, NO_SCORE, SLOTS, TREASURE_COUNTS, TREASURE_VALUES
from .fields import Reader, is_int, json_type
from .ops import CHANCE
from .state import State, new_game


class Agent(Protocol):
    """Anything that answers a player's questions: given the state and its seat, a legal action."""

    def act(self, state: State, player: int) -> Action: ...


class RandomAgent:
    """Uniform over the legal actions; seeded."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, player: int) -> Action:
        legal = state.legal
        return legal[int(self.rng.random() * len(legal))]


RECORD_FORMAT = 1
_WORTH = [v * c for v, c in zip(TREASURE_VALUES, TREASURE_COUNTS, strict=True)]
LOWEST_SCORE = NO_SCORE + sum(w for w in _WORTH if w < 0)  # every cursed treasure, off the track
HIGHEST_SCORE = FINISH_SCORE + SLOTS * MAX_HOLD + sum(w for w in _WORTH if w > 0)


@dataclass
class Record:
    """A whole game: its configuration, seed, and every action applied (chance outcomes
    included). `replay(record)` rebuilds the final state exactly."""

    config: Config
    seed: int | None
    actions: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    rounds: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": list(self.actions),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": self.rounds,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_dict(d: Any) -> Record:
        """The record `to_dict` wrote (seed, scores, winners and rounds may be left out); a
        `FieldError` ("not a valid game record: winners[0]: …") names the first bad field."""
        r = Reader("not a valid game record")
        if not isinstance(d, dict) or not is_int(d.get("format")) or d["format"] != RECORD_FORMAT:
            raise ValueError(f"not a jamaica game record (format {RECORD_FORMAT})")
        r.obj(d, "", ("format", "config", "actions"), ("seed", "scores", "winners", "rounds"))
        try:
            config = Config.from_dict(d["config"])
        except ValueError as e:
            raise r.fail("config", str(e)) from None
        seed = d.get("seed")
        if seed is not None and not is_int(seed):
            raise r.fail("seed", f"must be an integer or null, not {json_type(seed)}")
        actions = r.integers(d["actions"], "actions", 0, NUM_ACTIONS - 1, meaning="an action id")
        ships = config.ships
        scores = r.integers(d.get("scores", []), "scores", LOWEST_SCORE, HIGHEST_SCORE,
                            meaning="a score")  # fmt: skip
        if len(scores) not in (0, ships):
            why = f"must list the {ships} ships' scores (or none), not {len(scores)}"
            raise r.fail("scores", why)
        winners = r.integers(d.get("winners", []), "winners", 0, ships - 1, meaning="a ship")
        if any(a >= b for a, b in pairwise(winners)):
            raise r.fail("winners", "must list different ships, in order")
        if scores and (not winners or any(scores[w] != max(scores) for w in winners)):
            raise r.fail("winners", "must be ships with the highest score")
        if winners and not scores:
            raise r.fail("winners", "a record without scores has no winners")
        rounds = r.integer(d.get("rounds", 0), "rounds", 0, config.max_rounds)
        return Record(config, seed, actions, scores, winners, rounds)

    @staticmethod
    def from_json(text: str | bytes) -> Record:
        try:
            d = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ValueError(f"a game record must be JSON: {e}") from None
        except (RecursionError, TypeError, ValueError) as e:  # nested too deep, not a text, …
            raise ValueError(f"a game record must be JSON text: {type(e).__name__}") from None
        return Record.from_dict(d)


def play_game(
    config: Config | None,
    agents: Sequence[Agent],
    seed: int | None = None,
    *,
    log: bool = False,
    final_state: list[State] | None = None,
) -> Record:
    """Play a game to its end: chance from `random.Random(seed)`, decisions from the agents (one
    per player seat). Same seed and same decisions give the same record. `final_state`, if given,
    receives the final state."""
    cfg = config if config is not None else Config()
    if len(agents) != cfg.players:
        raise ValueError(f"{cfg.players} players need {cfg.players} agents, not {len(agents)}")
    rng = random.Random(seed)
    s = new_game(cfg, log=log)
    while not s.is_terminal():
        who = s.current_player()
        a = s.sample_chance(rng) if who == CHANCE else agents[who].act(s, who)
        s.apply(a)
    if final_state is not None:
        final_state.append(s)
    return Record(cfg, seed, list(s.history), [sc.total for sc in s.scores()], s.winners(), s.rnd)


def replay(record: Record, *, log: bool = True) -> State:
    """The final state of a recorded game, rebuilt by applying its actions."""
    s = new_game(record.config, log=log)
    for i, a in enumerate(record.actions):
        try:
            s.apply(a)
        except ValueError as e:
            raise ValueError(f"the record does not replay: action {i}: {e}") from None
    return s
