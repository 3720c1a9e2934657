"""Jamaica in OpenSpiel: the conformance run, its own search bots, infostates and rewards."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # the [rl] extra, installed with [dev]: a missing one fails
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import jamaica.envs.openspiel  # noqa: F401  (registers python_jamaica)

NONE = pyspiel.PrivateInfoType.NONE


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 4},
        {"players": 3, "edition": "classic", "ghost_ship": "on"},
        {"players": 5, "reward": "win"},
    ],
    ids=str,
)
def test_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_jamaica", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_search_bots_play_it_to_the_end() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 2, "max_rounds": 30})
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs),
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rs),
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
            decisions += 1
    assert decisions > 20
    assert len(state.returns()) == 2


def test_infostates_survive_resampling_and_hide_the_hidden() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 40


def test_rewards_are_scores_or_wins() -> None:
    for reward in ("score", "win"):
        game = pyspiel.load_game("python_jamaica", {"players": 3, "reward": reward})
        state = game.new_initial_state()
        rng = random.Random(7)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        engine = state.engine
        if reward == "score":
            assert state.returns() == [float(sc.total) for sc in engine.scores()]
        else:
            assert state.returns() == [
                1 / len(engine.winners()) if p in engine.winners() else 0.0 for p in range(3)
            ]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="edition"):
        pyspiel.load_game("python_jamaica", {"edition": "2007"})
    with pytest.raises(Exception, match="Ghost Ship"):
        pyspiel.load_game("python_jamaica", {"players": 2, "ghost_ship": "off"})


# --- leak 7: observers honour the requested IIGObservationType --------------------------------
def _obs_type(perfect_recall: bool, private: str = "SINGLE_PLAYER", public: bool = True) -> Any:
    return pyspiel.IIGObservationType(
        perfect_recall=perfect_recall,
        public_info=public,
        private_info=getattr(pyspiel.PrivateInfoType, private),
    )


def _play_until(
    state: Any, rng: random.Random, stop: Callable[[Any], bool], limit: int = 5000
) -> None:
    """Play at random until `stop(state)` (checked before every action)."""
    for _ in range(limit):
        if stop(state):
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the position looked for never came up")


def test_leak7_public_observer_hides_hand() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_jamaica", {"players": 2})
    state = game.new_initial_state()
    _play_until(state, random.Random(2), lambda s: s.engine.rnd >= 2 and s.current_player() == 0)
    engine = state.engine
    hand, pile = engine.hand[0], engine.drawp[0]
    assert hand and pile
    swap = (hand & -hand) | (pile & -pile)  # a card of the hand for one of the draw pile
    other = state.clone()
    other.engine.hand[0] ^= swap
    other.engine.drawp[0] ^= swap
    private = make_observation(game, _obs_type(False))
    assert private.string_from(state, 0) != private.string_from(other, 0)  # the test can see it
    for perfect_recall in (False, True):
        public = make_observation(game, _obs_type(perfect_recall, "NONE"))
        text = public.string_from(state, 0)
        assert text == public.string_from(other, 0) == public.string_from(state, 1)
        if perfect_recall:  # a digest of what the public recalls, and nothing secret
            assert text.startswith("public ·") and "hand" not in text
            assert public.tensor is None
            seen = state.recalled(None)
            assert seen == other.recalled(None)
            assert not any(isinstance(e, list) and e[0] == "draw_seen" for e in seen)
            assert not any(isinstance(e, str) and e.startswith("draw ") for e in seen)
            assert any(isinstance(e, list) and e[0] == "draw_seen" for e in state.recalled(0))
        else:
            view = json.loads(text)
            assert "hand" not in view and "chosen" not in view and view["player"] is None
            assert "legal" not in view["pending"]
            public.set_from(state, 0)
            before = public.tensor.copy()
            public.set_from(other, 0)
            assert np.array_equal(before, public.tensor)
            private.set_from(state, 0)
            mine = private.tensor.copy()
            private.set_from(other, 0)
            assert not np.array_equal(mine, private.tensor)


def _both_orders(state: Any) -> tuple[Any, Any]:
    a, b = state.legal_actions()[:2]
    first, second = state.clone(), state.clone()
    first.apply_action(a)
    if b not in first.legal_actions() or first.current_player() != state.current_player():
        return first, first
    first.apply_action(b)
    second.apply_action(b)
    if a not in second.legal_actions() or second.current_player() != state.current_player():
        return first, first
    second.apply_action(a)
    return first, second


def _pay_twice(seed: int) -> tuple[Any, Any, int]:
    """A 2-player game at a payment from two holds of the same resource (`pay 0, pay 1` or
    `pay 1, pay 0`: the same tokens leave), answered in both orders."""
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    state = game.new_initial_state()

    def two_orders(s: Any) -> bool:
        if s.engine.decision_kind() != "pay" or len(s.legal_actions()) < 2:
            return False
        first, second = _both_orders(s)
        return first is not second and first.engine.view(None) == second.engine.view(None)

    _play_until(state, random.Random(seed), two_orders)
    return (*_both_orders(state), state.current_player())


def test_leak7_pay_order_recalled() -> None:
    for seed in range(3):
        first, second, payer = _pay_twice(seed)
        # The same position and the same events: only the order of the answers differs.
        assert first.engine.view(payer) == second.engine.view(payer)
        assert first.engine.events == second.engine.events
        assert first.observation_string(payer) == second.observation_string(payer)
        for p in (payer, 1 - payer):  # payments are public: both players recall the order
            assert first.information_state_string(p) != second.information_state_string(p)
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for world in (first, second):
            resampled = world.resample_from_infostate(payer, sampler)
            assert resampled.information_state_string(payer) == world.information_state_string(
                payer
            )


def test_leak7_information_state_tensor_is_the_perfect_recall_observers() -> None:
    """The information state tensor (issue 27) is the single-player perfect-recall observer's:
    its size is the game's, its `dict` names the parts (envs/infostate.py), pyspiel's C++ path
    reads the same values as the state's own method; the public perfect-recall observer still
    has a string only."""
    from open_spiel.python.observation import make_observation

    from jamaica.envs.encoding import observation_size
    from jamaica.envs.infostate import information_state_layout, information_state_size
    from jamaica.envs.openspiel import config_of

    game = pyspiel.load_game("python_jamaica", {"players": 3})
    assert game.get_type().provides_information_state_tensor
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_observation_tensor
    config = config_of({"players": 3})[0]
    size = information_state_size(config)
    assert game.information_state_tensor_shape() == [size]
    assert game.information_state_tensor_size() == size
    assert pyspiel.Game.information_state_tensor_shape(game) == [size]  # pyspiel's own
    state = game.new_initial_state()
    _play_until(state, random.Random(4), lambda s: s.move_number() > 60 and not s.is_chance_node())
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    layout = information_state_layout(config)
    assert list(info.dict) == list(layout)
    for p in range(3):
        values = state.information_state_tensor(p)
        assert isinstance(values, list) and len(values) == size
        assert values == pyspiel.State.information_state_tensor(state, p)  # through C++
        info.set_from(state, p)
        assert info.tensor.tolist() == values
        for name, (part, shape) in layout.items():
            assert info.dict[name].shape == shape
            assert info.dict[name].ravel().tolist() == values[part]
        assert values[layout["view"][0]] == state.observation_tensor(p)
    assert state.information_state_tensor() == state.information_state_tensor(
        state.current_player()
    )
    for bad in (-1, 3):
        with pytest.raises(pyspiel.SpielError):
            state.information_state_tensor(bad)
    public = pyspiel.IIGObservationType(perfect_recall=True, private_info=NONE)
    assert make_observation(game, public).tensor is None
    size = observation_size(config)
    assert len(state.observation_tensor(0)) == size
    assert game.observation_tensor_shape() == [size]


def test_leak7_unsupported_observation_types_rejected() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    for obs_type in (
        _obs_type(False, "ALL_PLAYERS"),
        _obs_type(True, "ALL_PLAYERS"),
        _obs_type(True, "SINGLE_PLAYER", public=False),
        _obs_type(False, "NONE", public=False),
        _obs_type(True, "NONE", public=False),
    ):
        with pytest.raises(ValueError, match="python_jamaica"):
            game.make_py_observer(obs_type)
    with pytest.raises(ValueError, match="parameters"):
        game.make_py_observer(None, {"x": 1})
    # The default observation is OpenSpiel's: public + the player's secrets, no perfect recall.
    state = game.new_initial_state()
    _play_until(state, random.Random(5), lambda s: not s.is_chance_node())
    default = game.make_py_observer()
    assert default.string_from(state, 0) == state.observation_string(0)
    assert "hand" in json.loads(default.string_from(state, 0))
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert info.string_from(state, 1) == state.information_state_string(1)


def test_leak7_secret_answers_stay_secret() -> None:
    """A card choice is recalled by its player alone; a card draw by the drawing player alone."""
    game = pyspiel.load_game("python_jamaica", {"players": 3})
    for kind in ("card", "draw_card"):
        state = game.new_initial_state()
        _play_until(
            state,
            random.Random(6),
            lambda s, k=kind: (
                s.engine.rnd >= 1
                and s.engine.decision_kind() == k
                and len(s.legal_actions() if k == "card" else s.chance_outcomes()) >= 2
            ),
        )
        q = state.engine.q
        owner = q[1] if kind == "card" else q[2][0]
        answers = [a for a, _ in state.chance_outcomes()] if kind == "draw_card" else None
        a, b = (answers or state.legal_actions())[:2]
        x, y = state.clone(), state.clone()
        x.apply_action(a)
        y.apply_action(b)
        assert x.information_state_string(owner) != y.information_state_string(owner)
        for p in range(3):
            if p != owner:
                assert x.information_state_string(p) == y.information_state_string(p)
        public = game.make_py_observer(_obs_type(True, "NONE"))
        assert public.string_from(x, 0) == public.string_from(y, 0)


def test_leak7_resampled_worlds_recall_the_same() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 3, "ghost_ship": "on"})
    state = game.new_initial_state()
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if decisions % 20 == 0:
            for p in range(3):
                world = state.resample_from_infostate(p, sampler)
                assert world.information_state_string(p) == state.information_state_string(p)
        decisions += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 100


# --- issue 14: engine speed, kept histories, bridges ------------------------------------------
def _midgame(players: int = 3, decisions: int = 120, seed: int = 9) -> Any:
    game = pyspiel.load_game("python_jamaica", {"players": players})
    state = game.new_initial_state()
    rng = random.Random(seed)
    done = 0
    while done < decisions or state.is_chance_node():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return game, state


def test_clone_copies_the_core_once_and_shares_what_is_immutable() -> None:
    """OpenSpiel's clone deep-copies each attribute of a Python state: ours has a single one,
    copied at the engine's speed; the event log is copied as a list of shared tuples, the
    recall digests are shared, and a new game does not build an engine until it changes."""
    game, state = _midgame()
    assert list(vars(state)) == ["_core"]
    state.information_state_string(0)
    clone = state.clone()
    assert type(clone) is type(state) and clone._core is not state._core
    a, b = state._core.engine, clone._core.engine
    assert a.events is not b.events and a.events[-1] is b.events[-1]
    assert clone._core.recall[0] is state._core.recall[0]
    assert clone.history() == state.history() and clone.move_number() == state.move_number()
    assert clone.information_state_string(0) == state.information_state_string(0)
    clone.apply_action(clone.legal_actions()[0])
    assert len(a.history) + 1 == len(b.history)  # independent
    fresh, other = game.new_initial_state(), game.new_initial_state()
    assert fresh._core is other._core  # the shared template...
    fresh.apply_action(fresh.chance_outcomes()[0][0])
    assert fresh._core is not other._core and other.move_number() == 0  # ...copied on change


def test_observation_tensor_from_the_engine_equals_pyspiels_own_path() -> None:
    """`state.observation_tensor` skips pyspiel's round trip through the observer; the values
    are the same as pyspiel's path (what C++ callers read) and as the encoder's."""
    game, state = _midgame(players=4)
    me = state.current_player()
    assert state.observation_tensor() == state.observation_tensor(me)
    for p in range(4):
        fast = state.observation_tensor(p)
        assert isinstance(fast, list) and len(fast) == game.observation_tensor_size()
        assert fast == pyspiel.State.observation_tensor(state, p)
    for bad in (-1, 4):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(bad)


def test_deepcopy_and_resampling_keep_history_and_move_number() -> None:
    import copy

    _, state = _midgame()
    copied = copy.deepcopy(state)
    assert copied.history() == state.history() and copied.move_number() == state.move_number()
    p = state.current_player()
    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.move_number() == state.move_number()
    assert len(world.history()) == len(state.history())
    seen = [r >> (8 + p) & 1 for r in state.answers]
    for (a, b), shown in zip(zip(world.history(), state.history(), strict=True), seen, strict=True):
        assert a == (b if shown else pyspiel.INVALID_ACTION)
    assert -1 in world.history()  # other players' card choices and draws are masked
    assert world.information_state_string(p) == state.information_state_string(p)


def test_information_state_string_is_short_and_incremental() -> None:
    _, state = _midgame(decisions=300)
    text = state.information_state_string(0)
    assert len(text) < 400 and "recall " in text
    assert state._core.recall[0] is not None  # read once; the next call extends it
    before = state.recalled(0)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != text or state.recalled(0) == before


def test_project_bots_play_through_pyspiel() -> None:
    from jamaica.envs.spiel_bots import HeuristicEvaluator, ismcts_bot, spiel_bot

    game = pyspiel.load_game("python_jamaica", {"players": 2, "max_rounds": 12})
    bots = [spiel_bot("greedy", seed=1), spiel_bot("random", seed=2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert len(returns) == 2
    again = pyspiel.evaluate_bots(
        game.new_initial_state(), [spiel_bot("greedy", seed=1), spiel_bot("random", seed=2)], 7
    )
    assert again == returns  # seeded
    with pytest.raises(ValueError):
        spiel_bot("nonsense")
    _, state = _midgame(players=2, decisions=10)
    assert HeuristicEvaluator().evaluate(state).shape == (2,)
    bot = ismcts_bot(state.get_game(), simulations=20, seed=3)
    assert bot.step(state) in state.legal_actions()


def test_playthrough_replays_to_the_committed_file() -> None:
    """As OpenSpiel checks its own games: regenerate tests/envs/playthroughs/python_jamaica.txt
    from the parameters recorded in it and compare (after a deliberate rules or observation
    change, regenerate it with `python -m jamaica.envs.bench --playthrough`)."""
    from pathlib import Path

    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():  # the replay reads OpenSpiel's command-line flags
        flags.FLAGS.mark_as_parsed()
    path = Path(__file__).parent / "playthroughs" / "python_jamaica.txt"
    original, regenerated = generate_playthrough.replay(str(path))
    assert original == regenerated
    assert 'PrivateObservationString(0) = "hand' in original


# --- issue 27: defects --------------------------------------------------------------------------
EDITIONS_AND_GHOSTS = [
    (players, edition, ghost)
    for edition in ("2021", "modern", "classic")
    for ghost in ("auto", "on", "off")
    for players in (2, 3)
    if not (players == 2 and ghost == "off")
]


@pytest.mark.parametrize(("players", "edition", "ghost"), EDITIONS_AND_GHOSTS, ids=str)
def test_each_edition_and_ghost_setting_round_trips(players: int, edition: str, ghost: str) -> None:
    """`str(game)` loads back to the same game (the 2021 edition is written `modern`: `2021`
    would read as a number), and a game and state serialized together load back."""
    from jamaica.envs.openspiel import config_of

    params = {"players": players, "edition": edition, "ghost_ship": ghost, "max_rounds": 3}
    game = pyspiel.load_game("python_jamaica", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert config_of(again.get_parameters()) == config_of(params)
    assert game.get_parameters()["edition"] == ("classic" if edition == "classic" else "modern")
    state = game.new_initial_state()
    _play_until(state, random.Random(1), lambda s: s.move_number() >= 40 or s.is_terminal())
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history() and str(state2) == str(state)
    for p in range(players):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.information_state_tensor(p) == state.information_state_tensor(p)


@pytest.mark.parametrize("edition", ["2021", "classic"])
def test_random_sim_test_serializes_both_editions(edition: str) -> None:
    """OpenSpiel's own simulation test, serializing through the game string at every step (it
    failed for the 2021 edition before)."""
    game = pyspiel.load_game("python_jamaica", {"players": 2, "edition": edition,
                                                "max_rounds": 4})  # fmt: skip
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_max_chance_nodes_in_history_is_the_derived_bound() -> None:
    """The bound of `envs/bounds.py` (chance nodes per round × rounds + the setup's), for Python
    and C++ callers alike, and random games stay within it."""
    from jamaica.envs.bounds import bound
    from jamaica.envs.openspiel import config_of

    for params in ({"players": 2}, {"players": 4, "edition": "classic", "max_rounds": 20},
                   {"players": 6, "ghost_ship": "off"}):  # fmt: skip
        game = pyspiel.load_game("python_jamaica", params)
        expected = bound(config_of(params)[0]).max_chance_nodes
        assert game.max_chance_nodes_in_history() == expected
        assert pyspiel.Game.max_chance_nodes_in_history(game) == expected
        assert expected < game.max_game_length()
    game = pyspiel.load_game("python_jamaica", {"players": 2, "max_rounds": 10})
    rng = random.Random(2)
    state = game.new_initial_state()
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert 0 < chance <= game.max_chance_nodes_in_history()
