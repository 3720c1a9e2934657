"""A game's configuration: players, edition, Ghost Ship, round limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .data import MAX_PLAYERS, MIN_PLAYERS

EDITIONS: Final = ("2021", "classic")
DEFAULT_MAX_ROUNDS: Final = 100  # ruling R7


@dataclass(frozen=True)
class Config:
    """`ghost_ship=None` means: on with 2 players, off otherwise (RULES §1)."""

    players: int = 4
    edition: str = "2021"
    ghost_ship: bool | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        p = self.players
        if not isinstance(p, int) or isinstance(p, bool) or not MIN_PLAYERS <= p <= MAX_PLAYERS:
            raise ValueError(f"players must be an integer from 2 to 6, not {p!r}")
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {self.edition!r}")
        g = self.ghost_ship
        if g is not None and not isinstance(g, bool):
            raise ValueError(f"ghost_ship must be true, false or None, not {g!r}")
        if p == 2 and g is False:
            raise ValueError("with 2 players the Ghost Ship is always used (RULES §1)")
        if p == MAX_PLAYERS and g is True:
            raise ValueError("with 6 players there is no ship left to be the Ghost Ship")
        r = self.max_rounds
        if not isinstance(r, int) or isinstance(r, bool) or r < 1:
            raise ValueError(f"max_rounds must be a positive integer, not {r!r}")

    @property
    def ghost(self) -> bool:
        """Whether this game has a Ghost Ship."""
        return self.players == 2 if self.ghost_ship is None else self.ghost_ship

    @property
    def ships(self) -> int:
        """Ships on the board: the players, plus the Ghost Ship (ship index `players`)."""
        return self.players + (1 if self.ghost else 0)

    @property
    def classic(self) -> bool:
        return self.edition == "classic"

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "edition": self.edition,
            "ghost_ship": self.ghost_ship,
            "max_rounds": self.max_rounds,
        }

    @staticmethod
    def from_dict(d: Any) -> Config:
        if not isinstance(d, dict):
            raise ValueError(f"a configuration must be an object, not {type(d).__name__}")
        unknown = set(d) - {"players", "edition", "ghost_ship", "max_rounds"}
        if unknown:
            raise ValueError(f"unknown configuration keys: {', '.join(sorted(unknown))}")
        return Config(**d)
