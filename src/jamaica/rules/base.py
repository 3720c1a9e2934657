"""A state's fields, without its public API: what the engine's modules read and write.

`State` (state.py) is this plus the public API (`apply`, `legal_actions`, `to_dict`, `view`, …).
The engine's modules (`ops`, `turns`, `holds`, `battle`, `shortage`, `scoring`, `view`,
`serialize`, …) take a `BaseState`, so that `state.py` imports them and they never import it
back: the rules core's imports run one way (tests/test_structure.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Self, TypeVar

if TYPE_CHECKING:
    from .actions import Action
    from .config import Config

T = TypeVar("T", bound="BaseState")


class BaseState:
    __slots__ = (
        "all",
        "battle",
        "cap",
        "cfg",
        "chosen",
        "classic",
        "disc",
        "drawp",
        "ending",
        "evening",
        "events",
        "face_down",
        "gh",
        "hand",
        "history",
        "hold_counts",
        "hold_types",
        "known_in_hand",
        "lap",
        "legal",
        "morning",
        "n",
        "ns",
        "overboard",
        "pile",
        "pos",
        "powers",
        "probs",
        "q",
        "rnd",
        "roll",
        "stack",
        "tokens",
    )

    cfg: Config
    n: int  # players
    ns: int  # ships (players + the Ghost Ship)
    gh: int  # the Ghost Ship's ship index, or -1
    classic: bool
    all: int  # the audience of public events: every player's bit and the PUBLIC mark (R16)
    rnd: int  # the current round, from 1 (0 during setup)
    cap: int  # the Captain (-1 before the first is drawn)
    roll: tuple[int, ...]
    morning: int
    evening: int
    pos: list[int]  # per ship: its space
    lap: list[int]  # per ship: <0 behind the start line, 0 racing, 1 finished
    hold_types: list[
        int
    ]  # per ship × 6 hold slots: the resource held (EMPTY, FOOD, GUNPOWDER, GOLD)
    hold_counts: list[int]  # per ship × 6 hold slots: how many tokens
    powers: list[int]  # per power: its owner (face up), -1 not drawn, -2 overboard
    pile: list[int]  # per treasure type: cards not drawn yet (the pile and the cards out of play)
    face_down: list[tuple[int, ...]]  # per ship: face-down cards (type | class << 4 | knowers << 6)
    overboard: tuple[int, ...]  # face-down cards thrown overboard by the Ghost Ship
    tokens: int  # bit mask of the lair spaces still holding their treasure token
    hand: list[int]  # per player: bit mask of action cards in hand
    drawp: list[int]  # per player: bit mask of the draw pile (unordered)
    disc: list[int]  # per player: bit mask of the discard pile (public)
    known_in_hand: list[
        int
    ]  # per player: cards everyone knows to be in that hand (since a reshuffle)
    chosen: list[int]  # per player: the card chosen this round and not yet revealed, or -1
    ending: bool  # a ship has finished: the game ends with this round
    battle: list[int] | None
    stack: list[tuple[Any, ...]]
    q: tuple[int, int, tuple[Any, ...]] | None  # (kind, who decides, context)
    legal: list[Action]
    probs: list[float] | None
    events: list[tuple[int, ...]] | None
    history: list[int]

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """An instance with no field set: `State(...)` sets them in `__init__`; `clone` and
        `from_dict` call this alone. (As Python's own `object.__new__`, written out for the
        compiled build: there, `object.__new__` is refused outside `__new__`, and a class's
        `__new__` also runs its `__init__` unless the class defines its own.)"""
        return object.__new__(cls)

    # --- copies ---------------------------------------------------------------------------------
    def clone(self, *, log: bool | None = None) -> Self:
        """An independent copy; `log=False` drops the event log (faster, for search)."""
        new = _blank(self.__class__)  # without __init__: every field is set here
        # Typed as the base class, where the fields are declared: in the compiled build (mypyc,
        # `jamaica.compiled`) each of them is then set directly, not looked up by name.
        c: BaseState = new
        c.cfg, c.n, c.ns, c.gh = self.cfg, self.n, self.ns, self.gh
        c.classic, c.all, c.rnd, c.cap = self.classic, self.all, self.rnd, self.cap
        c.roll, c.morning, c.evening = self.roll, self.morning, self.evening
        c.pos, c.lap, c.hold_types, c.hold_counts = (
            self.pos[:],
            self.lap[:],
            self.hold_types[:],
            self.hold_counts[:],
        )
        c.powers, c.pile, c.face_down, c.overboard = (
            self.powers[:],
            self.pile[:],
            self.face_down[:],
            self.overboard,
        )
        c.tokens = self.tokens
        c.hand, c.drawp, c.disc = self.hand[:], self.drawp[:], self.disc[:]
        c.known_in_hand, c.chosen, c.ending = self.known_in_hand[:], self.chosen[:], self.ending
        c.battle = None if self.battle is None else self.battle[:]
        c.stack, c.q, c.legal, c.probs = self.stack[:], self.q, self.legal, self.probs
        events = self.events
        if log is None:
            c.events = None if events is None else events[:]
        else:
            c.events = (events[:] if events is not None else []) if log else None
        c.history = self.history[:]
        return new

    def __copy__(self) -> Self:
        """`copy.copy(state)`: `state.clone()`."""
        return self.clone()


def _blank_maker() -> Callable[[type[T]], T]:
    """How `clone` makes a blank instance: Python's own `object.__new__` where it may (the pure
    build: no call of a Python function), else the class's `__new__` (the compiled build, whose
    native classes refuse `object.__new__`)."""
    try:
        object.__new__(BaseState)
    except TypeError:
        return _class_new
    return object.__new__


def _class_new(cls: type[T]) -> T:
    return cls.__new__(cls)


_blank: Final = _blank_maker()
