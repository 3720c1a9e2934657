"""Issue 28: the analysis in the reader's words — the engine's own labels for the answers, the
verdicts and the lichess-like summary, in English and in French."""

from __future__ import annotations

import random

import pytest

from jamaica import Config
from jamaica.analysis.core import GameAnalysis, Verdict
from jamaica.analysis.words import load_labels, render, say_summary, say_verdict
from jamaica.i18n import Words, translations
from jamaica.rules import CHANCE, new_game
from jamaica.rules.actions import LOAD
from jamaica.rules.data import SLOTS
from jamaica.rules.phrases import ENGLISH, amount

from .test_core import SHORT, analysis, game

NAMES = ["Anne", "Bob", "Ghost Ship"]
NNBSP = "\u202f"


def test_each_verdict_is_said_with_the_player_s_own_labels() -> None:
    a = analysis()
    history = game()
    shown = render(a, SHORT, history, NAMES, "en")
    s = new_game(SHORT, log=False)
    by_step = {v["step"]: v for v in shown["verdicts"]}
    for step, action in enumerate(history):
        if step in by_step:
            d = s.pending(NAMES)
            labels = dict(zip(d.actions, d.options, strict=True))
            if s.decision_kind() == "load":  # what is loaded, and what it throws out
                labels = load_labels(s, ENGLISH)
                for a, said in labels.items():
                    assert said.startswith("load ") and (
                        ", emptying its " in said) == ("empty and" in d.options[d.actions.index(a)])
            v = by_step[step]
            assert {o["action"]: o["label"] for o in v["options"]} == labels
            assert labels[v["chosen"]] in v["text"]
        s.apply(action)
    assert len(shown["verdicts"]) == len(a.verdicts)


def test_the_summary_counts_and_names_where_most_was_lost() -> None:
    v = (Verdict(3, 1, "card", ((15, 0.6), (14, 0.5)), 14, 0.1, "mistake"),
         Verdict(9, 9, "load", ((70, 0.7), (71, 0.45)), 71, 0.25, "blunder"))  # fmt: skip
    words = {70: "into hold 1 (2 food)", 71: "empty and load into hold 2 (3 doubloons)"}
    _ = Words("en")
    text = say_summary(GameAnalysis(0, v), words, _)
    assert text == ("0 inaccuracies, 1 mistake, 1 blunder in 2 decisions. Your chance to win, by "
                    "master: 50% in round 1, 45% in round 9. You lost most at round "
                    "9 (loading): empty and load into hold 2 (3 doubloons) instead of into hold "
                    "1 (2 food), 25 points of win chance.")  # fmt: skip
    assert say_verdict(v[1], words, _) == (
        "Round 9, loading: empty and load into hold 2 (3 doubloons) is a blunder: master prefers "
        "into hold 1 (2 food), 25 points of win chance better.")  # fmt: skip
    fr = say_summary(GameAnalysis(0, v), words, Words("fr"))
    assert fr.startswith("0 imprécision, 1 erreur, 1 gaffe en 2 décisions.")
    assert f"Tu as le plus perdu à la manche 9 (chargement){NNBSP}:" in fr
    assert say_summary(GameAnalysis(0, ()), None, _).endswith(
        "Master found nothing better than your answers.")  # fmt: skip


def test_in_french_the_labels_and_sentences_are_french() -> None:
    shown = render(analysis(), SHORT, game(), NAMES, "fr")
    english = render(analysis(), SHORT, game(), NAMES, "en")
    assert " instead of " not in shown["summary"] and " décision" in shown["summary"]
    kinds = {"card": "choix de carte", "move": "déplacement", "load": "chargement",
             "pay": "paiement", "dice_order": "dé du matin"}  # fmt: skip
    for v, e in zip(shown["verdicts"], english["verdicts"], strict=True):
        assert v["text"].startswith(f"Manche {v['round']}, ")
        assert v["kind_words"] == kinds.get(v["kind"], v["kind_words"])
        assert {o["action"] for o in v["options"]} == {o["action"] for o in e["options"]}


def test_the_captain_s_ghost_ship_decisions_are_named_as_the_ghost_ship_s() -> None:
    """A review found "R11 ?! move: forward to space 34" for the Captain's choice of where the
    Ghost Ship goes: it read as the player's own move. Its kind names the Ghost Ship."""
    shown = render(analysis(), SHORT, game(), NAMES, "en")
    ghost = [v for v in shown["verdicts"] if v["kind"] == "ghost_move"]
    assert ghost and all(v["kind_words"] == "the Ghost Ship's move" for v in ghost)
    assert all("the Ghost Ship's move" in v["text"] for v in ghost)
    s = new_game(SHORT, log=False)
    at = {v["step"] for v in ghost}
    for step, action in enumerate(game()):
        if step in at:
            assert "where does the Ghost Ship go?" in s.pending(NAMES).prompt
        s.apply(action)
    fr = render(analysis(), SHORT, game(), NAMES, "fr")
    assert {v["kind_words"] for v in fr["verdicts"] if v["kind"] == "ghost_move"} == {
        "déplacement du Vaisseau fantôme"}


def test_another_seat_s_summary_names_its_player() -> None:
    """The terminal analyses any seat: "Mary Read lost most…", not "You lost most…"."""
    v = (Verdict(9, 9, "load", ((70, 0.7), (71, 0.45)), 71, 0.25, "blunder"),)
    words = {70: "into hold 1 (2 food)", 71: "empty and load into hold 2 (3 doubloons)"}
    text = say_summary(GameAnalysis(0, v), words, Words("en"), "Mary Read")
    assert "Mary Read lost most at round 9 (loading)" in text and "You" not in text
    fr = say_summary(GameAnalysis(0, v), words, Words("fr"), "Mary Read")
    assert f"Mary Read a le plus perdu à la manche 9 (chargement){NNBSP}:" in fr
    assert say_summary(GameAnalysis(0, ()), None, Words("en"), "Mary Read").endswith(
        "Master found nothing better than Mary Read's answers.")  # fmt: skip


def test_a_load_says_what_is_loaded_and_what_it_throws_out() -> None:
    """A review read "loading: empty and load into hold 2 (2 food)" as a load of 2 food: the
    analysis says "load 1 gunpowder into hold 2, emptying its 2 food"."""
    found = 0
    for seed in range(6):
        s = new_game(Config(players=3), log=False)
        rng = random.Random(seed)
        while not s.is_terminal() and found < 12:
            if s.decision_kind() == "load" and len(s.legal) > 1:
                assert s.q is not None
                ship, resource, count = s.q[2]
                for a, text in load_labels(s, ENGLISH).items():
                    held = s.hold_counts[ship * SLOTS + a - LOAD]
                    assert text.startswith(f"load {amount(count, resource)} into "), text
                    assert (", emptying its " in text) == (held > 0), text
                    found += 1
                french = load_labels(s, translations("fr")).values()
                assert all(t.startswith("charger ") for t in french), french
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    assert found >= 12


def test_names_that_do_not_fit_the_ships_are_refused_with_a_clear_error() -> None:
    """The manual's example gave two names for a heads-up game (three ships, the Ghost Ship
    last): `render` failed deep in the engine with an IndexError."""
    a = analysis()
    with pytest.raises(ValueError, match="one name per ship, the Ghost Ship last: 3"):
        render(a, SHORT, game(), NAMES[:2], "en")
    assert render(a, SHORT, game(), None, "en")["verdicts"]  # None: the engine's own names


def test_a_decision_where_every_answer_shows_the_same_chance_names_no_best() -> None:
    """Helper's review: in a game already lost, three loads worth 0.97%, 0.94% and 0.71% were
    shown as "1% ★ …" and "Master's choice too." on the one that threw out most doubloons. All
    show 1%: the screens now say every answer is about as good, and star none."""
    v = Verdict(133, 7, "load", ((70, 0.0097), (73, 0.0094), (71, 0.0071)), 70, 0.0, "")
    words = {70: "load 2 food into hold 1, emptying its 6 doubloons",
             73: "load 2 food into hold 4, emptying its 5 doubloons",
             71: "load 2 food into hold 2, emptying its 3 doubloons"}  # fmt: skip
    assert v.even and not Verdict(3, 1, "card", ((15, 0.016), (14, 0.006)), 14, 0.01, "").even
    said = say_verdict(v, words, Words("en"))
    assert said == ("Round 7, loading: load 2 food into hold 1, emptying its 6 doubloons — every "
                    "answer here has about the same win chance (1%): the game hardly turns on "
                    "it.")  # fmt: skip
    assert "master's choice" not in said
    from jamaica.tui.analysis import verdict_panel

    panel = verdict_panel(v, words, 80, True, Words("en")).plain
    assert "Every answer is about as good here." in panel and "★" not in panel
    assert "Master's choice" not in panel and "▸ load 2 food into hold 1" in panel


def test_an_answer_as_good_as_shown_but_not_master_s_is_not_called_master_s() -> None:
    """Helper's review: "3 in the morning — master's choice too." above a table that tagged "6 in
    the morning" as master's choice (0.3325 against 0.3294, both 33%... but a third answer
    differed, so not every answer was equal)."""
    v = Verdict(5, 1, "move", ((40, 0.3325), (41, 0.3294), (42, 0.20)), 41, 0.0, "")
    words = {40: "forward 6", 41: "forward 3", 42: "back 2"}
    assert not v.even
    assert say_verdict(v, words, Words("en")) == (
        "Round 1, move: forward 3 — about as good as master's choice, forward 6.")


def test_the_summary_says_how_the_chance_fell_and_what_the_marks_cost_of_it() -> None:
    """A strong player's review: "1 mistake" read as "you played fine" in a game whose chance
    to win fell from 45% to 4%. The summary now says the fall, and how little of it was marked."""
    v = (Verdict(3, 1, "card", ((15, 0.48), (14, 0.45)), 14, 0.03, ""),
         Verdict(40, 4, "card", ((15, 0.48), (14, 0.38)), 14, 0.1, "mistake"),
         Verdict(90, 10, "load", ((70, 0.04), (71, 0.04)), 70, 0.0, ""))  # fmt: skip
    text = say_summary(GameAnalysis(0, v), {14: "Food / Forward", 15: "Forward"}, Words("en"))
    assert ("Your chance to win, by master: 45% in round 1, 4% in round 10. The marked answers "
            "cost 10 points of it; the rest came from the dice, the cards and the other "
            "players.") in text, text
    fr = say_summary(GameAnalysis(0, v), {}, Words("fr"), "Anne")
    assert f"Chance de gagner d’Anne, selon le bot maître{NNBSP}: 45{NNBSP}% à la manche 1" in fr
    assert "Les réponses marquées en ont coûté 10 points" in fr
    assert say_summary(GameAnalysis(0, v[:1]), {}, Words("en")).count("chance to win") == 0
