"""Figures for the lab (matplotlib, written to a PNG file)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .runner import GameResult
from .stats import seat_table, win_shares


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def tournament_plot(results: Sequence[GameResult], path: str) -> None:
    """Score distribution per bot, and game lengths."""
    plt = _pyplot()
    scores: dict[str, list[int]] = {}
    for r in results:
        for k, sc in enumerate(r.scores):
            name = r.bots[k] if k < len(r.bots) else "Ghost Ship"
            scores.setdefault(name, []).append(sc[3])
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    names = list(scores)
    left.boxplot([scores[n] for n in names], showmeans=True)
    left.set_xticks(range(1, len(names) + 1), names, rotation=15)
    left.set_ylabel("final score")
    left.set_title("Score distribution per bot")
    rounds = [r.rounds for r in results]
    right.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#3b6ea5")
    right.set_xlabel("rounds")
    right.set_ylabel("games")
    right.set_title(f"Game length ({len(results)} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def simulate_plot(results: Sequence[GameResult], path: str) -> None:
    """Seat advantage, game length, what the winners scored, fork lanes."""
    plt = _pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 9))
    seats = seat_table(results)
    ax = axes[0][0]
    ax.bar(
        [f"seat {o}" for o, *_ in seats],
        [w for _, _, w, _ in seats],
        color="#3b6ea5",
        yerr=[[w - ci[0] for _, _, w, ci in seats], [ci[1] - w for _, _, w, ci in seats]],
    )
    ax.axhline(1 / len(results[0].bots), color="grey", linestyle="--", label="fair share")
    ax.set_title("Win rate by seat (0 = the first Captain)")
    ax.legend()
    rounds = [r.rounds for r in results]
    ax = axes[0][1]
    ax.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#3b6ea5")
    ax.set_title("Rounds per game")
    ax = axes[1][0]
    winners = [r.scores[w] for r in results for w in r.winners]
    others = [sc for r in results for k, sc in enumerate(r.scores) if win_shares(r)[k] == 0]
    parts = ["position", "doubloons", "treasures"]
    xs = range(len(parts))
    ax.bar(
        [x - 0.2 for x in xs],
        [sum(s[i] for s in winners) / len(winners) for i in xs],
        0.4,
        label="winners",
    )
    if others:
        ax.bar(
            [x + 0.2 for x in xs],
            [sum(s[i] for s in others) / len(others) for i in xs],
            0.4,
            label="the others",
        )
    ax.set_xticks(list(xs), parts)
    ax.set_title("What wins: mean score parts")
    ax.legend()
    ax = axes[1][1]
    outer = [sum(r.lanes[f][0] for r in results) for f in range(3)]
    inner = [sum(r.lanes[f][1] for r in results) for f in range(3)]
    labels = ["fork 1", "fork 2", "fork 3"]
    ax.bar(labels, outer, label="outer lane", color="#3b6ea5")
    ax.bar(labels, inner, bottom=outer, label="inner channel", color="#e0a030")
    ax.set_title("Fork lanes taken (ship passages)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
