"""axe-core on every page, in Debian's Chromium: the lobby (before and after giving a name), a
table mid-game at 1280×800 and 390×844 (a card to choose, then waiting with the hand shown), a
finished table, and the replay at its start and its end. Any violation of a WCAG 2 A/AA rule, of
axe's best practices (landmarks, headings) or of its experimental rules (a visible label that is
not part of the accessible name, a scrolling box the keyboard cannot reach) fails the test, and
the failure lists each one with the elements it was found on.

axe-core comes with the `axe-playwright-python` package (its axe.min.js): nothing is downloaded
while the tests run."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .server import Server
from .test_lobby_page import come_aboard, create
from .test_table_page import ANSWER, SIZES, TAKEN_JS, open_page, play_until_over

TAGS = [
    *("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"),
    *("best-practice", "experimental"),
]


def violations(page: Any) -> list[str]:
    """What axe-core finds on the page as it is now, a line per rule and element."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = Axe().run(page, options=options).response["violations"]
    lines = []
    for v in found:
        for node in v["nodes"]:
            why = "; ".join(c["message"] for part in ("any", "all", "none") for c in node[part])
            lines.append(f"{v['id']} ({v['impact']}): {' '.join(node['target'])}: {why}")
    return lines


def accessible(page: Any, where: str) -> None:
    found = violations(page)
    assert not found, f"{where}: {len(found)} accessibility violations:\n" + "\n".join(found)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("axe") / "jamaica.db").start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def finished(srv: Server) -> str:
    """A game of two bots, played to the end."""
    t = srv.table([("Bot A", "greedy"), ("Bot B", "random")])
    end = time.monotonic() + 120
    while not any(x["id"] == t["id"] and x["finished"] for x in srv.get("/api/tables")):
        assert time.monotonic() < end, "the bots' game did not finish"
        time.sleep(0.2)
    return str(t["id"])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby(srv: Server, browser: Any, finished: str, size: str) -> None:
    first = open_page(browser, srv.url + "/", size)
    first.wait_for_selector("#welcome:not([hidden]) #player-name")
    first.wait_for_selector("#finished-tables .tcard", timeout=30_000)
    accessible(first, f"the lobby at a first visit ({size})")
    first.context.close()
    anne = come_aboard(browser, srv, "Anne", size)
    table = create(anne, ["me", "open"])
    anne.wait_for_selector("#banner-main:has-text('Waiting for players')")
    accessible(anne, f"a table waiting for a player ({size})")
    bob = come_aboard(browser, srv, "Bob", size)
    bob.wait_for_selector(f"#open-tables .tcard[data-table='{table}'] button.sit", timeout=30_000)
    accessible(bob, f"the lobby with a name and an open table ({size})")
    for page in (anne, bob):
        page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_table_mid_game(srv: Server, browser: Any, size: str) -> None:
    """Six ships, in round 3: choosing a card, then waiting for the others with the hand shown."""
    t = srv.table([("Ann", None)] + [(f"Bot {k}", "greedy") for k in range(1, 6)])
    page = open_page(browser, t["seats"][0]["url"], size)
    play_until_over(page, before_round=3)
    page.wait_for_selector(ANSWER)
    accessible(page, f"the table, a question ({size})")
    hand = "#hand-panel:not([hidden]) .card"
    for _ in range(30):  # answer until the hand shows (another question, or the others play)
        if page.locator(hand).count():
            break
        turn = page.get_attribute("#question", "data-turn")
        page.locator(ANSWER).first.click(force=True)
        page.wait_for_function(TAKEN_JS, arg=turn, timeout=10_000)
        page.wait_for_selector(f"{hand}, {ANSWER}", timeout=10_000)
    accessible(page, f"the table with the hand shown ({size})")
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_table_and_its_replay(
    srv: Server, browser: Any, finished: str, size: str
) -> None:
    table = open_page(browser, f"{srv.url}/table/{finished}", size)
    table.wait_for_selector("#scores")
    accessible(table, f"a finished table ({size})")
    table.context.close()
    replay = open_page(browser, f"{srv.url}/replay/{finished}", size)
    replay.wait_for_selector("#rounds button")
    accessible(replay, f"the replay at its start ({size})")
    replay.click("#last")
    replay.wait_for_selector("#scores")
    accessible(replay, f"the replay at its end ({size})")
    replay.context.close()
