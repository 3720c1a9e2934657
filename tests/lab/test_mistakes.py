"""The mistake check (issue 15) finds what it promises in constructed positions, and nothing in
positions where there was no better choice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from jamaica import CHANCE, Config, State, play_game
from jamaica.bots import make_bot
from jamaica.lab.mistakes import Mistakes, check, check_state, ghost_odds, main, shortage_free
from jamaica.rules.data import CARD_NAMES
from jamaica.session import GameSession

from ..rules.helpers import holds, place, round_, start, texts, total

QUIET = ("gun-gold", "gold-gold", "food-gun")


def _finish_round(s: State, seed: int = 1, prefer: tuple[str, ...] = ()) -> None:
    """Play on (the first answer of `prefer` that is legal, else the first legal answer; chance
    from a seeded draw) until the next round's dice."""
    rng = random.Random(seed)
    for _ in range(500):
        if s.is_terminal() or (s.current_player() == CHANCE and s.decision_kind() == "roll_dice"):
            return
        who = s.current_player()
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        legal = [str(a) for a in s.legal]
        s.apply(next((a for a in prefer if a in legal), legal[0]))


def _played(hand: tuple[str, ...], card: str, cargo: list[tuple[str, int]],
            ghost_at: int | None = None) -> tuple[State, State]:  # fmt: skip
    """Anne Bonny on Port Royal with `cargo` and `hand`, dice 1 (morning) and 2, plays `card`."""
    s = start(Config(2), captain=0, hands=[hand, QUIET])
    holds(s, 0, cargo)
    if ghost_at is not None:
        place(s, s.gh, ghost_at)
    before = s.clone()
    round_(s, (1, 2), 1, {0: card, 1: "gun-gold"})
    _finish_round(s)
    return before, s


def test_a_shortage_a_card_in_hand_would_have_avoided_is_a_mistake() -> None:
    # forward 1 then 2 from Port Royal: seas costing 2 and 3 food, with no food at all
    before, after = _played(("fwd-fwd", "gold-gold", "gun-gold"), "fwd-fwd", [("gold", 3)])
    found = check(before, after.history[len(before.history) :], 0)
    assert found.turns == 1 and found.shortage_turns == 1
    assert found.avoidable_shortages == 1


def test_a_shortage_no_card_could_avoid_is_not_a_mistake() -> None:
    before, after = _played(("fwd-fwd", "fwd-food", "food-fwd"), "fwd-fwd", [("gold", 3)])
    found = check(before, after.history[len(before.history) :], 0)
    assert found.shortage_turns == 1 and found.avoidable_shortages == 0


def test_no_shortage_no_mistake() -> None:
    before, after = _played(("fwd-fwd", "gold-gold", "gun-gold"), "gold-gold", [("gold", 3)])
    assert check(before, after.history[len(before.history) :], 0) == Mistakes(turns=1)


def test_which_cards_run_short() -> None:
    s = start(Config(2), captain=0, hands=[QUIET, QUIET])
    holds(s, 0, [("food", 2), ("gold", 3)])
    # from Port Royal: 1 → space 1 (2 food), 1 + 2 → space 3 (2 more food): short
    assert shortage_free(s, 0, CARD_NAMES.index("fwd-gun"), 1, 2)
    assert not shortage_free(s, 0, CARD_NAMES.index("fwd-fwd"), 1, 2)
    assert shortage_free(s, 0, CARD_NAMES.index("food-fwd"), 1, 2)  # load first, then sail


def test_attacking_the_ghost_ship_with_no_gunpowder_is_a_mistake() -> None:
    weak = ghost_odds_with([("food", 9)])
    strong = ghost_odds_with([("food", 9), ("powder", 8)])
    assert weak < 0.5 < strong
    before, after = _played(("fwd-fwd", "gold-gold", "gun-gold"), "fwd-fwd", [("food", 9)], 1)
    found = check(before, after.history[len(before.history) :], 0)
    assert found.ghost_attacks == 1 and found.weak_ghost_attacks == 1
    cargo = [("food", 9), ("powder", 8)]
    before, after = _played(("fwd-fwd", "gold-gold", "gun-gold"), "fwd-fwd", cargo, 1)
    found = check(before, after.history[len(before.history) :], 0)
    assert found.ghost_attacks == 1 and found.weak_ghost_attacks == 0


def ghost_odds_with(cargo: list[tuple[str, int]]) -> float:
    s = start(Config(2), captain=0, hands=[QUIET, QUIET])
    holds(s, 0, cargo)
    return ghost_odds(s, 0)


def _fwd_back(
    space: int,
    *,
    captain: int = 0,
    cargo: tuple[tuple[str, int], ...] = (("gold", 3),),
    ghost_at: int | None = None,
    seed: int = 1,
    prefer: tuple[str, ...] = (),
) -> tuple[State, State]:
    """Anne on `space` with `cargo` plays fwd-back with dice 1 (morning) and 2 (her other cards:
    gold-gold, gun-gold); Mary loads. The state before the round and after it."""
    s = start(Config(2), captain=captain, hands=[("fwd-back", "gold-gold", "gun-gold"), QUIET])
    holds(s, 0, list(cargo))
    place(s, 0, space)
    if ghost_at is not None:
        place(s, s.gh, ghost_at)
    before = s.clone()
    round_(s, (1, 2), 1, {0: "fwd-back", 1: "gun-gold"})
    _finish_round(s, seed=seed, prefer=prefer)
    return before, s


def test_a_whole_game_is_checked_for_every_turn() -> None:
    final: list[State] = []
    play_game(Config(2), [make_bot("greedy", 1), make_bot("random", 2)], seed=3, final_state=final)
    s = final[0]
    found = [check_state(s, p) for p in range(2)]
    for f in found:
        assert 10 <= f.turns <= s.rnd  # a turn a round (none after a finish's evening)
        assert f.avoidable_shortages <= f.shortage_turns <= f.turns
        assert f.weak_ghost_attacks <= f.ghost_attacks


def test_a_shortage_that_gains_nothing_is_fruitless() -> None:
    """On space 12 with no food: forward 1 to space 15 (3 food) runs short, and back 2 in the
    evening leaves the ship behind where it started with nothing found (the seeded shortage die
    leaves it on space 15, and the evening goes to space 13, not to the lair on space 11)."""
    before, s = _fwd_back(12, seed=2, prefer=("move 13",))
    assert s.pos[0] == 13 and not s.face_down[0]
    found = check(before, s.history[len(before.history) :], 0)
    assert found.avoidable_shortages == 1 and found.fruitless_shortages == 1
    assert found.total == 1


def test_a_shortage_that_gains_ground_is_avoidable_but_not_fruitless() -> None:
    before, after = _played(("fwd-fwd", "gold-gold", "gun-gold"), "fwd-fwd", [("gold", 3)])
    found = check(before, after.history[len(before.history) :], 0)
    assert after.moves_left(0) < before.moves_left(0)  # it got away from Port Royal
    assert found.avoidable_shortages == 1 and found.fruitless_shortages == 0


def test_a_weak_attack_on_the_ghost_ship_no_card_could_avoid_is_not_a_mistake() -> None:
    """Every card in hand sails forward 1 in the morning, onto the Ghost Ship on space 1."""
    hand = ("fwd-fwd", "fwd-gun", "fwd-food")
    before, after = _played(hand, "fwd-fwd", [("food", 9)], 1)
    found = check(before, after.history[len(before.history) :], 0)
    assert found.ghost_attacks == 1 and found.weak_ghost_attacks == 0


def test_a_card_avoids_a_shortage_only_if_it_does_not_attack_the_ghost_ship_weakly() -> None:
    s = start(Config(2), captain=0, hands=[QUIET, QUIET])
    holds(s, 0, [("food", 2), ("gold", 3)])
    assert shortage_free(s, 0, CARD_NAMES.index("fwd-gun"), 1, 2)  # space 1 costs 2 food
    place(s, s.gh, 1)
    assert not shortage_free(s, 0, CARD_NAMES.index("fwd-gun"), 1, 2)
    holds(s, 0, [("food", 2), ("gold", 3), ("powder", 8)])
    assert shortage_free(s, 0, CARD_NAMES.index("fwd-gun"), 1, 2)


def test_a_shortage_on_a_turn_that_found_a_treasure_is_not_fruitless() -> None:
    """On space 8 with no food: forward 1 onto the lair on space 9 (a treasure), then back 2 to
    space 7 (2 food) runs short and ends the turn behind where it started — but it gained a
    treasure, so it is avoidable (gold-gold runs no risk) and not fruitless."""
    before, s = _fwd_back(8)
    assert s.moves_left(0) > before.moves_left(0) and len(s.face_down[0]) + s.powers.count(0) == 1
    found = check(before, s.history[len(before.history) :], 0)
    assert found.avoidable_shortages == 1 and found.fruitless_shortages == 0 and found.total == 0


def test_the_rounds_of_the_mistakes_are_listed() -> None:
    before, s = _fwd_back(12, seed=2, prefer=("move 13",))
    assert check(before, s.history[len(before.history) :], 0).rounds == (before.rnd,)


def test_the_turn_is_judged_from_the_holds_a_rivals_battle_left() -> None:
    """Mary, the Captain, sails onto Anne (space 6), wins and takes her food; Anne's card is
    revealed in the same step. With no food, every card in Anne's hand runs short: nothing was
    avoidable from where her turn really began (with the food, two of them were safe)."""
    hand = ("gold-fwd", "back-fwd", "fwd-back")
    s = start(Config(2), captain=1, hands=[hand, ("fwd-gun", "gun-gold", "gold-gold")])
    place(s, 0, 6)
    place(s, 1, 3)
    holds(s, 0, [("food", 3)])
    holds(s, 1, [("gold", 6)])  # Mary pays for space 6 (a 5-doubloon port)
    before = s.clone()
    assert shortage_free(s, 0, CARD_NAMES.index("gold-fwd"), 3, 2)
    round_(s, (3, 2), 3, {0: "gold-fwd", 1: "fwd-gun"})
    for answer in ("die 10", "die 2", "take 0"):
        s.apply(answer)
    assert "Anne Bonny reveals Doubloons / Forward." in texts(s)  # in the step of the spoils
    assert total(s, 0, "food") == 0
    _finish_round(s, prefer="move 8")
    found = check(before, s.history[len(before.history) :], 0)
    assert found.shortage_turns == 1 and found.avoidable_shortages == 0


def test_games_with_mistakes_are_saved_for_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--bot", "random", "--against", "greedy", "--games", "2", "--seed", "1",
                 "--save-games", str(tmp_path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    saved = sorted(tmp_path.glob("mistakes-*.json"))
    assert saved and f"saved: {saved[0]}" in out
    session = GameSession.load(saved[0])
    assert session.state.is_terminal()
    seat = [s.bot for s in session.seats].index("random")
    found = check_state(session.state, seat)
    assert found.total >= 1 and f"round {found.rounds[0]}" in out
    # both games were lost by `random` and saved: the losses' line is their mean score parts
    assert len(saved) == 2
    mine, theirs = [], []
    for path in saved:
        s = GameSession.load(path).state
        me = [x.bot for x in GameSession.load(path).seats].index("random")
        assert me not in s.winners()
        mine.append(s.scores()[me].doubloons)
        theirs.append(s.scores()[s.winners()[0]].doubloons)
    assert "in its 2 losses (the Ghost Ship won 0)" in out
    assert f"doubloons {sum(mine) / 2:.1f} vs {sum(theirs) / 2:.1f}" in out


def test_saving_games_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--bot", "random", "--games", "1", "--save-games", str(tmp_path / "none")])


def test_the_turn_ends_before_the_ghost_ship_moves() -> None:
    """Anne plays last (Mary is the Captain): her fruitless turn of the test above, then the Ghost
    Ship sails backward onto her and loses the battle. That battle is not her turn's gain."""
    cargo = (("gold", 3), ("powder", 9))
    before, s = _fwd_back(12, captain=1, cargo=cargo, ghost_at=14, seed=2,
                          prefer=("move 13", "powder 6"))  # fmt: skip
    assert "Anne Bonny wins the battle against the Ghost Ship." in texts(s)
    found = check(before, s.history[len(before.history) :], 0)
    assert found.avoidable_shortages == 1 and found.fruitless_shortages == 1
