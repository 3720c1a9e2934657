"""Ratings from multiplayer results: Weng–Lin's Bayesian Plackett–Luce model (`openskill`).

A player's skill is a normal belief `(mu, sigma)`; one finished game — its players' places, shared
places for ties (R8) — moves every player's belief at once (`rate_game`). The mathematics is the
library's: `openskill.models.PlackettLuce` with its documented defaults, named below so that a
stored rating says what it is measured in. This module is pure: it reads no file and keeps no
state; the caller stores the ratings (per player *and* edition: `Key`) and applies a game once.

The shown number (`Rating.display`) is conservative: `mu − 3·sigma`, a skill the player is
99.7 % likely to have at least, on a chess-like scale:

    display = 1500 + 30 · (mu − 3·sigma − 7)

- 30 points per unit of `mu`: heads-up, Plackett–Luce gives the better of two settled players
  the odds `1 / (1 + e^(−Δmu / c))` with `c ≈ √2·beta ≈ 5.9`, and Elo gives
  `1 / (1 + 10^(−Δ / 400))`; these agree when `Δ = 400 / ln 10 / c ≈ 30` points per unit of mu,
  so 100 points here mean about what 100 points mean in chess, head to head.
- `7 = 25 − 3·6`: an average player (`mu = 25`) shows 1500 at the moment their rating stops being
  provisional (`sigma ≤ 6`). A newcomer (`mu − 3·sigma = 0`) shows 1290 and climbs as the
  uncertainty falls.

*Provisional* (`Rating.provisional`): fewer than `MIN_GAMES` rated games, or `sigma` above
`PROVISIONAL_SIGMA`. Measured on simulated players of equal skill, sigma falls to 6 after 12
heads-up games, 14 three-player, 18 four-player and 26 six-player games (the median; this
library's update learns less per game from a larger table): long enough that the first lucky or
unlucky games no longer decide the number, short enough to end within a few evenings. A
threshold on sigma rather than on a count alone lets the games that tell more count more; the
minimum of 10 games keeps a rating stored with a small sigma (reset, imported) provisional until
it has been played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from ..rules import EDITIONS

# The model: openskill's defaults (Weng & Lin 2011), spelt out.
MU: Final = 25.0
SIGMA: Final = 25.0 / 3  # a newcomer: mu − 3·sigma = 0
BETA: Final = 25.0 / 6  # the spread of one game's performance around a player's skill
TAU: Final = 25.0 / 300  # added to sigma before each game, so a rating can still move

# The display scale (see the module's docstring).
CENTRE: Final = 1500
POINTS_PER_MU: Final = 30.0
PROVISIONAL_SIGMA: Final = 6.0
MIN_GAMES: Final = 10
OFFSET: Final = MU - 3 * PROVISIONAL_SIGMA  # an average player leaving provisional shows CENTRE

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def _number(x: object) -> bool:
    return isinstance(x, float | int) and not isinstance(x, bool)


class RatingError(ValueError):
    """A game that cannot be rated: too few players, a bad place, keys that do not match."""


@dataclass(frozen=True)
class Rating:
    """One player's rating in one edition: the model's belief `(mu, sigma)` and the number of
    rated games behind it. `repr()` rebuilds it; `to_dict()` / `from_dict()` round-trip."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    def __post_init__(self) -> None:
        if not (_number(self.mu) and math.isfinite(self.mu)):
            raise RatingError(f"mu must be a finite number, not {self.mu!r}")
        if not (_number(self.sigma) and math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingError(f"sigma must be a positive number, not {self.sigma!r}")
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 0:
            raise RatingError(f"games must be a whole number from 0, not {self.games!r}")

    @property
    def conservative(self) -> float:
        """`mu − 3·sigma`: the skill the player has at least, 99.7 % likely."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number shown: `1500 + 30·(mu − 3·sigma − 7)`, rounded (module docstring)."""
        return round(CENTRE + POINTS_PER_MU * (self.conservative - OFFSET))

    @property
    def provisional(self) -> bool:
        """Still new: fewer than 10 rated games, or sigma above 6 (module docstring)."""
        return self.games < MIN_GAMES or self.sigma > PROVISIONAL_SIGMA

    def shown(self) -> str:
        """The display value as text, `?` after it while provisional (lichess's habit)."""
        return f"{self.display}{'?' if self.provisional else ''}"

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @staticmethod
    def from_dict(d: Any) -> Rating:
        if not isinstance(d, dict) or set(d) != {"mu", "sigma", "games"}:
            raise RatingError(f"a rating is an object with mu, sigma and games, not {d!r:.80}")
        return Rating(d["mu"], d["sigma"], d["games"])


class Key(NamedTuple):
    """Whose rating: a player (the lobby's player key, or a bot level) in one edition, `"2021"`
    or `"classic"` (the 2007 rules): a rating is kept per edition (see `jamaica.ratings`)."""

    player: str
    edition: str


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings after one game: `places[i]` is the place of the player rated `ratings[i]`
    (1 = first; equal places are a tie, as the engine ranks them, R8). Pure; each rating counts
    one more game."""
    if len(ratings) < 2:
        raise RatingError(f"a rated game needs at least 2 players, not {len(ratings)}")
    if len(places) != len(ratings):
        raise RatingError(f"{len(ratings)} players need {len(ratings)} places, not {len(places)}")
    for p in places:
        if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= len(places):
            raise RatingError(f"a place is a whole number from 1 to {len(places)}, not {p!r}")
    teams = [[PlackettLuceRating(r.mu, r.sigma)] for r in ratings]
    new = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(t[0].mu, t[0].sigma, r.games + 1) for t, r in zip(new, ratings, strict=True)]


def rate_game(ratings: Mapping[Key, Rating], places: Mapping[Key, int]) -> dict[Key, Rating]:
    """New ratings after one finished game, by key: every player of the game with their rating
    before it and their place (from `places_of`; ties shared, R8). All keys are of one edition.
    Pure: applying a game once is the caller's job (rate in the transaction that finishes it)."""
    if set(ratings) != set(places):
        raise RatingError("the ratings and the places must name the same players")
    editions = {k.edition for k in ratings}
    if len(editions) > 1:
        raise RatingError(f"a game is played in one edition, not {', '.join(sorted(editions))}")
    for k in ratings:
        if k.edition not in EDITIONS:
            raise RatingError(f"edition must be one of {', '.join(EDITIONS)}, not {k.edition!r}")
    keys = list(ratings)
    new = rate([ratings[k] for k in keys], [places[k] for k in keys])
    return dict(zip(keys, new, strict=True))


__all__ = [
    "BETA",
    "MIN_GAMES",
    "MU",
    "PROVISIONAL_SIGMA",
    "SIGMA",
    "TAU",
    "Key",
    "Rating",
    "RatingError",
    "rate",
    "rate_game",
]
