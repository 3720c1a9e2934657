"""The terminal's language (issue 26): the app is given one (`jamaica play --lang fr`, else the
environment's `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and every screen asks it for its words
(`words_of(screen)`); nothing fixes the language at import. Keys' descriptions in the footer are
marked `N_` in the screens' `BINDINGS` and translated when a screen is made (`translate_bindings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..i18n import Words, translations
from ..i18n.events import describe
from ..rules.data import GHOST_NAME
from ..rules.events import EVENT_NAMES
from ..rules.phrases import GHOST
from ..rules.view import can_see

if TYPE_CHECKING:
    from textual.dom import DOMNode

ENGLISH = Words()


def words_of(node: DOMNode) -> Words:
    """The words of the app `node` belongs to (English outside an app)."""
    try:
        app = node.app
    except Exception:  # no app running (a screen made in a test)
        return ENGLISH
    words = getattr(app, "words", None)
    return words if isinstance(words, Words) else ENGLISH


def translate_bindings(node: DOMNode, _: Words) -> None:
    """The footer's descriptions of `node`'s keys in the reader's language (its `BINDINGS` are
    class attributes, marked `N_`; each instance gets its own translated copy)."""
    from textual.binding import BindingsMap

    if _.lang == ENGLISH.lang:
        return
    bindings = [replace(b, description=_(b.description) if b.description else "")
                for _key, b in node._bindings]  # fmt: skip
    node._bindings = BindingsMap(bindings)


def shown_names(names: Sequence[str], _: Words) -> list[str]:
    """The ships' names as the reader reads them: the Ghost Ship's in their language (players'
    names are never translated)."""
    return [_(GHOST) if name == GHOST_NAME else name for name in names]


def seen_events(state: Any, player: int | None, names: Sequence[str], _: Words) -> list[
        dict[str, Any]]:  # fmt: skip
    """`State.events_for(player, names)` in the reader's language: the events `player` may see
    (None: the public ones), each with its kind, its arguments and its sentence."""
    if state.events is None:
        return []
    out = []
    for e in state.events:
        if can_see(e[0], player):
            text = describe(e, state.n, names, lang=_.lang)
            out.append({"kind": EVENT_NAMES[e[1]], "args": list(e[2:]), "text": text})
    return out


def pending(state: Any, names: Sequence[str], _: Words) -> Any:
    """The pending question in the reader's language (`State.pending(names, t)`)."""
    return state.pending(names, translations(_.lang))


__all__ = ["ENGLISH", "pending", "seen_events", "shown_names", "translate_bindings", "words_of"]
