"""What the research environments share beyond the game's options: how an agent sees the game
(`Observation`), score-delta reward shaping (`Shaping`) and the penalty for an illegal action.

The option names and values are in the shared vocabulary (`jamaica.envs.vocabulary`):

- `observation="absolute"` (default): `encode(state, player)`, its size depends on the player
  count, actions are the catalog's ids. `"relative"`: `encode(..., relative=True)` (the
  observer's seat first), and actions seat-relative (`jamaica.envs.relative`: `attack K` counted
  from the observer, the Ghost Ship `attack 6`). `"fixed"`: `encode_fixed` (float32[969] for
  every player count, seat-relative, padded to six seats, the Ghost Ship at a fixed place, a seat
  mask), actions seat-relative: one network plays 2–6 players.
- `reward_shaping=True`: each step's reward is the change of a potential: the player's score
  estimate (`jamaica.rules.scoring.score`: its position, doubloons and treasure cards, as if the
  game ended now; a player knows all its own face-down cards, so the estimate is its own
  information) less the estimate at the start of the episode, in the reward's units (× 1 for
  `"score"`; × the reward's range / 90, the range of a score, for `"rank"` and `"win"`); at the
  end the potential is the final reward. The steps' rewards telescope: over a game they add up
  to the final reward exactly, as without shaping (potential-based shaping keeps the optimal
  policies, Ng et al. 1999).
- `illegal_action="penalize"` (PettingZoo): an illegal action ends the game as PettingZoo's
  `TerminateIllegalWrapper` does: the offender gets `illegal_penalty(reward)` (the reward's
  lowest value, at most −1), the others 0, everyone is terminated, and the offender's info has
  `"illegal_action": True`. `"raise"` (default) raises `IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces

from ..rules.actions import NUM_PLAYER_ACTIONS
from ..rules.scoring import score
from . import vocabulary
from .encoding import FIXED_SIZE, action_mask, encode, encode_fixed, observation_size_of
from .relative import relative_actions, to_absolute

if TYPE_CHECKING:
    from ..rules.config import Config
    from ..rules.state import State

SCORE_RANGE = 90.0  # a final score lies within [-14, 76]


class Observation:
    """How an environment shows the game to a player, and reads its actions back."""

    __slots__ = ("kind", "players", "relative", "size")

    def __init__(self, kind: Any, config: Config) -> None:
        self.kind = vocabulary.observation(kind)
        self.relative = self.kind != "absolute"
        self.players = config.players
        fixed = self.kind == "fixed"
        self.size = FIXED_SIZE if fixed else observation_size_of(config.players, config.ships)

    def space(self) -> spaces.Dict:
        """The observation space: `{"observation": float32[size], "action_mask": int8[140]}`."""
        return spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 2.0, (self.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_PLAYER_ACTIONS,), np.int8),
            }
        )

    def vector(self, s: State, player: int) -> np.ndarray:
        if self.kind == "fixed":
            return encode_fixed(s, player)
        return encode(s, player, relative=self.relative)

    def mask(self, legal: Iterable[int], player: int) -> np.ndarray:
        """int8[140] over the ids the agent uses for the absolute ids `legal`."""
        if self.relative:
            return action_mask(relative_actions(legal, player, self.players))
        return action_mask(legal)

    def absolute(self, action: int, player: int) -> int:
        """The catalog id of the agent's `action` (an id out of range is left to the caller)."""
        if self.relative and 0 <= action < NUM_PLAYER_ACTIONS:
            return to_absolute(action, player, self.players)
        return action


def illegal_penalty(reward: str) -> float:
    """The reward of an illegal action: the reward's lowest value, at most −1."""
    return min(vocabulary.RETURN_BOUNDS[reward][0], -1.0)


class Shaping:
    """Score-delta reward shaping for every player of a game (see the module's docstring)."""

    __slots__ = ("last", "scale", "seen", "start")

    def __init__(self, reward: str) -> None:
        low, high = vocabulary.RETURN_BOUNDS[reward]
        self.scale = 1.0 if reward == "score" else (high - low) / SCORE_RANGE
        self.start: list[int] = []
        self.last: list[float] = []
        self.seen: tuple[Any, ...] = ()

    def reset(self, s: State) -> None:
        self.start = [score(s, p).total for p in range(s.n)]
        self.last = [0.0] * s.n
        self.seen = _scored(s)

    def rewards(self, s: State, final: list[float] | None = None) -> list[float]:
        """Each player's reward for the steps since the last call: the change of its potential
        (`final`, the final rewards, once the game is over)."""
        if final is None:
            seen = _scored(s)
            if seen == self.seen:  # most steps move no ship, no cargo and no card: no change
                return [0.0] * s.n
            self.seen = seen
            now = [(score(s, p).total - self.start[p]) * self.scale for p in range(s.n)]
        else:
            now = list(final)
        out = [b - a for a, b in zip(self.last, now, strict=True)]
        self.last = now
        return out


def _scored(s: State) -> tuple[Any, ...]:
    """What the scores are made of (`scoring.score`): courses, holds, face-down cards."""
    return (*s.pos, *s.lap, *s.hold_types, *s.hold_counts, *s.face_down)


def shaping(reward: str, on: Any) -> Shaping | None:
    """The shaping for `reward_shaping=on` (checked by the vocabulary), or None."""
    return Shaping(reward) if vocabulary.reward_shaping(on) else None
