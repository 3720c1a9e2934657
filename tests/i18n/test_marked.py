"""Issue 26: no player-visible English left unmarked in the pages translated so far — every text
of their HTML is marked `data-t` (or is a name, a number or the game's name), and every string of
their JavaScript that reads as words goes through `t`/`tr`/`n`. A scan, so that a new unmarked
string fails here rather than reaching a French reader in English."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

STATIC = Path(__file__).parents[2] / "src" / "jamaica" / "web" / "static"
PAGES = ["index.html", "player.html", "ladder.html", "rules.html", "table.html", "replay.html"]
SCRIPTS = ["lobby.js", "profile.js", "ladder.js", "ratings.js", "i18n.js", "help.js", "rules.js",
           "table.js", "board.js", "boardview.js", "panels.js", "question.js", "log.js", "seats.js",
           "chat.js", "rematch.js", "pacing.js", "words.js", "replay.js", "icons.js", "common.js",
           "player.js", "analysis.js"]  # fmt: skip
NOT_WORDS = {"Jamaica", "English", "Français", "#", "→", "★", "2021"}
# Names are names in every language: the pirates a new table's seats are called after.
NAMES = {"Anne Bonny", "Mary Read", "John Rackham", "Olivier Levasseur", "Samuel Bellamy",
         "Edward Drummond"}  # fmt: skip
CSS = (STATIC / "style.css").read_text("utf-8") + (STATIC / "board.css").read_text("utf-8")
# Strings that are code, not words: CSS classes and selectors, ids, attributes, URLs, formats.
CODE = re.compile(r"^[-\w.#:/?=&${}()\[\]\"' ,>*+@%]*$")


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.unmarked: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
        for attr in ("placeholder", "aria-label", "title"):
            value = named.get(attr)
            if (
                value
                and re.search(r"[A-Za-z]{2}", value)
                and attr not in (named.get("data-t-attr") or "").split()
            ):
                self.unmarked.append(f"{tag}[{attr}]={value}")
        if tag not in ("input", "meta", "link", "br", "img"):
            self.stack.append((tag, "data-t" in named))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if self.skip or not re.search(r"[A-Za-z]{2}", text) or text in NOT_WORDS:
            return
        if not (self.stack and self.stack[-1][1]):
            self.unmarked.append(text)


@pytest.mark.parametrize("page", PAGES)
def test_every_text_of_the_page_is_marked(page: str) -> None:
    parser = _Texts()
    parser.feed((STATIC / page).read_text("utf-8"))
    assert parser.unmarked == []


_MARKED = re.compile(r"\b(?:t|tr|N_)\(\s*(\"(?:[^\"\\]|\\.)*\"|`[^`]*`)"
                     r"|\bn\(\s*(\"(?:[^\"\\]|\\.)*\")"
                     r"\s*,\s*(\"(?:[^\"\\]|\\.)*\")")  # fmt: skip
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|`([^`]*)`")


def _words(literal: str) -> bool:
    """Whether a string literal reads as words a player would see (not code)."""
    text = re.sub(r"\$\{[^}]*\}", "", literal).strip()
    if not re.search(r"[A-Za-z]{2,}", text) or (CODE.match(text) and " " not in text):
        return False
    if text in NAMES:
        return False
    if re.fullmatch(r"[a-z][a-z0-9 -]*", text) and all(
        re.search(rf"\.{re.escape(tok)}\b", CSS) for tok in text.split() if not tok.endswith("-")
    ):
        return False  # a list of the page's CSS classes
    if text.startswith(("/", "#", ".", "[", "http", "data-", "aria-", "jamaica.")):
        return False
    return bool(re.search(r"[A-Za-z]{2,}[ ,:!?.]+[A-Za-z]|^[A-Z][a-z]+$", text))


def _code(text: str) -> str:
    """The script without its comments and import lines (kept line for line)."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("//", "import ", "*", "/*")) or "querySelector" in line:
            lines.append("")
        else:
            lines.append(re.sub(r"\s//\s.*$", "", line))
    return "\n".join(lines)


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_word_of_the_script_goes_through_the_catalog(script: str) -> None:
    code = _code((STATIC / script).read_text("utf-8"))
    # Marked messages (a call may run over lines) are blanked, keeping the line count.
    code = _MARKED.sub(lambda m: "\n" * m.group(0).count("\n"), code)
    unmarked = []
    for m in _STRING.finditer(code):
        literal = m.group(1) if m.group(1) is not None else m.group(2)
        if _words(literal):
            unmarked.append(f"{script}:{code.count(chr(10), 0, m.start()) + 1}: {literal}")
    assert unmarked == []


def test_every_marked_message_of_the_scripts_is_extracted() -> None:
    """What `t`/`tr`/`n` are called with in the scripts is in the catalog's template: Babel's
    JavaScript extractor misses calls it cannot parse (a call inside a template literal with
    braces of its own, found here), and those would stay English."""
    from jamaica.i18n.tools import template

    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template() if m.id}  # type: ignore[attr-defined]
    missed = []
    for script in SCRIPTS:
        code = _code((STATIC / script).read_text("utf-8"))
        for m in _MARKED.finditer(code):
            literal = next(g for g in m.groups() if g is not None)[1:-1]
            if "${" not in literal and literal.replace('\\"', '"') not in ids:
                missed.append(f"{script}: {literal}")
    assert missed == []


# --- the terminal app (issue 26): every string literal of tui/*.py that reads as words a player
# sees goes through the catalog (`_(…)`, `_.n(…)`, `self.words(…)`, or marked `N_`/`P_`).
TUI = Path(__file__).parents[2] / "src" / "jamaica" / "tui"
_CALLS = {"_", "N_", "P_", "n"}  # the calls `jamaica i18n extract` reads (not `self.words(…)`)
_CODE_KEYWORDS = {"id", "classes", "style", "overflow", "key_display", "severity", "title",
                  "metavar", "dest", "prefix", "suffix", "appauthor", "encoding"}  # fmt: skip
_STYLE = re.compile(
    r"^(?:(?:bold|dim|reverse|underline|italic|on|#[0-9a-fA-F]{6}|\{[\w.]*\})\s*)+$"
)
# Strings that are not words for a player, each with its reason.
TUI_ALLOWED = {
    "Jamaica",  # the game's name (the app's TITLE)
    "Jamaica — replay",  # the replay app's class TITLE, translated when the app loads
    "Port Royal",  # a name (it is a message too: `_("Port Royal")` where it is shown)
    ", Lady Beth +2",  # a treasure's name and its bonus, alike in every language
}


def _call_name(node: object) -> str:
    import ast

    func = getattr(node, "func", None)
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def unmarked_python(source: str, name: str = "<source>") -> list[str]:
    """The string literals of a Python module that read as words and are neither marked nor
    translated where they are written (docstrings, CSS, styles, ids and keys left out)."""
    import ast

    tree = ast.parse(source)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                body[0].value, ast.Constant) and isinstance(node, (ast.Module, ast.ClassDef,
                                                                   ast.FunctionDef)):  # fmt: skip
            exempt.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call):
            called = _call_name(node)
            if called in _CALLS:
                exempt.update(id(n) for n in ast.walk(node))
            elif called == "Binding":  # its keys and action (its description must be marked)
                exempt.update(id(a) for a in node.args[:2])
            for kw in node.keywords:
                if kw.arg in _CODE_KEYWORDS:
                    exempt.update(id(n) for n in ast.walk(kw.value))
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and (t.id in ("CSS", "__all__") or t.id.endswith("_CSS"))
                   for t in targets):  # fmt: skip
                exempt.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Subscript):  # d["key"]
            exempt.update(id(n) for n in ast.walk(node.slice))
        if isinstance(node, ast.Compare):  # kind == "load"
            exempt.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Raise):  # an error's details (a profile file's), as OSError's
            exempt.update(id(n) for n in ast.walk(node))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and id(node) not in exempt:
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            exempt.update(id(v) for v in node.values)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in exempt
        ):
            text = node.value
        else:
            continue
        plain = text.strip()
        if plain in TUI_ALLOWED or _STYLE.match(plain) or plain.startswith(("#", ".", "app.")):
            continue
        if re.search(r"[A-Za-z]{2,}[^\n]*\s[^\n]*[A-Za-z]{2,}", plain) or re.fullmatch(
                r"[A-Z][a-z]+[:.!?]?", plain):  # fmt: skip
            out.append(f"{name}:{node.lineno}: {text!r}")  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("module", sorted(p.name for p in TUI.glob("*.py")))
def test_every_word_of_the_terminal_app_goes_through_the_catalog(module: str) -> None:
    assert unmarked_python((TUI / module).read_text("utf-8"), module) == []


def test_the_terminal_scan_finds_an_unmarked_sentence() -> None:
    source = '''
from rich.text import Text
from textual.binding import Binding
BINDINGS = [Binding("q", "app.quit", "Save & quit"), Binding("l", "log", N_("Log"))]
DEFAULT_CSS = "Table { height: 1fr; }"
def f(_, name):
    """A docstring is not shown."""
    shown = Text(_("Round {round}", round=3), style="bold reverse")
    shown.append("Waiting for the dice", "dim")
    return f"{name} chooses a card", Text("Captain"), d["kind"], name == "the game"
'''
    found = unmarked_python(source)
    assert [line.split(": ", 1)[1] for line in found] == [
        "'Save & quit'",
        "'Waiting for the dice'",
        "'{} chooses a card'",
        "'Captain'",
    ]


def test_every_marked_message_of_the_terminal_app_is_extracted() -> None:
    """What `_`, `_.n`, `N_` and `P_` are called with in tui/*.py is in the catalog's template
    (a message written in a call the extractor does not read would stay English)."""
    import ast

    from jamaica.i18n.tools import template

    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template() if m.id}  # type: ignore[attr-defined]
    missed = []
    for path in sorted(TUI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and _call_name(node) in _CALLS and node.args:
                first = node.args[0]
                literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
                if literal and first.value not in ids:  # type: ignore[attr-defined]
                    missed.append(f"{path.name}:{node.lineno}: {first.value!r}")  # type: ignore[attr-defined]
    assert missed == []
