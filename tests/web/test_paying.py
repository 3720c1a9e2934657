"""Paying (issue 24, item 6), in Chromium: the question panel of question.js drawn for real
payment questions of the engine (their prompt, view and pay_plans, as the server sends them).
Plans that leave the ship the same holds are one choice; each choice shows the holds it leaves,
and those are the holds the engine leaves after its answers; the prompt asks "from which holds?"
as the plans answer it. Screenshots at 1280×800 and 390×844 in tests/web/artifacts/."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from jamaica.rules.config import Config
from jamaica.rules.data import SLOTS, TREASURE_NAMES
from jamaica.rules.hints import pay_plans
from jamaica.rules.state import State

from ..rules.helpers import give_power, holds, place, round_, start
from .server import Server
from .shots import screenshot

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]
WORDS = {1: "food", 2: "gunpowder", 3: "doubloons"}


def food_for_a_sea_space() -> State:
    """Ann loads 5 food in the morning, then owes 3 food for space 2: her food is in four holds
    (3, 3, 2 and 5)."""
    hands = [("food-fwd", "gold-gold", "food-gun"), ("gold-gold", "food-gun", "fwd-fwd")]
    s = start(Config(2), captain=0, hands=hands)
    holds(s, 0, [("food", 3), ("food", 3), ("food", 2), ("gold", 2)])
    round_(s, (2, 5), 5, {0: "food-fwd", 1: "gold-gold"})
    return s


def gunpowder_for_a_battle() -> State:
    """Bob defends with 9 gunpowder from six holds (1, 2, 3, 4, 6 and the 6th Hold's 5)."""
    hands = [("fwd-fwd", "gold-gold", "food-gun"), ("gun-gold", "gold-gold", "food-gun")]
    s = start(Config(2), captain=0, hands=hands)
    place(s, 0, 3)
    place(s, 1, 6)
    give_power(s, 1, TREASURE_NAMES[3])
    holds(s, 1, [("powder", n) for n in (1, 2, 3, 4, 6)], sixth=("powder", 5))
    round_(s, (2, 3), 3, {0: "fwd-fwd"})
    s.apply("die 2")
    s.apply("powder 9")
    return s


SCENES = {"food": food_for_a_sea_space, "gunpowder": gunpowder_for_a_battle}


def update(s: State) -> dict[str, Any]:
    """The update the server sends the seat that pays (web/tables.py)."""
    who = s.current_player()
    d = s.pending(NAMES[: s.n])
    question = {
        "kind": d.kind,
        "prompt": d.prompt,
        "options": [
            {"action": str(a), "label": w} for a, w in zip(d.actions, d.options, strict=True)
        ],
        "context": d.context,
        "deadline": None,
        "deadline_at": None,
        "early": False,
        "plans": pay_plans(s),
    }
    return {"turn": len(s.history), "view": s.view(who), "question": question, "seat": who}


def left_after(s: State, actions: list[str]) -> list[tuple[int, int]]:
    """The payer's holds (type, count) once the engine has played a plan's answers."""
    who = s.current_player()
    t = s.clone()
    for a in actions:
        t.apply(a)
    assert t.decision_kind() != "pay" or t.current_player() != who
    base = who * SLOTS
    return [(t.hold_types[base + h], t.hold_counts[base + h]) for h in range(SLOTS)]


def same(left: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((k, n) for k, n in left if n))


PANEL = """async ({ u, names }) => {
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '/static/style.css';
  const loaded = new Promise((done) => { css.onload = done; });
  document.head.appendChild(css);
  await loaded;
  document.body.className = 'table-page';
  document.body.innerHTML = '<main class="table-grid"><div class="stage"></div><aside class="side">'
    + '<div id="dock"><div class="panel" id="question" hidden><h2 id="prompt"></h2>'
    + '<p id="qnote" class="qnote"></p><div id="options" role="group"></div>'
    + '<div id="preview"></div>'
    + '</div><div class="panel" id="hand-panel" hidden><div class="hand" id="hand"></div></div>'
    + '</div></aside></main>';
  const { QuestionPanel } = await import('/static/question.js');
  const $ = (id) => document.getElementById(id);
  window.acted = [];
  const panel = new QuestionPanel({ box: $('question'), prompt: $('prompt'), note: $('qnote'),
    options: $('options'), preview: $('preview'), hand: $('hand'), handPanel: $('hand-panel') },
    (actions) => window.acted.push(actions), () => {});
  panel.show(u, { view: u.view, names, seat: u.seat, layout: null });
}"""


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    srv = Server(tmp_path_factory.mktemp("paying") / "jamaica.db").start()
    try:
        yield srv.url + "/static/board-demo.html"
    finally:
        srv.stop()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_a_payment_offers_each_outcome_once_and_shows_the_holds_it_leaves(
    browser: Any, page_url: str, scene: str, size: tuple[int, int]
) -> None:
    s = SCENES[scene]()
    assert s.decision_kind() == "pay"
    u = update(s)
    plans = u["question"]["plans"]
    outcomes = Counter(same(left_after(s, p["actions"])) for p in plans)
    assert len(outcomes) < len(plans)  # some plans are the same to the player
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(page_url)
        page.wait_for_selector("body[data-drawn]")
        page.evaluate(PANEL, {"u": u, "names": NAMES[: s.n]})
        buttons = page.locator("#options button.option")
        assert buttons.count() == len(outcomes)
        prompt = page.inner_text("#prompt")
        assert prompt.endswith("— from which holds?") and "take one" not in prompt, prompt
        banner = page.evaluate(  # the banner's words (table.js) are the panel's
            "async ([p, n, plans]) => (await import('/static/words.js')).promptWords(p, n, plans)",
            [u["question"]["prompt"], NAMES[u["seat"]], plans],
        )
        assert banner == prompt, (banner, prompt)
        seen = set()
        filled = []
        for i in range(buttons.count()):
            b = buttons.nth(i)
            actions = b.get_attribute("data-action").split(";")
            left = left_after(s, actions)
            assert same(left) not in seen
            seen.add(same(left))
            filled.append(len(same(left)))
            # what the button says is left is what the engine leaves
            said = b.locator(".plan-words").inner_text()
            full = [f"{n} {WORDS[k]}" for k, n in left if n]
            assert said.startswith(", ".join(full)), (said, left)
            chips = b.locator(".plan-left .hold").all_inner_texts()
            shown = ["0" if "empty" in c else c.strip() for c in chips]
            assert shown == [str(n) for _, n in left[: len(chips)]]
            assert re.match(r"^Take \d+ from ", b.locator(".option-label").inner_text())
            # the button says the plainest way to that result: the fewest holds taken from
            group = [p for p in plans if same(left_after(s, p["actions"])) == same(left)]
            mine = next(p for p in plans if p["actions"] == actions)
            assert len(mine["taken"]) == min(len(p["taken"]) for p in group), (mine, group)
            assert b.bounding_box()["x"] + b.bounding_box()["width"] <= size[0]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0]
        screenshot(page, f"paying-{scene}-{'laptop' if size[0] > 900 else 'phone'}")
        assert filled == sorted(filled)  # those that empty the most holds first
        first = buttons.first.get_attribute("data-action").split(";")
        assert first in [p["actions"] for p in plans]
        buttons.first.click()
        assert page.evaluate("window.acted") == [first]
    finally:
        page.close()


def test_an_evening_that_depends_on_the_morning_route_says_after_which(
    browser: Any, page_url: str
) -> None:
    """Issue 24, item 8 in the browser: with 5 food on 30, forward 3 ends on 33 or (the inner
    channel) 39, and backward 6 then reaches 27 from either — a shortage only after 39. The
    card's preview lists both, each with the morning it follows, as the rules' hint says."""
    from jamaica.rules.hints import card_preview

    s = start(Config(2), hands=[("fwd-back", "fwd-fwd", "food-fwd"),
                                ("fwd-fwd", "gold-gold", "food-gun")])  # fmt: skip
    place(s, 0, 30)
    holds(s, 0, [("food", 5), ("gold", 3)])
    s.apply("roll 3-6")
    s.apply("morning 3")
    assert s.decision_kind() == "card" and s.current_player() == 0
    u = update(s)
    del u["question"]["plans"]
    u["question"]["preview"] = card_preview(s, 0)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(page_url)
        page.wait_for_selector("body[data-drawn]")
        page.evaluate(PANEL, {"u": u, "names": NAMES[: s.n]})
        page.locator("#options .card", has_text="Backward").first.hover()
        page.wait_for_selector("#preview .preview-card")
        evening = page.locator("#preview .preview-step").nth(1).inner_text()
        assert "after 33: space 27" in evening and "after 39: space 27" in evening, evening
        short = page.locator("#preview .dest.short").all_inner_texts()
        assert any(t.startswith("after 39: space 27") for t in short), short
        assert not any(t.startswith("after 33: space 27") for t in short), short
        screenshot(page, "preview-after-1280x800")
    finally:
        page.close()
