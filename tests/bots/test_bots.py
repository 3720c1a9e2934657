"""The bots: fair by construction, deterministic for a seed, and able to play every question."""

from __future__ import annotations

import random

import pytest

from jamaica import CHANCE, Config, State, play_game
from jamaica.bots import BOTS, LEVELS, GreedyBot, ISMCTSBot, make_bot, parse_spec
from jamaica.bots.ismcts import Node

from ..rules.strategies import random_walk

SPECS = ["random", "greedy", "ismcts:iterations=40"]


def _decision_points(config: Config, seed: int, every: int = 7) -> list[State]:
    """States where a player must decide, from a random game."""
    out = []
    for i, s in enumerate(random_walk(config, seed)):
        if not s.is_terminal() and s.current_player() != CHANCE and i % every == 0:
            out.append(s.clone())
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_fair_a_bot_chooses_the_same_in_worlds_its_player_cannot_tell_apart(spec: str) -> None:
    """Two states with the same view for the deciding player but different hidden cards (other
    hands, draw piles, face-down treasures) get the same answer from the same seed."""
    rng = random.Random(5)
    differing = 0
    for config in (Config(4), Config(2), Config(3, edition="classic", ghost_ship=True)):
        for s in _decision_points(config, 3)[:25]:
            p = s.current_player()
            other = s.resample(p, rng)
            assert other.view(p) == s.view(p)
            if other.hand != s.hand or other.face_down != s.face_down or other.drawp != s.drawp:
                differing += 1
            assert make_bot(spec, 11).act(s, p) == make_bot(spec, 11).act(other, p)
    assert differing > 20  # the hidden cards really were different


@pytest.mark.parametrize("spec", SPECS)
def test_a_bot_is_deterministic_for_its_seed(spec: str) -> None:
    config = Config(2)
    a = play_game(config, [make_bot(spec, 1), make_bot("greedy", 2)], seed=4)
    b = play_game(config, [make_bot(spec, 1), make_bot("greedy", 2)], seed=4)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize(
    "config", [Config(2), Config(3, ghost_ship=True), Config(5, edition="classic")], ids=str
)
def test_bots_play_every_question_to_the_end(config: Config) -> None:
    """Card and dice order, moves and fork branches, loads and payments, battles, the Sabre,
    spoils, and the Ghost Ship's choices for its controller."""
    kinds: set[str] = set()

    class Spy:
        def __init__(self, bot: object) -> None:
            self.bot = bot

        def act(self, state: State, player: int) -> object:
            kinds.add(state.decision_kind())
            a = self.bot.act(state, player)  # type: ignore[attr-defined]
            assert a in state.legal_actions()
            return a

    specs = ["greedy", "ismcts:iterations=15"] + ["greedy"] * (config.players - 2)
    for seed in range(3):
        agents = [Spy(make_bot(spec, seed * 10 + i)) for i, spec in enumerate(specs)]
        record = play_game(config, agents, seed=seed)  # type: ignore[arg-type]
        assert record.winners
    assert {"dice_order", "card", "move", "pay"} <= kinds
    if config.ghost:
        assert "move" in kinds


def test_greedy_beats_random_in_a_short_match() -> None:
    wins = 0
    for g in range(10):
        agents = (
            [GreedyBot(g), make_bot("random", g)]
            if g % 2 == 0
            else [make_bot("random", g), GreedyBot(g)]
        )
        record = play_game(Config(2), agents, seed=100 + g)
        greedy_seat = 0 if g % 2 == 0 else 1
        wins += greedy_seat in record.winners
    assert wins >= 8


def test_search_nodes_use_slots_and_the_budget_is_kept() -> None:
    assert not hasattr(Node(0), "__dict__")
    s = _decision_points(Config(4), 8)[3]
    bot = ISMCTSBot(1, iterations=25)
    root = bot.search(s, s.current_player())
    assert bot.last_iterations == 25 and root.visits == 25
    assert sum(c.visits for c in root.children.values()) == 25
    timed = ISMCTSBot(1, seconds=0.05)
    timed.search(s, s.current_player())
    assert timed.last_iterations >= 1


def test_bot_specs() -> None:
    assert LEVELS == ("easy", "medium", "hard", "master")
    assert BOTS == ("random", "greedy", "ismcts", "learned", "deep", "rules", "master")
    assert parse_spec("ismcts:seconds=0.5:rollout=random") == (
        "ismcts",
        {"seconds": 0.5, "rollout": "random"},
    )
    for bad in ("minimax", "greedy:depth=3", "ismcts:iterations=many", "ismcts:rollout"):
        with pytest.raises(ValueError):
            make_bot(bad)
    with pytest.raises(ValueError, match="rollout"):
        make_bot("ismcts:rollout=smart")
