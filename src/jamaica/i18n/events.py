"""The game's events in the reader's language: the rules core says each event through a
`gettext`-like catalog (`rules.events.describe(…, t)`, English by default), and this passes the
reader's. The Ghost Ship's default name is translated; players' names never are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rules.data import GHOST_NAME
from ..rules.events import EVENT_NAMES
from ..rules.events import describe as describe_with
from ..rules.phrases import GHOST
from . import translations


def describe(
    event: Sequence[int], players: int, names: Sequence[str] | None = None, lang: str = "en"
) -> str:
    """The event as a sentence in `lang` (English for a language we lack)."""
    t = translations(lang)
    if names is not None:
        names = [t.gettext(GHOST) if name == GHOST_NAME else name for name in names]
    return describe_with(event, players, names, t)


def record(
    event: Sequence[int], players: int, names: Sequence[str] | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The event as the server sends it (a table's log, a replay's): its kind and arguments,
    the same for every reader, and its sentence in `lang`."""
    return {"kind": EVENT_NAMES[event[1]], "args": event[2:],
            "text": describe(event, players, names, lang)}  # fmt: skip
