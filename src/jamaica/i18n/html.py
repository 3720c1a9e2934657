"""Babel's extraction method for the web pages: the text of every element marked `data-t` (the
element holds only text), and the attributes named in `data-t-attr` (`placeholder`, `title`,
`aria-label`…), whose English values are the message ids. `i18n.js` translates the same marks in
the browser."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO, Any

Message = tuple[int, str, str, list[str]]


class _Marks(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements: tag, line, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        line = self.getpos()[0]
        for attr in (named.get("data-t-attr") or "").split():
            value = named.get(attr)
            if value:
                self.found.append((line, value))
        if "data-t" in named:
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Message]:
    """Babel's signature: (line, function name, message, comments) for each marked text."""
    parser = _Marks()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, "t", text, []
