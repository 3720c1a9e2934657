"""The training run: the teacher's games, behaviour cloning, then PPO against a pool of bots.

Phases (see the package's docstring for why):

1. `teacher_games` games of the teacher (`medium` by default) in every seat, every decision kept.
2. `bc_epochs` passes of behaviour cloning over them (cross-entropy on the teacher's action, the
   value fitted to the game's return), Adam.
3. PPO: each update plays `games_per_update` games of the learner (sampling from its policy) in
   one seat against opponents drawn from `opponents` (bot specs, or `self`: one of the learner's
   past policies, kept every `eval_every` updates), then `epochs` passes of minibatch PPO.

Every `eval_every` updates (and after cloning) the learner plays `eval_games` duels, greedily,
against each of `eval_against`, on seeds it never trains on: that is the learning curve, each point
a checkpoint, and the best point (mean win share over `eval_against`) is the policy kept. (The
duels stop when `minutes` have run out, after two games each, so a short budget stays short.)

Same seed and same number of games give the same weights: every random draw comes from the seed
(games from `random.Random`, minibatches from NumPy, initial weights from JAX), and the budget in
games is counted, not timed; `minutes` only stops a run early.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax.numpy as jnp
import numpy as np

from ...rules import Config
from ..deep import HIDDEN, DeepPolicy
from . import games as g
from .losses import bc_loss, make_step, optimizer, ppo_loss
from .network import Net, Params, init, to_numpy

if TYPE_CHECKING:
    from ...lab.distributed import Cluster

EVAL_SEED = 900_001  # the duels' seeds: never used in training


@dataclass
class Settings:
    seed: int = 1
    minutes: float = 60.0
    games: int = 1_000_000  # PPO games
    edition: str = "2021"
    hidden: int = HIDDEN
    teacher: str = "medium"
    teacher_games: int = 1500
    bc_epochs: int = 10
    bc_lr: float = 1e-3
    opponents: tuple[str, ...] = ("greedy", "medium", g.SELF)
    games_per_update: int = 48
    epochs: int = 4
    minibatch: int = 512
    lr: float = 2e-4
    clip: float = 0.2
    vf: float = 0.5
    ent: float = 0.003
    lam: float = 0.95
    eval_every: int = 10
    eval_games: int = 100
    eval_against: tuple[str, ...] = ("greedy", "medium")


@dataclass
class Point:
    """One point of the learning curve."""

    phase: str
    update: int
    games: int  # PPO games played so far
    seconds: float
    duels: int  # games per opponent behind `win` (the fewest)
    win: dict[str, float]  # per opponent: the duels' win share
    train_win: float  # the learner's win share in its training games since the last point

    def row(self) -> dict[str, Any]:
        return {"phase": self.phase, "update": self.update, "games": self.games,
                "seconds": round(self.seconds, 1), "duels": self.duels,
                "train_win": round(self.train_win, 3),
                **{f"vs_{k}": round(v, 3) for k, v in self.win.items()}}  # fmt: skip


@dataclass
class Run:
    settings: Settings
    out: Path
    log: Callable[[str], None]
    points: list[Point] = field(default_factory=list)
    best: tuple[float, int] = (-1.0, -1)  # score, index of the point
    start: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def over(self) -> bool:
        return self.elapsed() > self.settings.minutes * 60

    def checkpoint(self, params: Params, phase: str, update: int, games: int, train_win: float
                   ) -> DeepPolicy:  # fmt: skip
        """Save the weights, measure them, keep them if they are the best so far."""
        s = self.settings
        policy = to_numpy(params)
        name = f"{phase}-{update:05d}.npz"
        policy.save(self.out / name)
        seed = EVAL_SEED + len(self.points)
        deadline = self.start + s.minutes * 60
        duels = {spec: g.duel(policy, spec, s.eval_games, seed, deadline)
                 for spec in s.eval_against}  # fmt: skip
        win = {spec: share for spec, (share, _) in duels.items()}
        played = min(n for _, n in duels.values())
        point = Point(phase, update, games, self.elapsed(), played, win, train_win)
        self.points.append(point)
        score = sum(win.values()) / len(win)
        if score > self.best[0]:
            self.best = (score, len(self.points) - 1)
            policy.save(self.out / "best.npz")
        write_curve(self.points, self.out)
        self.log(f"{name}: {point.row()} (best {self.best[0]:.3f})")
        return policy


def write_curve(points: list[Point], out: Path) -> None:
    rows = [p.row() for p in points]
    keys = list(rows[0])
    lines = [",".join(keys)] + [",".join(str(r.get(k, "")) for k in keys) for r in rows]
    (out / "curve.csv").write_text("\n".join(lines) + "\n")


def _arrays(b: g.Batch, idx: np.ndarray) -> dict[str, Any]:
    return {"x": jnp.asarray(b.x[idx]), "mask": jnp.asarray(b.mask[idx]),
            "action": jnp.asarray(b.action[idx]), "logp": jnp.asarray(b.logp[idx]),
            "advantage": jnp.asarray(b.advantage[idx]), "ret": jnp.asarray(b.ret[idx])}  # fmt: skip


def _minibatches(n: int, size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Shuffled minibatches of one fixed size (one compiled step); a batch smaller than `size`
    is drawn with replacement up to it."""
    if n < size:
        return [rng.integers(0, n, size)]
    order = rng.permutation(n)
    return [order[i : i + size] for i in range(0, n - size + 1, size)]


def clone(run: Run, params: Params, rng: random.Random, nrng: np.random.Generator) -> Params:
    s = run.settings
    trajectories: list[g.Trajectory] = []
    played = 0
    while played < s.teacher_games and (not played or run.elapsed() < s.minutes * 30):
        config = Config(players=rng.choice(g.PLAYER_MIX), edition=s.edition)
        trajectories += g.teacher_game(s.teacher, config, rng)
        played += 1  # (the teacher gets half the budget at most)
    data = g.to_batch(trajectories)
    run.log(f"teacher {s.teacher}: {played} games, {len(data)} decisions, "
            f"{run.elapsed():.0f} s")  # fmt: skip
    net = Net(s.hidden)
    opt = optimizer(s.bc_lr)
    state = opt.init(params)
    step = make_step(net, opt, bc_loss)
    for epoch in range(s.bc_epochs):
        if epoch and run.elapsed() > s.minutes * 45:  # three quarters of the budget at most
            break
        infos = []
        for idx in _minibatches(len(data), s.minibatch, nrng):
            params, state, info = step(params, state, _arrays(data, idx))
            infos.append(info)
        nll = float(np.mean([float(i["nll"]) for i in infos]))
        value = float(np.mean([float(i["value"]) for i in infos]))
        run.log(f"cloning epoch {epoch + 1}: nll {nll:.3f}, value error {value:.3f}, "
                f"{run.elapsed():.0f} s")  # fmt: skip
    return params


def reinforce(
    run: Run, params: Params, rng: random.Random, nrng: np.random.Generator,
    cluster: Cluster | None = None,
) -> Params:  # fmt: skip
    """PPO updates. Without `cluster`, an update's games are drawn and played here, one after
    the other (the shipped weights' run); with one, they are drawn here (`selfplay.draw_games`)
    and played where the cluster says (Ray tasks, `selfplay.learner_games`), each from its own
    seed: the same weights on any number of workers, but not the same games as without."""
    s = run.settings
    net = Net(s.hidden)
    opt = optimizer(s.lr)
    state = opt.init(params)
    step = make_step(net, opt, ppo_loss, clip=s.clip, vf=s.vf, ent=s.ent)
    pool = [to_numpy(params)]
    played, update, wins, counted = 0, 0, 0.0, 0
    while played < s.games and (update == 0 or not run.over()):
        policy = to_numpy(params)
        count = min(s.games_per_update, s.games - played)
        if cluster is None:
            trajectories = []
            for _ in range(count):
                config = Config(players=rng.choice(g.PLAYER_MIX), edition=s.edition)
                seat = rng.randrange(config.players)
                spec = rng.choice(s.opponents)
                bots = g.opponents_for(spec, config, seat, pool, rng)
                trajectories.append(g.learner_game(policy, config, seat, bots, rng))
        else:
            from ...lab.selfplay import draw_games, learner_games

            games = draw_games(rng, count, g.PLAYER_MIX, s.edition, s.opponents)
            trajectories = learner_games(policy, pool, games, cluster)
        wins += sum(t.win for t in trajectories)
        counted += len(trajectories)
        played += len(trajectories)
        batch = g.to_batch(trajectories, s.lam)
        for _ in range(s.epochs):
            for idx in _minibatches(len(batch), s.minibatch, nrng):
                params, state, _info = step(params, state, _arrays(batch, idx))
        update += 1
        if update % s.eval_every == 0:
            pool = [*pool, to_numpy(params)][-5:]
            run.checkpoint(params, "ppo", update, played, wins / max(counted, 1))
            wins, counted = 0.0, 0
    if update % s.eval_every:
        run.checkpoint(params, "ppo", update, played, wins / max(counted, 1))
    return params


def train(
    settings: Settings, out: str, log: Callable[[str], None] = print,
    cluster: Cluster | None = None,
) -> Run:  # fmt: skip
    """The whole run; writes checkpoints, `best.npz`, `curve.csv` and `settings.json` to `out`.
    With `cluster`, the PPO games are played on it (see `reinforce`)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(asdict(settings), indent=1) + "\n")
    run = Run(settings, folder, log)
    rng = random.Random(settings.seed)
    nrng = np.random.default_rng(settings.seed)
    params = init(settings.seed, settings.hidden)
    if settings.teacher_games > 0 and settings.bc_epochs > 0:
        params = clone(run, params, rng, nrng)
    run.checkpoint(params, "bc", 0, 0, float("nan"))
    if cluster is None:
        params = reinforce(run, params, rng, nrng)
    else:
        from ...lab.selfplay import session

        with session(cluster):
            params = reinforce(run, params, rng, nrng, cluster)
    return run
