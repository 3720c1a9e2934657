"""Self-play on Ray: an update's games give the same trajectories on two workers as here."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from jamaica.lab.distributed import LOCAL, Cluster
from jamaica.lab.selfplay import draw_games, learner_games, session
from jamaica.learn.deep import DeepPolicy
from jamaica.learn.jax.games import Trajectory


def _same(a: Trajectory, b: Trajectory) -> bool:
    return (len(a.xs) == len(b.xs) and all(np.array_equal(x, y) for x, y in zip(a.xs, b.xs,
            strict=True)) and (a.rows, a.picks, a.logps, a.values, a.reward, a.win)
            == (b.rows, b.picks, b.logps, b.values, b.reward, b.win))  # fmt: skip


def test_an_update_s_games_are_the_same_on_two_ray_workers_as_here(ray_cluster: None) -> None:
    policy = DeepPolicy.load()
    past = DeepPolicy({k: w * 0.5 for k, w in policy.weights.items()})
    specs = ("greedy", "self", "random")
    games = draw_games(random.Random(3), 6, (2, 3, 4), "2021", specs)
    assert games == draw_games(random.Random(3), 6, (2, 3, 4), "2021", specs)
    assert {g.opponent for g in games} > {"self"}
    here = learner_games(policy, [past], games, Cluster())
    with session(Cluster(LOCAL, 2)):
        there = learner_games(policy, [past], games, Cluster(LOCAL, 2))
    assert len(here) == len(there) == 6
    assert all(_same(a, b) for a, b in zip(here, there, strict=True))
    assert all(t.xs and len(t.picks) == len(t.logps) for t in here)
    # the game's seed decides it: another seed, another game
    other = learner_games(policy, [past], [replace(games[0], seed=games[0].seed + 1)], Cluster())
    assert not _same(other[0], here[0])
