"""`jamaica bench`: how fast the engine is, measured on one core."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .rules import CHANCE, Config, State, new_game


@dataclass
class BenchResult:
    games: int
    seconds: float
    decisions: int
    steps: int
    clone_us: float
    view_us: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds


def random_game(config: Config, rng: random.Random) -> tuple[State, int, int]:
    """A complete game with uniformly random decisions, through the public API, no event log."""
    s = new_game(config, log=False)
    decisions = steps = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = legal[int(rng.random() * len(legal))]
            decisions += 1
        s.apply(a)
        steps += 1
    return s, decisions, steps


def mid_game_state(config: Config, seed: int = 7, steps: int = 200) -> State:
    rng = random.Random(seed)
    s = new_game(config)
    for _ in range(steps):
        if s.is_terminal():
            break
        a = s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        s.apply(a)
    return s


def _per_call_us(fn: object, repeat: int) -> float:
    f = fn  # a zero-argument callable
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            f()  # type: ignore[operator]
        best = min(best, (time.perf_counter() - t) / repeat)
    return best * 1e6


def run_bench(
    games: int = 500, players: int = 4, edition: str = "2021", seed: int = 1
) -> BenchResult:
    config = Config(players=players, edition=edition)
    rng = random.Random(seed)
    decisions = steps = 0
    t = time.perf_counter()
    for _ in range(games):
        _, d, n = random_game(config, rng)
        decisions += d
        steps += n
    seconds = time.perf_counter() - t
    mid = mid_game_state(config)
    clone_us = _per_call_us(mid.clone, 2000)
    silent = mid.clone(log=False)
    view_us = _per_call_us(lambda: silent.view(0), 500)
    return BenchResult(games, seconds, decisions, steps, clone_us, view_us)


def bot_bench(players: int = 4, edition: str = "2021", games: int = 10) -> tuple[float, float]:
    """Greedy decisions per second (time inside the bot) and ISMCTS iterations per second on a
    4-player mid-game position."""
    from .bots import GreedyBot, ISMCTSBot

    config = Config(players=players, edition=edition)
    spent, decisions = 0.0, 0
    for g in range(games):
        bots = [GreedyBot(g * 10 + p) for p in range(players)]
        rng = random.Random(g)
        s = new_game(config, log=False)
        while not s.is_terminal():
            who = s.current_player()
            if who == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            t = time.perf_counter()
            a = bots[who].act(s, who)
            spent += time.perf_counter() - t
            decisions += 1
            s.apply(a)
    mid = mid_game_state(Config(players=4, edition=edition), seed=3, steps=150)
    rng = random.Random(0)
    while mid.current_player() == CHANCE or mid.decision_kind() != "card":
        mid.apply(mid.sample_chance(rng) if mid.current_player() == CHANCE else mid.legal[0])
    bot = ISMCTSBot(1, seconds=2.0)
    t = time.perf_counter()
    bot.search(mid, mid.current_player())
    return decisions / spent, bot.last_iterations / (time.perf_counter() - t)


def report(r: BenchResult, players: int, edition: str) -> str:
    return "\n".join(
        [
            f"random {players}-player games ({edition} edition), one core:",
            f"  games/s            {r.games_per_s:10.0f}   ({r.games} games in {r.seconds:.2f} s)",
            f"  decisions/s        {r.decisions_per_s:10.0f}   (player decisions)",
            f"  steps/s            {r.steps_per_s:10.0f}   (decisions and chance events)",
            f"  clone()            {r.clone_us:10.1f} µs (mid-game, with its event log)",
            f"  view()             {r.view_us:10.1f} µs",
        ]
    )


def env_bench(seconds: float = 3.0) -> tuple[float, float]:
    """Environment steps per second with random actions: PettingZoo (`jamaica_v0.env`, through
    `agent_iter`/`last`/`step`, observations included) and OpenSpiel (`apply_action`, with an
    observation tensor per step)."""
    import numpy as np

    from .envs import jamaica_v0

    env = jamaica_v0.env(players=4)
    rng = random.Random(1)
    steps, game = 0, 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        env.reset(seed=game)
        game += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    pettingzoo = steps / (time.perf_counter() - t)

    import pyspiel

    from .envs import openspiel  # noqa: F401  (registers the game)

    ospiel = pyspiel.load_game("python_jamaica", {"players": 4})
    steps = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        state = ospiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return pettingzoo, steps / (time.perf_counter() - t)
