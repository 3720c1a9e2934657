"""`jamaica lab fit-value`: fit master's value (`jamaica.bots.value`) to how games end.

Self-play games (every seat the same bot spec, or each seat's drawn from a comma-separated list;
players, edition and Ghost Ship drawn from each game's seed) give, at the start of every round, the
`value.FEATURES` of every ship; the game's winners are the label. A conditional logit — P(ship k
wins) = softmax over the ships of w · f(k) — is fitted by Newton's method (the log-likelihood is
concave; a little L2 keeps it well posed). Every fifth game is held out to report the log-loss
beside two baselines: every ship alike, and the hand-made estimate alone with its scale fitted. The
shipped weights are then refitted on all the games. Same seed, same spec, same games: the same
weights, on any number of workers.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ..bots import make_bot
from ..bots.value import FEATURES, features, lateness
from ..rules import CHANCE, Config
from ..rules.state import new_game
from .distributed import Cluster, run_jobs
from .paths import check_writable

DEFAULT_SPEC = "rules:knowledge=expert:slips=0.03"  # the rollouts' policy, a little noisy
DEFAULT_GAMES = 6000
HELD_OUT = 5  # every fifth game
MIN_GAMES = 2 * HELD_OUT  # games to fit on and games held out, both
L2 = 1e-3
SHIPS = 7  # at most: six players and no Ghost Ship, or five and the Ghost Ship (padding)

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class GamePositions:
    """One self-play game: its player count, every round start's features (per ship), the
    winning ships, and the bot in each seat."""

    players: int
    positions: list[list[list[float]]]
    winners: list[int]
    bots: tuple[str, ...]


def play(job: tuple[int, str]) -> GamePositions:
    """One self-play game, everything drawn from its seed (run in a worker)."""
    seed, spec = job
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    ghost = None if n in (2, 6) else rng.random() < 0.4
    config = Config(players=n, edition=rng.choice(("2021", "classic")), ghost_ship=ghost)
    s = new_game(config, log=False)
    specs = spec.split(",")  # several: each seat's bot drawn from them
    seats = [rng.choice(specs) if len(specs) > 1 else spec for _ in range(n)]
    agents = [make_bot(who, seed * 10 + seat) for seat, who in enumerate(seats)]
    positions = []
    while not s.is_terminal():
        who = s.current_player()
        if who == CHANCE:
            if not s.stack and s.decision_kind() == "roll_dice":
                late = lateness(s)
                positions.append([features(s, k, late) for k in range(s.ns)])
            s.apply(s.sample_chance(rng))
        else:
            s.apply(agents[who].act(s, who))
    return GamePositions(n, positions, s.winners(), tuple(seats))


@dataclass
class Data:
    """Positions as padded arrays: features (P, SHIPS, F), the winners' shares (P, SHIPS), which
    ships exist (P, SHIPS), and each position's player count."""

    x: Floats
    y: Floats
    ships: NDArray[np.bool_]
    players: NDArray[np.int64]

    def take(self, rows: NDArray[np.bool_], columns: list[int] | None = None) -> Data:
        x = self.x[rows] if columns is None else self.x[rows][:, :, columns]
        return Data(x, self.y[rows], self.ships[rows], self.players[rows])


def arrays(games: list[GamePositions], keep: NDArray[np.bool_]) -> Data:
    """The positions of the games `keep` selects."""
    rows = [(g, p) for g, k in zip(games, keep, strict=True) if k for p in g.positions]
    x = np.zeros((len(rows), SHIPS, len(FEATURES)))
    y = np.zeros((len(rows), SHIPS))
    ships = np.zeros((len(rows), SHIPS), dtype=bool)
    for i, (g, p) in enumerate(rows):
        x[i, : len(p)] = p
        y[i, g.winners] = 1.0 / len(g.winners)
        ships[i, : len(p)] = True
    return Data(x, y, ships, np.array([g.players for g, _ in rows], dtype=np.int64))


def probabilities(w: Floats, d: Data) -> Floats:
    u = np.where(d.ships, d.x @ w, -np.inf)
    e = np.exp(u - u.max(axis=1, keepdims=True))
    out: Floats = e / e.sum(axis=1, keepdims=True)
    return out


def log_loss(w: Floats, d: Data) -> float:
    """Mean negative log-likelihood of the winners, in nats per position."""
    p = np.where(d.ships, probabilities(w, d), 1.0)
    return float(-(d.y * np.log(np.maximum(p, 1e-12))).sum() / len(d.x))


def fit(d: Data, l2: float = L2, steps: int = 50) -> Floats:
    """The weights of the conditional logit, by Newton's method."""
    w = np.zeros(d.x.shape[2])
    for _ in range(steps):
        p = probabilities(w, d)
        mean = (p[..., None] * d.x).sum(axis=1)
        grad = ((mean - (d.y[..., None] * d.x).sum(axis=1)).sum(axis=0)) / len(d.x) + l2 * w
        dev = d.x - mean[:, None, :]
        hess = np.einsum("pk,pki,pkj->ij", p, dev, dev) / len(d.x) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-9:
            break
    return w


def uniform_loss(d: Data) -> float:
    """The log-loss of giving every ship the same chance."""
    count = d.ships.sum(axis=1)
    return float((d.y.sum(axis=1) * np.log(count)).sum() / len(d.x))


def command(
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    spec: str = DEFAULT_SPEC,
    cluster: Cluster | None = None,
    out: Path | None = None,
) -> str:
    """Play, fit, report (Markdown); write the weights to `out` if given."""
    if games < MIN_GAMES:
        raise ValueError(f"--games must be at least {MIN_GAMES}: every {HELD_OUT}th game is held "
                         "out to test the fit")  # fmt: skip
    for one in spec.split(","):
        make_bot(one)  # a bad spec fails here, before any game
    if out is not None:
        check_writable(out, "--out")
    seeds = random.Random(seed)
    jobs = [(seeds.getrandbits(32), spec) for _ in range(games)]
    played = run_jobs(play, jobs, cluster or Cluster())
    test = np.arange(games) % HELD_OUT == 0
    train, held = arrays(played, ~test), arrays(played, test)
    w = fit(train)
    alone = fit(train.take(np.ones(len(train.x), dtype=bool), [0]))
    lines = [
        f"Fitted on {len(train.x):,} round starts of {int((~test).sum()):,} games of `{spec}` "
        f"(seed {seed}); held out: {len(held.x):,} of {int(test.sum()):,} games.",
        "",
        "| held-out log-loss (nats per position) | all | " + " | ".join(
            f"{n} players" for n in range(2, 7)) + " |",
        "|---|---:|" + "---:|" * 5,
    ]  # fmt: skip

    def estimate_loss(d: Data) -> float:
        return log_loss(alone, d.take(np.ones(len(d.x), dtype=bool), [0]))

    def fitted_loss(d: Data) -> float:
        return log_loss(w, d)

    baselines: list[tuple[str, Callable[[Data], float]]] = [
        ("every ship alike", uniform_loss),
        ("the hand-made estimate, scale fitted", estimate_loss),
        ("the fitted value", fitted_loss),
    ]
    def cell(loss: Callable[[Data], float], d: Data) -> str:
        return f"{loss(d):.4f}" if len(d.x) else "—"  # no held-out game of that player count

    for name, loss in baselines:
        cells = [cell(loss, held)] + [cell(loss, held.take(held.players == n))
                                      for n in range(2, 7)]  # fmt: skip
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    final = fit(arrays(played, np.ones(games, dtype=bool)))
    if any(math.isnan(x) for x in final):
        raise ValueError("the fit did not converge")
    lines += ["", "| feature | weight |", "|---|---:|"]
    lines += [f"| {f} | {x:+.4f} |" for f, x in zip(FEATURES, final, strict=True)]
    if out is not None:
        record = {
            "features": list(FEATURES),
            "weights": [round(float(x), 6) for x in final],
            "fitted": {"games": games, "seed": seed, "spec": spec,
                       "positions": int(len(train.x) + len(held.x)),
                       "held_out_log_loss": round(fitted_loss(held), 4),
                       "estimate_alone_log_loss": round(estimate_loss(held), 4),
                       "uniform_log_loss": round(uniform_loss(held), 4)},
        }  # fmt: skip
        out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        lines += ["", f"Wrote {out}."]
    return "\n".join(lines)
