"""OpenSpiel's `ISMCTSBot` searching at the engine's speed (issue 28).

Through the pyspiel API a simulation of OpenSpiel's ISMCTS (one random rollout) cost about 4.5×
what the same rollout costs on the engine: every step of the rollout crossed pyspiel's C++
trampolines, recorded who saw the answer, sorted the legal actions and drew with numpy's
`choice(p=…)`. Here OpenSpiel's own `ISMCTSBot` (`open_spiel.python.algorithms.ismcts`, its
code unchanged: the same selection (UCT, c = 2), expansion (one child per visit, actions in a
random order), backup and final choice (most visits), with inconsistent action sets allowed)
searches on `EngineSpielState`, a thin stand-in for `python_jamaica`'s state that answers the
calls the bot makes straight from the engine, and evaluates a leaf with `EngineRollout`, the
same evaluation as OpenSpiel's `RandomRolloutEvaluator(n_rollouts=1)` — one game played to its
end, every player's action uniform among the legal ones, chance by its odds, the returns at the
end — played on an engine copy without its event log.

The search is the same search: its nodes are keyed by the same information state strings as
`python_jamaica`'s (`jamaica.envs.openspiel.information_state_string`, byte for byte — tested),
its worlds drawn by the same `State.resample` with the same recall carried over. Only the
random numbers differ (Python's generator in the rollouts, numpy's in the tree), so a seeded
game is still replayed exactly, but not the same game as through pyspiel.

`python -m jamaica.lab.spielsearch` measures the cost of a simulation both ways, interleaved in
one process on the same questions, and prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..envs import vocabulary
from ..envs.openspiel import (
    _AT_SHIFT,
    _BELOW_AT,
    _PUBLIC_SEEN,
    _SEEN_SHIFT,
    _WHO_SHIFT,
    _Core,
    _recall,
    information_state_string,
    settings,
)
from ..rules import CHANCE, TERMINAL, State, new_game
from ..rules.actions import ACTIONS
from ..rules.view import answer_seen_by

UCT_C = 2.0  # OpenSpiel's examples use 2 for ISMCTS with returns in [0, 1]
PYSPIEL_TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
PYSPIEL_CHANCE = -1  # pyspiel.PlayerId.CHANCE


class EngineSpielState:
    """The calls OpenSpiel's `ISMCTSBot` and evaluators make on a `python_jamaica` state, answered
    from the engine: the same answers as `JamaicaState` (the same legal actions in the same order,
    the same information state strings), without pyspiel. `game` is the pyspiel game, asked only
    for its type; `core` holds the engine's state (with its event log: the recall needs it) and
    every answer with who saw it, as `JamaicaState` keeps them."""

    __slots__ = ("_core", "_game")

    def __init__(self, game: Any, core: _Core) -> None:
        self._game = game
        self._core = core

    @classmethod
    def new(cls, game: Any) -> EngineSpielState:
        """The game's initial state."""
        config, reward = settings(game)
        return cls(game, _Core(new_game(config), [], reward))

    @property
    def engine(self) -> State:
        return self._core.engine

    def get_game(self) -> Any:
        return self._game

    def current_player(self) -> int:
        who = self._core.engine.current_player()
        return PYSPIEL_TERMINAL if who == TERMINAL else PYSPIEL_CHANCE if who == CHANCE else who

    def is_chance_node(self) -> bool:
        return self._core.engine.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self._core.engine.current_player() == TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        return sorted(int(a) for a in self._core.engine.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((int(a), p) for a, p in self._core.engine.chance_outcomes())

    def apply_action(self, action: int) -> None:
        """As `JamaicaState._apply_action`: the answer recorded with who saw it, then applied."""
        core = self._core
        s = core.engine
        if answer_seen_by(s, action, None):
            seen = _PUBLIC_SEEN[s.n]
        else:
            seen = 0
            for p in range(s.n):
                if answer_seen_by(s, action, p):
                    seen |= 1 << p
        at = len(s.events) if s.events is not None else 0
        who = s.q[1] & 7 if s.q is not None else 7
        record = (at << _AT_SHIFT) | (who << _WHO_SHIFT) | (seen << _SEEN_SHIFT) | int(action)
        s.apply(ACTIONS[action])
        core.answers.append(record)

    def clone(self) -> EngineSpielState:
        return EngineSpielState(self._game, self._core.copy())

    def returns(self) -> list[float]:
        return vocabulary.returns(self._core.engine, self._core.reward)

    def information_state_string(self, player: int | None = None) -> str:
        who = self.current_player() if player is None else player
        return information_state_string(self, who)  # type: ignore[arg-type]

    def resample_from_infostate(self, player: int, sampler: Any) -> EngineSpielState:
        """As `JamaicaState.resample_from_infostate`: a world drawn by `State.resample` with a
        generator seeded from `sampler()`, the answers the player saw renumbered among the
        events the player saw, the player's recall carried over (no pyspiel history: the bot
        never reads it)."""
        core = self._core
        rng = random.Random(int(sampler() * 2**53))
        engine = core.engine.resample(player, rng)
        before = [0]
        n = 0
        for e in core.engine.events or ():
            n += e[0] >> player & 1
            before.append(n)
        bit = _SEEN_SHIFT + player
        answers = [
            (before[r >> _AT_SHIFT] << _AT_SHIFT) | (r & _BELOW_AT)
            for r in core.answers
            if r >> bit & 1
        ]
        new = _Core(engine, answers, core.reward)
        done = _recall(core, player)
        new.recall[player] = (len(answers), n, done[2], done[3])
        return EngineSpielState(self._game, new)


def load_game(players: int = 2) -> Any:
    import pyspiel

    import jamaica.envs.openspiel  # noqa: F401  (registers python_jamaica)

    return pyspiel.load_game("python_jamaica", {"players": players, "reward": "win"})


def decision_points(count: int, seed: int) -> list[list[int]]:
    """Action histories leading to `count` questions with a choice, from greedy games."""
    from ..bots import make_bot
    from ..envs.openspiel import settings
    from ..rules import CHANCE, new_game

    config = settings(load_game(2))[0]
    rng = random.Random(seed)
    out: list[list[int]] = []
    g = 0
    while len(out) < count:
        s = new_game(config, log=False)
        bots = [make_bot("greedy", seed + g), make_bot("greedy", seed + g + 1)]
        step = 0
        while not s.is_terminal() and len(out) < count:
            who = s.current_player()
            if who != CHANCE and len(s.legal) > 1:
                step += 1
                if step % 9 == 0:
                    out.append(list(s.history))
            s.apply(s.sample_chance(rng) if who == CHANCE else bots[who].act(s, who))
        g += 2
    return out


def play_out(s: State, rng: random.Random) -> None:
    """Play `s` to its end: every player's action uniform among the legal ones, chance by its
    odds (OpenSpiel's `RandomRolloutEvaluator`'s rollout)."""
    while True:
        who = s.current_player()
        if who == TERMINAL:
            return
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            legal = s.legal
            s.apply(legal[int(rng.random() * len(legal))])


class EngineRollout:
    """OpenSpiel's `RandomRolloutEvaluator(n_rollouts=1)` on the engine: `evaluate` plays one
    random game from the state (on a copy without its event log) and returns its returns;
    `prior` is uniform over the legal actions (chance: its odds), as that evaluator's."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: EngineSpielState) -> list[float]:
        s = state.engine.clone(log=False)
        play_out(s, self.rng)
        return vocabulary.returns(s, state._core.reward)

    def prior(self, state: EngineSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's `ISMCTSBot` (UCT c = 2, most visits, inconsistent action sets allowed) with
    `EngineRollout` as its evaluator, to search on `EngineSpielState`s; every draw seeded from
    `seed`: its tree's from numpy's generator, its rollouts' from Python's. Left to itself the
    bot draws its worlds with an unseeded `pyspiel.UniformProbabilitySampler`, so that a seeded
    game would never play the same twice; its `_resampler_cb` (the Python port of the C++ bot's
    `SetResampler`) makes it draw them from its own seeded generator instead."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    rs = np.random.RandomState(seed % 2**32)
    bot = ismcts.ISMCTSBot(
        game,
        EngineRollout(random.Random(seed)),
        UCT_C,
        max_simulations=simulations,
        random_state=rs,
        allow_inconsistent_action_sets=True,  # other hands differ between worlds
    )
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, rs.uniform)
    return bot


def pyspiel_bot(game: Any, simulations: int, seed: int) -> Any:
    """The same bot through the pyspiel API, as the yardstick ran it before issue 28: on
    `python_jamaica` states, with OpenSpiel's own `RandomRolloutEvaluator` (kept to measure what
    the engine path saves)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, max_simulations=simulations, random_state=rs,
                           allow_inconsistent_action_sets=True)  # fmt: skip
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, rs.uniform)
    return bot


@dataclass(frozen=True)
class SimulationCost:
    """CPU milliseconds per simulation of OpenSpiel's ISMCTS, both ways, on the same questions;
    and of one random rollout alone on the engine from those questions."""

    pyspiel_ms: float
    engine_ms: float
    rollout_ms: float
    questions: int
    simulations: int
    repeat: int

    @property
    def ratio(self) -> float:
        return self.pyspiel_ms / self.engine_ms

    def text(self) -> str:
        return (
            f"OpenSpiel's ISMCTSBot, {self.simulations} simulations on each of {self.questions} "
            f"heads-up questions (from greedy games), {self.repeat} round(s), the two ways in "
            f"turn: through the pyspiel API {self.pyspiel_ms:.2f} ms a simulation, on the engine "
            f"{self.engine_ms:.2f} ms: {self.ratio:.2f}x faster. One random rollout alone on the "
            f"engine from the same questions: {self.rollout_ms:.2f} ms."
        )


def simulation_cost(
    questions: int = 12, simulations: int = 40, repeat: int = 2, seed: int = 5
) -> SimulationCost:
    """Measure `SimulationCost` (process CPU time), interleaved question by question so that a
    change in the machine's load falls on both ways alike."""
    game = load_game(2)
    slow: list[Any] = []
    fast: list[EngineSpielState] = []
    for history in decision_points(questions, seed):
        state, mirror = game.new_initial_state(), EngineSpielState.new(game)
        for a in history:
            state.apply_action(a)
            mirror.apply_action(a)
        slow.append(state)
        fast.append(mirror)
    old, new = pyspiel_bot(game, simulations, seed), ismcts_bot(game, simulations, seed)
    rng = random.Random(seed)
    spent = [0.0, 0.0, 0.0]
    for _ in range(repeat):
        for state, mirror in zip(slow, fast, strict=True):
            t0 = time.process_time()
            old.step(state)
            t1 = time.process_time()
            new.step(mirror)
            t2 = time.process_time()
            for _ in range(simulations):
                play_out(mirror.engine.clone(log=False), rng)
            t3 = time.process_time()
            spent[0] += t1 - t0
            spent[1] += t2 - t1
            spent[2] += t3 - t2
    n = repeat * len(slow) * simulations
    ms = [1000 * t / n for t in spent]
    return SimulationCost(ms[0], ms[1], ms[2], len(slow), simulations, repeat)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m jamaica.lab.spielsearch", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--questions", type=int, default=12)
    p.add_argument("--simulations", type=int, default=40)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--seed", type=int, default=5)
    ns = p.parse_args(argv)
    if min(ns.questions, ns.simulations, ns.repeat) < 1:
        p.error("--questions, --simulations and --repeat must be at least 1")
    print(simulation_cost(ns.questions, ns.simulations, ns.repeat, ns.seed).text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
