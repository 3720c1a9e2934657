"""The game's components as data (RULES.md §1–§2).

Everything an edition or a board correction would change lives here, as tuples and constants;
the engine reads these tables and holds no rule data of its own.
"""

from __future__ import annotations

from typing import Final

# --- resources and hold contents -----------------------------------------------------------------
EMPTY: Final = 0
FOOD: Final = 1
GUNPOWDER: Final = 2
GOLD: Final = 3
RESOURCE_NAMES: Final = ("empty", "food", "gunpowder", "doubloons")
RESOURCE_SHORT: Final = ("-", "food", "powder", "gold")

HOLDS: Final = 5  # regular holds per ship
SIXTH: Final = 5  # index of the 6th Hold slot (usable only by the owner of the 6th Hold card)
SLOTS: Final = 6  # hold slots stored per ship
# Tokens in one hold: a load is at most a die's 6 and never adds to what a hold has, so play never
# comes near this bound; it only keeps a loaded state's numbers sane.
MAX_HOLD: Final = 99

# --- action cards (morning icon, evening icon) ---------------------------------------------------
# Icons: a resource code (FOOD, GUNPOWDER, GOLD) loads; FORWARD / BACKWARD move.
FORWARD: Final = 4
BACKWARD: Final = 5
ICON_NAMES: Final = ("", "food", "gun", "gold", "fwd", "back")

CARDS: Final[tuple[tuple[int, int], ...]] = (
    (FOOD, FORWARD),
    (FORWARD, FORWARD),
    (FORWARD, BACKWARD),
    (BACKWARD, FORWARD),
    (FORWARD, GUNPOWDER),
    (GUNPOWDER, GOLD),
    (GOLD, GOLD),
    (GOLD, FORWARD),
    (FORWARD, FOOD),
    (FOOD, GUNPOWDER),
    (GUNPOWDER, FOOD),
)
NUM_CARDS: Final = len(CARDS)
ALL_CARDS_MASK: Final = (1 << NUM_CARDS) - 1
CARD_NAMES: Final = tuple(f"{ICON_NAMES[m]}-{ICON_NAMES[e]}" for m, e in CARDS)
HAND_LIMIT: Final = 3
HAND_LIMIT_WITH_MAP: Final = 4

# --- treasure cards ------------------------------------------------------------------------------
# Types 0-3 are powers (face up), 4-9 face-down treasures with their score value.
MAP: Final = 0
SABRE: Final = 1
LADY_BETH: Final = 2
HOLD6: Final = 3
NUM_POWERS: Final = 4
TREASURE_NAMES: Final = ("map", "sabre", "beth", "hold6", "+3", "+5", "+7", "-2", "-3", "-4")
TREASURE_TITLES: Final = (
    "Morgan's Map",
    "Saran's Sabre",
    "Lady Beth",
    "6th Hold",
    "a +3 treasure",
    "a +5 treasure",
    "a +7 treasure",
    "a −2 cursed treasure",
    "a −3 cursed treasure",
    "a −4 cursed treasure",
)
TREASURE_VALUES: Final = (0, 0, 0, 0, 3, 5, 7, -2, -3, -4)
TREASURE_COUNTS: Final = (1, 1, 1, 1, 2, 1, 2, 1, 1, 1)  # 12 cards
NUM_TREASURE_TYPES: Final = len(TREASURE_NAMES)
CURSED: Final = (7, 8, 9)
LAIRS_TOTAL: Final = 9  # one treasure token per lair, one treasure card per token
LADY_BETH_BONUS: Final = 2

# What the public knows of a face-down card's type (used for fair determinization).
CLASS_ANY: Final = 0  # e.g. drawn by the Ghost Ship, unseen by all
CLASS_TREASURE: Final = 1  # drawn by a player: not a power (powers are shown)
CLASS_CURSED: Final = 2  # given as a cursed treasure


def is_power(treasure_type: int) -> bool:
    return treasure_type < NUM_POWERS


def in_class(treasure_type: int, klass: int) -> bool:
    if klass == CLASS_CURSED:
        return treasure_type in CURSED
    if klass == CLASS_TREASURE:
        return treasure_type >= NUM_POWERS
    return True


# --- dice ----------------------------------------------------------------------------------------
STAR: Final = 0  # combat die value for the star face
COMBAT_FACES: Final = (2, 4, 6, 8, 10, STAR)
COMBAT_FACE_NAMES: Final = ("2", "4", "6", "8", "10", "star")
# Shortage symbols of the 2021 edition (RULES §1: kept in one place so it can be corrected).
SHORT_PORT: Final = 0
SHORT_SEA: Final = 1
SHORT_LAIR: Final = 2
SHORT_STAY: Final = 3
SHORTAGE_SYMBOLS: Final = (SHORT_PORT, SHORT_SEA, SHORT_LAIR, SHORT_PORT, SHORT_SEA, SHORT_STAY)
SHORTAGE_NAMES: Final = ("port", "sea", "lair", "stay")

# --- board (RULES §2) ----------------------------------------------------------------------------
PORT_ROYAL: Final = 0
SEA: Final = 1
PORT: Final = 2
LAIR: Final = 3
SPACE_TYPE_NAMES: Final = ("Port Royal", "sea", "port", "lair")
NO_SCORE: Final = -5
FINISH_SCORE: Final = 15

# (type, cost, score, next spaces); score None means the −5 of "every space without one".
BOARD: Final[tuple[tuple[int, int, int, tuple[int, ...]], ...]] = (
    (PORT_ROYAL, 0, NO_SCORE, (1,)),  # 0  start and finish (15 if finished)
    (SEA, 2, NO_SCORE, (2,)),  # 1
    (SEA, 3, NO_SCORE, (3,)),  # 2
    (SEA, 2, NO_SCORE, (4,)),  # 3
    (LAIR, 0, NO_SCORE, (5,)),  # 4
    (PORT, 3, NO_SCORE, (6,)),  # 5
    (PORT, 5, NO_SCORE, (7, 13)),  # 6  fork 1
    (SEA, 2, NO_SCORE, (8,)),  # 7  fork 1 outer
    (SEA, 3, NO_SCORE, (9,)),  # 8
    (LAIR, 0, NO_SCORE, (10,)),  # 9
    (SEA, 3, NO_SCORE, (11,)),  # 10
    (LAIR, 0, NO_SCORE, (12,)),  # 11
    (SEA, 2, NO_SCORE, (15,)),  # 12
    (SEA, 3, NO_SCORE, (14,)),  # 13 fork 1 inner
    (SEA, 4, NO_SCORE, (15,)),  # 14
    (SEA, 3, NO_SCORE, (16,)),  # 15 lanes merge
    (PORT, 3, NO_SCORE, (17,)),  # 16
    (SEA, 2, NO_SCORE, (18,)),  # 17
    (PORT, 3, NO_SCORE, (19,)),  # 18
    (LAIR, 0, NO_SCORE, (20, 26)),  # 19 fork 2
    (SEA, 3, NO_SCORE, (21,)),  # 20 fork 2 outer
    (PORT, 3, NO_SCORE, (22,)),  # 21
    (LAIR, 0, NO_SCORE, (23,)),  # 22
    (SEA, 2, NO_SCORE, (24,)),  # 23
    (SEA, 3, NO_SCORE, (25,)),  # 24
    (LAIR, 0, NO_SCORE, (28,)),  # 25
    (SEA, 4, NO_SCORE, (27,)),  # 26 fork 2 inner
    (SEA, 4, NO_SCORE, (28,)),  # 27
    (PORT, 5, NO_SCORE, (29,)),  # 28 lanes merge
    (SEA, 1, NO_SCORE, (30,)),  # 29
    (PORT, 5, NO_SCORE, (31,)),  # 30 cost to be re-checked against a board
    (PORT, 3, NO_SCORE, (32,)),  # 31 cost to be re-checked against a board
    (SEA, 3, NO_SCORE, (33, 39)),  # 32 fork 3
    (LAIR, 0, NO_SCORE, (34,)),  # 33 fork 3 outer
    (PORT, 3, NO_SCORE, (35,)),  # 34 cost to be re-checked
    (SEA, 2, NO_SCORE, (36,)),  # 35
    (SEA, 1, NO_SCORE, (37,)),  # 36
    (LAIR, 0, NO_SCORE, (38,)),  # 37
    (SEA, 1, NO_SCORE, (41,)),  # 38 the red −5
    (SEA, 4, NO_SCORE, (40,)),  # 39 fork 3 inner
    (SEA, 4, NO_SCORE, (41,)),  # 40
    (PORT, 5, 2, (42,)),  # 41 lanes merge; first space past the red line
    (SEA, 2, 3, (43,)),  # 42
    (SEA, 3, 4, (44,)),  # 43
    (LAIR, 0, 5, (45,)),  # 44
    (PORT, 7, 6, (46,)),  # 45
    (SEA, 2, 7, (47,)),  # 46
    (SEA, 3, 8, (48,)),  # 47
    (SEA, 3, 9, (49,)),  # 48
    (SEA, 3, 10, (0,)),  # 49
)
NUM_SPACES: Final = len(BOARD)
SPACE_TYPE: Final = tuple(b[0] for b in BOARD)
SPACE_COST: Final = tuple(b[1] for b in BOARD)
SPACE_SCORE: Final = tuple(b[2] for b in BOARD)
SPACE_NEXT: Final = tuple(b[3] for b in BOARD)
LAIR_SPACES: Final = tuple(i for i, b in enumerate(BOARD) if b[0] == LAIR)
RED_LINE_SPACE: Final = 38
SHORTEST_LAP: Final = 32
LONGEST_LAP: Final = 44

# --- players -------------------------------------------------------------------------------------
PIRATES: Final = (
    "Anne Bonny",
    "Mary Read",
    "John Rackham",
    "Olivier Levasseur",
    "Samuel Bellamy",
    "Edward Drummond",
)
GHOST_NAME: Final = "the Ghost Ship"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
START_FOOD: Final = 3
START_GOLD: Final = 3
GHOST_GOLD: Final = (5, 3)
