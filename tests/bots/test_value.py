"""Master's fitted value (`jamaica.bots.value`): each ship's chance to win, from the shipped
weights; at the end, the winners'; a search with it is fair and replays from its seed."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from jamaica import CHANCE, Config, State
from jamaica.bots import make_bot
from jamaica.bots.value import FEATURES, features, lateness, rewards, weights, win_chances
from jamaica.rules.driver import play_game

from ..rules.helpers import holds, place, start
from ..rules.strategies import random_walk
from .test_master import _question, _space


def _round_starts(config: Config, seed: int) -> list[State]:
    out = []
    for s in random_walk(config, seed):
        chance = not s.is_terminal() and s.current_player() == CHANCE and not s.stack
        if chance and s.decision_kind() == "roll_dice":
            out.append(s.clone())
    return out


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_ships_chances_are_a_distribution_and_the_players_rewards_their_share(
    players: int,
) -> None:
    for s in _round_starts(Config(players), 21)[::3]:
        chances = win_chances(s)
        assert len(chances) == s.ns
        assert all(0.0 < c < 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)
        assert rewards(s) == chances[: s.n]


def test_at_the_end_the_winners_share_the_win() -> None:
    finals: list[State] = []
    play_game(Config(3), [make_bot("greedy", k) for k in range(3)], 5, final_state=finals)
    s = finals[0]
    won = s.winners()
    assert win_chances(s) == [1.0 / len(won) if k in won else 0.0 for k in range(s.ns)]


def test_lateness_runs_from_the_start_to_the_finish() -> None:
    s = start(Config(2))
    assert lateness(s) == pytest.approx(1.0 - 32 / 45)
    place(s, 1, _space(2))
    assert lateness(s) > 0.9


def test_late_in_the_game_doubloons_and_a_lead_raise_the_chance() -> None:
    """The shipped weights say what a player knows: late, a ship with more doubloons, or nearer
    the finish, is likelier to win (both were fitted, not written in)."""
    s = start(Config(2))
    for k in range(s.ns):
        place(s, k, _space(8))
    holds(s, 0, [("gold", 3), ("food", 2)])
    holds(s, 1, [("gold", 3), ("food", 2)])
    even = win_chances(s)
    assert even[0] == pytest.approx(even[1])
    holds(s, 0, [("gold", 9), ("food", 2)])
    richer = win_chances(s)
    assert richer[0] > even[0] + 0.1
    holds(s, 0, [("gold", 3), ("food", 2)])
    place(s, 0, _space(3))
    assert win_chances(s)[0] > even[0] + 0.1


def test_the_shipped_weights_fit_this_versions_features_and_beat_the_baselines() -> None:
    data = json.loads(resources.files("jamaica.bots").joinpath("value.json").read_text())
    assert tuple(data["features"]) == FEATURES
    assert len(weights()) == len(FEATURES)
    fitted = data["fitted"]
    assert fitted["held_out_log_loss"] < fitted["estimate_alone_log_loss"]
    assert fitted["estimate_alone_log_loss"] < fitted["uniform_log_loss"]


def test_features_are_each_fact_plain_and_times_the_lateness() -> None:
    s = _round_starts(Config(4), 3)[4]
    f = features(s, 1, 0.5)
    assert len(f) == len(FEATURES)
    assert f[1::2] == [x * 0.5 for x in f[::2]]


def test_master_with_the_value_replays_from_its_seed_and_sees_only_its_players_view() -> None:
    rng = random.Random(8)
    spec = "master:iterations=40:heads_up=40:value=1"
    for kind, seed in (("card", 6), ("move", 7), ("dice_order", 9)):
        s = _question(Config(3), seed, kind)
        p = s.current_player()
        other = s.resample(p, rng)
        assert other.view(p) == s.view(p)
        first = make_bot(spec, 11).act(s, p)
        assert first == make_bot(spec, 11).act(s, p)
        assert first == make_bot(spec, 11).act(other, p)
