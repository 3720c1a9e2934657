"""`jamaica i18n extract` and `jamaica i18n compile`: the catalogs' upkeep, with Babel.

`extract` collects every marked message — `_("…")` and `_.n("one", "many", k)` in Python,
`t("…")` and `n("one", "many", k)` in the pages' JavaScript, `data-t` marks in their HTML — into
`i18n/jamaica.pot`, and brings each language's `.po` up to date with it (new messages empty,
gone ones dropped; no fuzzy guesses). `compile` writes each `.po` as the `.mo` the program reads.
A message a `.po` does not translate stays English.
"""

from __future__ import annotations

from pathlib import Path

from . import DOMAIN, LANGUAGES

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent  # src/jamaica
TEMPLATE = HERE / "jamaica.pot"
KEYWORDS = {"_": None, "t": None, "tr": None, "n": (1, 2), "N_": None, "P_": (1, 2),
            # the server's words for people: errors (their message argument) and notes
            "ProtocolError": (2,), "error": (2,), "http_error": (3,), "fail": (2,),
            "refuse": (5,), "note_words": None, "_replace": (2,)}  # fmt: skip
METHODS = [
    ("**/static/**.js", "javascript"),
    ("**/static/**.html", "jamaica.i18n.html:extract"),
    ("**.py", "python"),
]
SKIP = ("rules/", "envs/", "learn/", "bench", "lab/", "bots/")  # no player-facing words there…
WORDS = ("rules/events.py", "rules/phrases.py", "rules/prompts.py", "rules/hints.py")  # …but the
# rules' words, marked N_ and P_


def po_path(lang: str) -> Path:
    return HERE / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def template() -> object:
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="jamaica", domain=DOMAIN)
    options = {"**/static/**.js": {"parse_template_string": "true"}}  # `${n(…)}` inside `…`
    for filename, line, message, comments, context in extract_from_dir(
        str(PACKAGE), METHODS, options_map=options, keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
    ):  # fmt: skip
        if filename.startswith(SKIP) and filename not in WORDS:
            continue
        catalog.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return catalog


def extract() -> str:
    from babel.messages.pofile import read_po, write_po

    pot = template()
    with TEMPLATE.open("wb") as f:
        write_po(f, pot, width=100, omit_header=False, sort_output=True)  # type: ignore[arg-type]
    told = [f"{len(pot)} messages in {TEMPLATE.relative_to(PACKAGE.parent.parent)}"]  # type: ignore[arg-type]
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as f:
                po = read_po(f, locale=lang, domain=DOMAIN)
        else:
            from babel.messages.catalog import Catalog

            po = Catalog(locale=lang, domain=DOMAIN, project="jamaica")
        po.update(pot, no_fuzzy_matching=True)  # type: ignore[arg-type]
        po.obsolete.clear()
        with path.open("wb") as f:
            write_po(f, po, width=100, sort_output=True, ignore_obsolete=True)
        missing = sum(1 for m in po if m.id and not _translated(m))
        told.append(f"{lang}: {len(po) - missing} translated, {missing} to translate")
    return "; ".join(told)


def _translated(message: object) -> bool:
    s = getattr(message, "string", "")
    return all(s) if isinstance(s, tuple | list) else bool(s)


def compile_all() -> str:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    told = []
    for lang in LANGUAGES[1:]:
        with po_path(lang).open("rb") as f:
            po = read_po(f, locale=lang, domain=DOMAIN)
        with po_path(lang).with_suffix(".mo").open("wb") as f:
            write_mo(f, po, use_fuzzy=False)
        told.append(f"{lang}: {len(po)} messages")
    return "compiled " + ", ".join(told)
