"""Jamaica as a PettingZoo AEC environment: `jamaica.envs.jamaica_v0.env(players=4, ...)`.

- Agents `player_0` … `player_{n-1}`; the Ghost Ship is not an agent (its choices belong to the
  player who takes them, as in the rules).
- Options in the vocabulary shared with OpenSpiel (`jamaica.envs.vocabulary`): `players`,
  `edition` ("2021" or "classic"), `ghost_ship` (None, True, False or auto/on/off), `max_rounds`,
  `reward`; and the environments' own (`jamaica.envs.options`): `observation` ("absolute",
  "relative" or "fixed": seat-relative and one size for 2–6 players; actions seat-relative unless
  absolute), `reward_shaping` (score-delta rewards adding up to the final reward) and
  `illegal_action` ("raise" or "penalize": the offender gets a negative reward and the game ends,
  as with PettingZoo's `TerminateIllegalWrapper`).
- Observation: `{"observation": float32[size], "action_mask": int8[140]}`; the vector is
  `jamaica.envs.encoding.encode(state, player)` (its layout is documented there; `encode_fixed`
  with `observation="fixed"`); the mask is
  all zeros except for the agent whose turn it is. Actions are the player-action ids 0–139 of the
  catalog in `jamaica.rules.actions` (`Discrete(140)`, as OpenSpiel's `num_distinct_actions`; the
  chance outcomes 140–205 never reach an agent).
- Chance (dice, draws, blind steals) is resolved inside. Seeding follows Gymnasium: `reset(seed=s)`
  starts a stream of episodes and each plain `reset()` after it plays the next one
  (`jamaica.envs.seeding`).
- Rewards, at the end only (at every step with `reward_shaping=True`, adding up to the same):
  `reward="rank"` (default) gives 1 − 2·(rank − 1)/(ships − 1): +1 for the winner, −1 for the
  last ship (the Ghost Ship counts in the ranking; shared places are averaged, the R8 tie-break
  applies); `reward="score"` gives the final score; `reward="win"`
  1 shared among the winning players.
- `render_mode="ansi"`: `render()` returns the board and the ships as text; `"human"` prints
  that text and returns None.
"""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import CHANCE, State, new_game
from ..rules.actions import ACTIONS, NUM_PLAYER_ACTIONS
from . import vocabulary
from .options import Observation, illegal_penalty, shaping
from .seeding import EpisodeSeeds


def ansi(state: State) -> str:
    """The board and the ships as plain text (what `render()` returns)."""
    from rich.text import Text

    from ..tui import render

    view = state.view(None)
    names = [ship["name"] for ship in view["ships"]]
    text = render.board(view, names) + "\n" + render.ships_panel(view, names)
    return Text.from_markup(text).plain


def rendered(state: State, mode: str | None) -> str | None:
    """`render()` in `mode`: the text ("ansi"), printed ("human"), or nothing (None)."""
    if mode is None:
        return None
    text = ansi(state)
    if mode == "ansi":
        return text
    print(text)
    return None


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper. (An out-of-range or illegal
    action needs no extra wrapper: the engine refuses it with `IllegalActionError`, a
    ValueError naming the legal actions, and changes nothing; or, with
    `illegal_action="penalize"`, the environment ends the game and penalizes the offender.)"""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": list(vocabulary.RENDER_MODES), "name": "jamaica_v0",
                "is_parallelizable": False, "render_fps": 1}  # fmt: skip

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
        super().__init__()
        self.config = vocabulary.config(players, edition, ghost_ship, max_rounds)
        self.reward_kind = vocabulary.reward(reward)
        self.view = Observation(observation, self.config)
        self.shaping = shaping(self.reward_kind, reward_shaping)
        self.illegal_action = vocabulary.illegal_action(illegal_action)
        self.render_mode = vocabulary.render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.view.space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_PLAYER_ACTIONS) for a in self.possible_agents}
        self.game: State = new_game(self.config, log=False)
        self.rng = random.Random()
        self.seeds = EpisodeSeeds()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.rng = self.seeds.episode(seed)
        self.game = new_game(self.config, log=False)
        self._chance()
        if self.shaping is not None:
            self.shaping.reset(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player()]

    def _chance(self) -> None:
        s, rng = self.game, self.rng
        while s.q[1] == CHANCE:  # type: ignore[index]  # (a question is always pending here)
            s.apply(s.sample_chance(rng))

    def observe(self, agent: str) -> dict[str, Any]:
        p = self._index[agent]
        s = self.game
        # the decider's mask; never at the end (TERMINAL is no player)
        mask = self.view.mask(s.legal if s.q[1] == p else (), p)  # type: ignore[index]
        return {"observation": self.view.vector(s, p), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.game
        i = int(action)  # type: ignore[arg-type]
        if self.view.relative:
            i = self.view.absolute(i, self._index[agent])
        if self.illegal_action == "penalize" and i not in s.legal:
            self._cumulative_rewards[agent] = 0.0
            return self._penalize(agent)
        s.apply(ACTIONS[i] if 0 <= i < NUM_PLAYER_ACTIONS else i)  # an Action: checked cheaply
        self._cumulative_rewards[agent] = 0.0  # collected by `last()`; not if refused above
        self._chance()
        over = s.is_terminal()
        if over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[s.current_player()]
        if self.shaping is not None:
            self._reward(self.shaping.rewards(s, self.final_rewards() if over else None))
        elif over:  # without shaping, rewards come at the end only: until then `rewards` stays
            self._reward(self.final_rewards())  # all zeros (set by `reset`)

    def _reward(self, rewards: list[float]) -> None:
        for a, r in zip(self.agents, rewards, strict=True):
            self.rewards[a] = r
        self._accumulate_rewards()

    def _penalize(self, agent: str) -> None:
        """An illegal action with `illegal_action="penalize"`: the game ends, the offender gets
        the penalty and the others 0 (as PettingZoo's `TerminateIllegalWrapper` does)."""
        final = [0.0] * self.config.players
        final[self._index[agent]] = illegal_penalty(self.reward_kind)
        for a in self.agents:
            self.terminations[a] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": True}
        self._reward(final if self.shaping is None else self.shaping.rewards(self.game, final))

    def final_rewards(self) -> list[float]:
        return vocabulary.returns(self.game, self.reward_kind)

    def render(self) -> str | None:
        return rendered(self.game, self.render_mode)

    def close(self) -> None:
        pass
