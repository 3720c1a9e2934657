"""Issue 11 in a real browser (Debian's Chromium, headless) against a real server: whole games by
clicking and by keyboard at a laptop's and a phone's size, no sideways scrolling, readable text,
the countdown, paced events and "skip to now", and a click made while the server is down.

Screenshots of the table are saved in tests/web/artifacts/ (git-ignored)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from ..soak import soak
from .server import Server
from .shots import screenshot

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
ANSWER = "#question:not([hidden]) #options button:not([disabled])"

# WCAG's contrast of an element's text colour with the background it is drawn on (the first
# ancestor with an opaque background), for every element the selector finds that shows text.
CONTRAST_JS = """
(selector) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (e) => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out = [];
  for (const e of document.querySelectorAll(selector)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || !e.textContent.trim()) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden" || s.display === "none") continue;
    const [a, b] = [lum(rgb(s.color).slice(0, 3)), lum(background(e))].sort((x, y) => y - x);
    const ratio = Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
    out.push([selector, e.textContent.trim().slice(0, 40), ratio]);
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that never stop it."""
    # its tests make more tables a minute than one visitor may (the default cap is 10)
    srv = Server(tmp_path_factory.mktemp("table-page") / "jamaica.db",
                 ("--tables-per-minute", "100")).start()  # fmt: skip
    try:
        yield srv
    finally:
        srv.stop()


def open_page(browser: Any, url: str, size: str = "laptop", speed: str = "0") -> Any:
    """A page in a context of its own; `speed` is the table's pace ("0": instant)."""
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.add_init_script(f"localStorage.setItem('jamaica.speed', '{speed}')")
    page = ctx.new_page()
    page.goto(url)
    return page


def no_sideways_scroll(page: Any) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url}: the page is {width} px wide in a {inner} px window"


STATE_JS = """() => {
  const q = document.querySelector('#question');
  const a = document.activeElement;
  return { over: !!document.querySelector('#scores'), turn: q.dataset.turn, kind: q.dataset.kind,
    options: q.hidden ? 0 : q.querySelectorAll('#options button:not([disabled])').length,
    focused: !!(a && a.closest('#options')),
    targets: document.querySelectorAll('.space.target').length };
}"""
TAKEN_JS = """t => { const q = document.querySelector('#question');
  return q.hidden || q.dataset.turn !== t || !q.querySelector('#options button:not([disabled])')
    || !!document.querySelector('#scores'); }"""


ROUND_JS = "r => document.querySelector('#log').textContent.includes('Round ' + r)"


def play_until_over(
    page: Any, *, keyboard: bool = False, seconds: float = 120, before_round: int | None = None
) -> int:
    """Answer every question until the score table shows (or, with `before_round`, until the
    log says that round begins): by clicking (now and then a card or a space on the board, as a
    player would), or with the keyboard only. Returns the answers."""
    answers = 0
    end = time.monotonic() + seconds
    while True:
        assert time.monotonic() < end, "the game did not finish"
        st = page.evaluate(STATE_JS)
        if st["over"] or (before_round and page.evaluate(ROUND_JS, before_round)):
            return answers
        if not st["options"]:
            page.wait_for_selector(f"{ANSWER}, #scores", timeout=10_000)
            continue
        try:
            if keyboard:
                if answers % 3 == 1 and st["options"] > 1 and st["focused"]:
                    page.keyboard.press("Tab")  # the next option, then Enter
                    page.keyboard.press("Enter")
                elif st["focused"]:
                    page.keyboard.press("Enter" if answers % 2 else "Space")
                else:
                    page.keyboard.press("1")
            elif answers % 2 and st["kind"] == "move" and st["targets"]:
                page.locator(".space.target").first.dispatch_event("click")
            else:  # a real click, not waiting for the page to stand still (the tokens sail on)
                n = 1 if answers % 3 == 2 and st["options"] > 1 else 0
                page.locator(ANSWER).nth(n).click(timeout=2000, force=True)
        except Exception:  # the question changed under the click: look again
            continue
        answers += 1
        page.wait_for_function(TAKEN_JS, arg=st["turn"], timeout=10_000)


# The phone's game proves its layout in the first rounds: it stops as round PHONE_ROUNDS begins
# (the laptop's is always played to the end; every game is whole with JAMAICA_SOAK=1).
PHONE_ROUNDS = soak(4, None)


@pytest.mark.soak
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_whole_game_against_a_bot_by_clicking(shared: Server, browser: Any, size: str) -> None:
    t = shared.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"], size)
    page.wait_for_selector(ANSWER)
    if page.get_attribute("#question", "data-kind") != "card":  # the Captain places the dice first
        page.locator(ANSWER).first.click()
    page.wait_for_selector("#question:not([hidden]) .card.clickable:not([disabled])")
    page.locator("#options .card").first.hover()
    page.wait_for_selector("#preview .preview-card")
    no_sideways_scroll(page)
    assert page.title() == "▶ Your turn — Jamaica"
    assert page.inner_text("#banner-main") == "Your turn"
    text = page.inner_text("#options")
    assert not re.search(r"\b(fwd|gun|back)-|-(fwd|gun|back)\b", text), text  # words, not codes
    w, h = SIZES[size]
    screenshot(page, f"table-{size}", doc=f"table-{w}x{h}")
    whole = size == "laptop" or PHONE_ROUNDS is None
    answers = play_until_over(page, before_round=None if whole else PHONE_ROUNDS)
    assert answers >= (10 if whole or PHONE_ROUNDS is None else PHONE_ROUNDS - 1)  # a card a round
    no_sideways_scroll(page)
    if whole:
        assert page.locator("#scores tr").count() == 4  # the header, two players, the Ghost Ship
        assert "Winner" in page.inner_text("#winner")
        assert page.title() == "Game over — Jamaica"
        if size == "laptop":  # no question, no hand: the dock takes no room above the log
            dock = page.evaluate("document.querySelector('#dock').getBoundingClientRect().height")
            assert dock < 2, dock
    log = page.inner_text("#log")
    assert "Round 2" in log
    page.wait_for_function(  # the log follows the newest line
        "() => { const l = document.querySelector('#log');"
        " return l.scrollHeight - l.scrollTop - l.clientHeight < 40; }",
        timeout=3000,
    )
    assert not re.search(r"\b(fwd|gun|food|gold|back)-(fwd|gun|food|gold|back)\b", log)
    screenshot(page, f"table-{size}-end")
    page.context.close()


KEYBOARD_ROUNDS = soak(4, None)


@pytest.mark.soak
def test_a_keyboard_only_game(shared: Server, browser: Any) -> None:
    """Played with the keyboard only until round KEYBOARD_ROUNDS begins (to the score table
    with JAMAICA_SOAK=1; the laptop's game by clicking always goes there)."""
    t = shared.table([("Kim", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"])
    page.wait_for_selector(ANSWER)
    # the new question has the focus: no mouse is needed
    assert page.evaluate("!!document.activeElement.closest('#options')")
    answers = play_until_over(page, keyboard=True, before_round=KEYBOARD_ROUNDS)
    assert answers >= (KEYBOARD_ROUNDS or 20) - 1  # at least a card a round, by keys alone
    if KEYBOARD_ROUNDS is None:
        assert page.locator("#scores tr").count() == 4
    else:
        assert f"Round {KEYBOARD_ROUNDS}" in page.inner_text("#log")
        assert page.locator("#scores").count() == 0  # the rounds were played by the keyboard
    page.context.close()


def test_no_sideways_scrolling_and_readable_text(shared: Server, browser: Any) -> None:
    """Lobby, table and replay at both sizes; with six ships on a laptop the newest log line
    shows; the main texts have a contrast of at least 4.5:1."""
    done = shared.table([("Bot A", "greedy"), ("Bot B", "random")])
    # an invite seat is bound to the first browser that opens its link: a table per size
    six = {size: shared.table([("Ann", None)] + [(f"Bot {k}", "greedy") for k in range(1, 6)])
           for size in SIZES}  # fmt: skip
    end = time.monotonic() + 120  # the bots' game is over (it takes longer on a busy machine)
    while not any(x["id"] == done["id"] and x["finished"] for x in shared.get("/api/tables")):
        assert time.monotonic() < end, "the bots' game did not finish"
        time.sleep(0.2)
    for size in SIZES:
        lobby = open_page(browser, shared.url + "/", size)
        lobby.wait_for_selector("#tables b")
        no_sideways_scroll(lobby)
        lobby.context.close()
        replay = open_page(browser, f"{shared.url}/replay/{done['id']}", size)
        replay.wait_for_selector("#rounds button")  # the game was over before the page asked
        replay.click("#last")
        replay.wait_for_selector("#scores")
        no_sideways_scroll(replay)
        assert replay.locator("#chart polyline").count() == 3
        replay.context.close()
        table = open_page(browser, six[size]["seats"][0]["url"], size)
        table.wait_for_selector(ANSWER)
        no_sideways_scroll(table)
        if size == "laptop":
            box = table.locator("#log p").last.bounding_box()
            assert box is not None and box["y"] + box["height"] <= SIZES["laptop"][1] + 1
            assert table.locator("#options button").first.bounding_box()["y"] < SIZES["laptop"][1]
            screenshot(table, "table-six-ships")
            texts = [
                "header h1", "#whoami", "#status", "#banner-main", "#banner-detail", "#prompt",
                "#options .card-row", "#options .card-summary", ".qhint", "#log p",
                ".ship-head .name", ".ship-where", ".hold", ".dice-note", "#since li",
            ]  # fmt: skip
            seen = [c for sel in texts for c in table.evaluate(CONTRAST_JS, sel)]
            assert len(seen) > 30 and {c[0] for c in seen} >= {"#prompt", "#log p", ".hold"}
            low = [c for c in seen if c[2] < 4.5]
            assert not low, low
        table.context.close()


def test_the_countdown_shows_and_survives_a_reload(shared: Server, browser: Any) -> None:
    t = shared.table([("Ann", None), ("Bob", "greedy")], seconds_per_decision=90)
    page = open_page(browser, t["seats"][0]["url"])
    page.wait_for_selector("#countdown:not([hidden])")

    def seconds_left() -> int:
        m = re.fullmatch(r"(\d+):(\d\d) left", page.inner_text("#countdown"))
        assert m, page.inner_text("#countdown")
        return int(m[1]) * 60 + int(m[2])

    first = seconds_left()
    assert 80 <= first <= 90
    page.wait_for_timeout(2500)
    page.reload()
    page.wait_for_selector("#countdown:not([hidden])")
    again = seconds_left()
    assert again <= first - 2, (first, again)  # it went on, it did not start again
    assert again >= first - 10
    page.context.close()


def test_events_are_paced_and_skip_shows_the_present(shared: Server, browser: Any) -> None:
    t = shared.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"], speed="1")
    # opening the page shows the present at once: the history is in the log, nothing is queued
    page.wait_for_selector(ANSWER)
    assert page.locator("#log p").count() >= 3
    assert page.get_attribute("body", "data-queue") == "0"
    paced = False
    for _ in range(12):  # answer until the others' round has to be played out
        page.locator(ANSWER).first.click()
        start = time.monotonic()
        page.wait_for_function(
            f"() => document.body.dataset.queue > 0 || !!document.querySelector('{ANSWER}')",
            timeout=10_000,
        )
        if page.get_attribute("body", "data-queue") == "0":
            continue
        queued = int(page.get_attribute("body", "data-queue") or 0)
        if queued < 4:  # too few to watch: skip them (unless they were shown meanwhile)
            with contextlib.suppress(PlaywrightError):
                page.click("#skip", timeout=2000)  # hidden once the queue is empty
            page.wait_for_selector(ANSWER)
            continue
        lines = page.locator("#log p").count()
        # The round is shown a few events at a time: watched in the page every 10 ms for 250 ms,
        # events are still queued all along. (An update that asks this page a question is shown in
        # full within 2 s of its coming (pacing.js, QUESTION_CATCH_UP): on a busy machine the
        # queue may be seen so late that it empties at once — then another round is tried.)
        seen = page.evaluate("""async () => { const out = [];
            for (let i = 0; i < 25; i++) { out.push(Number(document.body.dataset.queue));
                await new Promise((r) => setTimeout(r, 10)); }
            return out; }""")
        left = seen[-1]
        if left == 0:
            continue
        assert all(0 < x < queued + 5 for x in seen), (queued, seen)
        assert page.locator("#log p").count() < lines + queued
        assert time.monotonic() - start < 5
        try:
            page.click("#skip", timeout=2000)
        except PlaywrightError:  # the queue was shown in full meanwhile (a busy machine): again
            continue
        page.wait_for_function("() => document.body.dataset.queue === '0'", timeout=2000)
        assert page.locator("#skip").is_hidden()
        paced = True
        break
    assert paced, "no answer was followed by a round to play out"
    page.context.close()


def test_a_click_while_disconnected_is_kept_and_sent(tmp_path: Path, browser: Any) -> None:
    srv = Server(tmp_path / "jamaica.db").start()
    again: Server | None = None
    try:
        t = srv.table([("Ann", None), ("Bob", "greedy")])
        page = open_page(browser, t["seats"][0]["url"])
        page.wait_for_selector(ANSWER.replace("#question", '#question[data-early="false"]'))
        turn = int(page.get_attribute("#question", "data-turn") or -1)
        srv.kill()
        page.wait_for_selector("#status:has-text('reconnecting')")
        # a phone shows it too (its header hides the status of whose turn it is), at the top of
        # the screen however far the page is scrolled (the header may be out of sight)
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("() => window.scrollTo(0, 400)")
        box = page.locator("#status").bounding_box()
        assert box is not None and box["y"] == 0 and box["width"] == 390, box
        screenshot(page, "table-phone-offline")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator(ANSWER).first.click()
        assert "kept" in page.inner_text("#qnote")
        assert page.locator("#options button.picked").count() == 1
        again = Server(srv.db)
        again.port = srv.port
        again.start()
        page.wait_for_function(  # the answer went through: the game moved on
            "t => { const q = document.querySelector('#question');"
            " return (q.hidden || Number(q.dataset.turn) > t)"
            " && !document.body.classList.contains('offline'); }",
            arg=turn,
            timeout=20_000,
        )
        steps = again.get(f"/api/tables/{t['id']}/replay")["steps"]
        assert steps > turn
        page.context.close()
    finally:
        if again is not None:
            again.stop()
        srv.stop()


def test_move_options_say_what_each_destination_means(shared: Server, browser: Any) -> None:
    """A move question (the Captain steers the Ghost Ship, or a fork): each option says what
    arriving there means, in the rules' words — its cost (or "not paid"), a shortage, a battle."""
    t = shared.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"])
    end = time.monotonic() + 90
    while True:
        assert time.monotonic() < end, "no move question with a choice came"
        page.wait_for_selector(f"{ANSWER}, #scores", timeout=10_000)
        st = page.evaluate(STATE_JS)
        assert not st["over"]
        if st["kind"] == "move" and st["options"] > 1:
            break
        page.locator(ANSWER).first.click(timeout=2000, force=True)
        page.wait_for_function(TAKEN_JS, arg=st["turn"], timeout=10_000)
    extras = page.locator("#options .option-extra").all_inner_texts()
    assert len(extras) == st["options"]
    paid = r"\d+ (food|doubloons?), you have \d+"
    words = re.compile(rf"^(not paid|free|a treasure|the finish|{paid})")
    assert all(words.match(x) for x in extras), extras
    screenshot(page, "table-move-question")


# What a question is about, which a phone must show above the question pinned at the bottom.
ABOUT = {"card": "#board", "move": "#board", "attack": "#board", "dice_order": "#dice",
         "load": ".shipcard.mine", "pay": ".shipcard.mine", "spoils": "#ships"}  # fmt: skip
IN_SIGHT_JS = """([sel]) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const banner = document.querySelector('#banner');
  const top = banner.hidden ? 0 : banner.offsetHeight;
  const bottom = document.querySelector('#dock').getBoundingClientRect().top;
  return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1;
}"""


def test_a_phone_shows_what_each_question_is_about_above_it(shared: Server, browser: Any) -> None:
    """On a phone the question is pinned over the bottom of the page: a player's review found
    the board 35–80% under it while asked where to go or which card to play, and the page never
    scrolled. Now each new question brings what it is about — the board, the dice, your ship's
    holds, the ships — into the room between the banner and the question."""
    t = shared.table([("Ann", None), ("Bob", "greedy")])
    page = open_page(browser, t["seats"][0]["url"], "phone")
    seen: dict[str, int] = {}
    end = time.monotonic() + 90
    while time.monotonic() < end and not ({"card", "pay"} <= seen.keys() and len(seen) >= 3):
        page.wait_for_selector(f"{ANSWER}, #scores", timeout=10_000)
        st = page.evaluate(STATE_JS)
        if st["over"]:
            break
        if st["kind"] in ABOUT:
            try:
                page.wait_for_function(IN_SIGHT_JS, arg=[ABOUT[st["kind"]]], timeout=3000)
            except PlaywrightError:
                screenshot(page, f"table-phone-hidden-{st['kind']}")
                raise AssertionError(f"a {st['kind']} question hides {ABOUT[st['kind']]}") from None
            # the hand, in the pinned panel: for the cards, and for the morning die (which
            # depends on them); not over the board for anything else
            hand = page.locator("#hand-panel").is_visible()
            assert hand == (st["kind"] == "dice_order"), (st["kind"], hand)
            seen[st["kind"]] = seen.get(st["kind"], 0) + 1
            if seen[st["kind"]] == 1:
                screenshot(page, f"table-phone-sight-{st['kind']}")
        try:
            page.locator(ANSWER).first.click(timeout=2000, force=True)
        except PlaywrightError:  # the question changed under the click: look again
            continue
        page.wait_for_function(TAKEN_JS, arg=st["turn"], timeout=10_000)
    assert "card" in seen and len(seen) >= 2, seen  # a card a round, and holds or the board
    page.context.close()


def test_a_finger_sees_where_a_card_goes_before_it_plays_it(shared: Server, browser: Any) -> None:
    """A finger cannot point: on a phone, tapping a card played it at once, so no other card's
    way could be seen first (a player's review). A first tap now shows where the card takes the
    ship, on the board and in words; a second tap on the same card plays it."""
    t = shared.table([("Ann", None), ("Bob", "greedy")])
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)  # fmt: skip
    ctx.add_init_script("localStorage.setItem('jamaica.speed', '0')")
    page = ctx.new_page()
    page.goto(t["seats"][0]["url"])
    page.wait_for_selector(ANSWER)
    if page.get_attribute("#question", "data-kind") != "card":  # the Captain places the dice first
        page.locator(ANSWER).first.tap()
    cards = page.locator("#question:not([hidden]) .card.clickable:not([disabled])")
    cards.first.wait_for()
    turn = page.get_attribute("#question", "data-turn")
    # nothing looks chosen before a tap: the question has the focus, no card shows its way
    assert page.evaluate("() => document.activeElement.id") == "question"
    assert page.locator("#preview .preview-card").count() == 0
    second = cards.nth(1)
    faces = second.inner_text()
    second.tap()
    page.wait_for_selector("#options .card.armed")
    assert page.get_attribute("#question", "data-turn") == turn  # not played
    assert not page.locator("#question").is_hidden()
    preview = page.inner_text("#preview")
    assert "tap again to play" in preview, preview
    name = page.inner_text("#preview .preview-card b")  # the tapped card's, e.g. "Food / Forward"
    assert all(face.strip() in faces for face in name.split("/")), (name, faces)
    screenshot(page, "table-phone-card-tapped")
    page.locator("#ships").tap()  # a tap elsewhere: the card's way is gone, and so is its readiness
    assert page.locator("#options .card.armed").count() == 0
    second.tap()  # shows it again, does not play it
    page.wait_for_selector("#options .card.armed")
    assert page.get_attribute("#question", "data-turn") == turn
    second.tap()
    page.wait_for_function(TAKEN_JS, arg=turn, timeout=10_000)  # played
    # "Skip to now" comes and goes while the others play: it never changes the header's height
    header = "() => document.querySelector('header.bar').getBoundingClientRect().height"
    before = page.evaluate(header)
    page.evaluate("() => { const s = document.querySelector('#skip'); s.hidden = false;"
                  " s.textContent = 'Sauter au présent (12)'; }")  # fmt: skip
    assert page.evaluate(header) == before
    ctx.close()
