"""Ships told apart (issue 24, item 5): the six ship colours of board.js stay apart for every
colour vision, as a protanope, a deuteranope and a tritanope see them (Machado, Oliveira and
Fernandes 2009, full severity, on linear RGB) as well as with normal sight, measured in CIEDE2000;
none is near the Ghost Ship's black; each keeps its letters readable. In Chromium: ships that
share a space stand side by side as pawns, none over another, each with its letters, and every
ship's letters differ from the others'."""

from __future__ import annotations

import itertools
import json
import math
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .server import Server
from .shots import screenshot

BOARD_JS = Path(__file__).parents[2] / "src/jamaica/web/static/board.js"

# Linear-RGB matrices of a full dichromacy (Machado et al. 2009, severity 1.0).
VISIONS: dict[str, tuple[tuple[float, float, float], ...] | None] = {
    "normal": None,
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
# The least CIEDE2000 distance between any two ship colours, per vision (a distance of 2 is just
# noticeable side by side; Okabe and Ito's palette, used before, reached 22, 12, 16 and 12).
LEAST = {"normal": 30.0, "protanopia": 19.0, "deuteranopia": 19.0, "tritanopia": 19.0}


def palette() -> tuple[list[str], str]:
    text = BOARD_JS.read_text()
    colours = re.search(r"export const PALETTE = \[([^\]]*)\]", text)
    ghost = re.search(r'export const GHOST_COLOUR = "(#[0-9a-f]{6})"', text)
    assert colours and ghost
    return re.findall(r'"(#[0-9a-f]{6})"', colours[1]), ghost[1]


def _linear(hex_colour: str) -> list[float]:
    c = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]


def lab(hex_colour: str, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB (D65) of a colour as someone with `vision` sees it."""
    c = _linear(hex_colour)
    m = VISIONS[vision]
    if m is not None:
        c = [min(1.0, max(0.0, sum(m[i][j] * c[j] for j in range(3)))) for i in range(3)]
    r, g, b = c
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(p: tuple[float, float, float], q: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = p, q
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb**7 / (cb**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    lm, cm = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        hm = h1 + h2
    elif abs(h1 - h2) <= 180:
        hm = (h1 + h2) / 2
    else:
        hm = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hm - 30))
        + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6))
        - 0.20 * math.cos(math.radians(4 * hm - 63))
    )
    rt = (
        -2
        * math.sqrt(cm**7 / (cm**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2))))
    )
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cm, 1 + 0.015 * cm * t
    dl, dc, dhh = (l2 - l1) / sl, (c2 - c1) / sc, big_dh / sh
    return math.sqrt(dl**2 + dc**2 + dhh**2 + rt * dc * dhh)


def contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        r, g, bl = _linear(h)
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_ciede2000_of_the_reference_pairs() -> None:
    """Sharma, Wu and Dalal's test data (pairs 1, 7, 17 and 25)."""
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for p, q, want in pairs:
        assert ciede2000(p, q) == pytest.approx(want, abs=1e-4)


def test_six_colours_that_every_colour_vision_tells_apart() -> None:
    colours, ghost = palette()
    assert len(colours) == 6 and len(set(colours)) == 6
    for vision, least in LEAST.items():
        seen = {c: lab(c, vision) for c in [*colours, ghost]}
        for a, b in itertools.combinations(colours, 2):
            d = ciede2000(seen[a], seen[b])
            assert d >= least, f"{a} and {b} are {d:.1f} apart with {vision}"
        for c in colours:  # the Ghost Ship is black: no ship is nearly black
            assert ciede2000(seen[c], seen[ghost]) >= 25, (c, vision)
    # the seats fill in order: the fewer the players, the further apart their colours
    two = min(ciede2000(lab(colours[0], v), lab(colours[1], v)) for v in VISIONS)
    assert two >= 50
    # Mary Read's blue and Edward Drummond's light blue of old: now far apart
    for c in colours:
        assert max(contrast(c, "#000000"), contrast(c, "#ffffff")) >= 4.5, c  # letters on it


NAMES = ["Anne Bonny", "Mary Read", "Jack Rackham", "Edward Teach", "Ching Shih", "the Ghost Ship"]


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    srv = Server(tmp_path_factory.mktemp("colours") / "jamaica.db").start()
    try:
        yield srv.url + "/static/board-demo.html"
    finally:
        srv.stop()


SHIPS_JS = """() => [...document.querySelectorAll('svg.board .board-ship')].map((e) => {
  const t = e.querySelector('.board-ship-initials'), r = e.getBoundingClientRect();
  return { ship: +e.dataset.ship, space: +e.dataset.space, pawn: e.classList.contains('pawn'),
    box: [r.left, r.top, r.right, r.bottom], text: t ? t.textContent : '',
    px: t ? parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a : 0 };
})"""


def draw(browser: Any, bench: str, ships: list[tuple[int, int]], names: list[str]) -> Any:
    view = {"ships": [{"ship": k, "space": s, "ghost": names[k] == "the Ghost Ship"}
                      for k, s in ships], "lair_tokens": []}  # fmt: skip
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(bench + "#" + urllib.parse.quote(json.dumps({"view": view, "names": names})))
    page.wait_for_selector("body[data-drawn]")
    return page


@pytest.mark.parametrize("crowd", [2, 3, 4, 5, 6])
def test_ships_sharing_a_space_stand_side_by_side_with_their_letters(
    browser: Any, bench: str, crowd: int
) -> None:
    """On a sea space, a port and a lair: pawns that overlap nowhere, each with its letters
    (11 px or more at 1280×800 for up to four ships on a space)."""
    for space in (13, 16, 19):
        page = draw(browser, bench, [(k, space) for k in range(crowd)], NAMES)
        try:
            got = page.evaluate(SHIPS_JS)
            assert len(got) == crowd and all(s["pawn"] for s in got)
            for a, b in itertools.combinations(got, 2):
                (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
                overlap = min(r1, r2) - max(l1, l2), min(b1, b2) - max(t1, t2)
                # round pawns: their boxes may meet at a corner; their centres stay a diameter apart
                ca, cb = ((l1 + r1) / 2, (t1 + b1) / 2), ((l2 + r2) / 2, (t2 + b2) / 2)
                assert math.dist(ca, cb) >= (r1 - l1 + r2 - l2) / 2 - 1.5 or min(overlap) <= 0
            letters = [s["text"] for s in got]
            assert all(letters) and len(set(letters)) == crowd, letters
            if crowd <= 4:
                assert min(s["px"] for s in got) >= 11, got
            if space == 13 and crowd in (2, 3):
                screenshot(page, f"board-crowd-{crowd}")
        finally:
            page.close()


def test_every_ship_has_letters_of_its_own(browser: Any, bench: str) -> None:
    names = ["Anna", "Alice", "Bob", "Bot 1", "Bot 2", "the Ghost Ship"]
    page = draw(browser, bench, [(k, 12 + 3 * k) for k in range(6)], names)
    try:
        letters = {s["ship"]: s["text"] for s in page.evaluate(SHIPS_JS)}
        assert len(set(letters.values())) == 6, letters
        assert letters[2] == "B" and letters[3] == "B1" and letters[5] == "GS"
        assert {letters[0], letters[1]} == {"AN", "AL"}
        legend = page.locator(".board-legend-row .board-ship-initials").all_text_contents()
        assert legend == [letters[k] for k in range(6)]
    finally:
        page.close()
