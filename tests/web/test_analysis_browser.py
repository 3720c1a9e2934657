"""Issue 28 in Debian's Chromium: the replay of a finished game opened from a seat's link (its
token in the fragment) offers that player master's analysis — progress while it is worked out,
then the summary, the marked decisions (?! ? ??) on a list, the rounds and the chart, and master's
view of each decision; a click jumps the replay there. In English and in French, at 1280×800 and
390×844, with no sideways scrolling and no accessibility violation; a spectator is told who can see
it, and a wrong token gets the server's refusal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .analysis_games import TOKEN, store_game
from .server import Server
from .shots import screenshot
from .test_accessibility import accessible
from .test_table_page import SIZES, no_sideways_scroll


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("analysis-browser") / "jamaica.db"
    store_game(db, "done", rounds=8, seed=5)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JAMAICA_ANALYSIS_ITERATIONS", "60")
        s = Server(db).start()
    try:
        yield s
    finally:
        s.stop()


def open_replay(browser: Any, url: str, size: str, lang: str) -> Any:
    w, h = SIZES[size]
    locale = "fr-FR" if lang == "fr" else "en-GB"
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale=locale)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#rounds button")
    return page


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_s_analysis_on_the_replay(srv: Server, browser: Any, size: str, lang: str) -> None:
    page = open_replay(browser, f"{srv.url}/replay/done#seat=0&token={TOKEN}", size, lang)
    page.click("#analyse")
    page.wait_for_selector("button.verdict", timeout=120_000)
    text = page.inner_text("#analysis")
    if lang == "fr":
        assert "Décisions de Ann" in text and "imprécision" in text
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
    first.click()  # jumps the replay to that decision
    page.wait_for_function(
        "(s) => document.querySelector('#where').textContent.includes(' ' + s + ' ')", arg=step
    )
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
