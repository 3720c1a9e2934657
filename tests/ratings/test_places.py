"""A finished game's places for the rating, from the engine's ranking (RULES §9, R8): the highest
total first, then the ship furthest along; still equal, a shared place. The Ghost Ship is not a
player; a player who abandoned takes the last place."""

from __future__ import annotations

import pytest

from jamaica import Config, RandomAgent, State, play_game
from jamaica.lab.runner import _ranks
from jamaica.ratings import RatingError, places_of

from ..rules.helpers import holds, place, round_, start

QUIET = ("gun-gold", "gold-gold", "food-gun")


def finished(*ships: tuple[int, int, int]) -> State:
    """A game over after its one round (R7, a limit of 1), then each ship set as (space, lap,
    doubloons) with nothing else aboard, as the scoring tests set their scenes."""
    s = start(Config(len(ships), max_rounds=1), hands=[QUIET] * len(ships))
    round_(s, (1, 4), 1, {p: "food-gun" for p in range(len(ships))})
    assert s.is_terminal()
    for k, (space, lap, gold) in enumerate(ships):
        place(s, k, space, lap)
        holds(s, k, [("gold", gold)] if gold else [])
    return s


def test_the_highest_total_is_first():
    s = finished((44, 0, 9), (49, 0, 3), (45, 0, 0), (0, 0, 3))  # 14, 13, 6, −2
    assert places_of(s) == [1, 2, 3, 4]


def test_r8_equal_totals_go_to_the_ship_furthest_along():
    s = finished((44, 0, 5), (49, 0, 0), (45, 0, 0), (0, 0, 1))  # 10, 10, 6, −4
    assert places_of(s) == [2, 1, 3, 4]
    assert s.winners() == [1]


def test_r8_still_equal_is_a_shared_place_and_the_next_place_is_skipped():
    s = finished((11, 0, 4), (13, 0, 4), (0, 0, 1), (0, 0, 1))  # 25 moves left each; −4, −4
    assert places_of(s) == [1, 1, 3, 3]
    assert s.winners() == [0, 1]


def test_a_player_who_abandoned_is_last_whatever_their_ship_scored():
    s = finished((44, 0, 9), (49, 0, 3), (45, 0, 0), (0, 0, 3))
    assert places_of(s, abandoned={0}) == [4, 1, 2, 3]
    assert places_of(s, abandoned=[0, 2]) == [3, 1, 3, 2]  # two who left share the last place


def test_only_a_finished_game_has_places():
    s = start(Config(3), hands=[QUIET] * 3)
    with pytest.raises(RatingError, match="not over"):
        places_of(s)
    s = finished((44, 0, 9), (49, 0, 3), (45, 0, 0))
    with pytest.raises(RatingError, match="seats 0 to 2"):
        places_of(s, abandoned=[3])
    with pytest.raises(RatingError, match="nobody"):
        places_of(s, abandoned=[0, 1, 2])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_places_follow_the_engines_ranking_in_whole_games(players: int):
    """Random games, the Ghost Ship in every 2- and 3-player one: the places are the players'
    order in the ranking the lab uses (shared ranks averaged there), and the first place is the
    engine's winners among the players."""
    for seed in range(12):
        config = Config(players, ghost_ship=True if players in (2, 3) else None)
        finals: list[State] = []
        play_game(config, [RandomAgent(seed * 7 + k) for k in range(players)], seed,
                  final_state=finals)  # fmt: skip
        s = finals[0]
        places = places_of(s)
        assert len(places) == players and min(places) == 1
        ranks = _ranks(s)[:players]  # the Ghost Ship, if any, is the last ship
        for a in range(players):
            for b in range(players):
                assert (places[a] < places[b]) == (ranks[a] < ranks[b])
        first = {k for k in range(players) if places[k] == 1}
        winners = set(s.winners())
        if winners - {s.gh}:  # a player among the winners: exactly the players who won
            assert first == winners - {s.gh}
