from __future__ import annotations

# The module's docstring, assigned: the compiled build (mypyc) keeps no docstring literal of a
# module, and the catalog's table below is read back by a test.
__doc__ = """The fixed catalog of actions: a stable small integer id and a short text form for each.

Player decisions and chance outcomes share one catalog (ids 0 … NUM_ACTIONS-1), grouped by kind:

| ids       | text                   | who     | meaning                                             |
|-----------|------------------------|---------|-----------------------------------------------------|
| 0–5       | `morning D`            | Captain | put the die showing D in the morning slot           |
| 6–16      | `play CARD`            | player  | choose this action card (e.g. `play food-fwd`)      |
| 17–66     | `move S`               | player  | move (or fall back) to space S                      |
| 67–72     | `load H`               | player  | load into hold H (0–4; 5 = the 6th Hold)            |
| 73–78     | `pay H`                | player  | pay (or spend) one token from hold H                |
| 79–85     | `attack K`             | player  | attack ship K (K = number of players: Ghost Ship)   |
| 86–122    | `powder N`             | player  | spend N gunpowder in a battle (0–36)                |
| 123–124   | `reroll` / `accept`    | player  | Saran's Sabre: roll that die again, or not          |
| 125–130   | `take H`               | player  | spoils: the contents of the loser's hold H          |
| 131–134   | `steal POWER`          | player  | spoils: a face-up power (map, sabre, beth, hold6)   |
| 135       | `steal blind`          | player  | spoils: a face-down card at random                  |
| 136–138   | `give -2/-3/-4`        | player  | spoils: give the loser that cursed treasure         |
| 139       | `nothing`              | player  | spoils: take nothing                                |
| 140–160   | `roll A-B`             | chance  | the action dice (A ≤ B)                             |
| 161–166   | `die F`                | chance  | combat / shortage die face (2 4 6 8 10 star)        |
| 167–177   | `draw CARD`            | chance  | the action card drawn                               |
| 178–187   | `treasure T`           | chance  | the treasure card drawn (by type)                   |
| 188–199   | `blind I`              | chance  | the I-th face-down card of the loser is stolen      |
| 200–205   | `captain P`            | chance  | the first Captain                                   |
"""

from typing import Final

from .data import (
    CARD_NAMES,
    COMBAT_FACE_NAMES,
    CURSED,
    NUM_CARDS,
    NUM_POWERS,
    NUM_SPACES,
    NUM_TREASURE_TYPES,
    SLOTS,
    TREASURE_NAMES,
)
from .plain import python_class


class ParseError(ValueError):
    """A text that is not the name of any action."""


@python_class  # an int subclass: not a native class in the compiled build
class Action(int):
    """An action: an int (its catalog id) that prints as its text form."""

    __slots__ = ()

    def __str__(self) -> str:
        return ACTION_NAMES[self]

    def __repr__(self) -> str:
        return f"Action.parse({ACTION_NAMES[self]!r})"

    @property
    def id(self) -> int:
        return int(self)

    @property
    def kind(self) -> str:
        return ACTION_NAMES[self].split(" ", 1)[0]

    @staticmethod
    def from_id(i: object) -> Action:
        """The action of catalog id `i`; anything else (a bool too) raises `ParseError`."""
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < NUM_ACTIONS:
            raise ParseError(f"no action has id {i!r}; ids are 0..{NUM_ACTIONS - 1}")
        return ACTIONS[i]

    @staticmethod
    def parse(text: object) -> Action:
        """The action named by `text` (spaces and case aside); anything else raises `ParseError`."""
        key = " ".join(str(text).split()).lower()
        try:
            return ACTIONS[_BY_NAME[key]]
        except KeyError:
            raise ParseError(f"unknown action {text!r}") from None


_NAMES: list[str] = []


def _block(names: list[str]) -> int:
    start = len(_NAMES)
    _NAMES.extend(names)
    return start


MORNING: Final = _block([f"morning {d}" for d in range(1, 7)])  # + die - 1
PLAY: Final = _block([f"play {c}" for c in CARD_NAMES])
MOVE: Final = _block([f"move {s}" for s in range(NUM_SPACES)])
LOAD: Final = _block([f"load {h}" for h in range(SLOTS)])
PAY: Final = _block([f"pay {h}" for h in range(SLOTS)])
ATTACK: Final = _block([f"attack {k}" for k in range(7)])
MAX_POWDER: Final = 36
POWDER: Final = _block([f"powder {n}" for n in range(MAX_POWDER + 1)])
REROLL: Final = _block(["reroll"])
ACCEPT: Final = _block(["accept"])
TAKE: Final = _block([f"take {h}" for h in range(SLOTS)])
STEAL: Final = _block([f"steal {TREASURE_NAMES[t]}" for t in range(NUM_POWERS)])
STEAL_BLIND: Final = _block(["steal blind"])
GIVE: Final = _block([f"give {TREASURE_NAMES[t]}" for t in CURSED])
NOTHING: Final = _block(["nothing"])
FIRST_CHANCE: Final = len(_NAMES)
ROLL_PAIRS: Final = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
ROLL: Final = _block([f"roll {a}-{b}" for a, b in ROLL_PAIRS])
DIE: Final = _block([f"die {f}" for f in COMBAT_FACE_NAMES])
DRAW: Final = _block([f"draw {c}" for c in CARD_NAMES])
TREASURE: Final = _block([f"treasure {t}" for t in TREASURE_NAMES])
MAX_FACE_DOWN: Final = 12
BLIND: Final = _block([f"blind {i}" for i in range(MAX_FACE_DOWN)])
CAPTAIN: Final = _block([f"captain {p}" for p in range(6)])

NUM_ACTIONS: Final = len(_NAMES)
NUM_PLAYER_ACTIONS: Final = FIRST_CHANCE
ACTION_NAMES: Final = tuple(_NAMES)
ACTIONS: Final = tuple(Action(i) for i in range(NUM_ACTIONS))
_BY_NAME: Final = {n: i for i, n in enumerate(ACTION_NAMES)}
ROLL_INDEX: Final = {pair: i for i, pair in enumerate(ROLL_PAIRS)}
assert len(_BY_NAME) == NUM_ACTIONS
assert NUM_CARDS == 11 and NUM_TREASURE_TYPES == 10
