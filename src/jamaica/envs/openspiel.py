"""Jamaica as an OpenSpiel game: `pyspiel.load_game("python_jamaica", {...})` once this module is
imported (`import jamaica.envs.openspiel`).

Parameters: `players` (2–6, default 4), `edition` ("modern" — the 2021 edition: OpenSpiel's game
strings would read "2021" as a number — or "classic"), `ghost_ship` ("auto",
"on", "off"), `max_rounds` (100), `reward` ("score": returns are the final scores; "win": 1 split
among the winning players, 0 otherwise — if the Ghost Ship wins, nobody gets anything).

Chance nodes are explicit (dice, card and treasure draws, blind steals, the first Captain).
Player actions are the ids 0–139 of the catalog in `jamaica.rules.actions`; chance outcomes are
ids 140–205. The information state string is the player's view and every event it has seen
(perfect recall); the observation string is the view; both tensors are the vector of
`jamaica.envs.encoding` (the information state tensor is the current observation, not a history).
`resample_from_infostate` draws the hidden cards with `State.resample`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..rules import CHANCE, TERMINAL, Config, State, new_game
from ..rules.actions import ACTION_NAMES, NUM_ACTIONS, NUM_PLAYER_ACTIONS
from .encoding import encode, observation_size

_DEFAULTS = {"players": 4, "edition": "modern", "ghost_ship": "auto", "max_rounds": 100,
             "reward": "score"}  # fmt: skip
_GHOST = {"auto": None, "on": True, "off": False}
MIN_SCORE, MAX_SCORE = -14.0, 76.0

_GAME_TYPE = pyspiel.GameType(
    short_name="python_jamaica",
    long_name="Python Jamaica",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def config_of(params: dict[str, Any]) -> tuple[Config, str]:
    p = {**_DEFAULTS, **(params or {})}
    if p["ghost_ship"] not in _GHOST:
        raise ValueError("ghost_ship must be auto, on or off")
    editions = {"modern": "2021", "classic": "classic"}
    if p["edition"] not in editions:
        raise ValueError("edition must be modern (the 2021 edition) or classic")
    if p["reward"] not in ("score", "win"):
        raise ValueError("reward must be score or win")
    config = Config(
        players=int(p["players"]),
        edition=editions[p["edition"]],
        ghost_ship=_GHOST[p["ghost_ship"]],
        max_rounds=int(p["max_rounds"]),
    )
    return config, str(p["reward"])


class JamaicaGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config, self.reward = config_of(params or {})
        n = self.config.players
        win = self.reward == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_PLAYER_ACTIONS,
            max_chance_outcomes=NUM_ACTIONS,
            num_players=n,
            min_utility=0.0 if win else MIN_SCORE,
            max_utility=1.0 if win else MAX_SCORE,
            utility_sum=None,
            max_game_length=self.config.max_rounds * 600,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.size = observation_size(self.config)

    def new_initial_state(self) -> JamaicaState:
        return JamaicaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return JamaicaObserver(self, perfect_recall)



def settings(game: Any) -> tuple[Config, str]:
    """The configuration and reward of a game object — also of one OpenSpiel rebuilt from its
    parameters without running our constructor (as its deserialization does)."""
    config = getattr(game, "config", None)
    if config is not None:
        return config, game.reward
    return config_of(game.get_parameters())


class JamaicaState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any, engine: State | None = None) -> None:
        super().__init__(game)
        self._config, self._reward = settings(game)
        self.engine = engine if engine is not None else new_game(self._config)

    def current_player(self) -> int:
        who = self.engine.current_player()
        if who == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(int(a) for a in self.engine.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((int(a), p) for a, p in self.engine.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self.engine.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        s = self.engine
        n = s.n
        if not s.is_terminal():
            return [0.0] * n
        if self._reward == "score":
            return [float(sc.total) for sc in s.scores()[:n]]
        winners = s.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> JamaicaState:
        rng = random.Random(int(probability_sampler() * 2**53))
        return JamaicaState(self.get_game(), self.engine.resample(player_id, rng))

    def __deepcopy__(self, memo: Any) -> JamaicaState:
        return JamaicaState(self.get_game(), self.engine.clone())

    def __str__(self) -> str:
        return json.dumps(self.engine.view(None), sort_keys=True)


class JamaicaObserver:
    """What a player sees: `tensor` from `encoding`; `string_from` the view (and, for perfect
    recall, every event the player has seen)."""

    def __init__(self, game: Any, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(settings(game)[0]), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: JamaicaState, player: int) -> None:
        s = state.engine
        encode(s.view(player), s.n, s.ns, out=self.tensor)

    def string_from(self, state: JamaicaState, player: int) -> str:
        s = state.engine
        view = s.view(player)
        if not self.perfect_recall:
            return json.dumps(view, sort_keys=True)
        events = [(e["kind"], e["args"]) for e in s.events_for(player)]
        return json.dumps({"view": view, "events": events}, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, JamaicaGame)
