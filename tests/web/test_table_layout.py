"""The table page as a player sees it (issue 24, items 4 and 7), in Chromium: with six ships at
1280×800 the log keeps room for its newest lines; the question is fully opaque again once an
answer went through; on a phone a battle shows whole above the pinned question and hand, and the
final score table fits its box, Total column included; a chat line refused by the flood limit
stays in the field to be sent again. Screenshots in tests/web/artifacts/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .server import Server
from .shots import screenshot
from .test_table_page import ANSWER, TAKEN_JS, open_page, play_until_over


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("layout") / "jamaica.db").start()
    try:
        yield s
    finally:
        s.stop()


# the words of the elements that `selector` finds which do not fit on one line (a range over a
# word that is drawn as two boxes is a word broken across lines)
WORDS_SPLIT = """(selector) => [...document.querySelectorAll(selector)].flatMap((e) => {
  const text = e.firstChild, out = [];
  if (!text || text.nodeType !== Node.TEXT_NODE) return out;
  for (const m of text.data.matchAll(/\\S+/g)) {
    const r = document.createRange();
    r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    if (r.getClientRects().length > 1) out.push(m[0]);
  }
  return out;
})"""


def card_question(page: Any) -> None:
    """Answer until the page asks for a card."""
    for _ in range(20):
        page.wait_for_selector(ANSWER)
        if page.get_attribute("#question", "data-kind") == "card":
            return
        turn = page.get_attribute("#question", "data-turn")
        page.locator(ANSWER).first.click(force=True)
        page.wait_for_function(TAKEN_JS, arg=turn, timeout=10_000)
    raise AssertionError("no card was asked for")


TALL_JS = """() => {
  const since = document.querySelector('#since'), list = document.querySelector('#since-list');
  since.hidden = false;
  for (let i = 0; i < 8; i++) list.append(Object.assign(document.createElement('div'),
    { textContent: 'Bot ' + i + ' now on space 4, attacked you, beat you.',
      className: 'test-tall' }));
  const tall = Object.assign(document.createElement('div'), { className: 'test-tall' });
  tall.style.height = (310 - document.querySelector('#question').offsetHeight) + 'px';
  document.querySelector('#question').append(tall);
  return ['#log', '#since'].map((s) => document.querySelector(s).getBoundingClientRect().height);
}"""


def test_six_ships_at_1280_leave_the_log_room_and_the_question_is_opaque(
    srv: Server, browser: Any
) -> None:
    t = srv.table([("Ann", None)] + [(f"Bot {k}", "greedy") for k in range(1, 6)])
    page = open_page(browser, t["seats"][0]["url"])
    play_until_over(page, before_round=3)
    card_question(page)
    page.locator("#options .card").first.hover()
    heights = page.evaluate(
        "() => ['#log', '#question', '#since'].map((s) => document.querySelector(s)"
        ".getBoundingClientRect().height)"
    )
    assert heights[0] >= 150, heights
    # the worst case, whatever the deal: a full summary and a question 60 px taller than usual
    # (a preview that wraps) — the summary gives way and scrolls, the log keeps its 150 px
    heights = page.evaluate(TALL_JS)
    assert heights[0] >= 150 and heights[1] > 0, heights
    # a question far taller still (a payment of 14 ways): it scrolls in its dock; the log stays
    # inside its panel and the panel above the chat (a review saw log lines over the chat)
    page.evaluate("document.querySelector('#question .test-tall').style.height = '900px'")
    rects = page.evaluate(
        "() => ['#dock', '.log-panel', '#log', '#chat'].map((s) => { const r = document"
        ".querySelector(s).getBoundingClientRect(); return [r.top, r.bottom]; })"
    )
    dock, panel, log, chat = rects
    assert dock[1] <= panel[0] and log[1] <= panel[1] + 0.5 and panel[1] <= chat[0], rects
    assert log[1] - log[0] >= 150 and chat[1] <= 800, rects
    page.evaluate("document.querySelectorAll('.test-tall').forEach((e) => e.remove())")
    box = page.locator("#log p").last.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    assert page.locator("#chat-input").bounding_box()["y"] + 20 <= 800
    screenshot(page, "table-six-ships-card")
    # after an answer went through, the next question is drawn at full strength
    turn = page.get_attribute("#question", "data-turn")
    page.locator(ANSWER).first.click()
    page.wait_for_function(TAKEN_JS, arg=turn, timeout=10_000)
    page.wait_for_selector(ANSWER)
    assert page.evaluate("getComputedStyle(document.querySelector('#question')).opacity") == "1"
    page.context.close()


BATTLE_JS = """async () => {
  const { BattlePanel } = await import('/static/panels.js');
  const view = { battle: { attacker: 1, defender: 0, attacker_powder: 2, defender_powder: 0,
      attacker_die: 3, defender_die: -1 },
    ships: [{ ship: 0, space: 7 }, { ship: 1, space: 7 }] };
  new BattlePanel(document.querySelector('#battle')).fromView(view, ['Ann', 'Bob']);
}"""


def test_on_a_phone_a_battle_shows_whole_above_the_pinned_question(
    srv: Server, browser: Any
) -> None:
    t = srv.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"], "phone")
    page.wait_for_selector(ANSWER)
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(BATTLE_JS)
    battle = page.locator("#battle").bounding_box()
    dock = page.locator("#dock").bounding_box()
    assert battle is not None and dock is not None
    assert battle["height"] > 100, battle  # not only its title
    assert battle["y"] >= 0 and battle["y"] + battle["height"] <= dock["y"] + 1, (battle, dock)
    assert page.locator("#battle .battle-side").count() == 2
    screenshot(page, "table-phone-battle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    battle = page.locator("#battle").bounding_box()
    assert battle["y"] + battle["height"] <= dock["y"] + 1  # wherever the page is scrolled
    page.context.close()


def test_the_final_scores_fit_a_phone(srv: Server, browser: Any) -> None:
    names = ["Bartholomew Roberts", "Mary Read", "Bot C", "Bot D"]
    t = srv.table([(n, "greedy") for n in names])
    end = time.monotonic() + 150
    while not any(x["id"] == t["id"] and x["finished"] for x in srv.get("/api/tables")):
        assert time.monotonic() < end, "the bots' game did not finish"
        time.sleep(0.3)
    for path in (f"/table/{t['id']}", f"/replay/{t['id']}"):
        page = open_page(browser, srv.url + path, "phone")
        if path.startswith("/replay"):
            page.wait_for_selector("#rounds button")
            page.click("#last")
        page.wait_for_selector("#scores")
        wide, room = page.evaluate(
            "() => [document.querySelector('#scores').getBoundingClientRect().width,"
            " document.querySelector('#final-table').clientWidth]"
        )
        assert wide <= room, (path, wide, room)
        total = page.locator("#scores th", has_text="Total").bounding_box()
        assert total is not None and total["x"] + total["width"] <= 390
        page.locator("#final").scroll_into_view_if_needed()
        screenshot(page, "final-scores-phone" + ("-replay" if "replay" in path else ""))
        page.context.close()


def test_a_chat_line_refused_by_the_flood_limit_stays_in_the_field(
    srv: Server, browser: Any
) -> None:
    t = srv.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"])
    page.wait_for_selector(ANSWER)
    for k in range(12):  # more than the limit allows at once (5 in 10 seconds)
        page.fill("#chat-input", f"message {k}")
        page.press("#chat-input", "Enter")
        try:
            page.wait_for_selector(".chat-note.error", timeout=700)
            break
        except Exception:  # accepted: the field is empty again
            assert page.input_value("#chat-input") == ""
    else:
        raise AssertionError("the flood limit never refused a line")
    assert page.input_value("#chat-input") == f"message {k}"
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_ship_card_s_words_are_never_cut_on_a_touch_screen(
    srv: Server, browser: Any, size: str
) -> None:
    """A review at 390×844 saw "John Ra…", "Port Royal · 32 to go · 3 c…": the whole text was
    only in a tooltip, which a touch screen never shows. On a phone (and any screen without a
    pointer that hovers) the ship cards' names and summaries, and the seats' names above them,
    wrap instead of being cut; on a laptop the summary's tooltip says it whole."""
    t = srv.table([("Christopher Condent", None), ("Bartholomew Roberts", "greedy"),
                   ("Christopher Moody", "greedy"), ("Bartholomew Sharp", "greedy")])  # fmt: skip
    page = open_page(browser, t["seats"][0]["url"], size)
    page.wait_for_selector(".shipcard .ship-where")
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.shipcard .ship-where, .shipcard .ship-head .name, "
        ".seat-item .seat-name')]"
        ".filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"
    )
    if size == "phone":
        assert cut == [], cut
        # and a name breaks between its words, never inside one (a review saw "Reviewe/r (toi)";
        # "Bartholo/mew" squeezed beside the Captain's tag): each word is on one line
        split = page.evaluate(WORDS_SPLIT, ".shipcard .ship-head .name")
        assert split == [], split
        # and the colour chip stays on the name's first line (a review saw "●" alone above
        # "Bartholomew Roberts": the name had moved to a line of its own)
        apart = page.evaluate(
            "() => [...document.querySelectorAll('.shipcard .ship-head')].filter((h) => {"
            " const c = h.querySelector('.chip').getBoundingClientRect();"
            " const n = h.querySelector('.name').getClientRects()[0];"
            " return Math.abs((c.top + c.bottom) / 2 - (n.top + n.bottom) / 2) > n.height / 2;"
            "}).map((h) => h.textContent)"
        )
        assert apart == [], apart
        screenshot(page, "table-four-ships-phone")
    else:
        titles = page.eval_on_selector_all(".shipcard .ship-where", "(s) => s.map((e) => e.title)")
        assert all(" to go" in title for title in titles), titles
        # a review saw "Space 9 · 27 to go · 1 treas…" on a desktop, 200 px empty beside it: the
        # summary takes two lines before it is cut (and the cards fill the row)
        clamped = page.evaluate(
            "() => [...document.querySelectorAll('.shipcard .ship-where')]"
            ".filter((e) => e.scrollHeight > e.clientHeight + 1"
            " || e.scrollWidth > e.clientWidth + 1)"
            ".map((e) => e.textContent)"
        )
        assert clamped == [], clamped
        lines = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                              "'.shipcard .ship-where')).webkitLineClamp)")  # fmt: skip
        assert lines == 2
    page.context.close()
