"""The information state tensor (issue 27, `jamaica.envs.infostate`): a function of the
information state, and one that loses nothing of it but the order of events.

"No lost information" is checked against `knowledge(...)` below, what a player knows computed
independently of the tensor's code: the player's view and question (the observation string), the
worlds consistent with what they saw as the engine records them for `State.resample` (the cards
known in each hand; per ship and overboard, the multiset of face-down cards as (its type if the
player knows it, else its public class; who knows it); the treasure types not placed), and the
counts of what they saw (from `recalled`: events per kind, answers, reveals, treasures) and chose
(counted as the game is played). Over random games the tensor and this knowledge determine each
other; equal information state strings give equal tensors; within one game different strings
give different tensors. The two-worlds test (tests/secrecy) compares the tensor too.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest

from jamaica.envs.infostate import (
    information_state_layout,
    information_state_size,
)
from jamaica.envs.openspiel import JamaicaState, config_of
from jamaica.rules.actions import ACTION_NAMES

SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)
RNG = random.Random()  # the perturbation test's
# where the treasure type is among an event's arguments (after its name)
TREASURE_ARG = {"power": 2, "face_down_seen": 2, "steal_seen": 3, "give_seen": 3}


def knowledge(state: JamaicaState, p: int, own: Counter[int]) -> tuple[Any, ...]:
    """What `p` knows in `state`, from the view, the engine's record of public knowledge, the
    player's recall and their own decisions `own` (action id -> times)."""
    s = state._core.engine
    places = []
    pool = Counter({t: c for t, c in enumerate(s.pile) if c})
    for cards in [*s.face_down, s.overboard]:
        items = []
        for c in cards:
            knowers = tuple(q for q in range(s.n) if c >> 6 >> q & 1)
            if p in knowers:
                items.append((("type", c & 15), knowers))
            else:
                items.append((("class", c >> 4 & 3), knowers))
                pool[c & 15] += 1
        places.append(tuple(sorted(items)))
    recalled = state.recalled(p)
    events = [e for e in recalled if isinstance(e, list)]
    treasures = Counter(e[TREASURE_ARG[e[0]]] for e in events if e[0] in TREASURE_ARG)
    answers = [a for a in recalled if isinstance(a, str)]
    assert all(a in ACTION_NAMES for a in answers)
    return (
        state.observation_string(p),
        tuple(s.known_in_hand),
        tuple(places),
        tuple(sorted(pool.items())),
        len(events),
        len(answers),
        tuple(sorted(Counter(e[0] for e in events).items())),
        tuple(sorted(Counter((e[1], e[2]) for e in events if e[0] == "reveal").items())),
        tuple(sorted(treasures.items())),
        tuple(sorted(own.items())),
    )


def _play(game: Any, seed: int, visit: Any) -> JamaicaState:
    """A random game; `visit(state, own)` at every decision point and at the end (`own`: each
    player's decisions so far)."""
    rng = random.Random(seed)
    state: JamaicaState = game.new_initial_state()
    own: list[Counter[int]] = [Counter() for _ in range(game.num_players())]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        visit(state, own)
        p = state.current_player()
        a = rng.choice(state.legal_actions())
        own[p][a] += 1
        state.apply_action(a)
    visit(state, own)
    return state


CONFIGS = [
    {"players": 2, "max_rounds": 30},
    {"players": 3, "edition": "classic", "ghost_ship": "on", "max_rounds": 30},
    {"players": 4, "max_rounds": 30},
]


@pytest.mark.parametrize("params", CONFIGS, ids=str)
def test_the_tensor_and_the_players_knowledge_determine_each_other(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_jamaica", params)
    n = game.num_players()
    by_tensor: dict[tuple[int, bytes], tuple[Any, ...]] = {}
    by_knowledge: dict[tuple[int, tuple[Any, ...]], bytes] = {}
    by_string: dict[str, bytes] = {}
    checked = 0
    for seed in range(3):
        in_game: dict[tuple[int, bytes], str] = {}

        def visit(
            state: JamaicaState, own: list[Counter[int]], in_game: dict[Any, str] = in_game
        ) -> None:
            nonlocal checked
            for p in range(n):
                tensor = np.array(state.information_state_tensor(p), np.float32).tobytes()
                text = state.information_state_string(p)
                known = knowledge(state, p, own[p])
                # equal strings give equal tensors (strings are per player: they name it)
                assert by_string.setdefault(text, tensor) == tensor
                # within a game, different strings give different tensors
                assert in_game.setdefault((p, tensor), text) == text
                # the tensor determines the knowledge, and the knowledge the tensor
                if by_tensor.setdefault((p, tensor), known) != known:
                    raise AssertionError(_difference(by_tensor[p, tensor], known))
                assert by_knowledge.setdefault((p, known), tensor) == tensor
                checked += 1

        _play(game, seed, visit)
    assert checked > 300 and len(by_tensor) > 300


def _difference(a: tuple[Any, ...], b: tuple[Any, ...]) -> str:
    names = ["view", "known_in_hand", "places", "pool", "events", "answers", "per kind",
             "reveals", "treasures", "own"]  # fmt: skip
    return "one tensor, two knowledges: " + ", ".join(
        f"{name}: {x!r} / {y!r}" for name, x, y in zip(names, a, b, strict=True) if x != y
    )


def test_the_order_of_events_is_what_is_dropped() -> None:
    """The same three cards drawn in another order: player 0's information state strings differ
    (the recall is in order), the tensors and the knowledge do not; player 1, who sees neither
    draw, has the same string and the same tensor in both."""
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    worlds = []
    for order in ((0, 1, 2), (2, 0, 1)):
        state: JamaicaState = game.new_initial_state()
        for card in order:
            assert state.engine.decision_kind() == "draw_card" and state.engine.q[2][0] == 0
            state.apply_action(ACTION_NAMES.index(f"draw {_card(card)}"))
        rng = random.Random(3)
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        worlds.append(state)
    a, b = worlds
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert knowledge(a, 0, Counter()) == knowledge(b, 0, Counter())
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)


def _card(c: int) -> str:
    from jamaica.rules.data import CARD_NAMES

    return CARD_NAMES[c]


def test_resampled_worlds_give_the_same_tensor() -> None:
    """`resample_from_infostate` keeps the information state string, and so the tensor (its
    counts carried over, or read afresh from the resampled log: the same)."""
    game = pyspiel.load_game("python_jamaica", {"players": 3, "ghost_ship": "on"})
    checked = 0

    def visit(state: JamaicaState, own: list[Counter[int]]) -> None:
        nonlocal checked
        if state.move_number() % 7 or state.is_terminal():
            return
        for p in range(3):
            world = state.resample_from_infostate(p, SAMPLER)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            fresh = JamaicaState(game, world._core.engine.clone(), world._core.answers[:])
            assert fresh.information_state_tensor(p) == state.information_state_tensor(p)
            checked += 1

    _play(game, 5, visit)
    assert checked > 30


def test_counts_extend_incrementally_and_clones_stay_apart() -> None:
    """The counts are kept per state and extended from where they were last read; a clone
    shares them until either extends its own. Every tensor equals one computed afresh (a new
    state on a copy of the engine and the answers), and survives OpenSpiel's serialization."""
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    rng = random.Random(11)
    state: JamaicaState = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        before = [state.information_state_tensor(p) for p in range(2)]
        clone = state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[0])
        clone.apply_action(legal[-1])
        for s in (state, clone):
            fresh = JamaicaState(game, s._core.engine.clone(), s._core.answers[:])
            for p in range(2):
                assert s.information_state_tensor(p) == fresh.information_state_tensor(p)
        again = game.deserialize_state(clone.serialize())
        assert [again.information_state_tensor(p) for p in range(2)] == [
            clone.information_state_tensor(p) for p in range(2)
        ]
        assert before != [state.information_state_tensor(p) for p in range(2)]
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_layout_and_the_size_are_the_games(players: int) -> None:
    game = pyspiel.load_game("python_jamaica", {"players": players})
    config = config_of({"players": players})[0]
    layout = information_state_layout(config)
    size = information_state_size(config)
    assert list(layout) == ["view", "known_in_hand", "places", "pool", "recall", "events",
                            "own_actions", "reveals", "treasures_seen"]  # fmt: skip
    stops = [part.stop for part, _ in layout.values()]
    starts = [part.start for part, _ in layout.values()]
    assert starts == [0, *stops[:-1]] and stops[-1] == size
    for part, shape in layout.values():
        assert part.stop - part.start == int(np.prod(shape))
    assert game.information_state_tensor_size() == size
    assert {2: 878, 4: 1216, 6: 1816}.get(players, size) == size
    state = _play(game, players, lambda s, own: None)
    values = np.array(state.information_state_tensor(0))
    assert values.shape == (size,) and np.all(np.isfinite(values))


def test_what_a_tensor_says_of_a_known_position() -> None:
    """Read back: the parts say what the engine holds (cards known in hand, who knows which
    face-down card, the pool) and what the player saw and did."""
    game = pyspiel.load_game("python_jamaica", {"players": 3, "ghost_ship": "on"})
    found = []

    def visit(state: JamaicaState, own: list[Counter[int]]) -> None:
        s = state._core.engine
        if found or not any(s.face_down[:3]) or not any(s.known_in_hand):
            return
        found.append(state.clone())

    _play(game, 2, visit)
    assert found, "no position with face-down cards and cards known in a hand came up"
    state = found[0]
    s = state._core.engine
    layout = information_state_layout(config_of({"players": 3, "ghost_ship": "on"})[0])
    for p in range(3):
        v = np.array(state.information_state_tensor(p))
        parts = {name: v[part].reshape(shape) for name, (part, shape) in layout.items()}
        for q in range(3):
            assert [c for c in range(11) if parts["known_in_hand"][q, c]] == [
                c for c in range(11) if s.known_in_hand[q] >> c & 1
            ]
        for ship, cards in enumerate(s.face_down):
            counts = parts["places"][ship] * 4
            assert counts[:, 0].sum() == len(cards)
            for c in cards:
                if c >> 6 >> p & 1:
                    assert counts[c & 15, 0] >= 1
                else:
                    assert counts[10 + (c >> 4 & 3), 0] >= 1
        recalled = state.recalled(p)
        assert parts["recall"][0] * 1024 == sum(isinstance(e, list) for e in recalled)
        assert parts["recall"][1] * 1024 == sum(isinstance(e, str) for e in recalled)
        assert parts["events"].sum() * 64 == parts["recall"][0] * 1024
        mine = sum(1 for r in state.answers if r >> 17 & 7 == p)
        assert round(parts["own_actions"].sum() * 64) == mine


def _perturbations(s: Any, p: int, rng: random.Random) -> list[tuple[str, Any]]:
    """Changes of an engine state (functions that change a copy in place), each of what `p`
    knows or of what `p` does not know."""
    out: list[tuple[str, Any]] = []
    n = s.n
    q = rng.randrange(n)
    c = rng.randrange(11)
    out.append(("a card known in a hand", lambda w: w.known_in_hand.__setitem__(
        q, w.known_in_hand[q] ^ 1 << c)))  # fmt: skip
    undrawn = [t for t in range(4) if s.pile[t]]
    if undrawn:  # a power thrown overboard shows nowhere but in the pool
        t = rng.choice(undrawn)

        def overboard(w: Any) -> None:
            w.pile[t] -= 1
            w.powers[t] = -2

        out.append(("a power overboard", overboard))
    places = [(k, i) for k in range(s.ns) for i in range(len(s.face_down[k]))]
    if places:
        k, i = rng.choice(places)

        def card(change: Any) -> Any:
            def apply(w: Any) -> None:
                cards = list(w.face_down[k])
                cards[i] = change(cards[i], w)
                w.face_down[k] = tuple(cards)

            return apply

        other = rng.randrange(n)
        out.append(("who knows a card", card(lambda x, w: x ^ (1 << 6 + other))))
        out.append(("a card's class", card(lambda x, w: x & ~0x30 | ((x >> 4 & 3) + 1) % 3 << 4)))

        def swap_with_pile(x: int, w: Any) -> int:  # the pile keeps the numbers of each type
            t = next((t for t in range(10) if w.pile[t] and t != x & 15), None)
            if t is None:
                return x
            w.pile[t] -= 1
            w.pile[x & 15] += 1
            return x & ~15 | t

        out.append(("a card's type, swapped with the pile", card(swap_with_pile)))

        def move(w: Any) -> None:
            cards = list(w.face_down[k])
            x = cards.pop(i)
            w.face_down[k] = tuple(cards)
            w.face_down[(k + 1) % w.ns] += (x,)

        out.append(("a card to another ship", move))
    events = [i for i, e in enumerate(s.events) if e[0] >> p & 1]
    hidden = [i for i, e in enumerate(s.events) if not e[0] >> p & 1]
    if len(events) > 2:
        e1, e2 = rng.sample(events, 2)

        def reorder(w: Any) -> None:
            w.events[e1], w.events[e2] = w.events[e2], w.events[e1]

        out.append(("the order of two events", reorder))
        reveals = [i for i in events if s.events[i][1] == 8]  # E_REVEAL
        if reveals:
            r = rng.choice(reveals)
            out.append(("a card revealed", lambda w: w.events.__setitem__(
                r, (*w.events[r][:3], (w.events[r][3] + 1) % 11))))  # fmt: skip
    if hidden:
        h = rng.choice(hidden)
        out.append(("an event unseen", lambda w: w.events.__setitem__(
            h, (*w.events[h][:-1], w.events[h][-1] ^ 1))))  # fmt: skip
    return out


def test_changing_what_the_player_knows_changes_the_tensor_and_nothing_else_does() -> None:
    """Around real positions: each change of the state changes the tensor exactly when it
    changes `knowledge` — what the random games of the test above rarely meet (who else knows a
    card, a public class) is met here."""
    changed: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    for params in ({"players": 3, "ghost_ship": "on"}, {"players": 4, "edition": "classic"}):
        game = pyspiel.load_game("python_jamaica", params)
        RNG.seed(4)
        def visit(
            state: JamaicaState,
            own: list[Counter[int]],
            game: Any = game,
            rng: random.Random = RNG,
        ) -> None:
            if state.move_number() % 5 or state.is_terminal():
                return
            s = state._core.engine
            for p in range(s.n):
                before_t = state.information_state_tensor(p)
                before_k = knowledge(state, p, own[p])
                for name, change in _perturbations(s, p, rng):
                    w = JamaicaState(game, s.clone(), state._core.answers[:])
                    change(w._core.engine)
                    same_k = knowledge(w, p, own[p]) == before_k
                    same_t = w.information_state_tensor(p) == before_t
                    assert same_k == same_t, f"{name}: knowledge {same_k}, tensor {same_t}"
                    (kept if same_k else changed)[name] += 1

        _play(game, 6, visit)
    for name in ("a card known in a hand", "who knows a card", "a card's class",
                 "a card to another ship", "a card revealed", "a power overboard"):  # fmt: skip
        assert changed[name] > 0, (name, changed, kept)
    for name in ("a card's type, swapped with the pile", "the order of two events",
                 "an event unseen"):  # fmt: skip
        assert kept[name] > 0, (name, changed, kept)


def test_the_benchmark_times_what_it_says() -> None:
    """`python -m jamaica.envs.bench --infostate` prints the tensor's µs per call (≤ 50: see the
    docs); here only that it runs and measures every figure, not how fast (the machine is
    shared)."""
    from jamaica.envs.bench import infostate_figures

    figures = infostate_figures(games=1, players_counts=(2,), number=2)
    assert len(figures) == 7
    assert all(np.isfinite(v) and v > 0 for v in figures.values()), figures


def test_the_view_is_copied_whatever_array_the_encoder_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The encoder's own array is copied as memory; any other float32 vector it might return
    is copied through numpy, to the same values."""
    from jamaica.envs import infostate

    game = pyspiel.load_game("python_jamaica", {"players": 2})
    state = _play(game, 1, lambda s, own: None)
    fast = state.information_state_tensor(0)
    real = infostate.encode
    monkeypatch.setattr(infostate, "encode", lambda s, p: np.array(real(s, p)))
    assert state.information_state_tensor(0) == fast
