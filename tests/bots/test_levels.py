"""The three levels (issue 15): specs everywhere a bot spec goes, fair, reproducible from a seed,
and budgeted in iterations — never in seconds — with `hard` thinking longest on the card."""

from __future__ import annotations

import random

import pytest

from jamaica import CHANCE, Config, State, play_game
from jamaica.bots import LEVEL_SPECS, LEVELS, ISMCTSBot, RulesBot, make_bot, parse_spec, safe_spec
from jamaica.bots import ismcts as ismcts_module
from jamaica.bots.blunders import sound_actions
from jamaica.bots.expert import plan_card
from jamaica.rules.actions import MOVE
from jamaica.rules.data import CARD_NAMES
from jamaica.session import reproducible

from ..rules.helpers import holds, place, round_, start
from ..rules.strategies import random_walk


def _questions(config: Config, seed: int, kinds: set[str], count: int) -> list[State]:
    """Questions of the given kinds, with a choice, from a random game."""
    out: list[State] = []
    for s in random_walk(config, seed):
        if len(out) == count:
            break
        if s.is_terminal() or s.current_player() == CHANCE or len(s.legal_actions()) < 2:
            continue
        if s.decision_kind() in kinds:
            out.append(s.clone())
    return out


def test_the_levels_are_bot_specs_everywhere() -> None:
    assert LEVELS == ("easy", "medium", "hard", "master")
    for level in LEVELS:
        assert parse_spec(level) == (level, {})
        assert safe_spec(level) == level
        assert reproducible(level) == level  # what the terminal keeps in a save
        parse_spec(LEVEL_SPECS[level])  # each is a bot the lab can name too
        assert "seconds" not in LEVEL_SPECS[level]
    assert type(make_bot("easy", 1)).__name__ == "RulesBot"
    assert type(make_bot("medium", 1)).__name__ == "GreedyBot"
    hard = make_bot("hard", 1)
    assert isinstance(hard, ISMCTSBot) and hard.seconds is None and hard.knowledge == "expert"


@pytest.mark.parametrize("level", LEVELS)
def test_fair_a_level_decides_the_same_in_worlds_its_player_cannot_tell_apart(level: str) -> None:
    rng = random.Random(7)
    points = 4 if level == "master" else 12 if level == "hard" else 40
    states = _questions(Config(2), 4, {"card", "dice_order", "move", "powder", "spoils"}, points)
    states += _questions(Config(4), 5, {"card", "move", "pay", "load"}, points // 2)
    differing = 0
    for s in states:
        p = s.current_player()
        other = s.resample(p, rng)
        assert other.view(p) == s.view(p)
        differing += other.hand != s.hand or other.drawp != s.drawp
        assert make_bot(level, 3).act(s, p) == make_bot(level, 3).act(other, p)
    assert differing > len(states) // 2


def test_easy_slips_a_quarter_of_the_time_to_any_legal_answer() -> None:
    easy = make_bot("easy", 1)
    assert isinstance(easy, RulesBot) and easy.slips == 0.25
    states = _questions(Config(2), 8, {"card", "move", "powder", "spoils", "load"}, 30)
    careful = [make_bot("rules", 4).act(s, s.current_player()) for s in states]
    slips = [make_bot("rules:slips=1", 4).act(s, s.current_player()) for s in states]
    assert all(a in s.legal_actions() for a, s in zip(slips, states, strict=True))
    assert careful != slips
    assert careful == [make_bot("rules:slips=0", 4).act(s, s.current_player()) for s in states]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_level_replays_a_game_from_its_seed(level: str) -> None:
    def game() -> str:
        return play_game(Config(3), [make_bot(level, 1), make_bot(level, 2), make_bot("greedy", 3)],
                         seed=9).to_json()  # fmt: skip

    assert game() == game()


def test_hard_decides_the_same_for_the_same_seed_and_a_different_seed_may_differ() -> None:
    states = _questions(Config(2), 6, {"card", "dice_order"}, 6)
    first = [make_bot("hard", 5).act(s, s.current_player()) for s in states]
    again = [make_bot("hard", 5).act(s, s.current_player()) for s in states]
    assert first == again


def test_hard_counts_iterations_and_thinks_most_on_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_clock() -> float:
        raise AssertionError("a level must not read the clock")

    monkeypatch.setattr("jamaica.bots.ismcts.time.perf_counter", no_clock)
    bot = make_bot("hard", 2)
    assert isinstance(bot, ISMCTSBot)
    card = _questions(Config(4), 3, {"card"}, 1)[0]
    bot.act(card, card.current_player())
    assert bot.last_iterations == bot.iterations == 300
    move = _questions(Config(4), 3, {"move"}, 1)[0]
    bot.act(move, move.current_player())
    assert bot.last_iterations == round(300 * ismcts_module.FOCUS["move"]) < 300
    # heads-up, an iteration costs about half as much: twice the budget, the same CPU
    card = _questions(Config(2), 3, {"card"}, 1)[0]
    bot.act(card, card.current_player())
    assert bot.last_iterations == bot.heads_up == 600
    move = _questions(Config(2), 3, {"move"}, 1)[0]
    bot.act(move, move.current_player())
    assert bot.last_iterations == round(600 * ismcts_module.FOCUS["move"])


def test_the_expert_plans_a_card_whole() -> None:
    """With no food, loading food in the morning before sailing in the evening beats sailing twice
    into the sea spaces (and a shortage)."""
    hands = [("fwd-fwd", "food-fwd", "gold-gold"), ("gun-gold", "gold-gold", "food-gun")]
    s = start(Config(2), captain=0, hands=hands)
    holds(s, 0, [("gold", 3)])
    sail_twice = plan_card(s, 0, CARD_NAMES.index("fwd-fwd"), 1, 2)
    load_then_sail = plan_card(s, 0, CARD_NAMES.index("food-fwd"), 2, 1)
    assert load_then_sail > sail_twice


def test_hard_keeps_plain_blunders_out_of_its_search() -> None:
    """The Ghost Ship waits on space 1 and Anne Bonny has no gunpowder: a card that must sail onto
    it in the morning is left out; so is the branch of a fork that ends on it."""
    hands = [("fwd-fwd", "food-fwd", "fwd-gun"), ("gun-gold", "gold-gold", "food-gun")]
    s = start(Config(2), captain=0, hands=hands)
    holds(s, 0, [("food", 9), ("gold", 3)])
    place(s, s.gh, 1)
    s.apply("roll 1-2")
    s.apply("morning 1")
    assert s.decision_kind() == "card" and s.current_player() == 0
    assert [str(a) for a in sound_actions(s, 0) or []] == ["play food-fwd"]
    assert str(make_bot("hard", 1).act(s, 0)) == "play food-fwd"

    s = start(Config(2), captain=0, hands=hands)
    holds(s, 0, [("food", 9), ("gold", 9)])
    place(s, 0, 6)  # fork 1: one step forward is space 7 or space 13
    place(s, s.gh, 7)
    round_(s, (1, 2), 1, {0: "fwd-gun", 1: "gun-gold"})
    while s.current_player() != 0 or s.decision_kind() != "move":
        s.apply(s.legal_actions()[0])
    assert sorted(a - MOVE for a in s.legal_actions()) == [7, 13]
    assert [a - MOVE for a in sound_actions(s, 0) or []] == [13]
    assert make_bot("hard", 1).act(s, 0) - MOVE == 13
