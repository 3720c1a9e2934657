"""Figures for the lab (matplotlib, written to a PNG file)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .runner import GameResult
from .stats import ghost_wins, seat_table, win_shares


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _integer_counts(ax: Any) -> None:
    """Whole numbers on the count axis (no "12.5 games")."""
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def tournament_plot(results: Sequence[GameResult], path: str, title: str) -> None:
    """Score distribution per bot, and game lengths; `title` says what was played."""
    plt = _pyplot()
    scores: dict[str, list[int]] = {}
    for r in results:
        for k, sc in enumerate(r.scores):
            name = r.bots[k] if k < len(r.bots) else "Ghost Ship"
            scores.setdefault(name, []).append(sc[3])
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.5))
    fig.suptitle(title)
    names = list(scores)
    left.boxplot([scores[n] for n in names], showmeans=True)
    left.set_xticks(range(1, len(names) + 1), names, rotation=15)
    left.set_ylabel("final score (points)")
    left.set_title("Score per bot: median (line), mean (triangle), middle half (box)",
                   fontsize="medium")  # fmt: skip
    rounds = [r.rounds for r in results]
    right.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#3b6ea5")
    right.set_xlabel("rounds")
    right.set_ylabel("games")
    _integer_counts(right)
    right.set_title(f"Game length ({len(results)} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def simulate_plot(results: Sequence[GameResult], path: str, title: str) -> None:
    """Seat advantage (and the Ghost Ship's wins), game length, what the winning players scored
    against the other players, fork lanes; `title` says what was played."""
    from matplotlib.ticker import PercentFormatter

    plt = _pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 9.5))
    fig.suptitle(title)
    players = len(results[0].bots)
    seats = seat_table(results)
    labels = [f"seat {o}" for o, *_ in seats]
    rates = [100 * w for _, _, w, _ in seats]
    low = [100 * (w - ci[0]) for _, _, w, ci in seats]
    high = [100 * (ci[1] - w) for _, _, w, ci in seats]
    colors = ["#3b6ea5"] * len(seats)
    ghost = ghost_wins(results)
    if ghost is not None:
        share, (lo, hi) = ghost
        labels.append("Ghost Ship")
        rates.append(100 * share)
        low.append(100 * (share - lo))
        high.append(100 * (hi - share))
        colors.append("#777777")
    ax = axes[0][0]
    ax.bar(labels, rates, color=colors, yerr=[low, high])
    ax.axhline(100 / players, color="grey", linestyle="--", label="a player's fair share")
    ax.set_ylabel("games won, % (95% interval)")
    ax.yaxis.set_major_formatter(PercentFormatter())
    ax.set_title("Win rate by seat (0 = the first Captain)")
    ax.legend()
    rounds = [r.rounds for r in results]
    ax = axes[0][1]
    ax.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#3b6ea5")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    _integer_counts(ax)
    ax.set_title("Rounds per game")
    ax = axes[1][0]
    won = [r.scores[k] for r in results for k in range(players) if win_shares(r)[k] > 0]
    others = [r.scores[k] for r in results for k in range(players) if win_shares(r)[k] == 0]
    parts = ["position", "doubloons", "treasures"]
    xs = range(len(parts))
    for group, label, dx in ((won, "winning players", -0.2), (others, "the other players", 0.2)):
        if group:
            ax.bar([x + dx for x in xs], [sum(sc[i] for sc in group) / len(group) for i in xs],
                   0.4, label=label)  # fmt: skip
    ax.set_xticks(list(xs), parts)
    ax.set_ylabel("points at the end (mean)")
    ax.set_title("What wins: mean score parts")
    ax.legend()
    ax = axes[1][1]
    outer = [sum(r.lanes[f][0] for r in results) for f in range(3)]
    inner = [sum(r.lanes[f][1] for r in results) for f in range(3)]
    forks = ["fork 1", "fork 2", "fork 3"]
    ax.bar(forks, outer, label="outer lane", color="#3b6ea5")
    ax.bar(forks, inner, bottom=outer, label="inner channel", color="#e0a030")
    ax.set_ylabel("players' ships past the fork")
    _integer_counts(ax)
    ax.set_title("Fork lanes taken")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
