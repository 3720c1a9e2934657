"""Jamaica as a single-agent Gymnasium environment: one seat is the agent, the others are bots.

```python
import gymnasium
import jamaica.envs.gym_env  # registers jamaica/Jamaica-v0

env = gymnasium.make("jamaica/Jamaica-v0", opponents=["greedy", "random"])
```

- `opponents`: bot specs of `jamaica.bots.make_bot` (one per other seat, so 1–5 of them); each
  episode builds them afresh with seeds drawn from the environment's generator.
- `seat`: the agent's seat (default 0; None = a seat drawn for each episode); the first Captain is
  drawn by chance either way.
- The options of the vocabulary shared with OpenSpiel and PettingZoo (`jamaica.envs.vocabulary`):
  `edition`, `ghost_ship`, `max_rounds`, `reward` ("rank" by default, "score" or "win").
- `observation`: "absolute" (default), "relative" or "fixed" (seat-relative and one size for
  2–6 players), as in `jamaica_v0` (`jamaica.envs.options`).
- Observation `{"observation": float32[size], "action_mask": int8[140]}` as in `jamaica_v0`; the
  mask is also `info["action_mask"]`. Actions: `Discrete(140)`, the player-action catalog ids
  (seat-relative unless `observation="absolute"`: `jamaica.envs.relative`).
- The reward comes at the end (the agent's return); every step before gives 0. With
  `reward_shaping=True` every step gives the change of the agent's score estimate over the step
  (the bots' moves included) and the steps add up to the return (`jamaica.envs.options`).
- An illegal action: with `illegal="lose"` (default) the episode ends and the agent gets the
  penalty of PettingZoo's `illegal_action="penalize"`, worse than any loss: the reward's lowest
  return, at most −1 (`info["illegal_action"]` is True); with `illegal="raise"` it raises
  `IllegalActionError` and changes nothing.
- Seeding follows Gymnasium: `reset(seed=s)` seeds `np_random`, and every episode (its chance
  outcomes and its bots' seeds) is drawn from it, so plain `reset()`s continue a reproducible
  stream.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..rules import CHANCE, Agent, IllegalActionError, State, new_game
from ..rules.actions import NUM_PLAYER_ACTIONS
from . import jamaica_v0, vocabulary
from .options import Observation, illegal_penalty, shaping

ENV_ID = "jamaica/Jamaica-v0"
ObsDict = dict[str, np.ndarray]


class JamaicaEnv(gymnasium.Env[dict[str, Any], np.int64]):
    metadata = {"render_modes": list(vocabulary.RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        opponents: Sequence[str] = ("random",),
        seat: int | None = 0,
        edition: str = "2021",
        ghost_ship: bool | str | None = None,
        max_rounds: int = 100,
        reward: str = "rank",
        illegal: str = "lose",
        render_mode: str | None = None,
        observation: str = "absolute",
        reward_shaping: bool = False,
    ) -> None:
        if isinstance(opponents, str):
            raise ValueError("opponents must be a list of bot specs, e.g. ['greedy']")
        self.opponents = list(opponents)
        players = len(self.opponents) + 1
        for spec in self.opponents:
            make_bot(spec, 0)  # a bad spec fails here, not at the first reset
        self.config = vocabulary.config(players, edition, ghost_ship, max_rounds)
        self.reward_kind = vocabulary.reward(reward)
        self.view = Observation(observation, self.config)
        self.shaping = shaping(self.reward_kind, reward_shaping)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be None or a seat from 0 to {players - 1}, not {seat!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be lose or raise, not {illegal!r}")
        self.fixed_seat, self.illegal = seat, illegal
        self.render_mode = vocabulary.render_mode(render_mode)
        self.seat = seat or 0
        self.observation_space = self.view.space()
        self.action_space = spaces.Discrete(NUM_PLAYER_ACTIONS)
        self.game: State = new_game(self.config, log=False)
        self.rng = random.Random()
        self.bots: dict[int, Agent] = {}
        self.done = True  # until the first reset

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        n = self.config.players
        draws = self.np_random.integers(0, 2**63 - 1, size=1 + n)
        self.rng = random.Random(int(draws[0]))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, n))
        others = [p for p in range(n) if p != self.seat]
        self.bots = {
            p: make_bot(spec, int(draws[1 + p]))
            for p, spec in zip(others, self.opponents, strict=True)
        }
        self.game = new_game(self.config, log=False)
        self.done = False
        self._advance()
        if self.shaping is not None:
            self.shaping.reset(self.game)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        s = self.game
        if self.done:
            raise IllegalActionError("the episode is over: call reset()")
        a = self.view.absolute(int(action), self.seat)
        if a not in s.legal:
            if self.illegal == "raise":
                s.apply(a)  # raises IllegalActionError, naming the legal actions
            self.done = True
            penalty = illegal_penalty(self.reward_kind)  # worse than any loss, as in PettingZoo
            info = {**self._info(), "illegal_action": True}
            return self._obs(), self._reward([penalty] * self.config.players), True, False, info
        s.apply(a)
        self._advance()
        over = self.done = s.is_terminal()
        reward = self._reward(vocabulary.returns(s, self.reward_kind) if over else None)
        return self._obs(), reward, over, False, self._info()

    def _reward(self, final: list[float] | None) -> float:
        """The agent's reward for this step: its part of `final` at the end (None before), or
        with shaping the change of its potential."""
        if self.shaping is not None:
            return self.shaping.rewards(self.game, final)[self.seat]
        return 0.0 if final is None else final[self.seat]

    def _advance(self) -> None:
        """Chance and the bots play until the agent must decide or the game is over."""
        s, rng = self.game, self.rng
        while True:
            who = s.current_player()
            if who == CHANCE:
                s.apply(s.sample_chance(rng))
            elif who >= 0 and who != self.seat:
                s.apply(self.bots[who].act(s, who))
            else:
                return

    def _mask(self) -> np.ndarray:
        s = self.game
        legal = s.legal if not self.done and s.current_player() == self.seat else ()
        return self.view.mask(legal, self.seat)

    def _obs(self) -> ObsDict:
        s = self.game
        return {"observation": self.view.vector(s, self.seat), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}

    def render(self) -> str | None:
        return jamaica_v0.rendered(self.game, self.render_mode)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:JamaicaEnv")
