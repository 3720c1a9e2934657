"""The web client in a real browser: Debian's Chromium driven by Playwright, headless."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from ..soak import soak
from .server import Server

INSTANT = "localStorage.setItem('jamaica.speed', '0')"  # the table page shows events at once


ROUND_JS = "r => document.querySelector('#log').textContent.includes('Round ' + r)"


def _play_until_over(pages: list[Any], limit: int = 2000, before_round: int | None = None) -> None:
    """Click an option on whichever page is asked, until every page shows the score table (or,
    with `before_round`, until the first page's log says that round begins)."""
    for _ in range(limit):
        if all(p.locator("#scores").count() for p in pages):
            return
        if before_round and pages[0].evaluate(ROUND_JS, before_round):
            return
        for i, page in enumerate(pages):
            q = page.locator("#question:not([hidden]) #options button:not([disabled])")
            if q.count():
                # now and then answer by clicking on the board or on a card, as a player would
                targets = page.locator(".space.target")
                cards = page.locator(".card.clickable:not([disabled])")
                try:  # the page may move on between looking and clicking: look again then
                    if targets.count() and i % 2 == 0:
                        targets.first.dispatch_event("click", timeout=2000)
                    elif cards.count() and i % 2 == 0:
                        cards.first.click(timeout=2000)
                    else:
                        q.first.click(timeout=2000)
                except PlaywrightError:
                    pass
                page.wait_for_timeout(30)
        pages[0].wait_for_timeout(40)
    raise AssertionError("the game did not finish in the browser")


# The lobby's table is played until round LOBBY_ROUNDS begins (to the score table with
# JAMAICA_SOAK=1); test_table_page plays a whole game by clicking in every run.
LOBBY_ROUNDS = soak(4, None)


@pytest.mark.soak
def test_create_a_table_in_the_lobby_and_play_a_whole_game_by_clicking(
    server: Server, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(INSTANT)
    page.goto(server.url + "/")
    page.fill("#player-name", "Captain <b>Kidd</b>")  # the first visit asks for a name
    page.click("#join-button")
    page.select_option("#players", "4")
    for i in (1, 2, 3):
        page.select_option(f"#kind{i}", "bot")
    page.click("#create-button")  # the creator sits at seat 1 and goes to the table
    page.wait_for_selector("#board svg")
    assert page.locator("[id^=space-]").count() == 50
    assert "Captain <b>Kidd</b>" in page.inner_text("#ships")  # shown as text, not markup
    _play_until_over([page], before_round=LOBBY_ROUNDS)
    if LOBBY_ROUNDS is not None:
        assert f"Round {LOBBY_ROUNDS}" in page.inner_text("#log")
        return
    rows = page.locator("#scores tr")
    assert rows.count() == 5
    assert "Winner" in page.inner_text("#winner")


@pytest.mark.soak
def test_two_players_in_two_browsers_and_a_spectator(server: Server, browser: Any) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    ann_ctx, bob_ctx, watch_ctx = (browser.new_context() for _ in range(3))
    for ctx in (ann_ctx, bob_ctx, watch_ctx):
        ctx.add_init_script(INSTANT)
    try:
        ann, bob, watcher = ann_ctx.new_page(), bob_ctx.new_page(), watch_ctx.new_page()
        ann.goto(t["seats"][0]["url"])
        bob.goto(t["seats"][1]["url"])
        watcher.goto(t["spectator_url"])
        for p in (ann, bob, watcher):
            p.wait_for_selector("#board svg")
        watcher.wait_for_selector("#log p")
        assert watcher.locator("#hand .card").count() == 0
        assert "spectator" in watcher.inner_text("#whoami")
        # the hand, or the cards to choose (the hand's panel is hidden while choosing from it)
        ann.wait_for_selector("#hand .card:visible, #options .card:visible")
        ann_hand = ann.locator("#hand .card:visible, #options .card:visible").evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        )
        assert 3 <= len(ann_hand) <= 4
        _play_until_over([ann, bob], before_round=LOBBY_ROUNDS)
        if LOBBY_ROUNDS is None:  # a whole game (JAMAICA_SOAK=1): the same score table
            watcher.wait_for_selector("#scores")
            assert watcher.inner_text("#scores") == ann.inner_text("#scores")
        else:  # the spectator followed the rounds the two played
            watcher.wait_for_function(ROUND_JS, arg=LOBBY_ROUNDS)
        assert watcher.locator("#question:not([hidden])").count() == 0
    finally:
        for ctx in (ann_ctx, bob_ctx, watch_ctx):
            ctx.close()


def test_names_cannot_inject_script(server: Server, browser: Any) -> None:
    evil = "<img src=x onerror=q()>"
    t = server.table([(evil, None), ("Bot", "random")])
    page = browser.new_page()
    page.add_init_script("window.q = () => { window.__xss = 1; };")
    page.goto(t["seats"][0]["url"])
    page.wait_for_selector("#ships .name")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__xss") is None
    assert evil in page.inner_text("#ships")
    # the invite link made a player named as the seat: the lobby greets it by that name
    page.goto(server.url + "/")
    page.wait_for_selector("#me:has-text('You are')")
    assert evil in page.inner_text("#me")
    assert page.evaluate("window.__xss") is None
    stranger = browser.new_page()  # and a visitor with no player sees the table in the list
    stranger.add_init_script("window.q = () => { window.__xss = 1; };")
    stranger.goto(server.url + "/")
    stranger.wait_for_selector("#tables b")
    assert stranger.evaluate("window.__xss") is None
    stranger.close()


def test_the_page_reconnects_by_itself_after_a_server_restart(server: Server, browser: Any) -> None:
    t = server.table([("Ann", None), ("Bot", "greedy")])
    page = browser.new_page()
    page.add_init_script(INSTANT)
    page.goto(t["seats"][0]["url"])
    page.wait_for_selector("#question:not([hidden]) #options button")
    prompt = page.inner_text("#prompt")
    server.kill()  # SIGKILL
    page.wait_for_selector("#status:has-text('reconnecting')")
    again = Server(server.db)
    again.port = server.port
    again.start()
    try:
        page.wait_for_selector("#status:text-matches('^your turn$', 'i')", timeout=20_000)
        assert page.inner_text("#prompt") == prompt  # where it was
        lines = page.locator("#log p").count()
        page.locator("#options button").first.click()
        page.wait_for_selector(f"#log p >> nth={lines}")  # one line more
    finally:
        again.stop()
