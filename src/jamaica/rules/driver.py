"""Playing whole games: the agent interface, a seeded driver, game records and their replay."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .actions import Action
from .config import Config
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
        if not isinstance(d, dict) or d.get("format") != RECORD_FORMAT:
            raise ValueError("not a jamaica game record (format 1)")
        try:
            actions = d["actions"]
            if not isinstance(actions, list) or not all(
                isinstance(a, int) and not isinstance(a, bool) for a in actions
            ):
                raise ValueError("a record's actions must be a list of action ids")
            return Record(
                Config.from_dict(d["config"]),
                d.get("seed"),
                list(actions),
                list(d.get("scores", [])),
                list(d.get("winners", [])),
                int(d.get("rounds", 0)),
            )
        except KeyError as e:
            raise ValueError(f"a game record needs {e.args[0]!r}") from None

    @staticmethod
    def from_json(text: str) -> Record:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"a game record must be JSON: {e}") from None
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
