"""The rules' words, marked for translation (issue 26). The rules core speaks English; each of its
messages goes through a `gettext`-like object (`gettext.NullTranslations()` by default, which
keeps English), so that the edge can pass a language's catalog instead. `N_` and `P_` only mark
messages for `jamaica i18n extract`. Standard library only, no I/O.
"""

from __future__ import annotations

import gettext
import re
from typing import Final, Protocol

from .data import PORT, SEA, SPACE_COST, SPACE_TYPE


def N_(message: str) -> str:
    return message


def P_(one: str, many: str) -> tuple[str, str]:
    """A message with a plural (`{n}` is the count)."""
    return one, many


class Translations(Protocol):
    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, one: str, many: str, n: int, /) -> str: ...


ENGLISH: Final[Translations] = gettext.NullTranslations()

RESOURCES: Final = {
    1: P_("{n} food", "{n} food"),
    2: P_("{n} gunpowder", "{n} gunpowder"),
    3: P_("{n} doubloon", "{n} doubloons"),
}
CARD_WORDS: Final = {"food": N_("Food"), "gun": N_("Gunpowder"), "gold": N_("Doubloons"),
                     "fwd": N_("Forward"), "back": N_("Backward")}  # fmt: skip
SPACE_KINDS: Final = (N_("Port Royal"), N_("sea"), N_("port"), N_("lair"))
TREASURES: Final = (
    N_("Morgan's Map"), N_("Saran's Sabre"), N_("Lady Beth"), N_("6th Hold"),
    N_("a +3 treasure"), N_("a +5 treasure"), N_("a +7 treasure"),
    N_("a −2 cursed treasure"), N_("a −3 cursed treasure"), N_("a −4 cursed treasure"),
)  # fmt: skip
COMBAT_FACES: Final = ("2", "4", "6", "8", "10", N_("star"))
SHORTAGES: Final = (N_("port"), N_("sea"), N_("lair"), N_("stay"))
STOLEN: Final = {1: N_("the stolen food"), 2: N_("the stolen gunpowder"),
                 3: N_("the stolen doubloons")}  # fmt: skip
GHOST: Final = N_("the Ghost Ship")


# French contracts "à le" and "de le" (and their plurals) before a name that carries its article
# ("vole une carte au Vaisseau fantôme", not "à le Vaisseau fantôme"). Only before a capital: "le"
# before a verb is a pronoun ("prêt à le charger") and stays. English never has these words.
_CONTRACTION: Final = re.compile(r" (à|de) (les?) (?=[A-ZÀ-Ý])")
_JOINED: Final = {("à", "le"): "au", ("de", "le"): "du", ("à", "les"): "aux", ("de", "les"): "des"}


# French elides "de" before a vowel: "les décisions d’Ann", not "de Ann". Only where a template's
# "de" meets a value filled in after it (a name, a word), never inside a value: a player's own
# name ("Maria de Oliveira") stays as written. Not before "h" (aspirated or not: it varies).
_ELIDED: Final = re.compile(r"\bde \{(\w+)\}")
_VOWELS: Final = "AEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouyàâæéèêëîïôœùûü"


def elide(template: str, values: dict[str, object]) -> str:
    """`template` with each "de {name}" made "d’{name}" where the value starts with a vowel."""
    def one(m: re.Match[str]) -> str:
        value = str(values.get(m.group(1), ""))
        return "d’{" + m.group(1) + "}" if value[:1] and value[0] in _VOWELS else m.group(0)

    return _ELIDED.sub(one, template) if "de {" in template else template


class Elided:
    """A translated template whose `format` elides "de" before a value that starts with a vowel
    (`elide`): "Le trésor face cachée d’Anne Bonny", not "de Anne Bonny". (Not a `str`: the
    compiled core, mypyc, cannot subclass one.)"""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def format(self, *args: object, **values: object) -> str:
        return elide(self.text, values).format(*args, **values)

    def __str__(self) -> str:  # filled into another template, it is its text
        return self.text


def contract(text: str) -> str:
    """`text` with French's contractions of "à"/"de" and a name's article made."""
    return _CONTRACTION.sub(lambda m: f" {_JOINED[m.group(1), m.group(2)]} ", text)


def amount(count: int, resource: int, t: Translations = ENGLISH) -> str:
    """ "1 doubloon", "3 doubloons", "2 food", "1 gunpowder"."""
    one, many = RESOURCES[resource]
    return t.ngettext(one, many, count).format(n=count)


def hold(h: int, t: Translations = ENGLISH) -> str:
    return t.gettext(N_("the 6th Hold")) if h == 5 else t.gettext(N_("hold {k}")).format(k=h + 1)


def space(s: int, t: Translations = ENGLISH) -> str:
    kind = SPACE_TYPE[s]
    if kind == PORT:
        return t.gettext(N_("space {space} (a {cost}-doubloon port)")).format(space=s,
                                                                           cost=SPACE_COST[s])
    if kind == SEA:
        return t.gettext(N_("space {space} (a {cost}-food sea space)")).format(space=s,
                                                                            cost=SPACE_COST[s])
    return t.gettext(N_("space {space} ({kind})")).format(space=s,
                                                         kind=t.gettext(SPACE_KINDS[kind]))


def card(name: str, t: Translations = ENGLISH) -> str:
    """An action card: "fwd-gun" → "Forward / Gunpowder"."""
    morning, evening = name.split("-")
    return t.gettext(N_("{morning} / {evening}")).format(
        morning=t.gettext(CARD_WORDS[morning]), evening=t.gettext(CARD_WORDS[evening]))
