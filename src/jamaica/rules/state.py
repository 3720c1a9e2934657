"""The game state: what is on the table, the one pending question, and the public API.

A `State` is mutable; `apply()` answers the pending question (a player's decision or a chance
outcome) and runs the game on to the next one. `clone()` is cheap; `to_dict()` / `from_dict()`
round-trip exactly. Its fields, and `clone()`, are declared in `base.BaseState`, which the engine's
modules take: they never import this module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, overload

from . import battle as _battle  # noqa: F401  (registers its handlers)
from . import holds as _holds  # noqa: F401
from . import shortage as _shortage  # noqa: F401
from . import turns as _turns  # noqa: F401
from .actions import ACTIONS, NUM_ACTIONS, Action, ParseError
from .base import BaseState
from .board import moves_left
from .config import Config
from .data import (
    ALL_CARDS_MASK,
    FOOD,
    GHOST_GOLD,
    GOLD,
    LADY_BETH,
    LAIR_SPACES,
    NUM_POWERS,
    SLOTS,
    START_FOOD,
    START_GOLD,
    TREASURE_COUNTS,
)
from .events import E_START
from .ops import (
    CHANCE,
    DECIDE,
    KIND_NAMES,
    PUBLIC,
    T_DRAW,
    T_FIRST_CAPTAIN,
    TERMINAL,
    ev,
    run,
)
from .phrases import ENGLISH, Translations
from .prompts import pending as _pending
from .resample import resample as _resample
from .scoring import Score, score, winners
from .serialize import state_from_dict, state_to_dict
from .view import events_for as _events_for
from .view import view as _view


class IllegalActionError(ValueError):
    """An action that is not legal now; the state is left unchanged."""


class State(BaseState):
    """A game: its fields (`base.BaseState`) and the public API."""

    __slots__ = ()

    def __init__(self, config: Config | None = None, *, log: bool = True) -> None:
        cfg = config if config is not None else Config()
        if not isinstance(cfg, Config):
            raise ValueError(f"expected a jamaica.Config, not {type(cfg).__name__}")
        self.cfg = cfg
        n, ns = cfg.players, cfg.ships
        self.n, self.ns = n, ns
        self.gh = n if cfg.ghost else -1
        self.classic = cfg.classic
        self.all = ((1 << n) - 1) | PUBLIC
        self.rnd, self.cap = 0, -1
        self.roll, self.morning, self.evening = (), 0, 0
        self.pos, self.lap = [0] * ns, [0] * ns
        self.hold_types, self.hold_counts = [0] * (ns * SLOTS), [0] * (ns * SLOTS)
        for p in range(n):
            self.hold_types[p * SLOTS], self.hold_counts[p * SLOTS] = FOOD, START_FOOD
            self.hold_types[p * SLOTS + 1], self.hold_counts[p * SLOTS + 1] = GOLD, START_GOLD
        self.powers = [-1] * NUM_POWERS
        self.pile = list(TREASURE_COUNTS)
        if self.gh >= 0:
            g = self.gh * SLOTS
            self.hold_types[g], self.hold_counts[g] = GOLD, GHOST_GOLD[0]
            self.hold_types[g + 1], self.hold_counts[g + 1] = GOLD, GHOST_GOLD[1]
            self.powers[LADY_BETH] = self.gh
            self.pile[LADY_BETH] = 0
        self.face_down = [()] * ns
        self.overboard = ()
        self.tokens = sum(1 << space for space in LAIR_SPACES)
        self.hand, self.drawp = [0] * n, [ALL_CARDS_MASK] * n
        self.disc, self.known_in_hand, self.chosen = [0] * n, [0] * n, [-1] * n
        self.ending = False
        self.battle = None
        self.q, self.legal, self.probs = None, [], None
        self.events = [] if log else None
        self.history = []
        ev(self, self.all, E_START, n, int(self.gh >= 0))
        self.stack = [(T_FIRST_CAPTAIN,)] + [(T_DRAW, p) for p in reversed(range(n))]
        run(self)

    # --- the question ------------------------------------------------------------------------
    def current_player(self) -> int:
        """The player who decides now, or CHANCE, or TERMINAL."""
        assert self.q is not None
        return self.q[1]

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def decision_kind(self) -> str:
        """The kind of the pending question (e.g. "move", "combat_die"), "" when over."""
        assert self.q is not None
        return "" if self.q[1] == TERMINAL else KIND_NAMES[self.q[0]]

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.is_chance_node():
            raise ValueError("not a chance node: chance_outcomes() has nothing to list")
        if self.probs is None:
            p = 1.0 / len(self.legal)
            return [(a, p) for a in self.legal]
        return list(zip(self.legal, self.probs, strict=True))

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw a chance outcome with its probability."""
        if self.probs is None:
            return self.legal[int(rng.random() * len(self.legal))]
        x = rng.random()
        acc = 0.0
        for a, p in zip(self.legal, self.probs, strict=True):
            acc += p
            if x < acc:
                return a
        return self.legal[-1]

    @overload
    def apply(self, action: Action | int) -> None: ...
    @overload
    def apply(self, action: str) -> None: ...
    def apply(self, action: object) -> None:
        """Answer the pending question. An illegal action raises IllegalActionError and leaves
        the state unchanged. (Anything is checked: the compiled build, which takes the
        implementation's parameter type, refuses a float with IllegalActionError too.)"""
        q = self.q
        if action.__class__ is Action and q is not None and action in self.legal:
            a = action  # the common case, checked cheaply
        else:
            a = self._check_action(action)
        assert q is not None
        kind, _, ctx = q
        self.q = None
        self.history.append(a)
        DECIDE[kind](self, ctx, a)
        run(self)

    def _check_action(self, action: object) -> Action:
        if self.q is None or self.q[1] == TERMINAL:
            raise IllegalActionError("the game is over: no action is legal")
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ParseError as e:
                raise IllegalActionError(f"{e}; legal now: {self._legal_text()}") from None
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(
                f"an action is an Action, its id or its text, not {action!r}; "
                f"legal: {self._legal_text()}"
            )
        if action not in self.legal:
            name = str(ACTIONS[action]) if 0 <= action < NUM_ACTIONS else f"id {action}"
            raise IllegalActionError(f"{name!r} is not legal now; legal: {self._legal_text()}")
        return ACTIONS[action]

    def _legal_text(self) -> str:
        return ", ".join(str(a) for a in self.legal)

    # --- results -------------------------------------------------------------------------------
    def scores(self) -> list[Score]:
        """Per ship (the Ghost Ship last): position, doubloons and treasures; `.total`."""
        return [score(self, k) for k in range(self.ns)]

    def winners(self) -> list[int]:
        """The winning ships (R8 tie-break; several on a shared victory). Valid at any time;
        final once the game is over."""
        return winners(self)

    def moves_left(self, ship: int) -> int:
        """R8: fewest moves for the ship to finish."""
        return moves_left(self.pos[ship], self.lap[ship])

    # --- copies: `clone()` (base.BaseState) ------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # Unhashable, as any class that defines __eq__ alone (declared, not assigned: the compiled
    # build would make an assigned __hash__ an instance field).
    __hash__: ClassVar[None]  # type: ignore[assignment]

    def __repr__(self) -> str:
        who = self.current_player()
        if who == TERMINAL:
            return f"<State {self.cfg.players}p round {self.rnd}: game over>"
        whom = "chance" if who == CHANCE else f"player {who}"
        return f"<State {self.cfg.players}p round {self.rnd}: {self.decision_kind()} by {whom}>"

    # --- serialization, views, determinization, questions in words (see the modules) -----
    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    @staticmethod
    def from_dict(d: Any) -> State:
        return state_from_dict(d, State)

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything `player` may see (RULES §11), JSON-safe; `None`: a spectator."""
        return _view(self, player)

    def events_for(
        self, player: int | None, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The events `player` may see, in plain words (with `names` per ship, if given);
        `None`: public events only."""
        return _events_for(self, player, names)

    def resample(self, player: int, rng: random.Random) -> State:
        """A complete state consistent with `player`'s view, hidden parts drawn at random."""
        return _resample(self, player, rng)

    def pending(self, names: Sequence[str] | None = None, t: Translations = ENGLISH) -> Any:
        """The pending question in words: who decides, what, and the legal answers (with
        `names` per ship, if given; in English, or through the catalog `t`)."""
        return _pending(self, names, t)


def new_game(config: Config | None = None, *, log: bool = True) -> State:
    """A new game at its very start (the setup draws and the first Captain are chance events)."""
    return State(config, log=log)
