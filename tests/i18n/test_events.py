"""Issue 26: the game's events in the reader's language. The rules core describes each event as a
phrase (English templates with values) and the edge renders it through a catalog: English stays
word for word what it was, French has words of its own for every kind of event, and players'
names are never translated."""

from __future__ import annotations

import random

import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.i18n.events import describe as describe_in
from jamaica.rules import data
from jamaica.rules import phrases as words
from jamaica.rules.events import EVENT_NAMES, describe


def _games() -> list[State]:
    out = []
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 6)):
        rng = random.Random(seed)
        s = new_game(Config(players, edition="2021" if seed % 2 else "classic"))
        while not s.is_terminal():
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
        out.append(s)
    return out


GAMES = _games()


def test_english_is_the_rules_own_words() -> None:
    for s in GAMES:
        for e in s.events or []:
            assert describe_in(e, s.n) == describe(e, s.n)
            names = [f"P{i}" for i in range(s.n)] + [data.GHOST_NAME]
            assert describe_in(e, s.n, names) == describe(e, s.n, names)


def test_french_has_its_own_words_for_every_kind_of_event() -> None:
    seen = set()
    for s in GAMES:
        for e in s.events or []:
            fr, en = describe_in(e, s.n, lang="fr"), describe(e, s.n)
            assert fr != en, (EVENT_NAMES[e[1]], fr)
            seen.add(e[1])
    assert len(seen) >= 30  # the kinds of events these games had


@pytest.mark.parametrize("name", ["Anne Bonny", "Port Royal", "Doubloons"])
def test_a_player_s_name_is_never_translated(name: str) -> None:
    from jamaica.rules.events import E_CAPTAIN

    text = describe_in((1, E_CAPTAIN, 0), 2, [name, "Ben"], lang="fr")
    assert text == f"{name} est le Capitaine."


def test_the_ghost_ship_s_default_name_is_translated() -> None:
    from jamaica.rules.events import E_CAPTAIN

    names = ["Ann", "Ben", data.GHOST_NAME]
    said = describe_in((1, E_CAPTAIN, 2), 2, names, lang="fr")
    assert said == "Le Vaisseau fantôme est le Capitaine."


def test_the_rules_words_are_one_list() -> None:
    assert words.TREASURES == data.TREASURE_TITLES
    assert words.COMBAT_FACES == data.COMBAT_FACE_NAMES
    assert words.SHORTAGES == data.SHORTAGE_NAMES
    assert words.GHOST == data.GHOST_NAME


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_sentence_after_an_exclamation_starts_with_a_capital(lang: str) -> None:
    """"Battle! The Ghost Ship attacks…", not "Battle! the Ghost Ship…" (a terminal player saw
    the lowercase one): the Ghost Ship's name begins the second sentence."""
    from jamaica.rules.events import E_BATTLE

    text = describe_in((1, E_BATTLE, 2, 0, 15), 2, lang=lang)
    first, _, second = text.partition("!")
    assert first in ("Battle", "Abordage\u202f"), text
    assert second.lstrip()[:1].isupper(), text
    assert ("Ghost" if lang == "en" else "fantôme") in second, text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_ghost_ship_s_firepower_says_where_its_bonus_comes_from(lang: str) -> None:
    """§10: the Ghost Ship holds Lady Beth (+2) and has no gunpowder. A review read "The Ghost
    Ship rolls 4: firepower 6" and could not tell where the 2 came from."""
    from jamaica.rules.events import E_DIE

    ghost = describe_in((1, E_DIE, 2, 1, 6), 2, lang=lang)  # ship 2 of 2 players: the Ghost Ship
    assert "Lady Beth" in ghost and "+2" in ghost, ghost
    player = describe_in((1, E_DIE, 0, 1, 6), 2, lang=lang)
    assert "Lady Beth" not in player, player


def test_french_contracts_a_le_and_de_le() -> None:
    """A terminal review read "… face cachée à le Vaisseau fantôme": French says "au"."""
    from jamaica.rules.events import E_STEAL_BLIND

    names = ["Mary Read", "Anne Bonny", data.GHOST_NAME]
    text = describe_in((1, E_STEAL_BLIND, 0, 2), 2, names, lang="fr")
    assert " au Vaisseau fantôme" in text and "à le " not in text, text
    assert describe_in((1, E_STEAL_BLIND, 0, 2), 2, names) == describe(
        (1, E_STEAL_BLIND, 0, 2), 2, names)  # English: unchanged
