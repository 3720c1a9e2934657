"""Issue 28 in Debian's Chromium: the replay of a finished game opened from a seat's link (its
token in the fragment) offers that player master's analysis — progress while it is worked out,
then the summary, the marked decisions (?! ? ??) on a list, the rounds and the chart, and master's
view of each decision; a click jumps the replay there, and on a phone (the panel below the board)
brings the board back into view — smoothly, or at once for a reader who prefers reduced motion —
while on a wide screen nothing moves. In English and in French, at 1280×800 and 390×844, with no
sideways scrolling and no accessibility violation; a spectator is told who can see it, and a wrong
token gets the server's refusal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jamaica.web.analysis import PER_ADDRESS

from .analysis_games import TOKEN, store_game
from .server import Server
from .shots import screenshot
from .test_accessibility import accessible
from .test_analysis import ask
from .test_table_page import SIZES, no_sideways_scroll


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("analysis-browser") / "jamaica.db"
    store_game(db, "done", rounds=8, seed=5)
    store_game(db, "running", rounds=8, seed=6, finished=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JAMAICA_ANALYSIS_ITERATIONS", "60")
        s = Server(db).start()
    try:
        yield s
    finally:
        s.stop()


def open_replay(browser: Any, url: str, size: str, lang: str, still: bool = False) -> Any:
    """The replay at `size` in `lang`; `still`: the reader prefers reduced motion."""
    w, h = SIZES[size]
    locale = "fr-FR" if lang == "fr" else "en-GB"
    motion = "reduce" if still else "no-preference"
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale=locale,
                              reduced_motion=motion)  # fmt: skip
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#rounds button")
    return page


BOARD_IN_VIEW = """() => { const r = document.querySelector('#board').getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""
SETTLED = """() => new Promise((done) => { let last = -1, same = 0;
  const tick = () => { same = scrollY === last ? same + 1 : 0; last = scrollY;
    if (same >= 5) done(); else requestAnimationFrame(tick); }; tick(); })"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_s_analysis_on_the_replay(srv: Server, browser: Any, size: str, lang: str) -> None:
    still = lang == "fr"  # the French reader prefers reduced motion: no smooth scrolling
    page = open_replay(browser, f"{srv.url}/replay/done#seat=0&token={TOKEN}", size, lang, still)
    page.click("#analyse")
    page.wait_for_selector("button.verdict", timeout=120_000)
    text = page.inner_text("#analysis")
    # how the chance to win went, then where most was lost (a strong player's review)
    assert ("Ta chance de gagner, selon le bot maître" if lang == "fr" else
            "Your chance to win, by master:") in text, text  # fmt: skip
    if lang == "fr":
        assert "Décisions d’Ann" in text and "imprécision" in text
        for english in ("Analyse my decisions", "master's choice", "inaccurac", "blunders"):
            assert english not in text, english
    else:
        assert "Ann's decisions, judged by master" in text and "inaccurac" in text
    marked = page.locator("button.verdict").count()
    assert marked >= 1
    assert page.locator("#rounds button[data-mark]").count() >= 1  # the rounds show the marks
    assert page.locator("#chart text.chart-mark").count() >= 1  # and so does the chart
    first = page.locator("button.verdict").first
    step = int(first.get_attribute("data-step") or "-1")
    page.evaluate("document.querySelector('ol.verdicts').scrollIntoView({block: 'start'})")
    page.evaluate(SETTLED)
    before = page.evaluate("scrollY")
    if size == "phone":  # the list is below the board: the board is out of sight
        assert not page.evaluate(f"({BOARD_IN_VIEW})()")
    first.click()  # jumps the replay to that decision
    if size == "phone":
        if still:
            assert page.evaluate(f"({BOARD_IN_VIEW})()")  # at once, without smooth scrolling
        page.wait_for_function(BOARD_IN_VIEW, timeout=5000)  # the board comes back into view
        page.evaluate(SETTLED)
        assert page.evaluate(f"({BOARD_IN_VIEW})()")
        # and the replay's controls, which say which step it is, above it
        assert page.evaluate("document.querySelector('#where').getBoundingClientRect().top") >= 0
    else:  # side by side: the board is where it was, and the page does not move
        page.evaluate(SETTLED)
        assert page.evaluate("scrollY") == before
    page.wait_for_function(
        "(s) => document.querySelector('#where').textContent.includes(' ' + s + ' ')", arg=step
    )
    screenshot(page, f"analysis-chosen-{lang}-{SIZES[size][0]}x{SIZES[size][1]}")
    page.wait_for_selector("#verdict-detail table.options-table")
    assert page.locator("button.verdict[aria-current='true']").count() == 1
    rows = page.locator(".options-table tbody tr").count()
    assert rows >= 2 and page.locator(".options-table tr.best").count() == 1
    assert page.locator(".options-table tr.chosen").count() == 1
    no_sideways_scroll(page)
    if size == "phone":
        page.locator("#analysis").scroll_into_view_if_needed()
    screenshot(
        page,
        f"analysis-{lang}-{SIZES[size][0]}x{SIZES[size][1]}",
        doc=f"analysis-{SIZES[size][0]}x{SIZES[size][1]}" if lang == "en" else None,
    )
    accessible(page, f"the replay with the analysis ({size}, {lang})")
    page.context.close()


def test_a_spectator_is_told_who_may_see_it_and_a_wrong_token_is_refused(
    srv: Server, browser: Any
) -> None:
    page = open_replay(browser, f"{srv.url}/replay/done", "laptop", "en")
    assert "Only a player who held a seat" in page.inner_text("#analysis")
    assert page.locator("#analyse").count() == 0
    page.context.close()
    page = open_replay(browser, f"{srv.url}/replay/done#seat=0&token=nottheone", "laptop", "en")
    page.click("#analyse")
    page.wait_for_selector("#analysis-status.error")
    assert "not the token of this seat" in page.inner_text("#analysis-status")
    page.context.close()


@pytest.mark.parametrize("case", ["full", "crowded"])
def test_a_full_queue_counts_down_and_asks_again(tmp_path: Path, browser: Any, case: str) -> None:
    """No room for the page's request now: the queue is full of other players' games ("full"), or
    this address's own share is taken ("crowded": a review asked for three of its games at once).
    The page gets the server's 503 with its Retry-After (30 s, or 10 for one's own: they end
    sooner), says which, counts the seconds down, and sends the same request again when they are
    up — it never leaves the player waiting on nothing (the browser's clock is Playwright's)."""
    db = tmp_path / "jamaica.db"
    tables = [f"g{i}" for i in range(PER_ADDRESS + 1)]
    for i, t in enumerate(tables):
        store_game(db, t, players=6, rounds=6, seed=20 + i)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JAMAICA_ANALYSIS_ITERATIONS", "2000")  # the queue stays full for the test
        mp.setenv("JAMAICA_ANALYSIS_WAITING", str(PER_ADDRESS))
        s = Server(db, args=("--trust-proxy", "127.0.0.1")).start()
    try:
        for i, t in enumerate(tables[:PER_ADDRESS]):  # other players, or this address
            address = f"10.0.0.{i + 1}" if case == "full" else None
            assert ask(s, t, {"seat": 0, "token": TOKEN}, address=address)[0] == 202
        wait, words = (30, "busy with other players' games") if case == "full" else (
            10, "other analyses of yours come first")  # fmt: skip
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
        page = ctx.new_page()
        page.clock.install()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/analysis") else None)
        page.goto(f"{s.url}/replay/{tables[-1]}#seat=0&token={TOKEN}")
        page.wait_for_selector("#analyse")
        page.click("#analyse")
        status = page.locator("#analysis-status")
        page.wait_for_function(
            f"() => document.querySelector('#analysis-status').textContent.includes('{wait} s')"
        )
        assert words in status.inner_text(), status.inner_text()
        assert "error" not in (status.get_attribute("class") or "")  # a wait, not a failure
        assert page.locator("#analyse").is_disabled()  # no second request by hand meanwhile
        page.clock.run_for(5_000)
        assert f"again in {wait - 5} s" in status.inner_text(), status.inner_text()
        assert len(asked) == 1
        page.clock.run_for((wait - 4) * 1000)
        deadline = time.monotonic() + 10
        while len(asked) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert len(asked) == 2, asked  # the same request, sent again
        ctx.close()
    finally:
        s.stop()


def test_a_game_still_running_offers_no_analysis_yet(srv: Server, browser: Any) -> None:
    """A review clicked "Analyse my decisions" on the replay of an unfinished game and got the
    server's lower-case refusal: the page now says the analysis opens when the game is over."""
    page = open_replay(browser, f"{srv.url}/replay/running#seat=0&token={TOKEN}", "laptop", "en")
    page.wait_for_selector("#analysis-body:has-text('when the game is over')")
    assert page.locator("#analyse").count() == 0
    page.context.close()
    page = open_replay(browser, f"{srv.url}/replay/running#seat=0&token={TOKEN}", "phone", "fr")
    page.wait_for_selector("#analysis-body:has-text('quand la partie sera finie')")
    assert page.locator("#analyse").count() == 0
    page.context.close()


def test_an_analysis_asked_for_is_shown_again_on_coming_back(srv: Server, browser: Any) -> None:
    """Helper's review: a reload while master worked (or Back, or any later visit) showed a bare
    "Analyse my decisions" button again, though the server had kept working or had the analysis
    stored. The browser remembers the tables it asked about, and shows theirs at once; a table
    it never asked about starts nothing by itself. The marks' thresholds are said."""
    page = open_replay(browser, f"{srv.url}/replay/done#seat=0&token={TOKEN}", "laptop", "en")
    assert page.evaluate("localStorage.getItem('jamaica.analysed')") is None
    page.wait_for_timeout(500)
    assert page.locator("#analysis-status").inner_text() == ""  # not asked: nothing started
    page.click("#analyse")
    page.reload()  # at once, while master may still be at work
    page.wait_for_selector("button.verdict", timeout=120_000)  # no click: shown by itself
    legend = page.inner_text(".analysis-legend")
    assert legend == ("With 2 players, losing 5 points of win chance or more is an inaccuracy, "
                      "10 a mistake, 20 a blunder.")  # fmt: skip
    page.locator("button.verdict").first.click()
    page.wait_for_selector("#verdict-detail table.options-table")
    assert page.inner_text(".options-table th:nth-child(2)") == "Chance to win, by master"
    page.goto(f"{srv.url}/replay/running#seat=0&token={TOKEN}")  # another table: nothing asked
    page.wait_for_selector("#analysis-body:has-text('when the game is over')")
    page.context.close()
