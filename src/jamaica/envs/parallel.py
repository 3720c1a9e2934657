"""Jamaica as a PettingZoo `ParallelEnv`: the card choice is simultaneous (RULES §4.2).

`jamaica.envs.parallel.parallel_env(players=4, ...)` takes the options of `jamaica_v0` (the
shared vocabulary of `jamaica.envs.vocabulary`, with `observation`, `reward_shaping` and
`illegal_action`: `jamaica.envs.options`) and has the same agents, spaces and rewards.

- A step where cards are chosen: every player who has still to choose acts at once
  (`{agent: "play CARD" id}`); the cards are given to the engine in its order, and no one sees
  another's card before choosing, as at the table.
- Any other step: only the player the question is for acts; the others pass. A passing agent's
  mask is all zeros and its action is ignored (it may be left out or be None), as in PettingZoo's
  `turn_based_aec_to_parallel`.
- Every step's actions are checked before any is applied: a missing or illegal action of an
  acting agent raises `IllegalActionError` and changes nothing; with
  `illegal_action="penalize"` it ends the game instead, nothing applied: each offender gets the
  penalty (`options.illegal_penalty`), the others 0, and the offender's info
  `"illegal_action": True` (so PettingZoo's `parallel_seed_test`, which samples actions without
  masks, runs).
- Infos: `{"acting": bool}` per agent.

Conversions (PettingZoo's own wrappers, see `aec_env` and `turn_based`):

- `aec_env(**options)` = `parallel_to_aec(parallel_env(**options))`: the simultaneous form as an
  AEC env (in each cycle every agent is asked in turn; a passing agent's action is ignored).
- `turn_based(**options)` = `turn_based_aec_to_parallel(jamaica_v0.env(**options))`: the sequential
  form as a parallel env, exactly one agent acting per step (cards too).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec, turn_based_aec_to_parallel

from ..rules import CHANCE, IllegalActionError, State, new_game
from ..rules.actions import ACTION_NAMES, NUM_PLAYER_ACTIONS, PLAY
from ..rules.data import NUM_CARDS
from ..rules.ops import T_CHOOSE
from . import jamaica_v0, vocabulary
from .options import Observation, illegal_penalty, shaping
from .seeding import EpisodeSeeds

ObsDict = dict[str, np.ndarray]
# A step's observations, rewards, terminations, truncations and infos.
Step = tuple[
    dict[str, ObsDict],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


class parallel_env(ParallelEnv):  # type: ignore[misc]
    metadata = {"render_modes": list(vocabulary.RENDER_MODES), "name": "jamaica_parallel_v0",
                "render_fps": 1}  # fmt: skip

    def __init__(
        self,
        players: int = 4,
        edition: str = "2021",
        ghost_ship: bool | str | None = None,
        max_rounds: int = 100,
        reward: str = "rank",
        render_mode: str | None = None,
        observation: str = "absolute",
        reward_shaping: bool = False,
        illegal_action: str = "raise",
    ) -> None:
        self.config = vocabulary.config(players, edition, ghost_ship, max_rounds)
        self.reward_kind = vocabulary.reward(reward)
        self.view = Observation(observation, self.config)
        self.shaping = shaping(self.reward_kind, reward_shaping)
        self.illegal_action = vocabulary.illegal_action(illegal_action)
        self.render_mode = vocabulary.render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.view.space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_PLAYER_ACTIONS) for a in self.possible_agents}
        self.seeds = EpisodeSeeds()
        self.rng = self.seeds.episode()
        self.game: State = new_game(self.config, log=False)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]  # one space object per agent, as the API asks

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- who acts ----------------------------------------------------------------------------
    def acting(self) -> dict[int, list[int]]:
        """The players who act in this step, with their legal actions: during the card choice
        everyone who has still to choose (their hands), otherwise the one player asked."""
        s = self.game
        who = s.current_player()
        if who < 0:
            return {}
        if s.decision_kind() != "card":
            return {who: [int(a) for a in s.legal]}
        out = {who: [int(a) for a in s.legal]}
        for p in range(s.n):
            if p != who and (T_CHOOSE, p) in s.stack:
                out[p] = [PLAY + c for c in range(NUM_CARDS) if s.hand[p] >> c & 1]
        return out

    # --- the API -----------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        self.rng = self.seeds.episode(seed)
        self.game = new_game(self.config, log=False)
        self._chance()
        if self.shaping is not None:
            self.shaping.reset(self.game)
        self.agents = self.possible_agents[:]
        return self._observe(self.acting()), self._infos(self.acting())

    def step(self, actions: dict[str, Any]) -> Step:
        s = self.game
        if not self.agents:
            return {}, {}, {}, {}, {}
        acting = self.acting()
        chosen: dict[int, int] = {}
        offenders: list[int] = []
        for p, legal in acting.items():
            agent = self.possible_agents[p]
            action = actions.get(agent)
            a = -1 if action is None else self._absolute(action, p)
            if a not in legal:
                if self.illegal_action == "penalize":
                    offenders.append(p)
                elif action is None:
                    raise IllegalActionError(f"{agent} must act now; legal: {_names(legal)}")
                else:
                    raise IllegalActionError(
                        f"{agent}: {_name(a) if a >= 0 else action!r} is not legal now; "
                        f"legal: {_names(legal)}"
                    )
            chosen[p] = a
        if offenders:
            return self._penalize(offenders)
        while chosen:  # the engine asks in its own order (cards: one player after another)
            s.apply(chosen.pop(s.current_player()))
        self._chance()
        over = s.is_terminal()
        returns = vocabulary.returns(s, self.reward_kind)
        if self.shaping is not None:
            returns = self.shaping.rewards(s, returns if over else None)
        return self._outcome(returns, over)

    def _absolute(self, action: Any, p: int) -> int:
        """The catalog id of an agent's action (-1 for one that is no integer)."""
        try:
            a = int(action)
        except (TypeError, ValueError):
            return -1
        return self.view.absolute(a, p) if self.view.relative else a

    def _penalize(self, offenders: list[int]) -> Step:
        """Illegal actions with `illegal_action="penalize"`: the game ends as it is."""
        final = [0.0] * self.config.players
        for p in offenders:
            final[p] = illegal_penalty(self.reward_kind)
        if self.shaping is not None:
            final = self.shaping.rewards(self.game, final)
        out = self._outcome(final, True, acting={})
        for p in offenders:
            out[4][self.possible_agents[p]]["illegal_action"] = True
        return out

    def _outcome(
        self, returns: list[float], over: bool, acting: dict[int, list[int]] | None = None
    ) -> Step:
        """A step's five dicts for `returns`, each player's reward; the agents leave if
        `over`."""
        agents = self.agents
        rewards = {a: returns[self._index[a]] for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        now = self.acting() if acting is None else acting
        observations, infos = self._observe(now), self._infos(now)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _chance(self) -> None:
        s, rng = self.game, self.rng
        while s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))

    def _observe(self, acting: dict[int, list[int]]) -> dict[str, ObsDict]:
        s = self.game
        out = {}
        for agent in self.agents:
            p = self._index[agent]
            mask = self.view.mask(acting.get(p, ()), p)
            out[agent] = {"observation": self.view.vector(s, p), "action_mask": mask}
        return out

    def _infos(self, acting: dict[int, list[int]]) -> dict[str, dict[str, Any]]:
        return {a: {"acting": self._index[a] in acting} for a in self.agents}

    def render(self) -> str | None:
        return jamaica_v0.rendered(self.game, self.render_mode)

    def close(self) -> None:
        pass


def _name(action: int) -> str:
    return ACTION_NAMES[action] if 0 <= action < len(ACTION_NAMES) else f"id {action}"


def _names(legal: list[int]) -> str:
    return ", ".join(ACTION_NAMES[a] for a in legal)


def aec_env(**options: Any) -> AECEnv:
    """The simultaneous form as an AEC environment (PettingZoo's `parallel_to_aec`)."""
    return parallel_to_aec(parallel_env(**options))


def turn_based(**options: Any) -> ParallelEnv:
    """The sequential AEC environment as a parallel one, one agent acting per step (PettingZoo's
    `turn_based_aec_to_parallel`)."""
    return turn_based_aec_to_parallel(jamaica_v0.env(**options))
