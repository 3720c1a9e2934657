"""Every word a player reads, in their language (issue 26): gettext catalogs managed with Babel.

- The English text in the code is the message id; `locale/LANG/LC_MESSAGES/jamaica.po` holds a
  language's translations and `jamaica.mo` their compiled form, shipped in the package. A string
  a catalog lacks stays English — that string only.
- `negotiate(header)` picks a language from an HTTP `Accept-Language`; `from_environment(env)`
  from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG`, as a terminal program does.
- `Words(lang)` translates (`gettext`, `ngettext`) and formats numbers in that language (Babel's
  locale data: a French thousands separator is a narrow no-break space).
- `js_catalog(lang)` is what the web pages read (`/i18n/catalog.json`): the translations of the
  messages marked in the JavaScript and the pages, each message id to its text (plural forms as a
  list).

The rules core never imports this: it returns codes and numbers, and words are made at the edge.
`jamaica i18n extract` and `jamaica i18n compile` (`i18n/tools.py`) keep the catalogs.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..rules.phrases import contract, elide

DOMAIN = "jamaica"
LANGUAGES = ("en", "fr")  # English is the code's own text
DEFAULT = "en"
NAMES = {"en": "English", "fr": "Français"}


def _supported(tag: str) -> str | None:
    """The language of a tag such as `fr-FR`, `fr_CA.UTF-8` or `FR`, if we have it."""
    base = tag.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    return base if base in LANGUAGES else None


def negotiate(header: str | None) -> str:
    """The best language of an `Accept-Language` header we have (English if none)."""
    if not header:
        return DEFAULT
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:1000].split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        lang = _supported(tag)
        if lang is not None and weight > 0:
            choices.append((-weight, i, lang))
    return min(choices)[2] if choices else DEFAULT


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language a terminal program should speak: the first of `LANGUAGE` (a list),
    `LC_ALL`, `LC_MESSAGES`, `LANG` that is set; English if we do not have it."""
    env = os.environ if env is None else env
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value or value in ("C", "POSIX"):
            continue
        for tag in value.split(":"):
            lang = _supported(tag)
            if lang is not None:
                return lang
        return DEFAULT
    return DEFAULT


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (nothing for English, or a language we lack)."""
    if lang not in LANGUAGES or lang == DEFAULT:
        return gettext.NullTranslations()
    folder = resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES", DOMAIN + ".mo")
    try:
        with folder.open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        return gettext.NullTranslations()


class Words:
    """Words and numbers in one language."""

    def __init__(self, lang: str = DEFAULT) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self._t = translations(self.lang)

    def __call__(self, message: str, **values: Any) -> str:
        """`message` translated, then its `{name}` places filled in (and French's "au", "du"
        made where a name with its article lands after "à", "de": `rules.phrases.contract`)."""
        text = self._t.gettext(message)
        return contract(elide(text, values).format(**values)) if values else text

    def n(self, one: str, many: str, count: int, **values: Any) -> str:
        """The plural form for `count` (French: 0 and 1 take the singular), with `{n}` set to
        the count written in this language."""
        text = self._t.ngettext(one, many, count)
        return contract(elide(text, values).format(n=self.number(count), **values))

    def number(self, x: float) -> str:
        from babel.numbers import format_decimal

        return str(format_decimal(x, locale=self.lang))


def js_catalog(lang: str) -> dict[str, Any]:
    """The messages of the web pages in `lang`: `{"lang", "messages": {id: text or [forms]}}`
    (English: no messages, the ids are the text)."""
    t = translations(lang)
    messages: dict[str, Any] = {}
    catalog: dict[Any, str] = getattr(t, "_catalog", {})
    for key, text in catalog.items():
        if isinstance(key, tuple):
            msgid, index = key
            forms = messages.setdefault(msgid, [])
            if isinstance(forms, list):
                while len(forms) <= index:
                    forms.append("")
                forms[index] = text
        elif key:
            messages[key] = text
    return {"lang": lang if lang in LANGUAGES else DEFAULT, "messages": messages}


__all__ = ["DEFAULT", "LANGUAGES", "NAMES", "Words", "from_environment", "js_catalog",
           "negotiate", "translations"]  # fmt: skip
