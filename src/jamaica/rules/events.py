"""Events: what happened, each with the audience allowed to see it, and its text in plain words.

An event is a tuple `(audience, code, *args)`: `audience` is a bit mask of the players who may
see it (all players for public events). Args are ints; their meaning is given per code below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .data import (
    CARD_NAMES,
    COMBAT_FACE_NAMES,
    GHOST_NAME,
    PIRATES,
    PORT,
    RESOURCE_NAMES,
    SEA,
    SHORTAGE_NAMES,
    SPACE_COST,
    SPACE_TYPE,
    SPACE_TYPE_NAMES,
    TREASURE_TITLES,
)

# code: (name, template). Args are named in the template: ship names are {0}, {1}… via helpers.
(
    E_START,
    E_DRAW,
    E_DRAW_SEEN,
    E_CAPTAIN,
    E_ROLL,
    E_DICE,
    E_CHOSE,
    E_CHOSE_SEEN,
    E_REVEAL,
    E_MOVE,
    E_FINISH,
    E_IGNORED,
    E_PAY,
    E_SHORTAGE,
    E_SHORTAGE_DIE,
    E_FALLBACK,
    E_LOAD,
    E_DUMP,
    E_LOAD_IGNORED,
    E_POWER,
    E_FACE_DOWN,
    E_FACE_DOWN_SEEN,
    E_BATTLE,
    E_POWDER,
    E_DIE,
    E_SABRE,
    E_WIN,
    E_TIE,
    E_TAKE,
    E_STEAL_POWER,
    E_STEAL_BLIND,
    E_STEAL_SEEN,
    E_GIVE,
    E_GIVE_SEEN,
    E_OVERBOARD,
    E_NOTHING,
    E_GHOST_DIRECTION,
    E_RESHUFFLE,
    E_HAND_FULL,
    E_GAME_END,
    E_ROUND,
    E_NO_TREASURE,
) = range(42)

EVENT_NAMES: Final = (
    "start",
    "draw",
    "draw_seen",
    "captain",
    "roll",
    "dice",
    "chose",
    "chose_seen",
    "reveal",
    "move",
    "finish",
    "ignored",
    "pay",
    "shortage",
    "shortage_die",
    "fallback",
    "load",
    "dump",
    "load_ignored",
    "power",
    "face_down",
    "face_down_seen",
    "battle",
    "powder",
    "die",
    "sabre",
    "win",
    "tie",
    "take",
    "steal_power",
    "steal_blind",
    "steal_seen",
    "give",
    "give_seen",
    "overboard",
    "nothing",
    "ghost_direction",
    "reshuffle",
    "hand_full",
    "game_end",
    "round",
    "no_treasure",
)

# The arguments of each event, by what they stand for (the ranges are in `invariants.py`):
# "players"/"ghost" the game's (E_START), "player" a seat, "ship" a ship (the Ghost Ship last),
# "card" an action card, "die" 1–6, "face" a combat die face, "symbol" a shortage symbol,
# "resource" food/gunpowder/doubloons, "count" tokens, "firepower", "hold" a hold slot, "space",
# "power" and "treasure" a treasure card's type, "cursed" a cursed one, "flag" 0 or 1, "why" the
# reason of the Ghost Ship's direction, "round", "last_round" (0: a ship finished), "cards" a hand
# size, "overboard" what went overboard (0 tokens, 1 a power, 2 a face-down card) and "thing"
# which (a resource, a power, or 0).
EVENT_ARGS: Final[tuple[tuple[str, ...], ...]] = (
    ("players", "ghost"),  # start
    ("player",),  # draw
    ("player", "card"),  # draw_seen
    ("player",),  # captain
    ("die", "die"),  # roll
    ("player", "die", "die"),  # dice
    ("player",),  # chose
    ("player", "card"),  # chose_seen
    ("player", "card"),  # reveal
    ("ship", "space", "space", "flag", "flag"),  # move: from, to, forward, crossed the line
    ("ship",),  # finish
    ("player",),  # ignored
    ("ship", "resource", "count", "space"),  # pay
    ("ship", "resource", "count", "count"),  # shortage: had, owed
    ("ship", "face", "symbol"),  # shortage_die
    ("ship", "space", "space"),  # fallback
    ("ship", "resource", "count", "hold"),  # load
    ("ship", "resource", "count", "hold"),  # dump
    ("ship", "resource", "count"),  # load_ignored
    ("ship", "power"),  # power
    ("ship",),  # face_down
    ("ship", "treasure"),  # face_down_seen
    ("ship", "ship", "space"),  # battle
    ("ship", "count"),  # powder
    ("ship", "face", "firepower"),  # die
    ("ship", "ship"),  # sabre
    ("ship", "ship"),  # win
    ("ship", "ship"),  # tie
    ("ship", "ship", "resource", "count"),  # take
    ("ship", "ship", "power"),  # steal_power
    ("ship", "ship"),  # steal_blind
    ("ship", "ship", "treasure"),  # steal_seen
    ("ship", "ship"),  # give
    ("ship", "ship", "cursed"),  # give_seen
    ("overboard", "thing"),  # overboard
    ("ship",),  # nothing
    ("flag", "why"),  # ghost_direction
    ("player",),  # reshuffle
    ("player", "cards"),  # hand_full
    ("last_round",),  # game_end
    ("round",),  # round
    ("ship",),  # no_treasure
)
assert len(EVENT_ARGS) == len(EVENT_NAMES)


def amount(count: int, resource: int) -> str:
    """ "1 doubloon", "3 doubloons", "2 food", "1 gunpowder"."""
    word = RESOURCE_NAMES[resource]
    return f"{count} {word[:-1] if count == 1 and word.endswith('s') else word}"


def hold_name(h: int) -> str:
    return "the 6th Hold" if h == 5 else f"hold {h + 1}"


def ship_name(ship: int, players: int) -> str:
    return GHOST_NAME if ship >= players else PIRATES[ship]


def space_words(space: int) -> str:
    t = SPACE_TYPE[space]
    if t == PORT:
        return f"space {space} (a {SPACE_COST[space]}-doubloon port)"
    if t == SEA:
        return f"space {space} (a {SPACE_COST[space]}-food sea space)"
    return f"space {space} ({SPACE_TYPE_NAMES[t]})"


CARD_WORDS: Final = {"food": "Food", "gun": "Gunpowder", "gold": "Doubloons", "fwd": "Forward",
                     "back": "Backward"}  # fmt: skip


def card_title(name: str) -> str:
    """An action card in words: "fwd-gun" → "Forward / Gunpowder"."""
    morning, evening = name.split("-")
    return f"{CARD_WORDS[morning]} / {CARD_WORDS[evening]}"


def describe(event: Sequence[int], players: int, names: Sequence[str] | None = None) -> str:
    """The event in plain words (a sentence: its first letter a capital); `names` (per ship)
    replaces the pirates' names."""
    text = _describe(event, players, names)
    return text[:1].upper() + text[1:]


def _describe(event: Sequence[int], players: int, names: Sequence[str] | None = None) -> str:
    code, a = event[1], event[2:]

    def n(i: int) -> str:
        return names[a[i]] if names is not None else ship_name(a[i], players)

    if code == E_START:
        return f"The race begins: {a[0]} players" + (" and the Ghost Ship" if a[1] else "") + "."
    if code == E_ROUND:
        return f"Round {a[0]} begins."
    if code == E_DRAW:
        return f"{n(0)} draws a card."
    if code == E_DRAW_SEEN:
        return f"{n(0)} draws {card_title(CARD_NAMES[a[1]])}."
    if code == E_CAPTAIN:
        return f"{n(0)} is the Captain."
    if code == E_ROLL:
        return f"The Captain rolls {a[0]} and {a[1]}."
    if code == E_DICE:
        return f"{n(0)} puts {a[1]} in the morning and {a[2]} in the evening."
    if code == E_CHOSE:
        return f"{n(0)} chooses a card."
    if code == E_CHOSE_SEEN:
        return f"{n(0)} chooses {card_title(CARD_NAMES[a[1]])}."
    if code == E_REVEAL:
        return f"{n(0)} reveals {card_title(CARD_NAMES[a[1]])}."
    if code == E_MOVE:
        way = "forward" if a[3] else "backward"
        crossed = " across the start line" if a[4] else ""
        return f"{n(0)} moves {way}{crossed} from space {a[1]} to {space_words(a[2])}."
    if code == E_FINISH:
        return f"{n(0)} completes the lap and reaches Port Royal: this is the last round."
    if code == E_IGNORED:
        return f"{n(0)} has finished; the evening action is ignored."
    if code == E_PAY:
        return f"{n(0)} pays {amount(a[2], a[1])} for space {a[3]}."
    if code == E_SHORTAGE:
        return f"Shortage! {n(0)} owes {amount(a[3], a[1])} but has only {a[2]}, and pays it all."
    if code == E_SHORTAGE_DIE:
        return f"{n(0)} rolls the shortage die: {COMBAT_FACE_NAMES[a[1]]} ({SHORTAGE_NAMES[a[2]]})."
    if code == E_FALLBACK:
        return f"{n(0)} falls back from space {a[1]} to {space_words(a[2])}."
    if code == E_LOAD:
        return f"{n(0)} loads {amount(a[2], a[1])} into {hold_name(a[3])}."
    if code == E_DUMP:
        return f"{n(0)} empties {hold_name(a[3])} ({amount(a[2], a[1])}) to make room."
    if code == E_LOAD_IGNORED:
        return f"{n(0)} has no hold for {amount(a[2], a[1])}: it goes back to the bank."
    if code == E_POWER:
        return f"{n(0)} finds {TREASURE_TITLES[a[1]]}!"
    if code == E_FACE_DOWN:
        return f"{n(0)} finds a face-down treasure card."
    if code == E_FACE_DOWN_SEEN:
        return f"{n(0)}'s face-down treasure is {TREASURE_TITLES[a[1]]}."
    if code == E_NO_TREASURE:
        return f"{n(0)} finds the lair already looted."
    if code == E_BATTLE:
        return f"Battle! {n(0)} attacks {n(1)} on space {a[2]}."
    if code == E_POWDER:
        return f"{n(0)} spends {a[1]} gunpowder."
    if code == E_DIE:
        if a[1] == 5:
            return f"{n(0)} rolls the star!"
        return f"{n(0)} rolls {COMBAT_FACE_NAMES[a[1]]}: firepower {a[2]}."
    if code == E_SABRE:
        return f"{n(0)} uses Saran's Sabre: {n(1)} must roll again."
    if code == E_WIN:
        return f"{n(0)} wins the battle against {n(1)}."
    if code == E_TIE:
        return f"The battle between {n(0)} and {n(1)} is a tie: nothing happens."
    if code == E_TAKE:
        return f"{n(0)} takes {amount(a[3], a[2])} from {n(1)}."
    if code == E_STEAL_POWER:
        return f"{n(0)} steals {TREASURE_TITLES[a[2]]} from {n(1)}."
    if code == E_STEAL_BLIND:
        return f"{n(0)} steals a face-down treasure card from {n(1)}."
    if code == E_STEAL_SEEN:
        return f"The card {n(0)} stole from {n(1)} is {TREASURE_TITLES[a[2]]}."
    if code == E_GIVE:
        return f"{n(0)} gives {n(1)} a cursed treasure."
    if code == E_GIVE_SEEN:
        return f"The cursed treasure {n(0)} gave {n(1)} is {TREASURE_TITLES[a[2]]}."
    if code == E_OVERBOARD:
        return f"The Ghost Ship throws {_overboard_words(a[0], a[1])} overboard."
    if code == E_NOTHING:
        return f"{n(0)} takes nothing."
    if code == E_GHOST_DIRECTION:
        why = ("it is alone in the lead", "it is alone in last place", "the Captain chooses")[a[1]]
        return f"The Ghost Ship moves {'forward' if a[0] else 'backward'} ({why})."
    if code == E_RESHUFFLE:
        return f"{n(0)} shuffles the discard pile into a new draw pile."
    if code == E_HAND_FULL:
        return f"{n(0)} holds {a[1]} cards and draws none."
    if code == E_GAME_END:
        reason = "a ship finished the race" if a[0] == 0 else f"the {a[0]}-round limit was reached"
        return f"The game ends: {reason}."
    return EVENT_NAMES[code]


def _overboard_words(kind: int, what: int) -> str:
    if kind == 0:  # resources: what = resource type
        return f"the stolen {RESOURCE_NAMES[what]}"
    if kind == 1:
        return TREASURE_TITLES[what]
    return "a face-down treasure card"
