"""The `master` level (issue 28): the card choice searched as a simultaneous move, rival ships
priced as a threat, a budget in iterations, fair and reproducible, and `option_values` for the
analysis from the player's view only."""

from __future__ import annotations

import random

from jamaica import CHANCE, Config, State
from jamaica.bots import make_bot
from jamaica.bots.master import FOCUS, MasterBot, SimNode, option_values
from jamaica.bots.threat import rival_threat
from jamaica.rules.board import moves_left
from jamaica.rules.data import NUM_SPACES, PORT_ROYAL

from ..rules.helpers import holds, place, start
from ..rules.strategies import random_walk


def _question(config: Config, seed: int, kind: str, skip: int = 0) -> State:
    """The first question of `kind` with a choice (after `skip` of them) in a random game."""
    for s in random_walk(config, seed):
        if s.is_terminal() or s.current_player() == CHANCE or len(s.legal_actions()) < 2:
            continue
        if s.decision_kind() == kind:
            if skip == 0:
                return s.clone()
            skip -= 1
    raise AssertionError(f"no {kind} question in game {seed}")


def test_the_card_choice_is_one_simultaneous_node_with_each_choosers_own_statistics() -> None:
    s = _question(Config(3), 5, "card")
    me = s.current_player()
    bot = MasterBot(1, iterations=60)
    root = bot.search(s, me, 60)
    assert isinstance(root, SimNode)
    mine = root.sim[me]
    assert sum(st.visits for st in mine.values()) == 60
    # the players still to choose have their own statistics at the same node — not one per
    # answer of ours, as a plain tree would keep — so none of them sees our choice
    later = [p for p in root.sim if p != me]
    assert later, "the other players' card choices are searched at the root node"
    for p in later:
        assert sum(st.visits for st in root.sim[p].values()) == 60
    # the joint choices are the children: each one of ours met every one of theirs
    assert len(root.children) > len(mine)


def test_without_the_simultaneous_node_the_card_is_a_plain_tree() -> None:
    s = _question(Config(3), 5, "card")
    root = MasterBot(1, simultaneous=False).search(s, s.current_player(), 30)
    assert not isinstance(root, SimNode) and root.children


def _space(moves: int) -> int:
    """A sea space this many moves from the finish (R8's count)."""
    return next(sp for sp in range(1, NUM_SPACES) if moves_left(sp, 0) == moves)


def test_a_rival_with_gunpowder_close_behind_is_a_threat_and_one_without_is_not() -> None:
    s = start(Config(2))
    place(s, 0, _space(15))
    place(s, 1, _space(18))  # three moves behind: it may land on ship 0 next round
    holds(s, 0, [("gold", 5), ("food", 2)])
    holds(s, 1, [("powder", 4)])
    threat = rival_threat(s, 0)
    assert threat > 0.5  # about a third of the odds of losing 5 gold
    holds(s, 1, [("food", 4)])  # no gunpowder, no Lady Beth, no Sabre
    assert rival_threat(s, 0) == 0.0
    holds(s, 1, [("powder", 4)])
    place(s, 1, _space(15 + 13))  # too far to reach it in a round
    assert rival_threat(s, 0) == 0.0
    place(s, 1, PORT_ROYAL)
    place(s, 0, _space(15))
    assert rival_threat(s, 1) == 0.0  # nothing to fear in Port Royal


def test_the_budget_is_counted_in_iterations_and_shared_by_question_kind() -> None:
    s = _question(Config(2), 3, "card")
    bot = MasterBot(2, iterations=40, heads_up=80)
    bot.act(s, s.current_player())
    assert bot.last_iterations in (80, 0)  # 0: the blunder filter left one answer
    m = _question(Config(2), 3, "move")
    bot.act(m, m.current_player())
    assert bot.last_iterations in (max(16, round(80 * FOCUS["move"])), 0)


def test_master_replays_from_its_seed_and_decides_only_from_its_players_view() -> None:
    rng = random.Random(4)
    for kind, seed in (("card", 6), ("move", 7), ("load", 8), ("dice_order", 9)):
        s = _question(Config(2), seed, kind)
        p = s.current_player()
        other = s.resample(p, rng)
        assert other.view(p) == s.view(p)
        first = make_bot("master:iterations=40:heads_up=40", 11).act(s, p)
        assert first == make_bot("master:iterations=40:heads_up=40", 11).act(s, p)
        assert first == make_bot("master:iterations=40:heads_up=40", 11).act(other, p)


def test_option_values_rate_every_answer_alike_in_worlds_the_player_cannot_tell_apart() -> None:
    rng = random.Random(5)
    for kind, seed in (("card", 12), ("move", 13), ("load", 14)):
        s = _question(Config(3), seed, kind)
        p = s.current_player()
        values = option_values(s, p, iterations=30, seed=3)
        assert set(values) == set(s.legal_actions())
        assert all(0.0 <= v <= 1.0 for v in values.values())
        other = s.resample(p, rng)
        assert other.hand != s.hand or other.drawp != s.drawp or kind != "card"
        assert option_values(other, p, iterations=30, seed=3) == values
