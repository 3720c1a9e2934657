"""Seat-relative actions: the action ids an agent sees when its observation is seat-relative.

Only `attack K` names a seat (`jamaica.rules.actions`: K is a player's seat, K = the number of
players is the Ghost Ship). Seen from `player`, seat K is `attack (K − player) mod n` (0 is the
player itself, never legal; 1 the next seat, ...), and the Ghost Ship is always `attack 6`, its
fixed place in `encoding.encode_fixed`, whatever the player count. The unused `attack` ids fill
the gaps in order, so the map is a permutation of the 140 player-action ids (a bijection: an
illegal id maps to an illegal id). Every other action keeps its id.

```python
rel = to_relative(action, player, players)
assert to_absolute(rel, player, players) == action
```
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Final

import numpy as np

from ..rules.actions import ATTACK, NUM_PLAYER_ACTIONS
from .encoding import GHOST_PLACE, MAX_SEATS, action_mask

if TYPE_CHECKING:
    from ..rules.state import State

_FIRST: Final = ATTACK  # the id of `attack 0`
_COUNT: Final = MAX_SEATS + 1  # `attack 0` … `attack 6`: six seats and the Ghost Ship


@cache
def _tables(player: int, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The absolute → relative id table and its inverse, for `player` among `players`."""
    if not (isinstance(players, int) and 2 <= players <= 6):
        raise ValueError(f"players must be an integer from 2 to 6, not {players!r}")
    if not (isinstance(player, int) and 0 <= player < players):
        raise ValueError(f"player must be a seat from 0 to {players - 1}, not {player!r}")
    order = {k: (k - player) % players for k in range(players)}  # seats, rotated
    order[players] = GHOST_PLACE  # the Ghost Ship (never with six players)
    free = iter(r for r in range(_COUNT) if r not in order.values())
    for k in range(_COUNT):
        if k not in order:
            order[k] = next(free)
    forward = list(range(NUM_PLAYER_ACTIONS))
    for k, r in order.items():
        forward[_FIRST + k] = _FIRST + r
    backward = [0] * NUM_PLAYER_ACTIONS
    for a, r in enumerate(forward):
        backward[r] = a
    return tuple(forward), tuple(backward)


def _check(action: int) -> int:
    if not (isinstance(action, (int, np.integer)) and 0 <= action < NUM_PLAYER_ACTIONS):
        raise ValueError(f"action must be a player-action id from 0 to 139, not {action!r}")
    return int(action)


def to_relative(action: int, player: int, players: int) -> int:
    """The id `player` (among `players`) sees for the absolute action id `action`."""
    return _tables(player, players)[0][_check(action)]


def to_absolute(action: int, player: int, players: int) -> int:
    """The absolute action id of the seat-relative id `action` seen by `player`."""
    return _tables(player, players)[1][_check(action)]


def relative_actions(legal: Iterable[int], player: int, players: int) -> list[int]:
    """The seat-relative ids of the absolute ids `legal`, in their order."""
    forward = _tables(player, players)[0]
    return [forward[int(a)] for a in legal]


def legal_mask_relative(s: State, player: int) -> np.ndarray:
    """int8[140]: 1 at the seat-relative id of each of `player`'s legal actions (all zeros
    when the pending question is not `player`'s)."""
    if s.current_player() != player:
        return action_mask(())
    return action_mask(relative_actions(s.legal, player, s.n))
