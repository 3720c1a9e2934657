"""The project's bots for OpenSpiel users: `spiel_bot("greedy", seed=1)` is a `pyspiel.Bot` that
plays `python_jamaica`, so OpenSpiel's evaluation tools can pit their agents against ours::

    import pyspiel
    from jamaica.envs.spiel_bots import spiel_bot
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    bots = [spiel_bot("greedy", seed=1), spiel_bot("ismcts:iterations=400", seed=2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)

A spec is what `jamaica.bots.make_bot` takes ("random", "greedy", "ismcts:iterations=400", …).
Our bots decide from their player's view only (they resample the hidden cards), so handing them
the true state is fair.

`HeuristicEvaluator` is an OpenSpiel MCTS evaluator built on the bots' evaluation of a position
(no rollout): with it, OpenSpiel's own `ISMCTSBot` searches at 1,000 simulations per move in well
under a second.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyspiel

from ..bots import make_bot
from ..bots.heuristics import evaluate
from ..rules import Agent
from .openspiel import JamaicaState


class ProjectBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the project's bots (`make_bot(spec, seed)`) as a `pyspiel.Bot`."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        super().__init__()
        self.spec = spec
        self.agent: Agent = make_bot(spec, seed)

    def step(self, state: JamaicaState) -> int:
        engine = state._core.engine
        return int(self.agent.act(engine, engine.current_player()))

    def restart_at(self, state: JamaicaState) -> None:
        pass

    def inform_action(self, state: JamaicaState, player_id: int, action: int) -> None:
        pass

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"ProjectBot({self.spec!r})"


def spiel_bot(spec: str, seed: int | None = None) -> ProjectBot:
    """The bot named by `spec` as a `pyspiel.Bot` (a bad spec raises ValueError)."""
    return ProjectBot(spec, seed)


class HeuristicEvaluator:
    """An `open_spiel.python.algorithms.mcts.Evaluator`: a position's value for each player is
    the bots' evaluation (their estimated score against the best rival's), squashed to (−1, 1)
    by tanh(value / scale); uniform priors. Terminal states get their true returns from MCTS
    itself."""

    def __init__(self, scale: float = 10.0) -> None:
        self.scale = scale

    def evaluate(self, state: JamaicaState) -> np.ndarray:
        engine = state._core.engine
        return np.array(
            [math.tanh(evaluate(engine, p) / self.scale) for p in range(engine.n)], np.float64
        )

    def prior(self, state: JamaicaState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def ismcts_bot(game: Any, simulations: int = 1000, seed: int = 0) -> Any:
    """OpenSpiel's `ISMCTSBot` for `python_jamaica`, with the heuristic evaluator."""
    from open_spiel.python.algorithms import ismcts

    return ismcts.ISMCTSBot(
        game,
        HeuristicEvaluator(),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
