"""An outside yardstick (issue 15): one of our bots against OpenSpiel's own `ISMCTSBot` (random
rollouts), heads-up, at an equal CPU budget per decision.

OpenSpiel's bot is its library code (`open_spiel.python.algorithms.ismcts`, UCT c = 2) searching
at the engine's speed (`jamaica.lab.spielsearch`, issue 28): it decides on an
`EngineSpielState`, which answers the bot's calls from the engine with the same legal actions
and the same information state strings as the registered game `python_jamaica`, and its leaves
are valued by one random rollout played on the engine, as `RandomRolloutEvaluator` plays it.
(Through the pyspiel API the same simulation cost 5–7× more: `python -m jamaica.lab.spielsearch`
measures both.) Ours plays on an engine state kept in step by applying the same action ids.
Chance is drawn from the game's `chance_outcomes()` with a seeded `random.Random`; seats
alternate game by game.

Equal CPU: unless `--simulations` is given, OpenSpiel's budget is calibrated first — both bots
answer the same sampled questions (every one with a choice), their mean CPU time per question is
measured, and OpenSpiel's simulations are scaled to match ours. The match reports the CPU time
each side actually used per question with a choice, so the equality can be checked.

    python -m jamaica.lab.yardstick --bot hard --games 100 --seed 17 --workers 2

With `--workers` above 1 or `--ray`, the games are Ray tasks (`jamaica.lab.distributed`).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .spielsearch import decision_points, load_game


def _chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return int(action)
    return int(outcomes[-1][0])


@dataclass
class GameOutcome:
    share: float  # our bot's win share (a shared victory counts 1/k)
    ours: list[float]  # CPU seconds per question with a choice, our bot
    theirs: list[float]  # the same, OpenSpiel's bot
    rounds: int


Job = tuple[int, int, str, int]  # seed, our seat, our bot's spec, OpenSpiel's simulations


def play(job: Job) -> GameOutcome:
    """One heads-up game: our bot in `seat`, OpenSpiel's ISMCTS in the other."""
    from ..bots import make_bot
    from ..envs.openspiel import settings
    from ..rules import new_game
    from .spielsearch import EngineSpielState, ismcts_bot

    seed, seat, spec, simulations = job
    game = load_game(2)
    config = settings(game)[0]
    ours = make_bot(spec, seed * 10 + seat)
    theirs = ismcts_bot(game, simulations, seed * 10 + 1 - seat)
    rng = random.Random(seed)
    state = EngineSpielState.new(game)
    mirror = new_game(config, log=False)
    times: tuple[list[float], list[float]] = ([], [])
    while not state.is_terminal():
        who = state.current_player()
        if state.is_chance_node():
            a = _chance(state, rng)
        else:
            choice = len(state.legal_actions()) > 1
            t0 = time.process_time()
            a = int(ours.act(mirror, who)) if who == seat else int(theirs.step(state))
            if choice:
                times[0 if who == seat else 1].append(time.process_time() - t0)
        state.apply_action(a)
        mirror.apply(a)
    winners = mirror.winners()
    share = 1.0 / len(winners) if seat in winners else 0.0
    return GameOutcome(share, times[0], times[1], mirror.rnd)


def calibrate(spec: str, points: int = 24, probe: int = 40, seed: int = 5) -> tuple[int, float]:
    """OpenSpiel simulations that cost as much CPU per question as `spec`, and that cost."""
    from ..bots import make_bot
    from ..envs.openspiel import settings
    from ..rules import new_game
    from .spielsearch import EngineSpielState, ismcts_bot

    game = load_game(2)
    config = settings(game)[0]
    histories = decision_points(points, seed)
    ours = make_bot(spec, seed)
    theirs = ismcts_bot(game, probe, seed)
    t_ours = t_theirs = 0.0
    for h in histories:
        s = new_game(config, log=False)
        st = EngineSpielState.new(game)
        for a in h:
            s.apply(a)
            st.apply_action(a)
        t0 = time.process_time()
        ours.act(s, s.current_player())
        t1 = time.process_time()
        theirs.step(st)
        t2 = time.process_time()
        t_ours += t1 - t0
        t_theirs += t2 - t1
    per_question = t_ours / len(histories)
    return max(1, round(probe * t_ours / t_theirs)), per_question


def main(argv: Sequence[str] | None = None) -> int:
    from ..bots import parse_spec
    from .distributed import Cluster, run_jobs
    from .runner import game_seed
    from .stats import wilson

    p = argparse.ArgumentParser(prog="python -m jamaica.lab.yardstick", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--bot", default="hard", help="our bot (a spec)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--workers", type=int, default=1,
                   help="games at once; more than 1 starts a local Ray cluster")  # fmt: skip
    p.add_argument("--ray", default=None, help="local, auto or a Ray cluster's HOST:PORT")
    p.add_argument("--simulations", type=int, default=0,
                   help="OpenSpiel's simulations per question (default: equal CPU)")  # fmt: skip
    ns = p.parse_args(argv)
    parse_spec(ns.bot)
    sims = ns.simulations
    if sims <= 0:
        sims, per_question = calibrate(ns.bot, seed=ns.seed)
        print(f"calibrated: {ns.bot} takes {1000 * per_question:.1f} ms per question; OpenSpiel's "
              f"ISMCTSBot gets {sims} simulations for the same CPU", flush=True)  # fmt: skip
    jobs = [(game_seed(ns.seed, g), g % 2, ns.bot, sims) for g in range(ns.games)]
    wins = 0.0
    ours: list[float] = []
    theirs: list[float] = []
    arrived: list[GameOutcome] = []

    def progress(r: GameOutcome) -> None:
        nonlocal wins
        arrived.append(r)
        wins += r.share
        ours.extend(r.ours)
        theirs.extend(r.theirs)
        if len(arrived) % 10 == 0 or len(arrived) == ns.games:
            print(f"{len(arrived)}/{ns.games} games: {ns.bot} won {wins:g}", flush=True)

    run_jobs(play, jobs, Cluster.parse(ns.ray, ns.workers), progress)
    lo, hi = wilson(wins, ns.games)
    print(f"{ns.bot} vs OpenSpiel ISMCTSBot ({sims} simulations, random rollouts), heads-up, "
          f"{ns.games} games, seed {ns.seed}: {ns.bot} won {wins:g} ({wins / ns.games:.1%}, "
          f"95% CI {lo:.1%}–{hi:.1%})")  # fmt: skip
    if ours and theirs:
        print(f"CPU per question with a choice: {ns.bot} {1000 * sum(ours) / len(ours):.2f} ms "
              f"({len(ours)} questions), OpenSpiel {1000 * sum(theirs) / len(theirs):.2f} ms "
              f"({len(theirs)} questions)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
