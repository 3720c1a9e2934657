"""Heads-up evaluation of a bot against others, with 95% Wilson intervals (numpy only: it runs
without JAX, for the shipped `deep` bot as for any bot spec).

The protocol of issue 27's target: two players (and the Ghost Ship), the seats alternated game by
game, each game's chance and bots seeded from `lab.runner.game_seed(seed, game)` as the lab's
tournaments do, on a seed the trainer never plays (its duels use `train.EVAL_SEED` onwards, its
games the run's seed). A shared victory counts as a share.

    python -m jamaica.learn.jax.evaluate --bot deep --against greedy,medium,hard --games 300
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ...bots import make_bot
from ...bots.deep import DeepBot
from ...lab.runner import game_seed
from ...lab.stats import wilson
from ...rules import Agent, Config, State, play_game
from ..deep import DeepPolicy


@dataclass
class Line:
    bot: str
    against: str
    games: int
    wins: float  # the bot's share of victories
    lost: float  # the opponent's
    ci: tuple[float, float]

    def __str__(self) -> str:
        lo, hi = self.ci
        rate, other = self.wins / self.games, self.lost / self.games
        return (f"| `{self.bot}` vs `{self.against}` | {self.games} | **{rate:.1%}** "
                f"({lo:.1%}–{hi:.1%}) | {other:.1%} |")  # fmt: skip


def heads_up(
    bot: str, against: str, games: int, seed: int, edition: str = "2021",
    weights: DeepPolicy | None = None,
) -> Line:  # fmt: skip
    """`games` heads-up games of `bot` against `against`, `bot` in seat 0 in even games
    (`weights`: the `deep` bot plays these instead of the shipped ones)."""
    config = Config(players=2, edition=edition)
    wins = lost = 0.0

    def agent(spec: str, seed: int) -> Agent:
        return DeepBot(seed, weights) if spec == "deep" and weights else make_bot(spec, seed)

    for g in range(games):
        s = game_seed(seed, g)
        seat = g % 2
        specs = [bot, against] if seat == 0 else [against, bot]
        agents = [agent(spec, s * 10 + k) for k, spec in enumerate(specs)]
        finals: list[State] = []
        play_game(config, agents, s, final_state=finals)
        winners = finals[0].winners()
        if seat in winners:
            wins += 1 / len(winners)
        if 1 - seat in winners:
            lost += 1 / len(winners)
    return Line(bot, against, games, wins, lost, wilson(wins, games))


HEADER = ("| match, heads-up (2 players + Ghost Ship) | games | wins (95% Wilson) | opponent |\n"
          "|---|---|---|---|")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m jamaica.learn.jax.evaluate")
    p.add_argument("--bot", default="deep")
    p.add_argument("--against", default="greedy,medium,hard")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=2027)
    p.add_argument("--edition", default="2021")
    p.add_argument("--weights", help="the deep bot plays these weights (.npz), not the shipped")
    ns = p.parse_args(argv)
    weights = DeepPolicy.load(ns.weights) if ns.weights else None
    print(HEADER, flush=True)
    for spec in ns.against.split(","):
        line = heads_up(ns.bot, spec.strip(), ns.games, ns.seed, ns.edition, weights)
        print(line, flush=True)


if __name__ == "__main__":
    main()
