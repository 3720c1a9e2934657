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
  `information_state_string`, and its tensor is `information_state_tensor`
  (`jamaica.envs.infostate`): the observation tensor and everything else the player knows —
  the cards known in each hand, who knows which face-down card, the treasures not placed, counts
  of what the player saw and chose — a fixed size per game, the same for equal information
  states (the module's docstring says what it keeps of the history: all but the order). Its
  observer's `dict` names the parts. The public perfect-recall observer has a string only.
- `PrivateInfoType.ALL_PLAYERS` and observers without public information are refused.

`resample_from_infostate` draws the hidden cards with `State.resample` and keeps what the player
saw, so the resampled state has the same information state string and tensor for that player.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
import random
from array import array
from typing import Any, Final

import numpy as np
import pyspiel

from ..rules import CHANCE, TERMINAL, Config, State, new_game
from ..rules.actions import ACTION_NAMES, NUM_ACTIONS, NUM_PLAYER_ACTIONS
from ..rules.data import CARD_NAMES, TREASURE_NAMES
from ..rules.events import EVENT_NAMES
from ..rules.ops import KIND_NAMES, PUBLIC_BIT
from ..rules.progress import question, resolving
from ..rules.view import answer_seen_by, cards
from . import infostate, vocabulary
from .bounds import bound
from .encoding import encode, observation_size
from .infostate import information_state_layout, information_state_size

_DEFAULTS = {"players": 4, "edition": "modern", "ghost_ship": "auto", "max_rounds": 100,
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
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# A recorded answer is one int: the number of events logged before it (bits 20 and up), who
# decided (bits 17–19: the player, 7 for chance), who saw it (bits 8–16: bit 8 + p for player p,
# bit 8 + PUBLIC_BIT for a public answer) and the action (bits 0–7).
_SEEN_SHIFT = 8
_WHO_SHIFT = 17
_AT_SHIFT = 20
_BELOW_AT = (1 << _AT_SHIFT) - 1
_PUBLIC_SEEN = [(1 << PUBLIC_BIT) | ((1 << n) - 1) for n in range(7)]


def config_of(params: dict[str, Any]) -> tuple[Config, str]:
    p = {**_DEFAULTS, **(params or {})}
    config = vocabulary.config(p["players"], p["edition"], p["ghost_ship"], p["max_rounds"])
    return config, vocabulary.reward(p["reward"])


def game_parameters(params: dict[str, Any] | None) -> dict[str, Any]:
    """The parameters as the game keeps them, in the spelling its game string can be read back
    in: `edition=2021` would read as a number, so the 2021 edition is kept as "modern" (and a
    `ghost_ship` given as None/True/False as its word)."""
    p = dict(params or {})
    if "edition" in p and vocabulary.edition(p["edition"]) == "2021":
        p["edition"] = "modern"
    if "ghost_ship" in p and not isinstance(p["ghost_ship"], str):
        p["ghost_ship"] = vocabulary.ghost_word(vocabulary.ghost_ship(p["ghost_ship"]))
    return p


class JamaicaGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config, self.reward = config_of(params or {})
        params = game_parameters(params)
        n = self.config.players
        low, high = vocabulary.RETURN_BOUNDS[self.reward]
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_PLAYER_ACTIONS,
            max_chance_outcomes=NUM_ACTIONS,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=bound(self.config).max_game_length,  # derived in envs/bounds.py
        )
        super().__init__(_GAME_TYPE, info, params)
        self.size = observation_size(self.config)
        self.info_size = information_state_size(self.config)

    def new_initial_state(self) -> JamaicaState:
        return JamaicaState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The bound derived from the rules (`envs/bounds.py`: chance nodes per round times the
        rounds, plus the setup's), not the game-length bound."""
        return bound(self.config).max_chance_nodes

    def information_state_tensor_shape(self) -> list[int]:
        return [self.info_size]

    def information_state_tensor_size(self) -> int:
        return self.info_size

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


class _Core:
    """Everything a state holds, in one object so that OpenSpiel's clone (which deep-copies each
    attribute of a Python state) copies it at the engine's speed: `engine` (the rules' `State`,
    its event log included), `answers` (every answer, with who saw it: see `_SEEN_SHIFT`),
    `recall` (per observer, players then the public: how far its recall digest has read, and
    the digest; immutable, so shared by clones), `infos` (per player: how far the counts of the
    information state tensor have read, and the counts; shared by clones, copied before they
    are extended) and `shared` (the template every new game starts from: copied before its first
    change)."""

    __slots__ = ("answers", "engine", "history", "infos", "recall", "reward", "shared")

    def __init__(
        self,
        engine: State,
        answers: list[int],
        reward: str,
        recall: list[_Recall | None] | None = None,
        history: list[tuple[int, str]] | None = None,
        shared: bool = False,
        infos: list[_Counts | None] | None = None,
    ) -> None:
        self.engine = engine
        self.answers = answers
        self.reward = reward
        self.recall: list[_Recall | None] = (
            recall if recall is not None else [None] * (engine.n + 1)
        )
        self.history: list[tuple[int, str]] = (
            history if history is not None else [(0, "")] * engine.n
        )
        self.infos: list[_Counts | None] = infos if infos is not None else [None] * engine.n
        self.shared = shared

    def copy(self) -> _Core:
        return _Core(self.engine.clone(), self.answers[:], self.reward, self.recall[:],
                     self.history[:], infos=self.infos[:])  # fmt: skip

    def __deepcopy__(self, memo: Any) -> _Core:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (OpenSpiel's serialize) without digests
        return (_Core, (self.engine, self.answers, self.reward))


_Recall = tuple[int, int, Any, str]  # answers read, events read, the blake2b object, its digest
_Counts = tuple[int, int, "array[float]"]  # answers read, events read, the history counts
_TEMPLATES: dict[tuple[Config, str], _Core] = {}


def _template(config: Config, reward: str) -> _Core:
    core = _TEMPLATES.get((config, reward))
    if core is None:
        core = _TEMPLATES[config, reward] = _Core(new_game(config), [], reward, shared=True)
    return core


class JamaicaState(pyspiel.State):  # type: ignore[misc]
    """`engine` is the rules' `State`; `answers` records every answer to a question, in order,
    with who saw it (see `_SEEN_SHIFT`), so an information state recalls exactly what its player
    observed. Both live in one `_Core` (the state's only attribute)."""

    def __init__(
        self, game: Any, engine: State | None = None, answers: list[int] | None = None
    ) -> None:
        super().__init__(game)
        config, reward = settings(game)
        if engine is None:
            self._core = _template(config, reward)  # copied on the first change
        else:
            self._core = _Core(engine, answers if answers is not None else [], reward)

    def _own(self) -> _Core:
        core: _Core = self._core
        if core.shared:
            core = self._core = core.copy()
        return core

    @property
    def engine(self) -> State:
        return self._own().engine

    @property
    def answers(self) -> list[int]:
        return self._own().answers

    def current_player(self) -> int:
        who = self._core.engine.current_player()
        if who == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(int(a) for a in self._core.engine.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((int(a), p) for a, p in self._core.engine.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        core = self._own()
        s = core.engine
        if answer_seen_by(s, action, None):
            seen = _PUBLIC_SEEN[s.n]  # a public answer is seen by everyone (R16)
        else:
            seen = 0
            for p in range(s.n):
                if answer_seen_by(s, action, p):
                    seen |= 1 << p
        at = len(s.events) if s.events is not None else 0
        who = s.q[1] & 7 if s.q is not None else 7  # chance (-1) is 7
        record = (at << _AT_SHIFT) | (who << _WHO_SHIFT) | (seen << _SEEN_SHIFT) | action
        s.apply(action)  # an illegal action raises, and nothing is recorded
        core.answers.append(record)

    def _action_to_string(self, player: int, action: int) -> str:
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self._core.engine.is_terminal()

    def returns(self) -> list[float]:
        return vocabulary.returns(self._core.engine, self._core.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> JamaicaState:
        """A world drawn from what `player_id` knows (`State.resample`), with the same
        information state string for that player. Its `history()` is this state's, with every
        answer the player did not see replaced by `pyspiel.INVALID_ACTION` (-1), and the same
        `move_number()`."""
        core = self._core
        rng = random.Random(int(probability_sampler() * 2**53))
        engine = core.engine.resample(player_id, rng)
        # The resampled engine keeps only the events the player saw: renumber the answers the
        # player saw to their place among those events.
        before = [0]
        n = 0
        for e in core.engine.events or ():
            n += e[0] >> player_id & 1
            before.append(n)
        bit = _SEEN_SHIFT + player_id
        answers = [
            (before[r >> _AT_SHIFT] << _AT_SHIFT) | (r & _BELOW_AT)
            for r in core.answers
            if r >> bit & 1
        ]
        new = _Core(engine, answers, core.reward)
        done = _recall(core, player_id)  # the same recall: carry the digest over
        new.recall[player_id] = (len(answers), n, done[2], done[3])
        new.infos[player_id] = (len(answers), n, _counts(core, player_id))  # and the counts
        if len(core.answers) == self.move_number():
            history = _masked_history(core, player_id)
        else:  # a state built by hand, or itself resampled: its history as it is
            history = ",".join(f"{pa.player}:{pa.action}" for pa in self.full_history())
        text = f"history={history}\nmove_number={self.move_number()}\n{_EMPTY_DICT}"
        state: JamaicaState = self.get_game().deserialize_state(text)
        state._core = new
        return state

    def recalled(self, player: int | None) -> list[Any]:
        """Everything `player` (None: a spectator) has seen, in order: each event as
        `[name, *args]`, each answer as its action text. (The information state string holds a
        digest of exactly this.)"""
        return [
            item if isinstance(item, str) else [EVENT_NAMES[item[1]], *item[2:]]
            for item in _seen(self._core, PUBLIC_BIT if player is None else player, 0, 0)[0]
        ]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The default observer's tensor (`encoding.encode`), a list as pyspiel returns it, for
        `player` (default: the current player). Written straight from the engine: pyspiel's own
        path calls the observer and copies the vector twice more. (C++ callers still take that
        path, through `JamaicaObserver`, and read the same values.)"""
        s = self._core.engine
        who = s.current_player() if player is None else player
        if not (isinstance(who, int) and 0 <= who < s.n):
            raise pyspiel.SpielError(f"observation_tensor: player must be 0..{s.n - 1}, not {who}")
        values: list[float] = encode(s, who).tolist()
        return values

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Everything `player` (default: the current player) knows, as a list of floats
        (`jamaica.envs.infostate`), written straight from the engine and the player's counts (C++
        callers take pyspiel's path through `JamaicaObserver` and read the same values)."""
        core = self._core
        s = core.engine
        who = s.current_player() if player is None else player
        if not (isinstance(who, int) and 0 <= who < s.n):
            raise pyspiel.SpielError(
                f"information_state_tensor: player must be 0..{s.n - 1}, not {who}"
            )
        return infostate.as_list(s, who, _counts(core, who))

    def __deepcopy__(self, memo: Any) -> JamaicaState:
        clone: JamaicaState = self.clone()  # OpenSpiel's clone keeps history() and move_number()
        return clone

    def __str__(self) -> str:
        return json.dumps(self._core.engine.view(None), sort_keys=True)


_EMPTY_DICT = "__dict__=" + base64.b64encode(pickle.dumps({})).decode()
INVALID_ACTION: Final = int(pyspiel.INVALID_ACTION)


def _seen(
    core: _Core, bit_index: int, answers_from: int, events_from: int
) -> tuple[list[Any], int]:
    """What the observer with this audience bit (a player, or PUBLIC_BIT) saw from the given
    answer and event on: answers as action texts, events as tuples; and the events read."""
    events = core.engine.events or []
    bit = _SEEN_SHIFT + bit_index
    out: list[Any] = []
    i = events_from
    answers = core.answers
    for k in range(answers_from, len(answers)):
        r = answers[k]
        if not r >> bit & 1:
            continue
        at = r >> _AT_SHIFT
        if at > i:
            out.extend(e for e in events[i:at] if e[0] >> bit_index & 1)
            i = at
        out.append(ACTION_NAMES[r & 0xFF])
    out.extend(e for e in events[i:] if e[0] >> bit_index & 1)
    return out, len(events)


def _recall(core: _Core, who: int) -> _Recall:
    """The observer's recall digest, brought up to date from where it was last read (`who`: a
    player, or `core.engine.n` for the public)."""
    done = core.recall[who]
    answers, events = len(core.answers), len(core.engine.events or ())
    if done is not None and done[0] == answers and done[1] == events:
        return done
    a0, e0, digest = (0, 0, _NEW_DIGEST) if done is None else done[:3]
    bit_index = PUBLIC_BIT if who == core.engine.n else who
    items, _ = _seen(core, bit_index, a0, e0)
    digest = digest.copy()  # the old one may be shared with clones
    if items:  # each item as text and ";": read in pieces or at once, the same bytes
        digest.update((";".join(map(str, items)) + ";").encode())
    fresh: _Recall = (answers, events, digest, digest.hexdigest())
    core.recall[who] = fresh
    return fresh


_NEW_DIGEST = hashlib.blake2b(digest_size=16)


def _counts(core: _Core, player: int) -> array[float]:
    """The history counts of `player`'s information state tensor (`infostate.add_events`,
    `add_answer`), brought up to date from where they were last read."""
    done = core.infos[player]
    answers = core.answers
    events = core.engine.events or ()
    na, ne = len(answers), len(events)
    if done is not None and done[0] == na and done[1] == ne:
        return done[2]
    if done is None:
        a0, e0, h = 0, 0, infostate.new_history(core.engine.n)
    else:
        a0, e0, h = done[0], done[1], done[2][:]  # the old counts may be shared with clones
    infostate.add_events(h, core.engine.n, player, events, e0)
    bit = _SEEN_SHIFT + player
    for k in range(a0, na):
        r = answers[k]
        if r >> bit & 1:
            infostate.add_answer(h, r >> _WHO_SHIFT & 7 == player, r & 0xFF)
    core.infos[player] = (na, ne, h)
    return h


def _masked_history(core: _Core, player: int) -> str:
    """OpenSpiel's history text ("player:action,…") with the answers `player` did not see
    replaced by INVALID_ACTION; kept per player and extended from where it was last read."""
    done, text = core.history[player]
    answers = core.answers
    if done < len(answers):
        bit = _SEEN_SHIFT + player
        more = ",".join(
            f"{_WHO[r >> _WHO_SHIFT & 7]}:{r & 0xFF if r >> bit & 1 else INVALID_ACTION}"
            for r in answers[done:]
        )
        text = f"{text},{more}" if text else more
        core.history[player] = (len(answers), text)
    return text


_WHO = (0, 1, 2, 3, 4, 5, 6, int(pyspiel.PlayerId.CHANCE))


def information_state_string(state: JamaicaState, player: int | None) -> str:
    """Where the game stands for `player` (None: the public) and a digest of everything that
    observer has seen, in order (`JamaicaState.recalled`): equal strings mean equal recalls."""
    core = state._core
    s = core.engine
    who = s.n if player is None else player
    digest = _recall(core, who)[3]
    q = s.q
    assert q is not None
    if q[1] == TERMINAL:
        where = "game over"
    else:
        decider = "chance" if q[1] == CHANCE else f"player {q[1]}"
        where = f"{KIND_NAMES[q[0]]} by {decider}"
    if player is None:
        return f"public · round {s.rnd} · {where} · recall {digest}"
    # The player's secrets as they are now: in a world resampled for another player, the recall
    # is that player's, and these tell the worlds apart (they decide the legal card choices and
    # the cursed treasures one may give).
    return f"player {player} · round {s.rnd} · {where} · {secrets(s, player)} · recall {digest}"


def secrets(s: State, player: int) -> str:
    """What only `player` knows now: their hand, their chosen card, the face-down treasures they
    know (per ship)."""
    chosen = s.chosen[player]
    known = [
        f"{k}:" + "+".join(TREASURE_NAMES[c & 15] for c in fd if (c >> 6) >> player & 1)
        for k, fd in enumerate(s.face_down)
        if fd
    ]
    return (
        f"hand {' '.join(cards(s.hand[player]))} · chosen "
        f"{CARD_NAMES[chosen] if chosen >= 0 else '-'} · knows {' '.join(known)}"
    )


class JamaicaObserver:
    """What one observer sees (see the module docstring): `tensor` from `encoding` (the
    observation) or, with perfect recall for one player, from `infostate` (its `dict` names the
    parts; the public perfect-recall observer has none); `string_from` the view and, with
    perfect recall, everything seen."""

    def __init__(self, game: Any, iig_obs_type: Any, params: Any = None) -> None:
        if params:
            raise ValueError(f"python_jamaica observers take no parameters; got {params!r}")
        private = iig_obs_type.private_info
        # Without public information: the player's secrets alone, as a string (OpenSpiel's
        # factored observations; its playthroughs print them).
        self.secrets_only = not iig_obs_type.public_info
        if self.secrets_only and (
            private != pyspiel.PrivateInfoType.SINGLE_PLAYER or iig_obs_type.perfect_recall
        ):
            raise ValueError(
                "python_jamaica's observer without public information shows one player's "
                "secrets as they are now (private_info=SINGLE_PLAYER, perfect_recall=False)"
            )
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
        config = settings(game)[0]
        if self.secrets_only or (self.perfect_recall and not self.private):
            pass
        elif self.perfect_recall:
            self.tensor = np.zeros(information_state_size(config), np.float32)
            for name, (part, shape) in information_state_layout(config).items():
                self.dict[name] = self.tensor[part].reshape(shape)
        else:
            self.tensor = np.zeros(observation_size(config), np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: JamaicaState, player: int) -> None:
        if self.tensor is None:
            return
        core = state._core
        if self.perfect_recall:
            infostate.write(core.engine, player, _counts(core, player), self.tensor)
        else:
            encode(core.engine, player if self.private else None, out=self.tensor)

    def string_from(self, state: JamaicaState, player: int) -> str:
        if self.secrets_only:
            return secrets(state._core.engine, player)
        me = player if self.private else None
        if self.perfect_recall:
            return information_state_string(state, me)
        s = state._core.engine
        view = s.view(me)
        r = resolving(s)
        view["question"] = question(s)._asdict()
        view["resolving"] = None if r is None else r._asdict()
        return json.dumps(view, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, JamaicaGame)
