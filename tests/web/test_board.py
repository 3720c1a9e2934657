"""The board (issue 11, item 2): the island map of layout.py, and board.js drawing it in Debian's
Chromium at 1280×800 and 390×844, through the test bench /static/board-demo.html (it draws the
view given as JSON in the URL's fragment). Screenshots go to $JAMAICA_ARTIFACTS (default
tests/web/artifacts/)."""

from __future__ import annotations

import json
import math
import os
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jamaica.rules.data import (
    FINISH_SCORE,
    NUM_SPACES,
    RED_LINE_SPACE,
    SPACE_COST,
    SPACE_NEXT,
    SPACE_SCORE,
    SPACE_TYPE,
    SPACE_TYPE_NAMES,
)
from jamaica.web.layout import board_layout

from .server import Server

ARTIFACTS = Path(os.environ.get("JAMAICA_ARTIFACTS", Path(__file__).parent / "artifacts"))
SIZES = [(1280, 800), (390, 844)]
NAMES = ["Anne Bonny", "Mary Read", "Jack Rackham", "Edward Teach", "Ching Shih", "the Ghost Ship"]

L = board_layout()
SPACES = L["spaces"]


def ship(k: int, space: int, ghost: bool = False) -> dict[str, Any]:
    return {"ship": k, "space": space, "ghost": ghost}


# --- the layout, without a browser -------------------------------------------------------------


Shape = tuple[float, float, float, float, float]


def _shape(s: dict[str, Any]) -> Shape:
    """A space as a rounded rectangle: centre, half width, half height, corner radius (a circle
    is a rounded square whose corners are half its side)."""
    return (s["x"], s["y"], s["w"] / 2, s["h"] / 2, s["rx"])


def _disc(x: float, y: float, r: float) -> Shape:
    return (x, y, r, r, r)


def _gap(a: Shape, b: Shape) -> float:
    """The sea between two shapes (negative if they overlap)."""
    dx = max(abs(a[0] - b[0]) - (a[2] - a[4]) - (b[2] - b[4]), 0)
    dy = max(abs(a[1] - b[1]) - (a[3] - a[4]) - (b[3] - b[4]), 0)
    return math.hypot(dx, dy) - a[4] - b[4]


def test_the_layout_is_the_board_of_the_rules() -> None:
    assert len(SPACES) == NUM_SPACES
    for s in SPACES:
        k = s["id"]
        assert s["type"] == SPACE_TYPE_NAMES[SPACE_TYPE[k]]
        assert s["cost"] == SPACE_COST[k]
        assert s["next"] == list(SPACE_NEXT[k])
        assert s["score"] == (SPACE_SCORE[k] if SPACE_SCORE[k] > 0 else None)
        assert sorted(s["prev"]) == sorted(p for p in range(NUM_SPACES) if k in SPACE_NEXT[p])
    assert L["port_royal"]["score"] == FINISH_SCORE == 15
    assert L["red_line_after"] == RED_LINE_SPACE
    assert L["red_line"]["before"] == SPACE_NEXT[RED_LINE_SPACE][0]
    assert [(f["at"], f["outer"], f["inner"], f["merge"]) for f in L["forks"]] == [
        (6, [7, 8, 9, 10, 11, 12], [13, 14], 15),
        (19, [20, 21, 22, 23, 24, 25], [26, 27], 28),
        (32, [33, 34, 35, 36, 37, 38], [39, 40], 41),
    ]


def test_no_two_spaces_touch_and_everything_is_on_the_board() -> None:
    shapes = [_shape(s) for s in SPACES]
    for i in range(NUM_SPACES):
        for j in range(i + 1, NUM_SPACES):
            assert _gap(shapes[i], shapes[j]) >= 2.5, (i, j)
    marks = [_disc(*s["score_at"], L["badge_r"]) for s in SPACES if s["score_at"]]
    marks.append(_disc(*L["red_line"]["label_at"], 21))
    for m in marks:
        for sh in shapes:
            assert _gap(m, sh) >= 2, (m, sh)
    for a in range(len(marks)):
        for b in range(a + 1, len(marks)):
            assert _gap(marks[a], marks[b]) >= 2
    for x, y, hw, hh, _ in shapes + marks:
        assert hw <= x <= L["width"] - hw and hh <= y <= L["height"] - hh, (x, y)
    pr = L["port_royal"]  # its 15 is a star on the harbour's top left corner
    assert pr["x"] - pr["w"] / 2 - 10 > 0 and pr["y"] - pr["h"] / 2 - 30 > 0


def _coast(path: str) -> list[tuple[float, float]]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return list(zip(nums[0::2], nums[1::2], strict=True))


def _inside(p: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_islands_keep_clear_of_the_track_and_each_outer_lane_goes_round_its_island() -> None:
    main, *outer = L["islands"]
    assert main["kind"] == "main" and [i["fork"] for i in outer] == [1, 2, 3]
    for isl in L["islands"]:
        for p in _coast(isl["path"]):
            for s in SPACES[1:]:  # Port Royal is a town on the main island's shore
                assert math.dist(p, (s["x"], s["y"])) > s["w"] / 2 + 2, (isl["name"], s["id"])
    for isl, fork in zip(outer, L["forks"], strict=True):
        ring = [fork["at"], *fork["outer"], fork["merge"], *reversed(fork["inner"])]
        poly = [(SPACES[k]["x"], SPACES[k]["y"]) for k in ring]
        assert all(_inside(p, poly) for p in _coast(isl["path"])), isl["name"]
    coast = _coast(main["path"])
    lg = L["legend"]
    for corner in [(lg["x"], lg["y"]), (lg["x"] + lg["w"], lg["y"] + 12 + 6 * lg["row"] + 6)]:
        assert _inside(corner, coast)  # the legend is a chart on the island, big enough for six


def test_the_race_runs_clockwise_from_port_royal_at_the_bottom() -> None:
    lap, here = [0], SPACE_NEXT[0][0]
    while here != 0:
        lap.append(here)
        here = SPACE_NEXT[here][-1]  # the inner channels: the shortest lap
    assert len(lap) == 32
    pts = [(SPACES[k]["x"], SPACES[k]["y"]) for k in lap]
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True))
    assert area > 0  # with y pointing down: clockwise on the screen
    assert SPACES[0]["y"] > L["height"] * 0.75


# --- in a browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    srv = Server(tmp_path_factory.mktemp("board") / "jamaica.db").start()
    try:
        yield srv.url + "/static/board-demo.html"
    finally:
        srv.stop()


def open_board(browser: Any, url: str, size: tuple[int, int], **spec: Any) -> Any:
    """The test bench drawing `spec` (view, names, targets, hints, lastMoves, animate), with
    no script error and nothing refused by the Content-Security-Policy (Chromium says so on the
    console)."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url + "#" + urllib.parse.quote(json.dumps(spec)))
    page.wait_for_selector("body[data-drawn]")
    assert errors == []
    return page


SCENES = {
    # ships on every kind of space, alone
    "apart": [ship(0, 12), ship(1, 41), ship(2, 9), ship(3, 21), ship(4, 0), ship(5, 45, True)],
    # crowds: four on a sea space, two on a port, the rest in Port Royal
    "crowds": [ship(0, 13), ship(1, 13), ship(2, 13), ship(3, 13), ship(4, 16), ship(5, 16, True)],
    "start": [ship(k, 0, k == 5) for k in range(6)],
    "three": [ship(0, 38), ship(1, 38), ship(2, 38), ship(3, 44), ship(4, 44), ship(5, 44, True)],
}

BOXES = """() => {
  const svg = document.querySelector('svg.board');
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const m = svg.getScreenCTM();
  return {
    svg: box(svg),
    ships: [...svg.querySelectorAll('.board-ship')].map((e) => ({
      ship: +e.dataset.ship, space: +e.dataset.space, box: box(e),
      fill: e.querySelector('.board-ship-sail').getAttribute('fill'),
      ink: e.querySelector('.board-ship-initials').getAttribute('fill'),
      text: e.querySelector('.board-ship-initials').textContent })),
    spaces: [...svg.querySelectorAll('.board-space')].map((e) => ({
      id: +e.dataset.space, box: box(e.querySelector('.board-space-shape')) })),
    scale: m.a, origin: [m.e, m.f],
  };
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", list(SCENES))
def test_every_ship_stands_inside_its_own_space(
    browser: Any,
    bench: str,
    size: tuple[int, int],
    scene: str,
) -> None:
    page = open_board(
        browser, bench, size, view={"ships": SCENES[scene], "lair_tokens": []}, names=NAMES
    )
    try:
        got = page.evaluate(BOXES)
        spaces = {s["id"]: s["box"] for s in got["spaces"]}
        k, (ox, oy) = got["scale"], got["origin"]
        assert len(got["ships"]) == 6
        for sh in got["ships"]:
            s = SPACES[sh["space"]]
            # the space's shape is where the layout says, and the token is inside it
            cx, cy = ox + k * s["x"], oy + k * s["y"]
            l, t, r, b = spaces[s["id"]]  # noqa: E741
            assert abs((l + r) / 2 - cx) < 1 + 3 * k and abs((t + b) / 2 - cy) < 1 + 3 * k
            sl, st, sr, sb = sh["box"]
            assert l - 0.5 <= sl and sr <= r + 0.5 and t - 0.5 <= st and sb <= b + 0.5, (
                sh,
                s["id"],
            )
            if s["shape"] == "circle":  # not merely in the circle's box: in the circle
                for px, py in [((sl + sr) / 2, st), (sl, (st + sb) / 2), (sr, (st + sb) / 2)]:
                    assert math.dist((px, py), (cx, cy)) <= k * s["w"] / 2 + 1
            mx, my = (sl + sr) / 2, (st + sb) / 2
            nearest = min(
                SPACES, key=lambda q: math.dist((mx, my), (ox + k * q["x"], oy + k * q["y"]))
            )
            assert nearest["id"] == s["id"]
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_spaces_do_not_overlap_on_the_screen(
    browser: Any,
    bench: str,
    size: tuple[int, int],
) -> None:
    page = open_board(browser, bench, size, view={"ships": SCENES["apart"]}, names=NAMES)
    try:
        got = page.evaluate(BOXES)
        shapes = []
        for s in got["spaces"]:
            left, top, right, bottom = s["box"]
            hw, hh = (right - left) / 2, (bottom - top) / 2
            corner = min(SPACES[s["id"]]["rx"] * got["scale"], hw)
            shapes.append((left + hw, top + hh, hw, hh, corner))
        assert len(shapes) == NUM_SPACES
        for i in range(len(shapes)):
            for j in range(i + 1, len(shapes)):
                assert _gap(shapes[i], shapes[j]) > 0, (
                    got["spaces"][i]["id"],
                    got["spaces"][j]["id"],
                )
    finally:
        page.close()


TEXTS = """() => [...document.querySelectorAll('svg.board text')]
  .filter((e) => e.textContent.trim() && e.getBBox().width > 0)
  .map((e) => ({ text: e.textContent, cls: e.getAttribute('class'),
    px: parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a }))"""


def test_every_text_on_the_board_is_at_least_11_px_at_1280(
    browser: Any,
    bench: str,
) -> None:
    """Up to four ships on a space (five or six on one space other than Port Royal, rare, show
    one letter each at 12 units)."""
    for scene in ("apart", "crowds", "three", "start"):
        page = open_board(
            browser,
            bench,
            (1280, 800),
            view={"ships": SCENES[scene], "lair_tokens": [4, 9]},
            names=NAMES,
            targets=[14, 15],
            hints={"14": "4 food", "15": "3 food · battle"},
            lastMoves={"0": [6, 13]},
        )
        try:
            texts = page.evaluate(TEXTS)
            assert len(texts) > 100
            small = [t for t in texts if t["px"] < 11]
            assert small == [], small[:5]
        finally:
            page.close()


def test_on_a_phone_costs_and_scores_stay_readable(browser: Any, bench: str) -> None:
    """At 390 px the whole board is about 380 px wide: the costs, scores and marks a player reads
    are drawn larger there (a media query), about 11 px."""
    page = open_board(browser, bench, (390, 844), view={"ships": SCENES["apart"]}, names=NAMES)
    try:
        texts = page.evaluate(TEXTS)
        sizes: dict[str, float] = {}
        for t in texts:
            cls = (t["cls"] or "").split()[0]
            sizes[cls] = min(sizes.get(cls, 99.0), t["px"])
        for cls in ("board-cost", "board-score-text", "board-pr-score", "board-minus5-text"):
            assert sizes[cls] >= 8, (cls, sizes[cls])
        assert sizes["board-cost"] >= 10.5
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()


FITS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const within = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
    && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const out = [];
  const check = (what, inner, outer) => { if (!within(box(inner), box(outer))) out.push(what); };
  for (const m of document.querySelectorAll('[data-marks-for]')) {
    const id = m.dataset.marksFor;
    const shape = document.querySelector(`#space-${id} .board-space-shape`);
    for (const t of m.querySelectorAll('text:not(.board-pr-score)')) {
      check(`space ${id}: ${t.textContent}`, t, shape);
    }
  }
  const paper = document.querySelector('.board-legend-paper');
  for (const t of document.querySelectorAll('.board-legend-name')) {
    check(`legend: ${t.textContent}`, t, paper);
  }
  for (const h of document.querySelectorAll('.board-hint')) {
    check(`hint ${h.dataset.hintFor}`, h.querySelector('text'), h.querySelector('rect'));
  }
  for (const b of document.querySelectorAll('.board-score')) {
    check(`score ${b.dataset.scoreFor}`, b.querySelector('text'), b.querySelector('circle'));
  }
  const svg = document.querySelector('svg.board');
  for (const t of svg.querySelectorAll('text')) {
    if (t.textContent) check(`board: ${t.textContent}`, t, svg);
  }
  return out;
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_label_fits_where_it_belongs(
    browser: Any,
    bench: str,
    size: tuple[int, int],
) -> None:
    long = "Captain Bartholomew Roberts, the Terror of the Seven Seas"
    page = open_board(
        browser,
        bench,
        size,
        view={"ships": SCENES["apart"], "lair_tokens": [4, 9, 44], "captain": 0},
        names=[long, *NAMES[1:]],
        targets=[1, 45, 49],
        hints={"1": "2 food", "45": "7 doubloons · battle with Mary Read", "49": "3 food"},
    )
    try:
        assert page.evaluate(FITS) == []
        first = page.locator(".board-legend-name").first.text_content()
        assert first.endswith("… (captain)") and first.startswith("Captain B")
        assert page.locator(".board-legend-row title").first.text_content().startswith(long)
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_port_royal_shows_15_and_the_red_line_its_minus_5(
    browser: Any,
    bench: str,
    size: tuple[int, int],
) -> None:
    page = open_board(browser, bench, size, view={"ships": SCENES["start"]}, names=NAMES)
    try:
        svg = page.locator("svg.board").bounding_box()
        marks = [
            (".board-pr-score", "15"),
            (".board-minus5-text", "−5"),
            (".board-red-line-stroke", None),
            (".board-pr-name", "Port Royal"),
        ]
        for selector, text in marks:
            item = page.locator(f"svg.board {selector}")
            assert item.count() == 1
            if text is not None:
                assert item.text_content() == text
            b = item.bounding_box()
            assert b["width"] > 0 and b["height"] > 0
            assert svg["x"] <= b["x"] and b["x"] + b["width"] <= svg["x"] + svg["width"], selector
            assert svg["y"] <= b["y"] and b["y"] + b["height"] <= svg["y"] + svg["height"], selector
        scores = page.locator("svg.board .board-score-text").all_text_contents()
        assert scores == [str(n) for n in range(2, 11)]
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    finally:
        page.close()


def _contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        c = [int(h[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_ship_colours_the_black_ghost_ship_and_readable_initials(browser: Any, bench: str) -> None:
    page = open_board(browser, bench, (1280, 800), view={"ships": SCENES["apart"]}, names=NAMES)
    try:
        ships = {s["ship"]: s for s in page.evaluate(BOXES)["ships"]}
        assert ships[5]["fill"] == "#111111"  # the Ghost Ship is black
        outline = page.locator(".board-ship.ghost .board-ship-sail").evaluate(
            "e => getComputedStyle(e).stroke"
        )
        assert outline == "rgb(230, 237, 242)"  # with a light outline on the dark sea
        fills = [ships[k]["fill"] for k in range(6)]
        assert len(set(fills)) == 6
        for s in ships.values():
            assert _contrast(s["fill"], s["ink"]) >= 4.5, s
        assert [ships[k]["text"] for k in range(6)] == ["AB", "MR", "JR", "ET", "CS", "GS"]
        # every colour of the palette, with or without a Ghost Ship, keeps its initials readable
        colours = page.evaluate("""async () => {
            const m = await import('/static/board.js');
            const pair = (c) => [c, m.inkOn(c)];
            return [0, 1, 2, 3, 4, 5].map((k) => pair(m.shipColor(k, false)))
              .concat([pair(m.shipColor(3, true))]); }""")
        assert colours[-1][0] == "#111111"
        assert all(_contrast(c, ink) >= 4.5 for c, ink in colours)
        legend = page.locator(".board-legend-name").all_text_contents()
        assert legend == NAMES
    finally:
        page.close()


def test_tooltips_labels_treasure_tokens_trails_and_hints(browser: Any, bench: str) -> None:
    page = open_board(
        browser,
        bench,
        (1280, 800),
        view={"ships": [ship(0, 12), ship(1, 15), ship(2, 15)], "lair_tokens": [4, 22]},
        names=["Ann", "Bob", "Cy"],
        targets=[16, 17],
        hints={"16": "3 doubloons"},
        lastMoves={"0": [6, 12], "1": {"from": 6, "to": 15}, "2": [14, 15]},
    )
    try:
        titles = page.locator("svg.board .board-space > title").all_text_contents()
        assert len(titles) == NUM_SPACES
        by_id = {
            int(s): page.locator(f"#space-{s} > title").text_content()
            for s in (0, 4, 9, 15, 16, 45)
        }
        assert "Port Royal" in by_id[0] and "15" in by_id[0]
        assert "Pirate lair" in by_id[4] and "a treasure token lies here" in by_id[4]
        assert "no treasure token left" in by_id[9]
        assert "Sea" in by_id[15] and "3 food" in by_id[15] and "Bob, Cy" in by_id[15]
        assert "−5" in by_id[15]
        assert "Port" in by_id[16] and "3 doubloons" in by_id[16]
        assert "scores 6" in by_id[45]
        assert (
            page.locator("#space-4").get_attribute("aria-label").startswith("Space 4: Pirate lair")
        )
        assert page.locator(".board-token").evaluate_all("ts => ts.map(t => +t.dataset.token)") == [
            4,
            22,
        ]
        trails = dict(
            page.locator(".board-trail").evaluate_all(
                "ts => ts.map(t => [t.dataset.ship, t.dataset.path])"
            )
        )
        assert trails == {"0": "6 7 8 9 10 11 12", "1": "6 13 14 15", "2": "14 15"}
        assert page.locator(".board-hint[data-hint-for='16']").text_content() == "3 doubloons"
        assert page.locator(".board-space.target").count() == 2
    finally:
        page.close()


def test_targets_are_picked_by_mouse_and_keyboard(browser: Any, bench: str) -> None:
    page = open_board(
        browser, bench, (390, 844), view={"ships": [ship(0, 6)]}, names=["Ann"], targets=[7, 13]
    )
    try:
        targets = page.locator(".board-space.target")
        assert targets.evaluate_all("ts => ts.map(t => t.getAttribute('tabindex'))") == ["0", "0"]
        page.locator("#space-13").click()
        page.wait_for_selector("body[data-picked='13']")
        page.locator(".board-ship[data-ship='0']").click()  # a ship on a destination: no target
        page.wait_for_timeout(100)
        assert page.get_attribute("body", "data-picked") == "13"
        for _ in range(10):  # the keyboard alone: Tab to a target, Enter, then Space on the other
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.space") == "7":
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-picked='13 7']")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.space") == "13"
        page.keyboard.press(" ")
        page.wait_for_selector("body[data-picked='13 7 13']")
        assert page.evaluate("window.scrollX") == 0
    finally:
        page.close()


def test_targets_without_on_pick_are_only_shown(browser: Any, bench: str) -> None:
    page = open_board(
        browser,
        bench,
        (1280, 800),
        view={"ships": [ship(0, 6)]},
        names=["Ann"],
        targets=[7, 13],
        hints={"7": "2 food"},
        inert=True,
    )
    try:
        assert page.locator(".space.target").count() == 0
        previews = page.locator(".board-space.preview")
        assert previews.evaluate_all("ts => ts.map(t => [t.dataset.space, t.tabIndex])") == [
            ["7", -1],
            ["13", -1],
        ]
        assert page.locator(".board-target-ring").count() == 2
        assert page.locator(".board-hint").text_content() == "2 food"
        page.locator("#space-13").dispatch_event("click")
        page.wait_for_timeout(100)
        assert page.get_attribute("body", "data-picked") is None
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_flash_space_calls_out_a_battle_then_fades(
    browser: Any, bench: str, size: tuple[int, int]
) -> None:
    flashes = [
        {"space": 9, "text": "Battle! Ann attacks Bob", "kind": "battle"},
        {"space": 30, "text": "Shortage", "kind": "shortage", "ms": 300},
    ]
    page = open_board(
        browser,
        bench,
        size,
        view={"ships": [ship(0, 9), ship(1, 9)]},
        names=["Ann", "Bob"],
        flash=flashes,
    )
    try:
        # the pages' own style sheet too: its battle panel (`.panel.battle`) once also matched
        # the flash's `battle` class and moved every battle call-out half a board up and left
        page.add_style_tag(url="/static/style.css")
        battle = page.locator(".board-flash.battle[data-flash-for='9']")
        assert battle.text_content() == "Battle! Ann attacks Bob"
        box, svg = battle.bounding_box(), page.locator("svg.board").bounding_box()
        assert svg["x"] <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"]
        ring = page.locator(".board-flash.battle .board-flash-ring").bounding_box()
        space = page.locator(".board-space[data-space='9'] .board-space-shape").bounding_box()
        centre = (ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2)
        assert space["x"] <= centre[0] <= space["x"] + space["width"]
        assert space["y"] <= centre[1] <= space["y"] + space["height"]
        page.wait_for_selector(".board-flash.shortage", state="detached", timeout=3000)
        assert battle.count() == 1
    finally:
        page.close()


@pytest.mark.parametrize(
    ("path", "through", "never"),
    [
        ([5, 6, 7, 8, 9, 10], [6, 7, 8, 9], 14),  # the outer lane, space by space
        ([5, 15], [6, 13, 14], 9),  # from here to there: the track's shortest way, by the channel
        ([16, 15, 14, 13], [15, 14], 11),  # backward
    ],
)
def test_a_ship_glides_space_by_space_through_its_own_fork_lane(
    browser: Any,
    bench: str,
    path: list[int],
    through: list[int],
    never: int,
) -> None:
    page = open_board(
        browser,
        bench,
        (1280, 800),
        view={"ships": [ship(0, path[-1]), ship(1, 12)]},
        names=["Ann", "Bob"],
        # slow steps: the test sees the ship once a frame, and a machine busy with the suite's
        # other workers may draw few frames (at 220 ms a step, one run missed a space)
        animate={"ship": 0, "path": path, "stepMs": 600},
    )
    try:
        page.wait_for_selector("body[data-animated='done']")
        seen = json.loads(page.get_attribute("#animated", "data-trace") or "[]")
        pts = []
        for t in seen:
            m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", t or "")
            if m:
                pts.append((float(m[1]), float(m[2])))
        assert len(set(pts)) > 6  # it moved in many small steps, not one jump

        def near(k: int) -> float:
            return min(math.dist(p, (SPACES[k]["x"], SPACES[k]["y"])) for p in pts)

        for k in through:
            assert near(k) < SPACES[k]["w"] / 2, k
        assert near(never) > SPACES[never]["w"]
        end = page.locator(".board-ship[data-ship='0']")
        assert end.get_attribute("transform") == (
            f"translate({end.get_attribute('data-x')},{end.get_attribute('data-y')}) "
            f"scale({end.get_attribute('data-s')})"
        )
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_the_board(browser: Any, bench: str, size: tuple[int, int]) -> None:
    """Saved for a person to look at: a game under way, with a move to choose."""
    page = open_board(
        browser,
        bench,
        size,
        view={
            "ships": [ship(0, 12), ship(1, 41), ship(2, 41), ship(3, 9), ship(4, 0, True)],
            "lair_tokens": [4, 11, 22, 25, 33, 37, 44],
            "captain": 1,
        },
        names=["Anne Bonny", "Mary Read", "Jack Rackham", "Edward Teach", "the Ghost Ship"],
        targets=[13, 7],
        hints={"13": "3 food", "7": "2 food · battle"},
        lastMoves={"0": [6, 12], "1": [38, 41], "2": [39, 40, 41]},
    )
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"board-{size[0]}x{size[1]}.png"), full_page=True)
    finally:
        page.close()
