"""How many questions a game can ask: the bound OpenSpiel calls `max_game_length`.

A game has at most `max_rounds` rounds (the round end stops it there), so a bound per round times
the rounds bounds the game. Per round, every question the engine can ask is counted from the
rules engine (`jamaica.rules`), where it is asked:

Player decisions, per round:

- the dice order, once (the Captain; not asked on a double); each player's card, once;
- each player's two half-turns: a load (one question: which hold), or a move and what follows
  it, the *move chain*: the move, the arrival's battle, the payment or the shortage and its
  fall-back move (whose arrival can bring another battle);
- the Ghost Ship's two moves (asked of the Captain), each with a possible battle at arrival;
- a battle asks at most `BATTLE_DECISIONS` = 7 questions: which ship to attack (only with two
  foes or more), gunpowder for each side (2), the Sabre for each side (2; once used it is gone
  for the battle), the spoils (1) and the hold they are loaded into (1);
- payments: each `pay` question takes one token out of a hold (the rest of the payment may
  follow without a question), so they are bounded by the tokens the players can pay in the
  round: at most 6 per hold (a load is a die's value or a stolen hold's contents), so 36 per
  ship at the start of the round, plus 6 per load during the round (the half-turns' loads and
  the spoils).

Move chains: in the 2021 edition the fall-back move is never paid, so a chain has at most one
fall-back and two battles (one at each arrival, at two different spaces: at most ships − 1).
In the classic edition the fall-back space is one the ship can pay, so a further shortage needs
a battle there (won or lost, the spoils can take or dump what was to be paid); every fall-back
goes strictly backwards, so the chain's battles are at different spaces each holding a foe: at
most ships − 1 battles and ships fall-backs.

Chance nodes, per round: the roll; per battle `BATTLE_CHANCE` = 4 (each side's die, the Sabre's
re-roll, a blind steal); per move chain a lair's treasure card (an arrival on a lair ends the
chain) and, in 2021, the shortage die; the card draws at the round's end, at most players + 1
(hands are at the limit when a round starts and one card is played; only the one player holding
the Map at the end may have a limit raised to 4 during the round). Before the first round: the
first Captain and three cards per player.

Each ingredient is reached in some game; all of them in one round is not, so the bound is safe
rather than sharp. tests/envs/test_bounds.py counts them in random games of every configuration.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules.config import Config
from ..rules.data import HAND_LIMIT, SLOTS

HALF_TURNS = 2  # morning and evening
MAX_TOKENS_PER_HOLD = 6  # a load is a die's value (1–6) or a hold's contents
BATTLE_DECISIONS = 7  # attack, powder × 2, Sabre × 2, spoils, load
BATTLE_CHANCE = 4  # die × 2, the Sabre's re-roll, a blind steal


class Bound(NamedTuple):
    """Upper bounds for one configuration (see the module docstring)."""

    chain_battles: int  # battles in one move chain
    chain_fallbacks: int  # fall-back moves in one move chain
    battles: int  # battles in a round
    payments: int  # `pay` questions in a round (tokens the players can pay)
    draws: int  # card draws at a round's end
    decisions: int  # player decisions in a round
    chance: int  # chance nodes in a round
    setup_chance: int  # chance nodes before the first round
    max_game_length: int  # player decisions in a game (OpenSpiel's MaxGameLength)
    max_chance_nodes: int  # chance nodes in a game (OpenSpiel's MaxChanceNodesInHistory)


def bound(config: Config) -> Bound:
    n, ships = config.players, config.ships
    ghost = 1 if config.ghost else 0
    if config.classic:
        chain_battles, chain_fallbacks, shortage_die = ships - 1, ships, 0
    else:
        chain_battles, chain_fallbacks, shortage_die = min(2, ships - 1), 1, 1
    chain_decisions = 1 + chain_fallbacks + chain_battles * BATTLE_DECISIONS
    chain_chance = chain_battles * BATTLE_CHANCE + 1 + shortage_die
    battles = n * HALF_TURNS * chain_battles + ghost * HALF_TURNS
    loads = n * HALF_TURNS + battles
    payments = n * SLOTS * MAX_TOKENS_PER_HOLD + loads * MAX_TOKENS_PER_HOLD
    draws = n + 1
    decisions = (
        1  # the dice order
        + n  # the cards
        + n * HALF_TURNS * max(1, chain_decisions)  # a load, or a move chain
        + ghost * HALF_TURNS * (1 + BATTLE_DECISIONS)  # the Ghost Ship's moves
        + payments
    )
    chance = (
        1  # the roll
        + n * HALF_TURNS * chain_chance
        + ghost * HALF_TURNS * (BATTLE_CHANCE + 1)  # a battle, a lair's treasure
        + draws
    )
    setup = 1 + HAND_LIMIT * n  # the first Captain, the first hands
    rounds = config.max_rounds
    return Bound(
        chain_battles, chain_fallbacks, battles, payments, draws, decisions, chance, setup,
        max_game_length=rounds * decisions, max_chance_nodes=setup + rounds * chance,
    )  # fmt: skip
