"""Issue 25 in Chromium: two players finish a rated game over real sockets; each sees their new
rating in the lobby and on their profile (chart, the game, head-to-head); the ladder lists them
beside the bots; a spectator's view of these pages holds nothing of any hand, and nothing
overflows on a phone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .server import Server
from .shots import fits_screen, screenshot
from .test_rated import _rated, play_out

SIZES = {"desk": (1280, 800), "phone": (390, 844)}


@pytest.fixture
def server(rated_server: Server) -> Server:
    return rated_server


def test_players_see_their_ratings_profiles_and_the_ladder(server: Server, browser: Any) -> None:
    ann, ben = server.player("Ann Bonny"), server.player("Mary Read")
    _, made = _rated(server, ann["key"])
    assert server.post(f"/api/tables/{made['id']}/sit", {"seat": 1}, ben["key"])[0] == 200
    play_out(server, made["id"], [ann["key"], ben["key"]])
    api = server.get(f"/api/players/{ann['id']}")
    shown = api["ratings"]["2021"]["display"]

    # Ben opens a rated table for players near his level (Ann, the winner, is not), and a casual
    # one with a hard bot: the lobby says whom each is for and how strong the bot is.
    _, near = _rated(server, ben["key"], within=25)
    casual = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "hard", "name": "Hook"}]
    assert server.post("/api/tables", {"players": 3, "seats": casual}, ben["key"])[0] == 201
    ben_shown = server.get(f"/api/players/{ben['id']}")["ratings"]["2021"]["display"]

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(f"{server.url}/#key={ann['key']}")
    page.wait_for_selector("#my-ratings:has-text('Rating')")
    assert f"2021 edition {shown}?" in page.inner_text("#my-ratings")
    page.wait_for_selector("#open-tables :text('hard bot, rated')")
    card = page.locator(f"#open-tables [data-table='{near['id']}']")
    assert f"For players rated {ben_shown - 25} to {ben_shown + 25}; yours is {shown}." in (
        card.inner_text())
    assert card.locator("button.sit").count() == 0  # no seat to take for her
    assert "hard bot, rated 22" in page.inner_text("#open-tables")
    screenshot(page, "rated-lobby-1280x800")
    page.click("#my-profile")
    page.wait_for_selector("#ratings .rating")
    assert page.inner_text("#title") == "Ann Bonny"
    assert page.inner_text("#ratings .rating") == f"{shown}?"
    assert page.locator("svg.chart circle").count() == 2  # before the game, and after
    assert page.locator(f"#recent a[href='/replay/{made['id']}']").count() == 1
    assert "Mary Read" in page.inner_text("#recent")
    page.click("#versus-form button")
    page.wait_for_selector("#versus:has-text('together')")
    assert "Ann Bonny and Mary Read played 1 game together" in page.inner_text("#versus")
    screenshot(page, "rated-profile-1280x800")
    ctx.close()

    bodies: list[str] = []  # every answer of the API a spectator's pages asked for
    for w, h in SIZES.values():  # a spectator: no key at all
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        page.on("response", lambda r: bodies.append(r.text()) if "/api/" in r.url else None)
        page.goto(f"{server.url}/ladder")
        page.wait_for_selector("#ladder td a")
        names = page.locator("#ladder td a").all_inner_texts()
        assert set(names) == {"Ann Bonny", "Mary Read"}
        bots = page.locator("#bots td:first-child").all_inner_texts()
        assert {"easy", "medium", "hard"} <= set(bots)
        fits_screen(page)
        screenshot(page, f"rated-ladder-{w}x{h}")
        page.goto(f"{server.url}/player/{ben['id']}")
        page.wait_for_selector("#recent td")
        fits_screen(page)
        screenshot(page, f"rated-profile-{w}x{h}")
        text = page.inner_text("body") + json.dumps(bodies)
        tokens = [s["token"] for s in made["seats"] if s["token"]]
        for secret in (ann["key"], ben["key"], *tokens):
            assert secret not in text
        for hidden in ('"hand"', '"cards"', '"deck"', '"token'):
            assert hidden not in text
        ctx.close()
