"""Self-play on Ray for a trainer: the learner's games of an update, played as Ray tasks.

The trainer draws what each game is (`draw_games`: player count, the learner's seat, the
opponent's spec, a seed for the game) from its own generator in the driver, so the sequence of
games is the trainer's; `learner_games` plays them where a `Cluster` says. The learner's policy
and the pool of its past selves (numpy weights, `jamaica.learn.deep.DeepPolicy`) go to the
cluster's object store once per update (`ray.put`), not once per game; the trajectories come back
in game order, the same whatever the number of workers — each game's chance, opponents and the
learner's sampling are drawn from `random.Random(game.seed)` alone.

A training run keeps one cluster for all its updates::

    with session(cluster):
        for update in ...:
            games = draw_games(rng, 64, PLAYER_MIX, "2021", ("greedy", "medium", "self"))
            trajectories = learner_games(policy, pool, games, cluster)

(`jamaica.learn.jax.games` plays each game; this module only decides where.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..learn.deep import DeepPolicy
from ..learn.jax.games import Trajectory, learner_game, opponents_for
from ..rules import Config
from .distributed import Cluster, connected, run_shared


@dataclass(frozen=True)
class LearnerGame:
    """One game of an update, everything it depends on."""

    players: int
    edition: str
    seat: int  # the learner's
    opponent: str  # a bot spec for every other seat, or "self": past learners from the pool
    seed: int


def draw_games(
    rng: random.Random,
    count: int,
    player_mix: Sequence[int],
    edition: str,
    opponents: Sequence[str],
) -> list[LearnerGame]:
    """`count` games drawn from the trainer's generator: players from `player_mix`, the
    learner's seat, an opponent spec, and the game's seed."""
    games = []
    for _ in range(count):
        players = rng.choice(list(player_mix))
        seat = rng.randrange(players)
        spec = rng.choice(list(opponents))
        games.append(LearnerGame(players, edition, seat, spec, rng.getrandbits(32)))
    return games


Shared = tuple[DeepPolicy, tuple[DeepPolicy, ...]]


def play_learner_game(shared: Shared, game: LearnerGame) -> Trajectory:
    """One game (in a Ray worker or here), from its seed alone."""
    policy, pool = shared
    rng = random.Random(game.seed)
    config = Config(players=game.players, edition=game.edition)
    bots = opponents_for(game.opponent, config, game.seat, pool, rng)
    return learner_game(policy, config, game.seat, bots, rng)


def learner_games(
    policy: DeepPolicy,
    pool: Sequence[DeepPolicy],
    games: Sequence[LearnerGame],
    cluster: Cluster,
) -> list[Trajectory]:
    """The learner's trajectories, one per game, in game order."""
    return run_shared(play_learner_game, (policy, tuple(pool)), games, cluster)


@contextmanager
def session(cluster: Cluster) -> Iterator[None]:
    """Keep the cluster connected across updates (a local one started once, not per update)."""
    if cluster.in_process:
        yield
        return
    with connected(cluster):
        yield
