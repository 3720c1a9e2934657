"""Issue 26: the catalogs. The reader's language is chosen as browsers and terminals say; French
plurals take the singular for 0 and 1; numbers are written the French way; the French catalog
translates every message, none fuzzy, and is up to date with the code and compiled; a message a
catalog lacks stays English."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from jamaica.i18n import Words, from_environment, js_catalog, negotiate, translations
from jamaica.i18n.tools import po_path, template

NNBSP = "\u202f"


@pytest.mark.parametrize(("header", "lang"), [
    ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"),
    ("en-GB,en;q=0.9,fr;q=0.5", "en"),
    ("de-DE,de;q=0.9", "en"),
    ("de;q=1, fr;q=0.4, en;q=0.3", "fr"),
    ("en;q=0.1, fr;q=0.9", "fr"),
    ("fr;q=0", "en"),
    ("", "en"),
    (None, "en"),
    ("fr;q=abc, xx" + ",x" * 5000, "en"),
])  # fmt: skip
def test_the_browser_s_accept_language_chooses(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "fr_CA.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, "fr"),
    ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({}, "en"),
])  # fmt: skip
def test_the_terminal_follows_its_locale(env: dict[str, str], lang: str) -> None:
    assert from_environment(env) == lang


def test_french_plurals_take_the_singular_for_nought_and_one() -> None:
    fr, en = Words("fr"), Words("en")
    assert [fr.n("{n} win", "{n} wins", k) for k in (0, 1, 2)] == [
        "0 victoire", "1 victoire", "2 victoires"]
    assert [en.n("{n} win", "{n} wins", k) for k in (0, 1, 2)] == ["0 wins", "1 win", "2 wins"]


def test_numbers_are_written_in_the_reader_s_language() -> None:
    assert Words("fr").number(12345) == f"12{NNBSP}345"
    assert Words("en").number(12345) == "12,345"


def test_a_message_a_catalog_lacks_stays_english() -> None:
    fr = Words("fr")
    assert fr("a message nobody translated") == "a message nobody translated"
    assert fr("Round {round}", round=3) == "Manche 3"


def _french() -> object:
    with po_path("fr").open("rb") as f:
        return read_po(f, locale="fr", domain="jamaica")


def test_the_french_catalog_translates_everything_and_nothing_is_fuzzy() -> None:
    po = _french()
    untranslated = [m.id for m in po if m.id and not (all(m.string) if isinstance(  # type: ignore[attr-defined]
        m.string, tuple | list) else m.string)]  # fmt: skip
    fuzzy = [m.id for m in po if m.id and m.fuzzy]  # type: ignore[attr-defined]
    assert untranslated == [] and fuzzy == []


def test_the_french_catalog_is_up_to_date_with_the_code_and_compiled(tmp_path: Path) -> None:
    """Every message marked in the code is in the catalog (run `jamaica i18n extract`), and the
    shipped .mo is the .po compiled (run `jamaica i18n compile`)."""
    po = _french()
    marked = {m.id if isinstance(m.id, str) else m.id[0] for m in template() if m.id}  # type: ignore[attr-defined]
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in po if m.id}  # type: ignore[attr-defined]
    assert sorted(marked - known) == [], "run `jamaica i18n extract`, then translate"
    fresh = tmp_path / "fresh.mo"
    with fresh.open("wb") as f:
        write_mo(f, po, use_fuzzy=False)  # type: ignore[arg-type]
    with fresh.open("rb") as f:
        want = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    shipped = dict(translations("fr")._catalog)  # type: ignore[attr-defined]
    # the header names the Babel that wrote it; the messages are what must match
    assert {k: v for k, v in shipped.items() if k} == {k: v for k, v in want.items() if k}, \
        "run `jamaica i18n compile`"


def test_french_typography_has_a_narrow_no_break_space_before_high_punctuation() -> None:
    bad = []
    for m in _french():  # type: ignore[attr-defined]
        if not m.id:
            continue
        for text in (m.string if isinstance(m.string, tuple | list) else [m.string]):
            for i, ch in enumerate(text):
                if ch in ":;!?»" and i and text[i - 1] != NNBSP and not text[i - 1].isdigit():
                    bad.append(text)
                if ch == "«" and i + 1 < len(text) and text[i + 1] != NNBSP:
                    bad.append(text)
    assert bad == []


def test_the_pages_catalog_has_each_message_and_plural_forms() -> None:
    cat = js_catalog("fr")
    assert cat["lang"] == "fr"
    assert cat["messages"]["Open tables"] == "Tables ouvertes"
    assert cat["messages"]["{n} win"] == ["{n} victoire", "{n} victoires"]
    assert js_catalog("en") == {"lang": "en", "messages": {}}
    assert js_catalog("xx")["lang"] == "en"


def test_french_elides_de_before_a_vowel_where_a_value_is_filled_in() -> None:
    """Helper's review: "Décisions de Ann, jugées par le maître". A template's "de" before a
    value that starts with a vowel becomes "d’"; a value is never changed inside (a player's name
    "Maria de Oliveira" stays as written), nor before "h", a consonant or a number."""
    from jamaica.i18n import Words
    from jamaica.rules.phrases import elide

    fr = Words("fr")
    said = fr("{name}'s decisions, judged by master", name="Ann")
    assert said == "Décisions d’Ann, jugées par le maître"
    assert fr("{name}'s decisions, judged by master", name="Bob").startswith("Décisions de Bob")
    maria = fr("{name}'s decisions, judged by master", name="Maria de Oliveira")
    assert maria.startswith("Décisions de Maria de Oliveira,")
    assert elide("de {x} et de {y}", {"x": "Hélène", "y": "8"}) == "de {x} et de {y}"
    assert elide("de {x}", {"x": "Émile"}) == "d’{x}"
    assert elide("{x} de {y}", {"x": "Ann"}) == "{x} de {y}"  # only before a value that elides


def test_the_french_log_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    """A review: "Le trésor face cachée de Anne Bonny". No event of whole games, in French, says
    "de" before a name starting with a vowel; and the names are never changed."""
    import random

    from jamaica import CHANCE, Config, new_game
    from jamaica.i18n import Words
    from jamaica.tui.lang import seen_events

    names = ["Anne", "Eve", "Ida", "Ghost"]
    texts = []
    for seed in range(12):
        s, rng = new_game(Config(3, ghost_ship=True)), random.Random(seed)
        while not s.is_terminal():
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
        texts += [e["text"] for k in range(3) for e in seen_events(s, k, names, Words("fr"))]
    assert not [x for x in texts if any(f"de {n}" in x for n in names[:3])]
    assert any("d’Anne" in x or "d’Eve" in x or "d’Ida" in x for x in texts)
