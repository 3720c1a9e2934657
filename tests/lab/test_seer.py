"""`master-seer` (issue 28's bound on what hidden information costs master): it searches the true
state, master searches worlds drawn from its view; it is a lab row, and no bot a server could
seat."""

from __future__ import annotations

import random

import pytest

from jamaica.bots import make_bot
from jamaica.bots.master import MasterBot
from jamaica.lab.seer import SEER, SeerBot
from jamaica.lab.strength import Budgets, choose_pairings, choose_rows, play, schedule
from jamaica.rules import CHANCE, Config, State, new_game


def _card_question(seed: int) -> State:
    """A heads-up game played by greedy until a card is asked for in round 3 or later."""
    rng, greedy = random.Random(seed), make_bot("greedy", seed)
    s = new_game(Config(players=2, edition="2021"), log=False)
    cards = 0
    while True:
        who = s.current_player()
        if who != CHANCE and s.decision_kind() == "card":
            cards += 1
            if cards >= 5:
                return s
        s.apply(s.sample_chance(rng) if who == CHANCE else greedy.act(s, who))


def _worlds(bot: MasterBot, s: State, player: int) -> list[dict[str, object]]:
    seen: list[dict[str, object]] = []
    searched = bot._iterate

    def spy(root: object, world: State) -> None:
        seen.append(world.to_dict())
        searched(root, world)  # type: ignore[arg-type]

    bot._iterate = spy  # type: ignore[method-assign]
    bot.search(s, player, 12)
    return seen


def test_the_seer_searches_the_true_state_and_master_its_view_only() -> None:
    s = _card_question(7)
    player = s.current_player()
    truth = s.to_dict()
    assert all(w == truth for w in _worlds(SeerBot(1), s, player))
    drawn = _worlds(MasterBot(1), s, player)
    assert any(w != truth for w in drawn)  # the rival's hand is drawn, not read


def test_no_server_can_seat_it_but_the_lab_plays_it() -> None:
    with pytest.raises(ValueError):
        make_bot(SEER)
    rows = choose_rows(SEER, Budgets(2))
    assert rows[0][1].spec == SEER
    job = schedule(rows, choose_pairings("greedy"), Budgets(2), 11, 1)[0]
    outcome = play(job)
    assert outcome.share in (0.0, 0.5, 1.0)
    assert outcome.seats[job.seat].spec == SEER and outcome.seats[job.seat].decisions > 20
