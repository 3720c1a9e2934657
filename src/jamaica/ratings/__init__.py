"""Ratings for rated play (issue 25): Plackett–Luce ratings for 2–6 players (`openskill`), ties
as the engine ranks them (R8), kept per player and edition; the bots' measured ratings.

- `model`: `Rating` (mu, sigma, games; `display`, `provisional`), `Key(player, edition)`,
  `rate_game` — pure, no I/O.
- `places`: `places_of(state)`, a finished game's places from the engine's ranking.
- `bots`: `bot_ratings(edition)`, read from the shipped `bots.json`.

Why per edition: the two editions differ in one rule only, but it is the rule that punishes a
risky plan: running short under the 2021 rules is a roll of the shortage die that may cost nothing,
under the 2007 rules (`classic`) a certain fall back to the first space the ship can pay. How far
to sail on thin supplies is the decision Jamaica turns on, and the two rules reward different
answers to it. One rating across both would drift with the mix of editions a player happens to
choose; kept apart, each rating measures one game, at the cost of a second provisional period for
a player who takes up the other edition.
"""

from .bots import bot_ratings
from .model import Key, Rating, RatingError, rate, rate_game
from .places import places_of

__all__ = ["Key", "Rating", "RatingError", "bot_ratings", "places_of", "rate", "rate_game"]
