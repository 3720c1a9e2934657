"""Issue 27: `jamaica train --algo ppo --workers 2` plays each update's games as Ray tasks, and
the run is the same on 2 Ray workers as in one process: the same weights, the same curve."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from jamaica.lab.distributed import LOCAL, Cluster
from jamaica.learn.deep import DeepPolicy
from jamaica.learn.jax.train import Settings, train


def test_ppo_on_two_ray_workers_learns_the_same_weights_as_here(
    ray_cluster: None, tmp_path: Path
) -> None:
    settings = Settings(seed=5, games=8, teacher_games=2, bc_epochs=1, hidden=16,
                        games_per_update=4, eval_every=1, eval_games=2, minibatch=64,
                        opponents=("greedy", "self"))  # fmt: skip
    here = train(settings, str(tmp_path / "here"), lambda _: None, Cluster())
    there = train(settings, str(tmp_path / "ray"), lambda _: None, Cluster(LOCAL, 2))
    a, b = (DeepPolicy.load(tmp_path / name / "ppo-00002.npz") for name in ("here", "ray"))
    assert all(np.array_equal(a.weights[k], b.weights[k]) for k in a.weights)
    assert [p.win for p in here.points] == [p.win for p in there.points]
    assert [p.train_win for p in here.points][1:] == [p.train_win for p in there.points][1:]
    # and the games are the trainer's: without a cluster, other games, other weights
    train(settings, str(tmp_path / "alone"), lambda _: None)
    c = DeepPolicy.load(tmp_path / "alone" / "ppo-00002.npz")
    assert not all(np.array_equal(a.weights[k], c.weights[k]) for k in a.weights)
