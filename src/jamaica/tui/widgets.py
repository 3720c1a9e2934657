"""Two small widgets sized to the terminal: a panel drawn for its width, and the log's tail."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.geometry import Size
from textual.widget import Widget

from ..i18n import Words
from ..rules.phrases import N_

Draw = Callable[[int], Text]


# No-break spaces (French puts a narrow one before : ; ! ?) that rich's wrapping takes for any
# space: "pénurie" / "!" on two lines. Held as one-cell private-use characters while wrapping.
_NO_BREAK: Final = {"\u202f": "\ue000", "\u00a0": "\ue001"}
_HOLD: Final = str.maketrans(_NO_BREAK)
_RELEASE: Final = str.maketrans({held: space for space, held in _NO_BREAK.items()})


def wrapped(text: Text, width: int, console: Console) -> list[Text]:
    """`text` in lines of at most `width` cells, broken between words (or inside a word longer
    than the line), never at a no-break space."""
    if width <= 0:
        return []
    if not any(ch in text.plain for ch in _NO_BREAK):
        return list(text.wrap(console, width, overflow="fold"))
    held = text.copy()
    held.plain = held.plain.translate(_HOLD)  # as long: the styles stay
    lines = list(held.wrap(console, width, overflow="fold"))
    for line in lines:
        line.plain = line.plain.translate(_RELEASE)
    return lines


# Textual's toasts sit in a rack that scrolls, with a scrollbar's column kept free on the right:
# a toast then left the screen's last column showing what was under it (a stray letter).
TOAST_CSS = "ToastRack { scrollbar-size-vertical: 0; }"


class Drawn(Widget):
    """A panel whose text is drawn for its current width (`draw(width)`), wrapped to it, and
    drawn again when the terminal is resized; its height is the number of lines."""

    DEFAULT_CSS = "Drawn { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._draw: Draw = lambda width: Text()

    def show(self, draw: Draw) -> None:
        self._draw = draw
        self.refresh(layout=True)

    def lines(self, width: int) -> list[Text]:
        return wrapped(self._draw(width), width, self.app.console)

    def text(self) -> str:
        """What the panel shows, as plain text (for tests)."""
        return "\n".join(line.plain for line in self.lines(max(1, self.content_size.width)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width))


class LogView(Widget):
    """The newest lines of the log that fit, each wrapped to the width (re-wrapped after a
    resize), the newest at the bottom; no scrollbar. The whole log is on its own screen."""

    DEFAULT_CSS = "LogView { height: 1fr; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: list[Text] = []
        self.kept: list[int] = []  # entries the reader must see (their ship's battles…)
        self.more = Text("…", style="dim")  # said where entries are left out

    def set_entries(self, entries: Sequence[Text], kept: Sequence[int] = (),
                    more: Text | None = None) -> None:  # fmt: skip
        """The log's entries; `kept`: the indexes of those the reader has not seen yet and must
        (what befell their ship while others played), kept in view above the newest even when
        more came after them than the panel holds; `more`: the line that says some were left
        out between."""
        self.entries = list(entries)
        self.kept = sorted(k for k in kept if 0 <= k < len(self.entries))
        if more is not None:
            self.more = more
        self.refresh()

    def view(self, width: int, height: int) -> list[Text]:
        """What the panel shows: the newest entries that fit (`tail`); if a kept entry is older
        than all of them, the kept entries first (the newest of them that fit, the newest entry
        of the log always left room below), then `more`, then the newest entries that fit in the
        rest. A review saw a battle that took the player's 4 food scroll out of the panel before
        their next question."""
        newest, first = self._tail(width, height)
        missed = [k for k in self.kept if k < first]
        if not missed or height < 3:
            return newest
        last = len(wrapped(self.entries[-1], width, self.app.console))
        top: list[Text] = []
        for k in reversed(missed):  # the newest kept ones first, the newest entry kept whole
            lines = wrapped(self.entries[k], width, self.app.console)
            if len(top) + len(lines) > height - 1 - last:
                break
            top[:0] = lines
        if not top:
            return newest
        rest, _ = self._tail(width, height - len(top) - 1, after=missed[-1])
        return [*top, self.more, *rest]

    def tail(self, width: int, height: int) -> list[Text]:
        """The newest whole entries that fit `height` lines, the newest at the bottom (blank
        lines above when the next older entry does not fit whole: a review saw the panel start
        with "space 5." or "hold 4.", the tail of a sentence cut). Only the newest entry, taller
        than the panel, is cut: its end shows."""
        return self._tail(width, height)[0]

    def _tail(self, width: int, height: int, after: int = -1) -> tuple[list[Text], int]:
        """`tail` of the entries after index `after`, and the index of the oldest it shows."""
        if height <= 0:
            return [], len(self.entries)
        out: list[Text] = []
        first = len(self.entries)
        for i in range(len(self.entries) - 1, after, -1):
            lines = wrapped(self.entries[i], width, self.app.console)
            if len(out) + len(lines) > height:
                if not out:
                    return lines[-height:], i
                return [Text() for _ in range(height - len(out))] + out, first
            out[:0] = lines
            first = i
        return out, first

    def render(self) -> Text:
        size = self.content_size
        return Text("\n").join(self.view(size.width, size.height))


KEY_NAMES = {"escape": N_("Esc"), "ctrl+q": "Ctrl+Q"}


def how_to_quit(app: App[None], _: Words, saved: str = "") -> None:
    """Ctrl+C: which key quits on this screen, in the reader's language (Textual's own toast
    is English only), one toast however often it is pressed; `saved`: what quitting keeps."""
    for key, active in app.active_bindings.items():
        if active.binding.action in ("quit", "app.quit", "leave"):
            app.clear_notifications()
            told = _("Press {key} to quit.", key=_(KEY_NAMES.get(key, key)))
            app.notify(f"{told} {saved}".strip(), title=_("Ctrl+C does not quit"))
            return
