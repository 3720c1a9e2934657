"""`jamaica train --algo ppo`: run `train.train`, draw the curve, export the best policy."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...bots import parse_spec
from ..deep import DeepPolicy
from .games import SELF
from .train import Point, Settings, train

if TYPE_CHECKING:
    from ...lab.distributed import Cluster


def settings_from(ns: argparse.Namespace) -> Settings:
    """The run's settings from `jamaica train`'s options: --seed, --games (PPO games), --minutes,
    --teacher, --opponents (default greedy,medium,self); the player count is drawn per game
    (`games.PLAYER_MIX`), so --players does not apply. Raises ValueError for a bad value."""
    if ns.minutes <= 0 or ns.games < 1:
        raise ValueError("--minutes must be positive and --games at least 1")
    settings = replace(Settings(), seed=ns.seed, games=ns.games, minutes=ns.minutes,
                       teacher=ns.teacher)  # fmt: skip
    if ns.opponents:
        settings = replace(settings, opponents=tuple(b.strip() for b in ns.opponents.split(",")))
    for spec in (settings.teacher, *settings.opponents):
        if spec != SELF:
            parse_spec(spec)
    return settings


def plot(points: list[Point], path: Path) -> bool:
    """The duels' win share per opponent over the PPO games (False: no matplotlib)."""
    try:
        from ...lab.plots import _pyplot

        plt = _pyplot()
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [p.games for p in points]
    for spec in points[0].win:
        ax.plot(x, [p.win[spec] for p in points], marker=".", label=f"vs {spec} (duels)")
    train_win = [p.train_win for p in points]
    if any(not math.isnan(w) for w in train_win):
        ax.plot(x, train_win, alpha=0.5, label="training games (mixed opponents and counts)")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("PPO games played (0: after behaviour cloning)")
    ax.set_ylabel("win share, heads-up")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("jamaica train --algo ppo: the learner's win share")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def train_ppo(
    settings: Settings, out: str, export: str | None, plot_path: str | None,
    cluster: Cluster | None = None,
) -> None:  # fmt: skip
    """Train into the folder `out`; print progress to stderr; copy the best policy, in
    float16, to `export` (e.g. the shipped `src/jamaica/learn/deep.npz`)."""

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    run = train(settings, out, log, cluster)
    folder = Path(out)
    picture = Path(plot_path) if plot_path else folder / "curve.png"
    if plot(run.points, picture):
        log(f"learning curve: {picture} and {folder / 'curve.csv'}")
    else:
        log(f"learning curve: {folder / 'curve.csv'} (no matplotlib for the picture)")
    best = run.points[run.best[1]]
    log(f"best: {best.phase} update {best.update}, {best.row()}")
    if export:
        DeepPolicy.load(folder / "best.npz").save(export, half=True)
        log(f"exported: {export}")
    log(f"wall time: {run.elapsed():.0f} s")
