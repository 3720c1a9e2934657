"""A game's configuration: players, edition, Ghost Ship, round limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .data import MAX_PLAYERS, MIN_PLAYERS
from .fields import json_type, show
from .plain import python_class

EDITIONS: Final = ("2021", "classic")
DEFAULT_MAX_ROUNDS: Final = 100  # ruling R7
MAX_ROUNDS: Final = 10_000  # a longer limit is never reached: a race ends within a few dozen


@python_class  # its fields checked by __post_init__ alone, in the compiled build too
@dataclass(frozen=True)
class Config:
    """`ghost_ship=None` means: on with 2 players, off otherwise (RULES §1)."""

    players: int = 4
    edition: str = "2021"
    ghost_ship: bool | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        # The fields as given, of whatever type: in the compiled build, reading them by their
        # declared types would raise a TypeError before the message below says what is wrong.
        given: dict[str, Any] = self.__dict__
        p = given["players"]
        if not isinstance(p, int) or isinstance(p, bool) or not MIN_PLAYERS <= p <= MAX_PLAYERS:
            raise ValueError(f"players must be an integer from 2 to 6, not {show(p)}")
        e = given["edition"]
        if not isinstance(e, str) or e not in EDITIONS:
            shown = repr(e) if isinstance(e, str) and len(e) < 20 else show(e)
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {shown}")
        g = given["ghost_ship"]
        if g is not None and not isinstance(g, bool):
            raise ValueError(f"ghost_ship must be true, false or None, not {show(g)}")
        if p == 2 and g is False:
            raise ValueError("with 2 players the Ghost Ship is always used (RULES §1)")
        if p == MAX_PLAYERS and g is True:
            raise ValueError("with 6 players there is no ship left to be the Ghost Ship")
        r = given["max_rounds"]
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= MAX_ROUNDS:
            raise ValueError(f"max_rounds must be an integer from 1 to {MAX_ROUNDS}, not {show(r)}")

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
        """The configuration `to_dict` wrote; a key left out takes its default. A ValueError
        names the first bad key ("players must be an integer from 2 to 6, not 9")."""
        if not isinstance(d, dict):
            raise ValueError(f"a configuration must be an object, not {json_type(d)}")
        unknown = [str(key)[:20] for key in d if key not in _KEYS]
        if unknown:
            raise ValueError(f"unknown configuration keys: {', '.join(sorted(unknown))}")
        return Config(**d)


_KEYS: Final = ("players", "edition", "ghost_ship", "max_rounds")
