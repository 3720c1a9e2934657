"""Jamaica as an OpenSpiel game: `pyspiel.load_game("python_jamaica", {...})` once this module is
imported (`import jamaica.envs.openspiel`).

Parameters, in the vocabulary shared with PettingZoo and Gymnasium (`jamaica.envs.vocabulary`):
`players` (2–6, default 4), `edition` ("2021" or "classic"; "modern" also means 2021, for game
strings, which would read 2021 as a number), `ghost_ship` ("auto", "on", "off"), `max_rounds`
(100), `reward` ("score", the default: returns are the final scores; "rank": +1 for the winner to
−1 for the last ship; "win": 1 split among the winning players, 0 otherwise — if the Ghost Ship
wins, nobody gets anything).

Chance nodes are explicit (dice, card and treasure draws, blind steals, the first Captain).
Player actions are the ids 0–139 of the catalog in `jamaica.rules.actions`; chance outcomes are
ids 140–205.

Observers follow OpenSpiel's `IIGObservationType` (RULES §11, R16); `None` is the default
observation (public and the player's private information, no perfect recall):

- public + the player's private information (`SINGLE_PLAYER`): the player's view
  (`State.view(player)`); its tensor is the vector of `jamaica.envs.encoding`. This is
  `observation_string` / `observation_tensor`.
- public information only (`PrivateInfoType.NONE`): a spectator's view (`State.view(None)`) and
  its vector, the same for every player.
- perfect recall: the view above and, in order, every event and every answer (the player's own
  decisions, the chance outcomes and other players' decisions) that observer saw —
  `view.answer_seen_by` decides which answers a player sees. With `SINGLE_PLAYER` this is
  `information_state_string`. A perfect-recall observer has no tensor: a fixed-size history of a
  game of ~1,000 decisions is not practical, so the game does not provide
  `information_state_tensor`.
- `PrivateInfoType.ALL_PLAYERS` and observers without public information are refused.

`resample_from_infostate` draws the hidden cards with `State.resample` and keeps what the player
saw, so the resampled state has the same information state string for that player.
"""

from __future__ import annotations

import json
import random
from typing import Any, NoReturn

import numpy as np
import pyspiel

from ..rules import CHANCE, TERMINAL, Config, State, new_game
from ..rules.actions import ACTION_NAMES, NUM_ACTIONS, NUM_PLAYER_ACTIONS
from ..rules.events import EVENT_NAMES
from ..rules.ops import PUBLIC_BIT
from ..rules.view import answer_seen_by, can_see
from . import vocabulary
from .encoding import encode, observation_size

_DEFAULTS = {"players": 4, "edition": "2021", "ghost_ship": "auto", "max_rounds": 100,
             "reward": "score"}  # fmt: skip

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
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# A recorded answer is one int: the number of events logged before it (bits 17 and up), who saw
# it (bits 8–16: bit 8 + p for player p, bit 8 + PUBLIC_BIT for a public answer) and the action
# (bits 0–7).
_SEEN_SHIFT = 8
_AT_SHIFT = 17
_BELOW_AT = (1 << _AT_SHIFT) - 1
_PUBLIC_SEEN = [(1 << PUBLIC_BIT) | ((1 << n) - 1) for n in range(7)]
_NO_INFO_STATE_TENSOR = (
    "python_jamaica provides no information state tensor (a perfect-recall history of ~1,000 "
    "decisions has no practical fixed size): use information_state_string or observation_tensor"
)


def config_of(params: dict[str, Any]) -> tuple[Config, str]:
    p = {**_DEFAULTS, **(params or {})}
    config = vocabulary.config(p["players"], p["edition"], p["ghost_ship"], p["max_rounds"])
    return config, vocabulary.reward(p["reward"])


class JamaicaGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config, self.reward = config_of(params or {})
        n = self.config.players
        low, high = vocabulary.RETURN_BOUNDS[self.reward]
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_PLAYER_ACTIONS,
            max_chance_outcomes=NUM_ACTIONS,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=self.config.max_rounds * 600,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.size = observation_size(self.config)

    def new_initial_state(self) -> JamaicaState:
        return JamaicaState(self)

    def information_state_tensor_shape(self) -> NoReturn:
        raise pyspiel.SpielError(_NO_INFO_STATE_TENSOR)

    def information_state_tensor_size(self) -> NoReturn:
        raise pyspiel.SpielError(_NO_INFO_STATE_TENSOR)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> JamaicaObserver:
        return JamaicaObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def settings(game: Any) -> tuple[Config, str]:
    """The configuration and reward of a game object — also of one OpenSpiel rebuilt from its
    parameters without running our constructor (as its deserialization does)."""
    config = getattr(game, "config", None)
    if config is not None:
        return config, game.reward
    return config_of(game.get_parameters())


class JamaicaState(pyspiel.State):  # type: ignore[misc]
    """`engine` is the rules' `State`; `answers` records every answer to a question, in order,
    with who saw it (see `_SEEN_SHIFT`), so an information state recalls exactly what its player
    observed."""

    def __init__(
        self, game: Any, engine: State | None = None, answers: list[int] | None = None
    ) -> None:
        super().__init__(game)
        self._config, self._reward = settings(game)
        self.engine = engine if engine is not None else new_game(self._config)
        self.answers: list[int] = answers if answers is not None else []

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
        s = self.engine
        if answer_seen_by(s, action, None):
            seen = _PUBLIC_SEEN[s.n]  # a public answer is seen by everyone (R16)
        else:
            seen = 0
            for p in range(s.n):
                if answer_seen_by(s, action, p):
                    seen |= 1 << p
        at = len(s.events) if s.events is not None else 0
        record = (at << _AT_SHIFT) | (seen << _SEEN_SHIFT) | action
        s.apply(action)  # an illegal action raises, and nothing is recorded
        self.answers.append(record)

    def _action_to_string(self, player: int, action: int) -> str:
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        return vocabulary.returns(self.engine, self._reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> JamaicaState:
        rng = random.Random(int(probability_sampler() * 2**53))
        engine = self.engine.resample(player_id, rng)
        # The resampled engine keeps only the events the player saw: renumber the answers the
        # player saw to their place among those events.
        before = [0]
        for e in self.engine.events or ():
            before.append(before[-1] + can_see(e[0], player_id))
        bit = _SEEN_SHIFT + player_id
        answers = [
            (before[r >> _AT_SHIFT] << _AT_SHIFT) | (r & _BELOW_AT)
            for r in self.answers
            if r >> bit & 1
        ]
        return JamaicaState(self.get_game(), engine, answers)

    def recalled(self, player: int | None) -> list[Any]:
        """Everything `player` (None: a spectator) has seen, in order: each event as
        `[name, *args]`, each answer as its action text."""
        events = self.engine.events or []
        bit = _SEEN_SHIFT + (PUBLIC_BIT if player is None else player)
        out: list[Any] = []
        i = 0
        for r in self.answers:
            if not r >> bit & 1:
                continue
            at = r >> _AT_SHIFT
            for e in events[i:at]:
                if can_see(e[0], player):
                    out.append([EVENT_NAMES[e[1]], *e[2:]])
            i = max(i, at)
            out.append(ACTION_NAMES[r & 0xFF])
        for e in events[i:]:
            if can_see(e[0], player):
                out.append([EVENT_NAMES[e[1]], *e[2:]])
        return out

    def information_state_tensor(self, player: int | None = None) -> NoReturn:
        raise pyspiel.SpielError(_NO_INFO_STATE_TENSOR)

    def __deepcopy__(self, memo: Any) -> JamaicaState:
        return JamaicaState(self.get_game(), self.engine.clone(), self.answers[:])

    def __str__(self) -> str:
        return json.dumps(self.engine.view(None), sort_keys=True)


class JamaicaObserver:
    """What one observer sees (see the module docstring): `tensor` (None with perfect recall)
    from `encoding`, `string_from` the view and, with perfect recall, everything seen."""

    def __init__(self, game: Any, iig_obs_type: Any, params: Any = None) -> None:
        if params:
            raise ValueError(f"python_jamaica observers take no parameters; got {params!r}")
        if not iig_obs_type.public_info:
            raise ValueError(
                "python_jamaica has no observer without public information (public_info=False)"
            )
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.private = True
        elif private == pyspiel.PrivateInfoType.NONE:
            self.private = False
        else:
            raise ValueError(
                "python_jamaica observers show public information and at most one player's "
                f"secrets: private_info={private} is not supported"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(observation_size(settings(game)[0]), np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: JamaicaState, player: int) -> None:
        if self.tensor is not None:
            s = state.engine
            encode(s, player if self.private else None, out=self.tensor)

    def string_from(self, state: JamaicaState, player: int) -> str:
        me = player if self.private else None
        view = state.engine.view(me)
        if not self.perfect_recall:
            return json.dumps(view, sort_keys=True)
        return json.dumps({"view": view, "seen": state.recalled(me)}, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, JamaicaGame)
