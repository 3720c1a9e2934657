"""Text pictures of the game for the terminal, drawn from a player's view (`State.view`), so they
can only show what that player may see. Rich markup, no Textual."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from ..rules.data import (
    CARD_NAMES,
    CARDS,
    ICON_NAMES,
    LAIR,
    PORT,
    PORT_ROYAL,
    RED_LINE_SPACE,
    SPACE_COST,
    SPACE_SCORE,
    SPACE_TYPE,
    TREASURE_NAMES,
    TREASURE_TITLES,
)

COLOURS = ("red", "dodger_blue1", "green3", "yellow", "magenta", "cyan", "grey70")
_ICON = {"food": "food", "gun": "powder", "gold": "gold", "fwd": "fwd →", "back": "← back"}

# The track as the board shows it: a line per stretch, forks as an outer lane over an inner channel.
TRACK: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("", (0, 1, 2, 3, 4, 5, 6)),
    ("  ├─ outer", (7, 8, 9, 10, 11, 12)),
    ("  └─ inner", (13, 14)),
    ("", (15, 16, 17, 18, 19)),
    ("  ├─ outer", (20, 21, 22, 23, 24, 25)),
    ("  └─ inner", (26, 27)),
    ("", (28, 29, 30, 31, 32)),
    ("  ├─ outer", (33, 34, 35, 36, 37, 38)),
    ("  └─ inner", (39, 40)),
    ("", (41, 42, 43, 44, 45, 46, 47, 48, 49)),
)


def tag(ship: int, name: str) -> str:
    initials = "".join(w[0] for w in name.split()[:2]).upper() or "?"
    return f"[bold {COLOURS[min(ship, 6)]}]{escape(initials)}[/]"


def space_cell(space: int, tokens: Sequence[int]) -> str:
    kind = SPACE_TYPE[space]
    if kind == PORT_ROYAL:
        text = "[bold]Port Royal[/]"
    elif kind == LAIR:
        text = f"{space:>2} [b]☠[/]" + ("[yellow]✦[/]" if space in tokens else " ")
    elif kind == PORT:
        text = f"{space:>2} [gold1]${SPACE_COST[space]}[/]"
    else:
        text = f"{space:>2} [cyan]~{SPACE_COST[space]}[/]"
    if SPACE_SCORE[space] > 0:
        text += f"[dim]({SPACE_SCORE[space]})[/]"
    if space == RED_LINE_SPACE:
        text += "[red]|-5[/]"
    return text


def board(view: dict[str, Any], names: Sequence[str]) -> str:
    """The island track: every space with its type and cost (~ food, $ doubloons, ☠ lair, ✦ its
    treasure token still there), the forks, the score numbers, and the ships."""
    tokens = view["lair_tokens"]
    where: dict[int, list[str]] = {}
    for ship in view["ships"]:
        where.setdefault(ship["space"], []).append(tag(ship["ship"], names[ship["ship"]]))
    lines = []
    for label, spaces in TRACK:
        cells = []
        for space in spaces:
            ships = "".join(where.get(space, []))
            cells.append(space_cell(space, tokens) + (f" {ships}" if ships else ""))
        lines.append((f"[dim]{label}[/] " if label else "") + " · ".join(cells))
    lines.append("[dim]~ sea (food)  $ port (doubloons)  ☠ lair (✦ treasure left)  (n) score[/]")
    return "\n".join(lines)


def holds_text(holds: Sequence[dict[str, Any]]) -> str:
    parts = []
    for h in holds:
        if h["count"]:
            colour = {"food": "green", "powder": "red", "gold": "gold1"}[h["type"]]
            parts.append(f"[{colour}]{h['count']} {h['type']}[/]")
        else:
            parts.append("[dim]—[/]")
    return " │ ".join(parts)


def ships_panel(view: dict[str, Any], names: Sequence[str]) -> str:
    """Each ship: place, holds, powers, treasures, cards."""
    lines = []
    captain = view["captain"]
    for ship in view["ships"]:
        k = ship["ship"]
        head = f"{tag(k, names[k])} [b]{escape(names[k])}[/]"
        if k == captain:
            head += " [yellow]🧭 Captain[/]"
        place = "finished!" if ship["finished"] else f"space {ship['space']}"
        if ship["lap"] < 0:
            place += " (behind the start line)"
        head += f" — {place}, {ship['moves_left']} moves to go"
        lines.append(head)
        lines.append("   holds: " + holds_text(ship["holds"]))
        extras = []
        if ship["powers"]:
            names_ = [TREASURE_TITLES[TREASURE_NAMES.index(p)] for p in ship["powers"]]
            extras.append("powers: " + ", ".join(names_))
        if ship["face_down"]:
            known = ship["face_down_known"]
            text = f"{ship['face_down']} face-down treasure(s)"
            if known:
                text += " (" + ", ".join(known) + ")"
            extras.append(text)
        if not ship["ghost"]:
            extras.append(
                f"cards: {ship['hand_size']} in hand, {ship['draw_pile']} to draw"
                + (" — chosen" if ship["has_chosen"] else "")
            )
            if ship["discard"]:
                extras.append("played: " + ", ".join(ship["discard"]))
        if extras:
            lines.append("   " + "; ".join(extras))
    return "\n".join(lines)


def card_text(name: str) -> str:
    m, e = CARDS[CARD_NAMES.index(name)]
    return f"☀ {_ICON[ICON_NAMES[m]]} / ☾ {_ICON[ICON_NAMES[e]]}"


def hand_panel(view: dict[str, Any]) -> str:
    """Your own hand (cards with their morning and evening icons), dice and discards."""
    dice = view["dice"]
    lines = []
    if dice["morning"]:
        lines.append(f"Dice: ☀ morning [b]{dice['morning']}[/]   ☾ evening [b]{dice['evening']}[/]")
    elif dice["roll"]:
        lines.append(f"Dice rolled: {dice['roll'][0]} and {dice['roll'][1]}")
    if "hand" in view:
        me = view["player"]
        cards = [f"[b]{c}[/] ({card_text(c)})" for c in view["hand"]]
        lines.append("Your hand: " + ("  ".join(cards) if cards else "—"))
        if view.get("chosen"):
            lines.append(f"Your chosen card: [b]{view['chosen']}[/]")
        discards = view["ships"][me]["discard"]
        lines.append("Your discards: " + (", ".join(discards) if discards else "—"))
    return "\n".join(lines)


def battle_panel(view: dict[str, Any], names: Sequence[str]) -> str:
    """Both sides' firepower as the battle goes."""
    b = view["battle"]
    if b is None:
        return ""
    faces = ("2", "4", "6", "8", "10", "★")
    values = (2, 4, 6, 8, 10, 0)

    def side(ship: int, powder: int, die: int) -> str:
        beth = 2 if "beth" in view["ships"][ship]["powers"] else 0
        if die < 0:
            return f"{escape(names[ship])}: {powder} gunpowder" + (" +2 Lady Beth" if beth else "")
        if die == 5:
            return f"{escape(names[ship])}: rolled the ★ star!"
        fire = values[die] + powder + beth
        return (
            f"{escape(names[ship])}: die {faces[die]} + {powder} gunpowder"
            + (" + 2 Lady Beth" if beth else "")
            + f" = [b]{fire}[/]"
        )

    return (
        "[b red]⚔ Battle[/]  "
        + side(b["attacker"], b["attacker_powder"], b["attacker_die"])
        + "   vs   "
        + side(b["defender"], b["defender_powder"], b["defender_die"])
    )


def score_rows(view: dict[str, Any], names: Sequence[str]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    winners = view.get("winners", [])
    for k, sc in enumerate(view.get("scores", [])):
        mark = "🏆 winner" if k in winners else ""
        rows.append(
            (names[k], str(sc["position"]), str(sc["doubloons"]), str(sc["treasures"]),
             str(sc["total"]), mark)
        )  # fmt: skip
    return rows

