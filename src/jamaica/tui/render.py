"""Text pictures of the game for the terminal, drawn from a player's view (`State.view`) and their
log (`State.events_for`), so they can only show what that player may see.

Everything is a Rich `Text` built piece by piece (no markup to parse, nothing to escape), sized
for the width it is given: a space of the track is one cell that never splits across lines. Every
style is a name from `STYLES` or a colour from `PALETTE`, each one that both Rich and Textual can
parse (tests/tui/test_render.py checks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.text import Text

from ..i18n import Words, translations
from ..rules.data import (
    CARD_NAMES,
    FINISH_SCORE,
    LAIR,
    PORT,
    PORT_ROYAL,
    RED_LINE_SPACE,
    SPACE_COST,
    SPACE_SCORE,
    SPACE_TYPE,
    TREASURE_NAMES,
)
from ..rules.events import BEFELL
from ..rules.phrases import N_, P_, TREASURES
from ..rules.phrases import card as card_words
from .lang import ENGLISH

# --- colours and styles --------------------------------------------------------------------------
# Hex colours: both Rich and Textual parse them (names such as "dodger_blue1" are Rich-only).
PALETTE: Final = ("#ff5f5f", "#5fafff", "#5fd75f", "#ffd75f", "#ff87ff", "#5fd7d7")
GHOST: Final = "#b2b2b2"
FOOD: Final = "#87d787"
POWDER: Final = "#ff8787"
GOLD: Final = "#ffd700"
SEA_STYLE: Final = "#5fafd7"
STYLES: Final = {
    "food": FOOD,
    "powder": POWDER,
    "gold": GOLD,
    "sea": SEA_STYLE,
    "port": GOLD,
    "lair": "bold",
    "token": f"bold {GOLD}",
    "red_line": "bold #ff5f5f",
    "dim": "dim",
    "bold": "bold",
    "title": "bold underline",
    "target": "bold reverse",
    "option": "bold underline",
    "warn": "bold #000000 on #ff8787",  # a badge: readable on any background, highlight too
    "good": "#87d787",
    "round": "bold reverse",
    "battle": "bold #ff8787",
}
RESOURCE_STYLE: Final = {"food": FOOD, "powder": POWDER, "gold": GOLD}
RESOURCE_LETTER: Final = {"food": N_("f"), "powder": N_("p"), "gold": "$"}  # 3f, 3p, 3$
HOLD_WORDS: Final = {"food": P_("{n} food", "{n} food"), "powder": P_("{n} powder", "{n} powder"),
                     "gold": P_("{n} gold", "{n} gold")}  # fmt: skip

# The track: a row per stretch; the forks as an outer lane (├) over an inner channel (└).
ROWS: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("", (0, 1, 2, 3, 4, 5, 6)),
    ("├", (7, 8, 9, 10, 11, 12)),
    ("└", (13, 14)),
    ("", (15, 16, 17, 18, 19)),
    ("├", (20, 21, 22, 23, 24, 25)),
    ("└", (26, 27)),
    ("", (28, 29, 30, 31, 32)),
    ("├", (33, 34, 35, 36, 37, 38)),
    ("└", (39, 40)),
    ("", (41, 42, 43, 44, 45)),
    ("", (46, 47, 48, 49)),
)


def sum_text(*terms: int) -> str:
    """A sum as a reader writes it: "2+6−4", "−5+3" (a minus sign, never "+-")."""
    out = ""
    for i, x in enumerate(terms):
        sign = "−" if x < 0 else ("+" if i else "")
        out += f"{sign}{abs(x)}"
    return out


def signed(x: int | str) -> str:
    """A number as it is printed: "−5" with a minus sign, never a hyphen ("+3" stays)."""
    text = str(x)
    return "−" + text[1:] if text.startswith("-") else text


def colour(ship: int, ghost: bool) -> str:
    return GHOST if ghost else PALETTE[ship % len(PALETTE)]


def ghost_ships(view: Mapping[str, Any]) -> set[int]:
    return {s["ship"] for s in view["ships"] if s["ghost"]}


def tags(names: Sequence[str], ghosts: Iterable[int] = (), _: Words = ENGLISH) -> list[str]:
    """A two-character tag per ship, unique and readable: the initials of a two-word name
    ("AB" for Anne Bonny), the first two letters of a one-word name ("Al" for Alice), "GS" for
    the Ghost Ship ("VF", Vaisseau fantôme, in French); a digit settles a clash ("A2")."""
    ghosts = set(ghosts)
    out: list[str] = []
    for k, name in enumerate(names):
        if k in ghosts:
            base = _("GS")
        else:
            words = [w for w in re.split(r"[\W_]+", name) if w and w.lower() != "the"]
            words = [w for w in words if all(cell_len(ch) == 1 for ch in w)]
            if len(words) >= 2:
                base = (words[0][0] + words[1][0]).upper()
            elif words and len(words[0]) >= 2:
                base = words[0][0].upper() + words[0][1].lower()
            elif words:
                base = words[0].upper() + str(k + 1)
            else:
                base = f"P{k + 1}"
        tag = base
        n = k + 1
        while tag in out:
            tag = f"{base[0]}{n % 10}"
            n += 1
        out.append(tag)
    return out


def marker(ship: int, tag: str, ghost: bool, active: bool = False) -> Text:
    style = f"bold #000000 on {colour(ship, ghost)}" + (" underline" if active else "")
    return Text(tag, style=style)


def name_text(ship: int, name: str, ghost: bool) -> Text:
    return Text(name, style=f"bold {colour(ship, ghost)}")


def coloured_names(text: str, names: Sequence[str], ghosts: Iterable[int] = ()) -> Text:
    """A line of the log with every ship's name in its colour."""
    out = Text(text)
    ghosts = set(ghosts)
    for k in sorted(range(len(names)), key=lambda k: -len(names[k])):  # longest first
        out.highlight_words([names[k]], style=f"bold {colour(k, k in ghosts)}")
    return out


# --- the board -----------------------------------------------------------------------------------
def space_cell(space: int, tokens: Sequence[int], wide: bool = False) -> Text:
    """One space as one unbreakable cell: " 5$3" a 3-doubloon port, "13~3" a 3-food sea space,
    " 4☠✦" a lair whose treasure is still there (" 4☠·" looted), "PR" Port Royal; when `wide`,
    the final score numbers as "(2)"."""
    kind = SPACE_TYPE[space]
    if kind == PORT_ROYAL:
        return Text("PR", style="bold")
    cell = Text(f"{space:>2}")
    if kind == LAIR:
        cell.append("☠", STYLES["lair"])
        cell.append("✦" if space in tokens else "·", STYLES["token"] if space in tokens else "dim")
    elif kind == PORT:
        cell.append(f"${SPACE_COST[space]}", GOLD)
    else:
        cell.append(f"~{SPACE_COST[space]}", SEA_STYLE)
    if wide and SPACE_SCORE[space] > 0:
        cell.append(f"({SPACE_SCORE[space]})", "dim")
    if space == RED_LINE_SPACE:
        cell.append("|", STYLES["red_line"])
    return cell


def board_text(
    view: Mapping[str, Any],
    names: Sequence[str],
    width: int = 60,
    *,
    targets: Iterable[int] = (),
    chosen: Iterable[int] = (),
    active: int | None = None,
    legend: bool = False,
    words: bool = False,
    _: Words = ENGLISH,
) -> Text:
    """The island track, a row per stretch, wrapped to `width` between spaces (never inside one),
    with each ship's tag after its space. `targets`: the spaces the options lead to (underlined);
    `chosen`: those of the highlighted option (reversed); `active`: the ship that moves; `words`:
    "Port Royal", "outer" and "inner" written out."""
    tokens = view["lair_tokens"]
    ghosts = ghost_ships(view)
    tag_of = tags(names, ghosts, _)
    where: dict[int, list[Text]] = {}
    for ship in view["ships"]:
        k = ship["ship"]
        where.setdefault(ship["space"], []).append(
            marker(k, tag_of[k], ship["ghost"], active=k == active)
        )
    targets, chosen = set(targets), set(chosen)
    wide = width >= 56
    lines: list[Text] = []
    for label, spaces in ROWS:
        if words and label:
            label += "─ " + (_("outer") if label == "├" else _("inner"))
        prefix = Text(f"{label} " if label else "", style="dim")
        line = prefix.copy()
        indent = prefix.cell_len
        first = True
        for space in spaces:
            cell = space_cell(space, tokens, wide)
            if words and space == PORT_ROYAL:
                cell = Text(_("Port Royal"), style="bold")
            if space in chosen:
                cell.stylize(STYLES["target"])
            elif space in targets:
                cell.stylize(STYLES["option"])
            for m in where.get(space, []):
                cell.append(" ")
                cell.append_text(m)
            gap = 0 if first else 1
            if not first and line.cell_len + gap + cell.cell_len > width:
                lines.append(line)
                line = Text(" " * indent)
                gap = 0
            line.append(" " * gap)
            line.append_text(cell)
            first = False
        lines.append(line)
    if legend:
        lines.extend(_wrap_words(_(LEGEND, finish=FINISH_SCORE), width, "dim"))
    return Text("\n").join(lines)


def board(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The board as Rich markup, in words, for other front ends (the RL environment's text)."""
    return board_text(view, names, 100, words=True, legend=True).markup


LEGEND: Final = N_(
    "~n sea: n food · $n port: n doubloons · ☠ lair (✦ treasure left) · PR Port Royal: "
    "finish {finish} · 41–49 score 2–10, the rest −5 (| the red line)"
)


def _wrap_words(text: str, width: int, style: str = "") -> list[Text]:
    lines: list[Text] = []
    line = ""
    for word in text.split(" "):
        if line and cell_len(line) + 1 + cell_len(word) > width:
            lines.append(Text(line, style=style))
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(Text(line, style=style))
    return lines


# --- the ships -----------------------------------------------------------------------------------
def holds_text(holds: Sequence[Mapping[str, Any]], wide: bool = False,
               _: Words = ENGLISH) -> Text:  # fmt: skip
    """ "3f 3$ 2p · ·" (f food, $ doubloons, p gunpowder, · empty); when `wide`, in words."""
    out = Text()
    for i, h in enumerate(holds):
        if i:
            out.append(" │ " if wide else " ", "dim")
        if h["count"]:
            kind = h["type"]
            word = (_.n(*HOLD_WORDS[kind], h["count"]) if wide
                    else f"{h['count']}{_(RESOURCE_LETTER[kind])}")  # fmt: skip
            out.append(word, RESOURCE_STYLE[kind])
        else:
            out.append("—" if wide else "·", "dim")
    return out


def played_order(events: Sequence[Mapping[str, Any]], ships: int) -> list[list[str]]:
    """Per ship, the cards played since its last reshuffle, newest first (from the log)."""
    played: list[list[str]] = [[] for _ in range(ships)]
    for e in events:
        if e["kind"] == "reveal":
            played[e["args"][0]].insert(0, CARD_NAMES[e["args"][1]])
        elif e["kind"] == "reshuffle":
            played[e["args"][0]] = []
    return played


def _place(ship: Mapping[str, Any], _: Words) -> str:
    if ship["finished"]:
        return _("done")
    space = "PR" if ship["space"] == 0 else str(ship["space"])
    return space + ("↺" if ship["lap"] < 0 else "")


def ships_panel(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The ships as Rich markup, for other front ends (the RL environment's text)."""
    return ships_text(view, names, 80, detail=True).markup


def ships_text(
    view: Mapping[str, Any],
    names: Sequence[str],
    width: int = 44,
    *,
    detail: bool = False,
    played: Sequence[Sequence[str]] = (),
    turn: int | None = None,
    _: Words = ENGLISH,
) -> Text:
    """A line per ship: tag, name (⚑ the Captain, ▸ whose turn), space (↺ behind the start
    line), holds, treasures (T face-down cards, with the values the viewer knows — a review
    learnt their own −2 and −4 only from the log —, powers by initial), cards in hand; with
    `detail`, a second line in words: powers, treasures, cards, the last cards played."""
    ghosts = ghost_ships(view)
    tag_of = tags(names, ghosts, _)
    rests: list[Text] = []
    # the places as wide as the widest of them ("PR" at the start, "done" at the end): the
    # names get the rest ("le Vaisseau fantôme" whole, where a fixed field of 5 cut it)
    place_w = max([cell_len(_place(ship, _)) for ship in view["ships"]] + [2])
    for ship in view["ships"]:
        rest = Text("⚑" if ship["ship"] == view["captain"] else " ", STYLES["token"])
        rest.append(f" {_place(ship, _):>{place_w}} ", "bold")
        rest.append_text(holds_text(ship["holds"], _=_))
        extras = []
        if ship["face_down"]:  # their values if the viewer knows them all (theirs): "T−2+3"
            known = [signed(c) if c[:1] in "+-" else "6" if c == "hold6" else c[0].upper()
                     for c in ship["face_down_known"]]  # fmt: skip
            numbers = all(c[:1] in "+−" for c in known)
            if known and len(known) == ship["face_down"]:
                extras.append("T" + ("" if numbers else ",").join(known))
            else:  # the count only, to leave the names their room (the detail says the rest)
                extras.append(f"T{ship['face_down']}")
        extras += [p[0].upper() if p != "hold6" else "6" for p in ship["powers"]]
        if not ship["ghost"]:
            extras.append(_("{n}c", n=ship["hand_size"]))
        rest.append("  " + " ".join(extras), "dim")
        rests.append(rest)
    # The names get what the widest line leaves (the start takes 4 cells: ▸, tag, space).
    name_w = max(4, min(20, width - 4 - max(r.cell_len for r in rests)))
    lines: list[Text] = []
    for ship, rest in zip(view["ships"], rests, strict=True):
        k, ghost = ship["ship"], ship["ghost"]
        line = Text("▸" if k == turn else " ", style="bold")
        line.append_text(marker(k, tag_of[k], ghost))
        line.append(" ")
        shown = name_text(k, names[k], ghost)
        if shown.cell_len > name_w:
            shown.truncate(name_w, overflow="ellipsis")
        line.append_text(shown)
        line.append(" " * (name_w - shown.cell_len))
        line.append_text(rest)
        line.truncate(width, overflow="ellipsis")
        lines.append(line)
        if detail:
            more = _ship_detail(ship, played[k] if k < len(played) else [], _)
            more.truncate(width, overflow="ellipsis")
            lines.append(more)
    return Text("\n").join(lines)


# the face-down treasures a ship's player knows, by their code (the values are numbers: "+3")
KNOWN_WORDS: Final = {"map": N_("map"), "sabre": N_("sabre"), "beth": N_("beth"),
                      "hold6": N_("6th hold")}  # fmt: skip


def _ship_detail(ship: Mapping[str, Any], played: Sequence[str], _: Words) -> Text:
    parts = [_("{n} to go", n=ship["moves_left"])]
    if ship["powers"]:
        parts.append(", ".join(treasure_title(p, _) for p in ship["powers"]))
    if ship["face_down"]:
        known = [_(KNOWN_WORDS[c]) if c in KNOWN_WORDS else signed(c)
                 for c in ship["face_down_known"]]  # fmt: skip
        parts.append(_("{n} face-down", n=ship["face_down"])
                     + (f" ({', '.join(known)})" if known else ""))  # fmt: skip
    if not ship["ghost"]:
        parts.append(_("hand {hand}, deck {deck}", hand=ship["hand_size"],
                       deck=ship["draw_pile"]))  # fmt: skip
        if ship["has_chosen"]:
            parts.append(_("has chosen"))
        if played:
            parts.append(_("played {cards}", cards=", ".join(card_text(c, _) for c in played[:3])))
    return Text("     " + " · ".join(parts), style="dim")


def treasure_title(code: str, _: Words = ENGLISH) -> str:
    """A treasure in words ("map" → "Morgan's Map"), in the reader's language."""
    return _(TREASURES[TREASURE_NAMES.index(code)])


# --- your cards, the dice, the battle ------------------------------------------------------------
def card_text(name: str, _: Words = ENGLISH) -> str:
    """A card in the log's words: "gold-fwd" → "Doubloons / Forward"."""
    return card_words(name, translations(_.lang))


def _listed(label: str, cards: Sequence[str], width: int, style: str = "bold",
            _: Words = ENGLISH) -> list[Text]:  # fmt: skip
    """ "Hand Food / Forward · Forward / Forward", in lines of `width`, a card never split; the
    "·" only between two cards of one line (at a line's end it read as an empty hold's dot)."""
    lines = [Text(f"{label} ", style=style)]
    for i, name in enumerate(cards):
        title = card_text(name, _)
        if i and lines[-1].cell_len + 3 + cell_len(title) > width:
            lines.append(Text(" " * (cell_len(label) + 1)))
        elif i:
            lines[-1].append(" · ", style)
        lines[-1].append(title, style)
    return lines


def dice_text(view: Mapping[str, Any], _: Words = ENGLISH) -> Text:
    dice = view["dice"]
    out = Text(_("Dice") + " ", style="bold")
    if dice["morning"]:
        out.append(_("☀ morning {die}", die=dice["morning"]), "bold")
        out.append("  ")
        out.append(_("☾ evening {die}", die=dice["evening"]), "bold")
    elif dice["roll"]:
        out.append(_("{a} and {b}", a=dice["roll"][0], b=dice["roll"][1]), "bold")
        out.append(_(" — the Captain orders them"), "dim")
    else:
        out.append(_("not rolled yet"), "dim")
    return out


def hand_panel(view: Mapping[str, Any], played: Sequence[str] = (), detail: bool = False,
               width: int = 80, _: Words = ENGLISH) -> Text:  # fmt: skip
    """The dice, then your hand, the card you have chosen, and what you played last (newest
    first; more of it when `detail`), each card in the log's words ("Food / Forward"), laid out
    in lines of `width` without splitting a card. The public view has no hand."""
    lines = [dice_text(view, _)]
    if "hand" not in view or view.get("player") is None:
        lines.append(Text(_("Hand: hidden (the public view)"), style="dim"))
        return Text("\n").join(lines)
    if view["hand"]:
        lines += _listed(_("Hand"), view["hand"], width, _=_)
    else:
        lines.append(Text.assemble((_("Hand") + " ", "bold"), (_("empty"), "dim")))
    if view.get("chosen"):
        chosen = card_text(view["chosen"], _)
        lines.append(Text.assemble((_("Chosen") + " ", "bold"), (chosen, "bold reverse")))
    if played:
        lines += _listed(_("Played"), played[: 4 if detail else 2], width, "dim", _)
    return Text("\n").join(lines)


FACES: Final = ("2", "4", "6", "8", "10", "★")
FACE_VALUES: Final = (2, 4, 6, 8, 10, 0)


def battle_panel(view: Mapping[str, Any], names: Sequence[str], _: Words = ENGLISH) -> Text:
    """Both sides of the battle in progress: gunpowder, Lady Beth, the die and the firepower."""
    b = view["battle"]
    if b is None:
        return Text()
    ghosts = ghost_ships(view)
    tag_of = tags(names, ghosts, _)
    space = view["ships"][b["attacker"]]["space"]
    lines = [Text(_("⚔ Battle on space {space}", space=space), style=STYLES["battle"])]
    for role, ship, powder, die in (
        (_("attacks"), b["attacker"], b["attacker_powder"], b["attacker_die"]),
        (_("defends"), b["defender"], b["defender_powder"], b["defender_die"]),
    ):
        ghost = ship in ghosts
        line = marker(ship, tag_of[ship], ghost)
        line.append(" ")
        line.append_text(name_text(ship, names[ship], ghost))
        line.append(f" {role}" + _(": "), "dim")  # French: a narrow no-break space first
        beth = 2 if "beth" in view["ships"][ship]["powers"] else 0
        if die < 0:
            line.append(_("{n} powder", n=powder) + (" +2 Beth" if beth else ""))
            line.append(_(", to roll"), "dim")
        elif die == 5:
            line.append(_("rolled ★ — wins!"), "bold")
        else:
            line.append(_("firepower {n}", n=FACE_VALUES[die] + powder + beth), "bold")
            parts = _("die {face} + {n} powder", face=FACES[die], n=powder)
            parts += " + 2 Beth" if beth else ""
            line.append(f" ({parts})", "dim")
        lines.append(line)
    return Text("\n").join(lines)


# --- consequences of a move ----------------------------------------------------------------------
def resources(ship: Mapping[str, Any]) -> dict[str, int]:
    have = {"food": 0, "powder": 0, "gold": 0}
    for h in ship["holds"]:
        if h["count"]:
            have[h["type"]] += h["count"]
    return have


def arrival(names: Sequence[str], hint: Mapping[str, Any], _: Words = ENGLISH) -> Text:
    """What arriving on a space means, from the rules' hint for it (`rules.hints`: a card's
    preview or a move question's `move_hints`): what is due against what the ship holds
    (shortage!), or that it is not paid (the Ghost Ship, the 2021 fall-back), a lair's treasure,
    a battle with the ships there, the finish."""
    out = Text()
    if hint["finish"]:
        out.append(_("Port Royal — finish!"), STYLES["good"])
        return out
    space = hint["space"]
    kind = SPACE_TYPE[space]
    if kind == PORT_ROYAL:
        out.append(_("Port Royal"))
    elif kind == LAIR:
        out.append(_("{space} lair", space=space))
        if hint["treasure"]:
            out.append(_(" ✦ treasure"), STYLES["token"])
    elif not hint["pays"]:
        out.append(_("{space} port, not paid", space=space) if kind == PORT
                   else _("{space} sea, not paid", space=space))  # fmt: skip
    else:
        out.append(_("{space} port ${cost}", space=space, cost=hint["pays"]) if kind == PORT
                   else _("{space} sea ~{cost}", space=space, cost=hint["pays"]))  # fmt: skip
        if hint["shortage"]:
            out.append(_(": "))
            out.append(_("have {n} — shortage!", n=hint["have"]), STYLES["warn"])
        else:
            out.append(_(" (have {n})", n=hint["have"]), "dim")
    if hint["battle"]:
        out.append(_(" → battle with "), STYLES["battle"])
        out.append(_(" or ").join(names[k] for k in hint["ships_there"]), STYLES["battle"])
    return out


# --- the end -------------------------------------------------------------------------------------
def ranking(view: Mapping[str, Any], names: Sequence[str], width: int = 80,
            _: Words = ENGLISH) -> Text:  # fmt: skip
    """The final ranking: place, ship, the score's parts (place, doubloons, treasures) and the
    total, the winners marked; in a narrow column the parts go in brackets after the total."""
    ghosts = ghost_ships(view)
    tag_of = tags(names, ghosts, _)
    scores = view.get("scores", [])
    left = [ship["moves_left"] for ship in view["ships"]]
    order = sorted(range(len(scores)), key=lambda k: (-scores[k]["total"], left[k]))  # R8
    winners = view.get("winners", [])
    narrow = width < 56
    name_w = min(24, max([cell_len(names[k]) for k in order] + [4]))
    if narrow:
        name_w = max(4, min(name_w, width - 26))
        head = Text(f"{'':<{name_w + 8}}" + _("total (place+gold+treasure)"), style="bold")
    else:
        # the columns' heads, each right-aligned over its column (5, 4, 5 and 5 cells)
        heads = "".join(
            f" {_(word):>{w}}"
            for word, w in ((N_("place"), 5), (N_("gold"), 4), (N_("treas"), 5), (N_("total"), 5))
        )
        head = Text(f"     {'':<{name_w + 3}}{heads}", style="bold")  # fmt: skip
    lines = [head]
    place = 0
    last: tuple[int, int] | None = None
    for i, k in enumerate(order):
        sc = scores[k]
        if (sc["total"], left[k]) != last:
            place, last = i + 1, (sc["total"], left[k])
        line = Text(f"{place:>1}. " if narrow else f" {place:>2}. ")
        line.append_text(marker(k, tag_of[k], k in ghosts))
        line.append(" ")
        name = name_text(k, names[k], k in ghosts)
        name.truncate(name_w, overflow="ellipsis")
        line.append_text(name)
        line.append(" " * (name_w - name.cell_len))
        if narrow:
            line.append(f" {signed(sc['total']):>4}", "bold")
            line.append(f" ({sum_text(sc['position'], sc['doubloons'], sc['treasures'])})", "dim")
            if k in winners:
                line.append(" ★", f"bold {GOLD}")
        else:
            line.append(f" {signed(sc['position']):>5} {signed(sc['doubloons']):>4}"
                        f" {signed(sc['treasures']):>5} ")  # fmt: skip
            line.append(f"{signed(sc['total']):>5}", "bold")
            if k in winners:
                line.append(" " + _("winner"), f"bold {GOLD}")
        lines.append(line)
    return Text("\n").join(lines)


# --- the log and the status line -----------------------------------------------------------------
_SEEN = {"draw": "draw_seen", "chose": "chose_seen", "face_down": "face_down_seen"}


def _shown(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The events the log says: a public line followed by the same thing in private words (your
    own draw, card, treasure) is said once, privately."""
    out = []
    for i, e in enumerate(events):
        seen = _SEEN.get(e["kind"])
        if seen and i + 1 < len(events):
            nxt = events[i + 1]
            if nxt["kind"] == seen and nxt["args"][:1] == e["args"][:1]:
                continue
        out.append(e)
    return out


def log_marks(events: Sequence[Mapping[str, Any]], viewer: int | None) -> list[bool]:
    """For each line of `log_lines(events, …)`: whether it tells what befell `viewer`'s ship
    (`events.BEFELL`; kept in view by the log panel until the player has seen it: `LogView`)."""
    out = []
    for e in _shown(events):
        at = BEFELL.get(e["kind"])
        out.append(viewer is not None and at is not None and len(e["args"]) > at
                   and e["args"][at] == viewer)  # fmt: skip
    return out


def log_lines(
    events: Sequence[Mapping[str, Any]], names: Sequence[str], ghosts: Iterable[int] = ()
) -> list[Text]:
    """The log in words, names in their colours, a banner per round. A public line followed by
    the same thing in private words (your own draw, card, treasure) is shown once, privately."""
    ghosts = set(ghosts)
    out: list[Text] = []
    for e in _shown(events):
        if e["kind"] == "round":
            out.append(Text(f" {e['text']} ", style=STYLES["round"]))
        else:
            out.append(coloured_names(e["text"], names, ghosts))
    return out


TURN_WORDS: Final = {
    "dice_order": N_("orders the dice"),
    "card": N_("chooses a card"),
    "move": N_("moves"),
    "load": N_("loads"),
    "pay": N_("pays"),
    "attack": N_("chooses whom to attack"),
    "powder": N_("spends gunpowder"),
    "sabre": N_("decides on Saran's Sabre"),
    "spoils": N_("chooses the spoils"),
    "roll_dice": N_("the Captain rolls the dice"),
    "combat_die": N_("the combat die is rolled"),
    "draw_card": N_("a card is drawn"),
    "draw_treasure": N_("a treasure card is drawn"),
    "blind_steal": N_("a face-down card is stolen"),
    "first_captain": N_("the first Captain is drawn"),
}


# What the deciding player does for another ship (the Captain for the Ghost Ship, say).
FOR_SHIP_WORDS: Final = {
    "move": N_("moves {ship}"),
    "powder": N_("spends gunpowder for {ship}"),
    "spoils": N_("chooses the spoils for {ship}"),
    "attack": N_("chooses whom {ship} attacks"),
}


def turn_words(view: Mapping[str, Any], names: Sequence[str], _: Words = ENGLISH,
               for_ship: int = -1) -> Text:  # fmt: skip
    """Who is to do what, in words: "Anne Bonny chooses a card", "the combat die is rolled";
    "Anne Bonny moves the Ghost Ship" when the question is for another ship (`for_ship`: the
    rules' `question_ship`)."""
    pending = view["pending"]
    if view["game_over"]:
        return Text(_("the game is over"))
    kind = pending["kind"]
    words = _(TURN_WORDS[kind]) if kind in TURN_WORDS else kind
    who = pending["player"]
    if who is not None and 0 <= for_ship != who and kind in FOR_SHIP_WORDS:
        words = _(FOR_SHIP_WORDS[kind], ship=names[for_ship])
    if who is None:
        return Text(words)
    out = name_text(who, names[who], False)
    out.append(f" {words}")
    return out


def status_line(view: Mapping[str, Any], names: Sequence[str], width: int = 200,
                _: Words = ENGLISH, for_ship: int = -1) -> Text:  # fmt: skip
    """The header, in one line of `width`: the round, the Captain, the dice, and whose turn it
    is (shortened as needed: the title goes first, then the word "Captain")."""
    turn = Text("▸ ", style="bold")
    turn.append_text(turn_words(view, names, _, for_ship))
    dice = view["dice"]
    cap = view["captain"]
    for title, captain in ((True, True), (False, True), (False, False)):
        out = Text("Jamaica  " if title else "", style="bold")
        out.append(_("Round {round}", round=view["round"] or "—") + "  ")
        if view["round"]:
            out.append("⚑ " + _("Captain") + " " if captain else "⚑ ", STYLES["token"])
            out.append_text(name_text(cap, names[cap], False))
            out.append("  ")
        if dice["morning"]:
            out.append(f"☀{dice['morning']} ☾{dice['evening']}  ", "bold")
        out.append_text(turn)
        if out.cell_len <= width:
            return out
    out.truncate(width, overflow="ellipsis")
    return out
