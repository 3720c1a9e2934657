"""Issue 26 at the table, in Chromium with a French browser (`locale="fr-FR"`): a whole game
against a bot played by answering the questions in the page, then its replay, at a laptop's and a
phone's size — the page's own words in French (the banner, the seats, the ships, the dice, the
hand, the log's rounds, the end, the replay's controls), none of its English left, nothing wider
than the screen and no text cut in the question, the hand and the log. The hello message asks the
server for French, and every fetch sends `Accept-Language: fr`: once the server says the events,
the questions and its errors in the reader's language, the log and the prompts are French too
(checked whenever the server answers a replay in French). By default the game stops as round 4
begins, and the later questions, the end of a race and a whole replay are read on stored and
finished tables (see ROUNDS); JAMAICA_SOAK=1 plays the whole game.

Screenshots: tests/web/artifacts/fr-table-*.png and fr-replay-*.png (git-ignored)."""

from __future__ import annotations

import re
import secrets
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config, State

from ..soak import soak
from .server import Server
from .shots import fits_screen, screenshot
from .test_table_page import ANSWER, STATE_JS, TAKEN_JS
from .test_two_worlds_server import NAMES, _random_until, _store

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
NNBSP = "\u202f"

# Text that is drawn cut: an element showing text of its own that is wider than its box while
# its overflow hides the rest (or ends it with an ellipsis), or that reaches outside the panel.
CUT_JS = """(selectors) => {
  const out = [];
  for (const root of document.querySelectorAll(selectors)) {
    if (root.hidden || !root.getClientRects().length) continue;
    const box = root.getBoundingClientRect();
    // read out but not shown (a phone hides a card's summary from the eye only): not cut
    const unseen = (x) => {
      for (; x && x !== root; x = x.parentElement) {
        const r = x.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return true;
      }
      return false;
    };
    for (const e of root.querySelectorAll('*')) {
      if (e.closest('.sr-only, svg') || !e.getClientRects().length || unseen(e)) continue;
      const own = [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
      if (!own) continue;
      const s = getComputedStyle(e);
      const text = e.textContent.trim().slice(0, 60);
      const clips = s.overflowX !== 'visible' || s.textOverflow === 'ellipsis';
      if (clips && e.scrollWidth > e.clientWidth + 1) {
        out.push(`${root.id}: cut: ${text}`);
      }
      const r = e.getBoundingClientRect();
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        out.push(`${root.id}: outside: ${text}`);
      }
    }
  }
  return out;
}"""

# The page's own words (not the server's sentences, nor the players' names and chat).
OWN_JS = """() => {
  const parts = ['header.bar', '#banner-main', '#seats', '#ships', '#dice', '#hand-panel', '#final',
    '#log-title', '#log .round-sep', '#chat-title', '#chat-form', '#since summary',
    '#question .qhint',
    '#preview .when', '#battle', '#replaced', '.replay-controls', '#rounds', '#chart-title',
    '#chart-note', '#where'];
  const texts = [];
  for (const sel of parts) for (const e of document.querySelectorAll(sel)) {
    if (e.getClientRects().length) texts.push(e.innerText);
    for (const a of e.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const k of ['aria-label', 'title', 'placeholder']) {
        if (a.getAttribute(k)) texts.push(a.getAttribute(k));
      }
    }
  }
  return texts.join('\\n');
}"""

# English the page used to say by itself: none of it may reach a French reader.
ENGLISH = [
    "Your turn", "Your hand", "Log", "Round", "Skip", "Sound", "Rules", "Lobby", "Chat", "Send",
    "Waiting", "Captain", "Morning", "Evening", "Winner", "Treasures", "Doubloons", "to go",
    "cards?", "Space", "watching", "open seat", "Final", "Ship", "Speed", "Step", "Start", "End",
    "Play", "Pause", "hold", "empty", "Battle", "firepower", "Say something", "Hide spectators",
    "Score over", "Before round", "step \\d+ of",
]  # fmt: skip
ENGLISH_RE = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b")
# The server's English sentences (the log, the prompts): gone once it speaks French.
SERVER_ENGLISH_RE = re.compile(r"\b(reveals|moves forward|moves backward|chooses a card|draws|"
                               r"begins|loads|pays|which|Choose)\b")  # fmt: skip


def _own_words(page: Any) -> str:
    return str(page.evaluate(OWN_JS))


def _nothing_cut(page: Any, where: str) -> None:
    fits_screen(page)
    cut = page.evaluate(CUT_JS, "#question, #hand-panel, #log, #options, #preview")
    assert cut == [], f"{where}: {cut}"


def _no_english(page: Any, where: str) -> str:
    # the Ghost Ship's name is the server's (French once it speaks French: checked at the end)
    own = _own_words(page).replace("the Ghost Ship", "")
    found = sorted({m.group(0) for m in ENGLISH_RE.finditer(own)})
    assert found == [], f"{where}: English left on the page: {found}\n{own}"
    loose = re.findall(r"\b(?:à|de) les? [A-ZÀ-Ý]\w*", page.inner_text("body"))  # "au", "du"
    assert loose == [], f"{where}: French not contracted: {loose}"
    return own


def _server_speaks_french(server: Server, table_id: str) -> bool:
    """Whether the server says a replay's events in French when asked (the lead's part of the
    issue: the events, the questions and the errors in the reader's language)."""
    req = urllib.request.Request(
        f"{server.url}/api/tables/{table_id}/replay?step=1", headers={"Accept-Language": "fr"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read().decode("utf-8")
    return "commence" in text or "manche" in text


def _open(browser: Any, url: str, size: str) -> Any:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
    ctx.add_init_script("localStorage.setItem('jamaica.speed', '0')")
    page = ctx.new_page()
    page.goto(url)
    return page


# By default the game against the bot is played until round ROUNDS begins (a whole game took 20 to
# 75 s, the server's dice being its own), and what comes later is checked on stored tables: each
# kind of question of LATER, asked of seat 0, and a finished game of two bots watched to its end,
# then its replay. With JAMAICA_SOAK=1 the game is whole, and its end and replay are checked.
ROUNDS = soak(4, None)
LATER = ("pay", "load", "powder", "spoils")
ROUND_JS = "r => document.querySelector('#log').textContent.includes('Manche ' + r)"


def _play_to_the_end(
    page: Any, size: str, seconds: float = 240, before_round: int | None = None
) -> set[str]:
    """Answer every question (any legal option, not always the first) until the scores show (or,
    with `before_round`, until the log says that round begins); the first time each kind of
    question is asked, check that nothing is cut and take a picture. Returns the kinds of
    questions met."""
    w, h = SIZES[size]
    seen: set[str] = set()
    answers = 0
    end = time.monotonic() + seconds
    while True:
        assert time.monotonic() < end, "the game did not finish"
        st = page.evaluate(STATE_JS)
        if st["over"] or (before_round and page.evaluate(ROUND_JS, before_round)):
            return seen
        if not st["options"]:
            page.wait_for_selector(f"{ANSWER}, #scores", timeout=15_000)
            continue
        kind = str(st["kind"])
        if kind not in seen:
            seen.add(kind)
            if kind == "card":  # where a card would take the ship
                page.locator("#options .card").first.hover()
                page.wait_for_selector("#preview .preview-card")
            assert page.inner_text("#banner-main") == "À toi"
            assert page.inner_text("#banner-detail").startswith(f"{NNBSP}:")
            assert page.title() == "▶ À toi — Jamaica"
            _nothing_cut(page, f"a {kind} question at {w}x{h}")
            _no_english(page, f"a {kind} question at {w}x{h}")
            screenshot(page, f"fr-table-{kind}-{w}x{h}")
        try:
            page.locator(ANSWER).nth(answers % st["options"]).click(timeout=2000, force=True)
        except Exception:  # the question changed under the click: look again
            continue
        answers += 1
        page.wait_for_function(TAKEN_JS, arg=st["turn"], timeout=10_000)


@pytest.mark.soak
@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_game_and_its_replay_in_french(tmp_path: Path, browser: Any, size: str) -> None:
    db, tokens = tmp_path / "jamaica.db", [secrets.token_urlsafe(16) for _ in NAMES]
    asked = {kind: _store_asked(db, kind, tokens) for kind in LATER}
    server = Server(db).start()
    try:
        bots = None if ROUNDS is None else server.table([("Barbe", "greedy"), ("Jack", "random")])
        t = server.table([("Anne", None), ("Barbe", "greedy")])
        page = _open(browser, t["seats"][0]["url"], size)
        page.wait_for_selector(ANSWER)
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.inner_text("#help-open") == "Règles"
        assert page.inner_text("#log-title") == "Journal"
        assert page.inner_text("#whoami") == "Tu es Anne"
        seats = page.inner_text("#seats")
        assert "1 spectateur" in seats or "0 spectateur" in seats
        assert "bot glouton" in page.inner_text("#seats")
        assert re.search(
            r"(Case \d+|Port Royal) · encore \d+ · 3 cartes", page.inner_text("#ships")
        )
        kinds = _play_to_the_end(page, size, before_round=ROUNDS)
        assert "card" in kinds
        if bots is None:  # the whole game: its end, then its replay
            _the_end(server, page, t["id"], size)
            assert "Tu es Anne" in page.inner_text("#whoami")
        else:  # the rounds so far, then what comes later on the stored tables
            assert f"Manche {ROUNDS}" in page.inner_text("#log")
            assert page.locator("#scores").count() == 0  # the rounds were played here
        page.context.close()
        for kind, table_id in asked.items():
            if kind not in kinds:
                _question(browser, f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}",
                          size, kind)  # fmt: skip
        if bots is not None:
            _finished(server, bots["id"])
            watch = _open(browser, f"{server.url}/table/{bots['id']}", size)
            _the_end(server, watch, bots["id"], size)
            watch.context.close()
        _replay(browser, server, t["id"] if bots is None else bots["id"], size)
    finally:
        server.stop()


def _store_asked(db: Path, kind: str, tokens: list[str]) -> str:
    """A stored two-player table (of seated players, as the server makes them) at a question of
    `kind` for seat 0, reached by a seeded random game; its id."""
    config = Config(2)
    for seed in range(1000):
        s = _random_until(config, seed, lambda x: x.is_terminal() or _asks(x, kind))
        if not s.is_terminal():
            _store(db, f"asked-{kind}", config, [int(a) for a in s.history], tokens)
            return f"asked-{kind}"
    raise AssertionError(f"no seeded game asked seat 0 a {kind} question")


def _asks(s: State, kind: str) -> bool:
    return s.current_player() == 0 and s.decision_kind() == kind


def _question(browser: Any, url: str, size: str, kind: str) -> None:
    """A question of `kind` in French at `size`: nothing cut, no English."""
    w, h = SIZES[size]
    page = _open(browser, url, size)
    page.wait_for_selector(ANSWER)
    assert page.get_attribute("#question", "data-kind") == kind
    assert page.inner_text("#banner-main") == "À toi"
    assert page.title() == "▶ À toi — Jamaica"
    _nothing_cut(page, f"a {kind} question at {w}x{h}")
    _no_english(page, f"a {kind} question at {w}x{h}")
    screenshot(page, f"fr-table-{kind}-{w}x{h}")
    page.context.close()


def _finished(server: Server, table_id: str, seconds: float = 120) -> None:
    end = time.monotonic() + seconds  # a bots' game: seconds, longer on a busy machine
    while not any(x["id"] == table_id and x["finished"] for x in server.get("/api/tables")):
        assert time.monotonic() < end, "the bots' game did not finish"
        time.sleep(0.2)


def _replay(browser: Any, server: Server, table_id: str, size: str) -> None:
    """The replay of a finished game: its start, round 3 and its end."""
    w, h = SIZES[size]
    replay = _open(browser, f"{server.url}/replay/{table_id}", size)
    replay.wait_for_selector("#rounds button")
    assert replay.title() == "Jamaica — revoir la partie"
    assert replay.inner_text("#chart-title") == "Le score au fil des manches"
    assert replay.get_attribute("#first", "title") == "Le début"
    assert replay.inner_text("#where").startswith("Avant la manche 1 · étape 0 sur ")
    _no_english(replay, f"the replay's start at {w}x{h}")
    fits_screen(replay)
    screenshot(replay, f"fr-replay-start-{w}x{h}")
    replay.click("#rounds button[data-round='3']")
    replay.wait_for_function(
        "() => document.querySelector('#where').textContent.startsWith('Manche 3')"
    )
    _no_english(replay, f"the replay's round 3 at {w}x{h}")
    _nothing_cut(replay, f"the replay's round 3 at {w}x{h}")
    screenshot(replay, f"fr-replay-round3-{w}x{h}")
    replay.click("#last")
    replay.wait_for_selector("#scores")
    _no_english(replay, f"the replay's end at {w}x{h}")
    _nothing_cut(replay, f"the replay's end at {w}x{h}")
    assert "Manche" in replay.inner_text("#log")
    if _server_speaks_french(server, table_id):
        assert not SERVER_ENGLISH_RE.search(replay.inner_text("#log"))
    screenshot(replay, f"fr-replay-end-{w}x{h}")
    replay.context.close()


def _the_end(server: Server, page: Any, table_id: str, size: str) -> None:
    """The end of the race, as the player sees it."""
    w, h = SIZES[size]
    page.wait_for_selector("#scores")
    fits_screen(page)
    own = _no_english(page, f"the end at {w}x{h}")
    assert re.search(rf"La course est finie\. Vainqueurs?{NNBSP}: ", page.inner_text("#winner"))
    assert page.locator("#scores th[scope=col]").all_inner_texts() == [
        "Navire", "Place", "Doublons", "Trésors", "Total"]  # fmt: skip
    assert "Manche 2" in page.inner_text("#log")
    for part in ("#scores", "#ships"):  # "−5", "(−2)": a minus sign, as the log and the help
        assert not re.search(r"-\d", page.inner_text(part)), page.inner_text(part)
    assert page.title() == "Partie finie — Jamaica"
    assert page.inner_text("#replay-link") == "Revoir la partie"
    assert "Tu " in own  # es Anne, or regardes
    page.locator("#log").evaluate("(e) => { e.scrollTop = e.scrollHeight; }")
    _nothing_cut(page, f"the end at {w}x{h}")
    screenshot(page, f"fr-table-end-{w}x{h}")
    page.locator("#final").scroll_into_view_if_needed()
    screenshot(page, f"fr-table-scores-{w}x{h}")
    if _server_speaks_french(server, table_id):  # the log is the server's words
        log = page.inner_text("#log")
        assert not SERVER_ENGLISH_RE.search(log), log[:2000]
        assert "Vaisseau fantôme" in page.inner_text("#scores")
