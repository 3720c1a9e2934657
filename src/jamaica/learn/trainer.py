"""`jamaica train`: a policy-gradient baseline (REINFORCE with a baseline, numpy only).

The learner (a `jamaica.learn.policy.Policy`) plays whole games against bots (`random`, `greedy`,
… — any spec of `jamaica.bots.make_bot`) or against a frozen copy of itself (`self`), one
opponent drawn per seat and game; its seat turns round. It samples its actions from the policy;
after every batch of games each of its decisions is reinforced by the game's result (the "rank"
reward of `jamaica.envs.vocabulary`: +1 first, −1 last) minus a running mean for that opponent, with
a small entropy bonus, the gradient is clipped and Adam takes a step. Policy gradient can
collapse late in a run, so the weights kept are the best ones seen: those with the highest
training win rate (a moving average over 25 batches, averaged over the opponents), saved whenever
they improve; the learning curve (win rate per opponent, per batch) can be drawn to a PNG.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots import make_bot
from ..bots.learned import LearnedBot
from ..envs.vocabulary import returns
from ..rules import CHANCE, Agent, Config, State, new_game
from ..rules.actions import NUM_PLAYER_ACTIONS
from .features import FEATURES, features, outputs
from .policy import Policy

SELF = "self"


@dataclass
class Point:
    """One batch of the learning curve."""

    games: int
    seconds: float
    win_rate: dict[str, float]  # per opponent spec: the learner's share of wins in the batch


@dataclass
class Curve:
    points: list[Point] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        return [{"games": p.games, "seconds": round(p.seconds, 1), **p.win_rate}
                for p in self.points]  # fmt: skip


@dataclass
class _Game:
    xs: list[np.ndarray]
    rows: list[list[int]]
    picks: list[int]
    result: float
    win: float
    opponent: str


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray], b1: float = 0.9, b2: float = 0.999) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def play(
    policy: Policy, config: Config, seat: int, opponents: dict[int, Agent], rng: random.Random
) -> tuple[State, list[np.ndarray], list[list[int]], list[int]]:
    """One game: the learner at `seat` samples from `policy`; returns the final state and its
    decisions (features, output rows, the index picked among the legal actions)."""
    s = new_game(config, log=False)
    xs: list[np.ndarray] = []
    rows_all: list[list[int]] = []
    picks: list[int] = []
    while not s.is_terminal():
        who = s.current_player()
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
        elif who != seat:
            s.apply(opponents[who].act(s, who))
        elif len(s.legal) == 1:
            s.apply(s.legal[0])
        else:
            x = features(s.view(seat))
            rows = outputs(s, seat)
            logits = policy.logits(x, rows)
            p = np.exp(logits - logits.max())
            i = int(np.searchsorted(np.cumsum(p), rng.random() * float(p.sum())))
            i = min(i, len(rows) - 1)
            xs.append(x)
            rows_all.append(rows)
            picks.append(i)
            s.apply(s.legal[i])
    return s, xs, rows_all, picks


def gradients(
    policy: Policy, games: Sequence[_Game], baseline: dict[str, float], entropy: float
) -> list[np.ndarray]:
    """The gradient of −(advantage · log π(a|x) + entropy · H(π(·|x))), summed over decisions
    and divided by the number of games."""
    xs = [x for g in games for x in g.xs]
    if not xs:
        return [np.zeros_like(p) for p in policy.params()]
    x = np.stack(xs)
    mask = np.zeros((len(xs), NUM_PLAYER_ACTIONS), bool)
    pick = np.zeros((len(xs), NUM_PLAYER_ACTIONS), np.float32)
    adv = np.zeros(len(xs), np.float32)
    d = 0
    for g in games:
        a = g.result - baseline[g.opponent]
        for rows, i in zip(g.rows, g.picks, strict=True):
            mask[d, rows] = True
            pick[d, rows[i]] = 1.0
            adv[d] = a
            d += 1
    h = np.tanh(x @ policy.w1.T + policy.b1)
    logits = np.where(mask, h @ policy.w2.T + policy.b2, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    logp = np.where(mask, np.log(np.maximum(p, 1e-12)), 0.0)
    ent = -(p * logp).sum(axis=1, keepdims=True)
    g_logits = (p - pick) * adv[:, None] + entropy * p * (logp + ent)
    g_logits = np.where(mask, g_logits, 0.0).astype(np.float32) / len(games)
    dw2 = g_logits.T @ h
    db2 = g_logits.sum(axis=0)
    dpre = (g_logits @ policy.w2) * (1 - h * h)
    dw1 = dpre.T @ x
    db1 = dpre.sum(axis=0)
    return [dw1, db1, dw2, db2]


def train(
    *,
    minutes: float = 20.0,
    games: int = 1_000_000,
    opponents: Sequence[str] = ("random", "greedy"),
    players: int = 2,
    edition: str = "2021",
    seed: int = 1,
    batch: int = 32,
    lr: float = 2e-3,
    entropy: float = 0.01,
    max_norm: float = 1.0,
    init: Policy | None = None,
    out: str | None = None,
    window: int = 25,
    on_batch: Callable[[Point, int], None] | None = None,
) -> tuple[Policy, Curve]:
    """Train for `minutes` of wall clock or `games` games, whichever ends first; return the
    best policy seen (see the module's docstring; the last one if the run is shorter than
    `window` batches) and the learning curve."""
    for spec in opponents:
        if spec != SELF:
            make_bot(spec, 0)  # a bad spec fails now
    config = Config(players=players, edition=edition)
    policy = init if init is not None else Policy.initial(seed)
    policy.check()
    frozen = Policy(*(p.copy() for p in policy.params()))
    adam = Adam(policy.params(), lr)
    rng = random.Random(seed)
    baseline = dict.fromkeys(opponents, 0.0)
    curve = Curve()
    start = time.perf_counter()
    best: tuple[float, list[np.ndarray]] | None = None
    played = 0
    while played < games and time.perf_counter() - start < minutes * 60:
        batch_games: list[_Game] = []
        for _ in range(min(batch, games - played)):
            seat = played % players
            spec = rng.choice(list(opponents))
            bots: dict[int, Agent] = {}
            for p in range(players):
                if p == seat:
                    continue
                bot_seed = rng.getrandbits(32)
                if spec == SELF:
                    bots[p] = LearnedBot(bot_seed, frozen, sample=True)
                else:
                    bots[p] = make_bot(spec, bot_seed)
            s, xs, rows, picks = play(policy, config, seat, bots, rng)
            winners = s.winners()
            win = 1.0 / len(winners) if seat in winners else 0.0
            batch_games.append(_Game(xs, rows, picks, returns(s, "rank")[seat], win, spec))
            played += 1
        grads = gradients(policy, batch_games, baseline, entropy)
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
        if norm > max_norm:
            grads = [g * (max_norm / norm) for g in grads]
        adam.step(grads)
        for spec in opponents:
            results = [g.result for g in batch_games if g.opponent == spec]
            if results:
                baseline[spec] = 0.9 * baseline[spec] + 0.1 * float(np.mean(results))
        if SELF in opponents and len(curve.points) % 20 == 19:
            frozen = Policy(*(p.copy() for p in policy.params()))
        rates = {
            spec: float(np.mean([g.win for g in batch_games if g.opponent == spec]))
            for spec in opponents
            if any(g.opponent == spec for g in batch_games)
        }
        point = Point(played, time.perf_counter() - start, rates)
        curve.points.append(point)
        if on_batch is not None:
            on_batch(point, played)
        score = _recent_score(curve, list(opponents), window)
        if score is not None and (best is None or score > best[0]):
            best = (score, [p.copy() for p in policy.params()])
            if out is not None:
                Policy(*best[1]).save(out)
    kept = Policy(*best[1]) if best is not None else policy
    if out is not None:
        kept.save(out)
    return kept, curve


def _recent_score(curve: Curve, opponents: list[str], window: int) -> float | None:
    """The mean over the opponents of the win rate in the last `window` batches (None before
    `window` batches)."""
    if len(curve.points) < window:
        return None
    recent = curve.points[-window:]
    rates = []
    for spec in opponents:
        seen = [p.win_rate[spec] for p in recent if spec in p.win_rate]
        if seen:
            rates.append(sum(seen) / len(seen))
    return sum(rates) / len(rates) if rates else None


def smooth(values: Sequence[float], window: int) -> list[float]:
    """A trailing moving average (NaN-free: missing batches are skipped)."""
    out, acc = [], []
    for v in values:
        if not math.isnan(v):
            acc.append(v)
        acc = acc[-window:]
        out.append(sum(acc) / len(acc) if acc else math.nan)
    return out


def plot_curve(curve: Curve, path: str, window: int = 25) -> None:
    """The learner's win rate against each opponent, over the games played (smoothed)."""
    from ..lab.plots import _pyplot

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    specs = sorted({k for p in curve.points for k in p.win_rate})
    x = [p.games for p in curve.points]
    for spec in specs:
        y = smooth([p.win_rate.get(spec, math.nan) for p in curve.points], window)
        ax.plot(x, y, label=f"vs {spec}")
    ax.set_xlabel("games played")
    ax.set_ylabel(f"win rate (moving average of {window} batches)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("jamaica train: the learner's win rate while training")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def check_plotting() -> None:
    """Fail before training, not after it: `--plot` needs matplotlib, which the `[rl]` extra
    does not install (the `[lab]` extra does)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise ValueError(
            "--plot needs matplotlib, which is not installed: pip install -e '.[lab]' "
            "(or pip install matplotlib), or leave out --plot"
        ) from e


def command(
    *,
    minutes: float,
    games: int,
    opponents: Sequence[str],
    players: int,
    seed: int,
    out: str,
    plot: str | None,
    init: str | None,
) -> Curve:
    """`jamaica train`: train with a progress bar, save the weights, draw the curve."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    if minutes <= 0 or games < 1:
        raise ValueError("--minutes must be positive and --games at least 1")
    if not 2 <= players <= 6:
        raise ValueError("--players must be from 2 to 6")
    if plot:
        check_plotting()
    console = Console(stderr=True)
    recent: dict[str, list[float]] = {}
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[games]} games"),
        TextColumn("{task.fields[rates]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("training", total=minutes * 60, games=0, rates="")

        def on_batch(point: Point, played: int) -> None:
            for spec, rate in point.win_rate.items():
                recent.setdefault(spec, []).append(rate)
                recent[spec] = recent[spec][-25:]
            rates = "  ".join(f"vs {k} {np.mean(v):.0%}" for k, v in sorted(recent.items()))
            done = max(point.seconds, minutes * 60 * played / games)
            progress.update(task, completed=done, games=played, rates=rates)

        policy, curve = train(
            minutes=minutes,
            games=games,
            opponents=opponents,
            players=players,
            seed=seed,
            init=Policy.load(init) if init else None,
            out=out,
            on_batch=on_batch,
        )
    console.print(f"weights: {out} ({policy.b1.shape[0]} hidden units, {FEATURES} features)")
    if plot:
        plot_curve(curve, plot)
        console.print(f"learning curve: {plot}")
    return curve


__all__ = ["Curve", "Point", "check_plotting", "command", "gradients", "plot_curve", "train"]
