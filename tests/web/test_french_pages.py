"""Issue 26 in Chromium with a French browser (`locale="fr-FR"`): the lobby, a profile and the
ladder read in French, at a laptop's and a phone's size, with nothing wider than the screen and
no button or label cut; the language chooser switches to English and the choice is kept; an
English browser at the same server reads English."""

from __future__ import annotations

from typing import Any

import pytest

from .server import Server
from .shots import fits_screen, screenshot
from .test_rated import _rated, play_out

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
NNBSP = "\u202f"


@pytest.fixture
def server(rated_server: Server) -> Server:
    return rated_server


def _nothing_cut(page: Any) -> None:
    fits_screen(page)
    cut = page.evaluate("""() => [...document.querySelectorAll('button, label, h2, summary, th')]
        .filter((e) => e.offsetParent !== null && !e.closest('.sr-only'))
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent.trim())""")
    assert cut == [], f"cut: {cut}"


def test_a_french_reader_reads_the_lobby_profiles_and_ladder_in_french(
    server: Server, browser: Any
) -> None:
    ann, ben = server.player("Anne Bonny"), server.player("Mary Read")
    _, made = _rated(server, ann["key"])
    assert server.post(f"/api/tables/{made['id']}/sit", {"seat": 1}, ben["key"])[0] == 200
    play_out(server, made["id"], [ann["key"], ben["key"]])
    for w, h in SIZES.values():
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
        page = ctx.new_page()
        page.goto(f"{server.url}/#key={ann['key']}")
        page.wait_for_selector("#my-ratings:has-text('Cote')")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.inner_text("#open-title") == "Tables ouvertes"
        assert page.inner_text("#new-title") == "Nouvelle table"
        assert page.inner_text("#play-now-button") == "Jouer maintenant (classée)"
        assert f"Cote{NNBSP}: édition 2021" in page.inner_text("#my-ratings")
        assert "1 partie jouée" in page.inner_text("#stats")
        assert page.title() == "Jamaica — salon"
        assert page.locator("#lang").input_value() == "fr"
        _nothing_cut(page)
        screenshot(page, f"fr-lobby-{w}x{h}")
        page.goto(f"{server.url}/player/{ann['id']}")
        page.wait_for_selector("#recent td")
        assert page.inner_text("#recent-title") == "Parties récentes"
        assert "Revoir" in page.inner_text("#recent")
        assert "partie classée" in page.inner_text("#ratings")
        _nothing_cut(page)
        screenshot(page, f"fr-profile-{w}x{h}")
        page.goto(f"{server.url}/ladder")
        page.wait_for_selector("#ladder td a")
        assert page.inner_text("#ladder-title") == "Les meilleurs joueurs"
        assert "Joueurs ayant au moins 1 partie classée" in page.inner_text("#ladder-note")
        _nothing_cut(page)
        screenshot(page, f"fr-ladder-{w}x{h}")
        ctx.close()


def test_the_chooser_switches_language_and_an_english_reader_reads_english(
    server: Server, browser: Any
) -> None:
    ctx = browser.new_context(locale="fr-FR")
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome-title:has-text('Bienvenue')")
    assert page.inner_text("#welcome-title") == f"Bienvenue à bord{NNBSP}! Quel est ton nom{NNBSP}?"
    page.select_option("#lang", "en")
    page.wait_for_selector("#welcome-title:has-text('Welcome aboard')")
    page.reload()
    page.wait_for_selector("#welcome-title:has-text('Welcome aboard')")  # the choice is kept
    ctx.close()
    english = browser.new_context(locale="en-GB").new_page()
    english.goto(server.url + "/")
    english.wait_for_selector("#welcome-title:has-text('Welcome aboard')")
    assert english.evaluate("document.documentElement.lang") == "en"
    assert english.locator("#lang").input_value() == "en"
    english.context.close()


def test_the_rules_read_in_french_and_in_english(server: Server, browser: Any) -> None:
    """The rules (issue 26, item 4) as a page of their own, linked from the lobby: the same
    screens as the table's help, in the reader's language."""
    for w, h in SIZES.values():
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.click("#rules-link:has-text('Comment jouer')")
        page.wait_for_selector("#rules h2")
        headings = page.locator("#rules h2").all_inner_texts()
        assert headings[:2] == ["La course", "Cartes et symboles"] and "Abordages" in headings
        text = page.inner_text("#rules")
        assert "le Vaisseau fantôme" in text.lower() or "Vaisseau fantôme" in text
        assert f"Pénurie{NNBSP}:" in text and "repaire de pirates" in text
        _nothing_cut(page)
        screenshot(page, f"fr-rules-{w}x{h}")
        ctx.close()
    english = browser.new_context(locale="en-US").new_page()
    english.goto(server.url + "/rules")
    english.wait_for_selector("#rules h2")
    assert english.locator("#rules h2").first.inner_text() == "The race"
    english.context.close()
