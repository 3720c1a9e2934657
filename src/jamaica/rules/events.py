"""Events: what happened, each with the audience allowed to see it, and its text in plain words.

An event is a tuple `(audience, code, *args)`: `audience` is a bit mask of the players who may
see it (all players for public events). Args are ints; their meaning is given per code below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import phrases as words
from .data import CARD_NAMES, GHOST_NAME, PIRATES
from .phrases import ENGLISH, N_, Translations, contract

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

# What befell a ship while others played, by the event's argument that names that ship: attacked,
# beaten, robbed (goods, a power, a card), given a cursed treasure, short of food or doubloons and
# falling back. Not what a ship did itself (the spoils it took), nor news of another ship. Front
# ends keep these in view for the ship's player (the terminal's log panel).
BEFELL: Final[dict[str, int]] = {
    "battle": 1, "win": 1, "tie": 1, "take": 1, "steal_power": 1, "steal_blind": 1,
    "steal_seen": 1, "give": 1, "give_seen": 1, "shortage": 0, "fallback": 0,
}  # fmt: skip
assert all(EVENT_ARGS[EVENT_NAMES.index(k)][i] == "ship" for k, i in BEFELL.items())


def amount(count: int, resource: int) -> str:
    """ "1 doubloon", "3 doubloons", "2 food", "1 gunpowder"."""
    return words.amount(count, resource)


def hold_name(h: int) -> str:
    return words.hold(h)


def ship_name(ship: int, players: int) -> str:
    return GHOST_NAME if ship >= players else PIRATES[ship]


def space_words(space: int) -> str:
    return words.space(space)


def card_title(name: str) -> str:
    """An action card in words: "fwd-gun" → "Forward / Gunpowder"."""
    return words.card(name)


def describe(
    event: Sequence[int], players: int, names: Sequence[str] | None = None,
    t: Translations = ENGLISH,
) -> str:  # fmt: skip
    """The event in plain words (a sentence: its first letter a capital); `names` (per ship)
    replaces the pirates' names (never translated); `t` says it in another language (a
    `gettext` catalog: `jamaica.i18n.events`)."""
    text = contract(_describe(event, players, names, t))
    text = text[:1].upper() + text[1:]
    # "Battle! The Ghost Ship attacks…": a sentence after an exclamation starts with a capital
    for mark in ("! ", "!\u202f", "\u202f! "):
        i = text.find(mark)
        if i >= 0:
            j = i + len(mark)
            text = text[:j] + text[j : j + 1].upper() + text[j + 1 :]
    return text


def _describe(
    event: Sequence[int], players: int, names: Sequence[str] | None, t: Translations
) -> str:
    code, a = event[1], event[2:]

    def g(message: str) -> words.Elided:  # the template: elides "de" before a vowel, filled
        return words.Elided(t.gettext(message))

    def n(i: int) -> str:
        if names is not None:
            return names[a[i]]
        return t.gettext(words.GHOST) if a[i] >= players else PIRATES[a[i]]

    def card(i: int) -> str:
        return words.card(CARD_NAMES[a[i]], t)

    if code == E_START:
        if a[1]:
            return g(N_("the race begins: {players} players and the Ghost Ship.")).format(
                players=a[0])
        return g(N_("the race begins: {players} players.")).format(players=a[0])
    if code == E_ROUND:
        return g(N_("round {round} begins.")).format(round=a[0])
    if code == E_DRAW:
        return g(N_("{ship} draws a card.")).format(ship=n(0))
    if code == E_DRAW_SEEN:
        return g(N_("{ship} draws {card}.")).format(ship=n(0), card=card(1))
    if code == E_CAPTAIN:
        return g(N_("{ship} is the Captain.")).format(ship=n(0))
    if code == E_ROLL:
        return g(N_("the Captain rolls {a} and {b}.")).format(a=a[0], b=a[1])
    if code == E_DICE:
        return g(N_("{ship} puts {morning} in the morning and {evening} in the evening.")).format(
            ship=n(0), morning=a[1], evening=a[2])
    if code == E_CHOSE:
        return g(N_("{ship} chooses a card.")).format(ship=n(0))
    if code == E_CHOSE_SEEN:
        return g(N_("{ship} chooses {card}.")).format(ship=n(0), card=card(1))
    if code == E_REVEAL:
        return g(N_("{ship} reveals {card}.")).format(ship=n(0), card=card(1))
    if code == E_MOVE:
        if a[3]:
            said = (N_("{ship} moves forward across the start line from space {start} to {to}.")
                    if a[4] else N_("{ship} moves forward from space {start} to {to}."))
        else:
            said = (N_("{ship} moves backward across the start line from space {start} to {to}.")
                    if a[4] else N_("{ship} moves backward from space {start} to {to}."))
        return g(said).format(ship=n(0), start=a[1], to=words.space(a[2], t))
    if code == E_FINISH:
        return g(N_("{ship} completes the lap and reaches Port Royal: this is the last round."
                    )).format(ship=n(0))  # fmt: skip
    if code == E_IGNORED:
        return g(N_("{ship} has finished; the evening action is ignored.")).format(ship=n(0))
    if code == E_PAY:
        return g(N_("{ship} must pay {amount} for space {space}.")).format(
            ship=n(0), amount=words.amount(a[2], a[1], t), space=a[3])
    if code == E_SHORTAGE:
        return g(N_("shortage! {ship} owes {amount} but has only {has}, and pays it all.")).format(
            ship=n(0), amount=words.amount(a[3], a[1], t), has=a[2])
    if code == E_SHORTAGE_DIE:
        return g(N_("{ship} rolls the shortage die: {face} ({symbol}).")).format(
            ship=n(0), face=t.gettext(words.COMBAT_FACES[a[1]]),
            symbol=t.gettext(words.SHORTAGES[a[2]]))
    if code == E_FALLBACK:
        return g(N_("{ship} falls back from space {start} to {to}.")).format(
            ship=n(0), start=a[1], to=words.space(a[2], t))
    if code == E_LOAD:
        return g(N_("{ship} loads {amount} into {hold}.")).format(
            ship=n(0), amount=words.amount(a[2], a[1], t), hold=words.hold(a[3], t))
    if code == E_DUMP:
        return g(N_("{ship} empties {hold} ({amount}) to make room.")).format(
            ship=n(0), hold=words.hold(a[3], t), amount=words.amount(a[2], a[1], t))
    if code == E_LOAD_IGNORED:
        return g(N_("{ship} has no hold for {amount}: it goes back to the bank.")).format(
            ship=n(0), amount=words.amount(a[2], a[1], t))
    if code == E_POWER:
        return g(N_("{ship} finds {treasure}!")).format(ship=n(0),
                                                        treasure=t.gettext(words.TREASURES[a[1]]))
    if code == E_FACE_DOWN:
        return g(N_("{ship} finds a face-down treasure card.")).format(ship=n(0))
    if code == E_FACE_DOWN_SEEN:
        return g(N_("{ship}'s face-down treasure is {treasure}.")).format(
            ship=n(0), treasure=t.gettext(words.TREASURES[a[1]]))
    if code == E_NO_TREASURE:
        return g(N_("{ship} finds the lair already looted.")).format(ship=n(0))
    if code == E_BATTLE:
        return g(N_("battle! {ship} attacks {other} on space {space}.")).format(
            ship=n(0), other=n(1), space=a[2])
    if code == E_POWDER:
        return g(N_("{ship} spends {count} gunpowder.")).format(ship=n(0), count=a[1])
    if code == E_DIE:
        if a[1] == 5:
            return g(N_("{ship} rolls the star!")).format(ship=n(0))
        if a[0] >= players:  # §10: the Ghost Ship holds Lady Beth and has no gunpowder
            return g(N_("{ship} rolls {face}: firepower {power} (Lady Beth: +2).")).format(
                ship=n(0), face=t.gettext(words.COMBAT_FACES[a[1]]), power=a[2])
        return g(N_("{ship} rolls {face}: firepower {power}.")).format(
            ship=n(0), face=t.gettext(words.COMBAT_FACES[a[1]]), power=a[2])
    if code == E_SABRE:
        return g(N_("{ship} uses Saran's Sabre: {other} must roll again.")).format(
            ship=n(0), other=n(1))
    if code == E_WIN:
        return g(N_("{ship} wins the battle against {other}.")).format(ship=n(0), other=n(1))
    if code == E_TIE:
        return g(N_("the battle between {ship} and {other} is a tie: nothing happens.")).format(
            ship=n(0), other=n(1))
    if code == E_TAKE:
        return g(N_("{ship} takes {amount} from {other}.")).format(
            ship=n(0), amount=words.amount(a[3], a[2], t), other=n(1))
    if code == E_STEAL_POWER:
        return g(N_("{ship} steals {treasure} from {other}.")).format(
            ship=n(0), treasure=t.gettext(words.TREASURES[a[2]]), other=n(1))
    if code == E_STEAL_BLIND:
        return g(N_("{ship} steals a face-down treasure card from {other}.")).format(
            ship=n(0), other=n(1))
    if code == E_STEAL_SEEN:
        return g(N_("the card {ship} stole from {other} is {treasure}.")).format(
            ship=n(0), other=n(1), treasure=t.gettext(words.TREASURES[a[2]]))
    if code == E_GIVE:
        return g(N_("{ship} gives {other} a cursed treasure.")).format(ship=n(0), other=n(1))
    if code == E_GIVE_SEEN:
        return g(N_("the cursed treasure {ship} gave {other} is {treasure}.")).format(
            ship=n(0), other=n(1), treasure=t.gettext(words.TREASURES[a[2]]))
    if code == E_OVERBOARD:
        return g(N_("the Ghost Ship throws {what} overboard.")).format(
            what=_overboard(a[0], a[1], t))
    if code == E_NOTHING:
        return g(N_("{ship} takes nothing.")).format(ship=n(0))
    if code == E_GHOST_DIRECTION:
        why = t.gettext((N_("it is alone in the lead"), N_("it is alone in last place"),
                 N_("the Captain chooses"))[a[1]])  # fmt: skip
        if a[0]:
            return g(N_("the Ghost Ship moves forward ({why}).")).format(why=why)
        return g(N_("the Ghost Ship moves backward ({why}).")).format(why=why)
    if code == E_RESHUFFLE:
        return g(N_("{ship} shuffles the discard pile into a new draw pile.")).format(ship=n(0))
    if code == E_HAND_FULL:
        return g(N_("{ship} holds {count} cards and draws none.")).format(ship=n(0), count=a[1])
    if code == E_GAME_END:
        if a[0] == 0:
            return t.gettext(N_("the game ends: a ship finished the race."))
        return g(N_("the game ends: the {limit}-round limit was reached.")).format(limit=a[0])
    return EVENT_NAMES[code]


def _overboard(kind: int, what: int, t: Translations) -> str:
    if kind == 0:  # resources: what = resource type
        return t.gettext(words.STOLEN[what])
    if kind == 1:
        return t.gettext(words.TREASURES[what])
    return t.gettext(N_("a face-down treasure card"))
