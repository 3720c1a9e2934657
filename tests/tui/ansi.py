"""A terminal screen as the terminal draws it: `tmux capture-pane -p -e` output (text and SGR
colour codes) parsed into a grid of cells, and that grid written as an HTML page — one
fixed-width run per style, the xterm 256-colour palette and 24-bit colour — for a browser to
screenshot. Everything the capture can say is understood; anything else is an error, not a guess."""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from rich.cells import get_character_cell_size

RGB = tuple[int, int, int]

# xterm's default 16 colours, then the 6×6×6 cube and the 24 greys of the 256-colour palette.
_BASIC: list[RGB] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip
_LEVELS = (0, 95, 135, 175, 215, 255)
PALETTE: list[RGB] = [
    *_BASIC,
    *((_LEVELS[i // 36], _LEVELS[i // 6 % 6], _LEVELS[i % 6]) for i in range(216)),
    *((8 + 10 * i,) * 3 for i in range(24)),
]
DEFAULT_FG: RGB = (229, 229, 229)  # the terminal's own colours, where the app sets none
DEFAULT_BG: RGB = (0, 0, 0)


@dataclass(frozen=True)
class Style:
    fg: RGB | None = None  # None: the terminal's default
    bg: RGB | None = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False
    strike: bool = False

    def colours(self) -> tuple[RGB, RGB]:
        """(foreground, background) as drawn: reverse swaps them, dim halves the way to the
        background."""
        fg, bg = self.fg or DEFAULT_FG, self.bg or DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        if self.dim:
            fg = (
                (fg[0] + bg[0]) // 2,
                (fg[1] + bg[1]) // 2,
                (fg[2] + bg[2]) // 2,
            )
        return fg, bg


@dataclass(frozen=True)
class Cell:
    char: str  # "" for the right half of a wide character
    style: Style


_TOKEN = re.compile(r"\x1b\[([0-9;:]*)m|\x1b|[^\x1b]")
_FLAGS = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "reverse", 9: "strike"}
_OFF = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 27: ("reverse",),
        29: ("strike",)}  # fmt: skip


def _colour(params: list[int], i: int) -> tuple[RGB, int]:
    """The extended colour at params[i:] (after 38 or 48) and how many numbers it took."""
    if params[i : i + 1] == [5] and len(params) > i + 1:
        return PALETTE[params[i + 1]], 2
    if params[i : i + 1] == [2] and len(params) > i + 3:
        r, g, b = params[i + 1 : i + 4]
        if max(r, g, b) > 255:
            raise ValueError(f"a colour out of range: {params}")
        return (r, g, b), 4
    raise ValueError(f"an extended colour not understood: {params}")


def _set(style: Style, **changes: Any) -> Style:
    return replace(style, **changes)


def sgr(style: Style, codes: str) -> Style:
    """The style after one Select Graphic Rendition sequence (ESC [ codes m)."""
    params = [int(p) if p else 0 for p in codes.replace(":", ";").split(";")]
    i = 0
    while i < len(params):
        p = params[i]
        i += 1
        if p == 0:
            style = Style()
        elif p in _FLAGS:
            style = _set(style, **{_FLAGS[p]: True})
        elif p in _OFF:
            style = _set(style, **dict.fromkeys(_OFF[p], False))
        elif 30 <= p <= 37 or 90 <= p <= 97:
            style = replace(style, fg=PALETTE[p - 30 if p < 90 else p - 82])
        elif 40 <= p <= 47 or 100 <= p <= 107:
            style = replace(style, bg=PALETTE[p - 40 if p < 100 else p - 92])
        elif p in (38, 48):
            colour, used = _colour(params, i)
            i += used
            style = _set(style, **{"fg" if p == 38 else "bg": colour})
        elif p == 39:
            style = replace(style, fg=None)
        elif p == 49:
            style = replace(style, bg=None)
        else:
            raise ValueError(f"an SGR code not understood: {p} in {codes!r}")
    return style


def parse(capture: str, width: int, height: int) -> list[list[Cell]]:
    """The screen's rows of exactly `width` cells (blank, in the terminal's default colours,
    where a line ends early). A line wider than the screen, more lines than it has, or an escape
    sequence other than SGR raise: the capture is not what a terminal of that size shows."""
    lines = capture.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > height:
        raise ValueError(f"{len(lines)} lines on a screen of {height}")
    style = Style()  # tmux carries the style over from one line to the next
    rows: list[list[Cell]] = []
    for n, line in enumerate(lines):
        row: list[Cell] = []
        for m in _TOKEN.finditer(line):
            if m.group(1) is not None:
                style = sgr(style, m.group(1))
            elif m.group() == "\x1b":
                raise ValueError(f"line {n + 1}: an escape sequence that is not SGR: {line!r}")
            else:
                size = get_character_cell_size(m.group())
                if size == 0:  # a combining mark rides on the cell before it
                    if not row:
                        raise ValueError(f"line {n + 1} starts with a combining character")
                    row[-1] = Cell(row[-1].char + m.group(), row[-1].style)
                    continue
                row.append(Cell(m.group(), style))
                row.extend(Cell("", style) for _ in range(size - 1))
        if len(row) > width:
            raise ValueError(f"line {n + 1} is {len(row)} cells wide on a screen of {width}")
        rows.append(row + [Cell(" ", Style())] * (width - len(row)))
    rows.extend([Cell(" ", Style())] * width for _ in range(height - len(rows)))
    return rows


def text(rows: list[list[Cell]]) -> str:
    """The plain text of the grid, trailing blanks dropped (as `capture-pane -p` gives it)."""
    return "\n".join("".join(c.char for c in row).rstrip() for row in rows)


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _css(style: Style) -> str:
    fg, bg = style.colours()
    css = f"color:{_hex(fg)};background:{_hex(bg)}"
    if style.bold:
        css += ";font-weight:bold"
    if style.italic:
        css += ";font-style:italic"
    lines = [n for n, on in (("underline", style.underline), ("line-through", style.strike)) if on]
    if lines:
        css += ";text-decoration:" + " ".join(lines)
    return css


FONT = "'DejaVu Sans Mono', 'Liberation Mono', monospace"


def to_html(rows: list[list[Cell]], font_px: int = 16, line_px: int = 19, pad_px: int = 8) -> str:
    """A page showing the grid as a terminal does: each run of cells in one style is an
    inline block exactly as many `ch` wide as it has cells and one line high, so a glyph from a
    fallback font can never shift the columns after it, and backgrounds meet without gaps. The
    page's `#screen` is the terminal's window (a margin of `pad_px` in the screen's commonest
    background, as a terminal pads its cells), `#grid` its cells, each row a `.row`, each run a
    `span`."""
    counts = Counter(c.style.colours()[1] for row in rows for c in row)
    margin = _hex(counts.most_common(1)[0][0]) if counts else _hex(DEFAULT_BG)
    out = []
    for row in rows:
        runs: list[tuple[Style, list[Cell]]] = []
        for cell in row:
            if runs and runs[-1][0] == cell.style:
                runs[-1][1].append(cell)
            else:
                runs.append((cell.style, [cell]))
        spans = "".join(
            f'<span style="width:{len(cells)}ch;{_css(style)}">'
            f"{html.escape(''.join(c.char for c in cells))}</span>"
            for style, cells in runs
        )
        out.append(f'<div class="row">{spans}</div>')
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        f"html,body{{margin:0;background:{margin}}}"
        f"#screen{{display:inline-block;padding:{pad_px}px;background:{margin}}}"
        f"#grid{{font:{font_px}px/{line_px}px {FONT};"
        "font-variant-ligatures:none;-webkit-font-smoothing:antialiased}"
        f".row{{height:{line_px}px;white-space:nowrap}}"
        f".row span{{display:inline-block;height:{line_px}px;vertical-align:top;white-space:pre;"
        "overflow:visible}"
        "</style></head><body><div id='screen'><div id='grid'>"
        + "".join(out)
        + "</div></div></body></html>"
    )
