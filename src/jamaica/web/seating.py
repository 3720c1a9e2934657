"""Who sits where at a table: the seat records a table keeps (and stores as JSON).

A seat is a dict: `name`, `bot` (a bot spec, None for a human seat), `token_hash` (an invite
link's secret, hashed), `player` (the player holding it), `kind` and `replaced`:

- `bot` — a bot plays it;
- `invite` — a private link (the token) opens it; a player who opens it may bind it (`claim`);
- `player` — a player holds it (they created the table, took an open seat, or accepted a rematch);
- `open` — anyone may take it from the lobby; the game waits until no seat is open;
- `reserved` — a rematch seat kept for a player until they accept or decline.

`replaced` marks a human seat a bot plays while its player is away (they can take it back).
"""

from __future__ import annotations

import unicodedata
from typing import Any

KINDS = ("bot", "invite", "player", "open", "reserved")
WAITING = ("open", "reserved")  # seats the game waits for
OPEN_NAME = "Open seat"


def kind(seat: dict[str, Any]) -> str:
    """The seat's kind (tables stored before kinds existed: bot or invite)."""
    k = seat.get("kind")
    if k in KINDS:
        return str(k)
    return "bot" if seat.get("bot") is not None else "invite"


def is_human(seat: dict[str, Any]) -> bool:
    return kind(seat) != "bot"


def bot_of(seat: dict[str, Any], stand_in: str) -> str | None:
    """What plays this seat in the engine's session: its bot, the stand-in while its player is
    away, or None (a human decides)."""
    if kind(seat) == "bot":
        return str(seat["bot"])
    return stand_in if seat.get("replaced") else None


def holder(seat: dict[str, Any]) -> str | None:
    """The player who holds the seat (sits there now), if any."""
    return seat.get("player") if kind(seat) in ("player", "invite") else None


# Letters of other scripts that look like Latin ones (the common cases of Unicode's confusables
# list): two names that differ only by these are the same name at a table.
_LOOKALIKES = str.maketrans(dict(zip(
    "авеікмнорстуххѕԁԛԝьαβεηικμνορτυχϲϳɡɑɩı",
    "abeikmhopctyxxsdqwbabehikmvoptuxcjgaii",
    strict=True,
)))
NAME_LENGTH = 24


def name_key(name: str) -> str:
    """What makes two names the same name at a table: compatibility forms (NFKC: full-width,
    ligatures, styled letters), case, accents, spaces and letters of other scripts that look
    like Latin ones do not count."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(ch for ch in text if not unicodedata.combining(ch) and not ch.isspace())
    return bare.translate(_LOOKALIKES)


def unique_name(name: str, seats: list[dict[str, Any]], seat: int) -> str:
    """`name`, or `name 2`, `name 3`… (the name shortened to make room, never past NAME_LENGTH)
    if another seat of the table has the same name (by `name_key`). Bounded: among `len(seats)`
    seats at most `len(seats)` names are taken, so one of the first `len(seats) + 1` numbers is
    free."""
    taken = {name_key(s["name"]) for i, s in enumerate(seats)
             if i != seat and kind(s) not in WAITING}  # fmt: skip
    if name_key(name) not in taken:
        return name
    for n in range(2, len(seats) + 3):
        suffix = f" {n}"
        candidate = name[: NAME_LENGTH - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in taken:
            return candidate
    raise AssertionError("unreachable: more names taken than seats")  # pragma: no cover


def public(seat: dict[str, Any], connected: bool) -> dict[str, Any]:
    """What anyone may know of a seat: never a player's id or a token."""
    k = kind(seat)
    return {
        "name": seat["name"],
        "kind": k,
        "bot": seat.get("bot"),
        "connected": connected if k != "bot" else True,
        "replaced": bool(seat.get("replaced")),
    }
