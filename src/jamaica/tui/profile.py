"""The local profile of `jamaica play`: how you did against each bot, kept between games.

One JSON file, `profile.json`, in the user's data directory as the platform has it (`platformdirs`
when installed: `~/.local/share/jamaica` on Linux, `~/Library/Application Support/jamaica` on
macOS, `%LOCALAPPDATA%\\jamaica` on Windows; without it `$XDG_DATA_HOME/jamaica` or
`~/.local/share/jamaica`), or in `$JAMAICA_DATA_DIR` when that is set. It is written whole to a
temporary file beside it and renamed over it, so a crash leaves the old profile or the new one,
never half of one; a file that cannot be read is kept as it is and not written over.

A finished game is recorded once (its id is remembered) when exactly one seat is a human's: for
each bot at the table, by its name (`easy`, `medium`, `hard`, or any bot spec), the games, the
times you finished ahead of it, level with it (a shared place, R8) and behind it — a game with two
`hard` bots meets `hard` twice — and your places by number of players.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import Words
from ..ratings.places import places_of
from ..session import GameSession

ENGLISH = Words()

ENV = "JAMAICA_DATA_DIR"
FILE = "profile.json"
VERSION = 1
KEEP = 2000  # game ids remembered: a game is never counted twice


class ProfileError(ValueError):
    """A profile file that cannot be read: not JSON, or not a profile."""


def data_dir() -> Path:
    """Where the profile lives: `$JAMAICA_DATA_DIR`, else the platform's user data directory."""
    given = os.environ.get(ENV)
    if given:
        return Path(given)
    try:
        import platformdirs
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "jamaica"
    return Path(platformdirs.user_data_dir("jamaica", appauthor=False))


def profile_path() -> Path:
    return data_dir() / FILE


@dataclass
class Against:
    """Your results against one bot."""

    games: int = 0  # games with this bot at the table
    met: int = 0  # its seats you played against (two at one table count twice)
    ahead: int = 0  # finished ahead of it
    level: int = 0  # shared a place with it
    places: dict[int, list[int]] = field(default_factory=dict)  # players -> times 1st, 2nd, …

    def to_dict(self) -> dict[str, Any]:
        places = {str(n): counts for n, counts in sorted(self.places.items())}
        return {"games": self.games, "met": self.met, "ahead": self.ahead, "level": self.level,
                "places": places}  # fmt: skip

    @staticmethod
    def from_dict(d: Any) -> Against:
        if not isinstance(d, dict):
            raise ProfileError(f"results against a bot are an object, not {d!r:.60}")
        counts = {k: d.get(k, 0) for k in ("games", "met", "ahead", "level")}
        places = d.get("places", {})
        if not (all(isinstance(v, int) and v >= 0 for v in counts.values())
                and isinstance(places, dict)):  # fmt: skip
            raise ProfileError(f"bad results against a bot: {d!r:.80}")
        out = Against(**counts, places={})
        for n, row in places.items():
            if not (str(n).isdigit() and isinstance(row, list) and len(row) == int(n)
                    and all(isinstance(v, int) and v >= 0 for v in row)):  # fmt: skip
                raise ProfileError(f"bad places for {n!r} players: {row!r:.60}")
            out.places[int(n)] = row
        return out


@dataclass
class Profile:
    against: dict[str, Against] = field(default_factory=dict)  # by bot name
    recorded: list[str] = field(default_factory=list)  # ids of the games counted, newest last

    def add(self, game: str, place: int, players: int, bots: list[tuple[str, int]]) -> bool:
        """Count one finished game: your `place` of `players`, and each bot seat's (name,
        place). False, and nothing changed, if the game was counted already."""
        if game in self.recorded:
            return False
        self.recorded = [*self.recorded, game][-KEEP:]
        for name in dict.fromkeys(name for name, _ in bots):
            a = self.against.setdefault(name, Against())
            a.games += 1
            row = a.places.setdefault(players, [0] * players)
            row[place - 1] += 1
        for name, theirs in bots:
            a = self.against[name]
            a.met += 1
            a.ahead += place < theirs
            a.level += place == theirs
        return True

    def line(self, bots: list[str], _: Words = ENGLISH) -> str:
        """The end screen's sentence: "You finished ahead of hard 4 times in 10, of easy 7 times
        in 9." for the bots named (as seated), from every game recorded (`_`: in the reader's
        language; a level's name is translated, another bot's spec is not)."""
        parts: list[str] = []
        for name in dict.fromkeys(bots):
            a = self.against.get(name)
            if a is None or not a.met:
                continue
            times = _("once") if a.ahead == 1 else _("{n} times", n=a.ahead)
            said = {"bot": _(name), "times": times, "games": a.met}
            parts.append(_("{bot} {times} in {games}", **said) if parts
                         else _("ahead of {bot} {times} in {games}", **said))  # fmt: skip
        if not parts:
            return ""
        return _("You finished {parts} (all your games against them).",
                 parts=_(", of ").join(parts))  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, "against": {k: v.to_dict() for k, v in self.against.items()},
                "recorded": self.recorded}  # fmt: skip

    @staticmethod
    def from_dict(d: Any) -> Profile:
        if not isinstance(d, dict) or d.get("version") != VERSION:
            raise ProfileError(f"not a version {VERSION} profile")
        against, recorded = d.get("against", {}), d.get("recorded", [])
        if not isinstance(against, dict) or not isinstance(recorded, list):
            raise ProfileError("a profile has results by bot and the games recorded")
        return Profile({str(k): Against.from_dict(v) for k, v in against.items()},
                       [str(g) for g in recorded])  # fmt: skip


def load(path: Path) -> Profile:
    """The profile in `path`; an empty one if there is none yet; ProfileError if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Profile()
    except (OSError, UnicodeDecodeError) as e:
        raise ProfileError(f"cannot read {path}: {e}") from None
    try:
        return Profile.from_dict(json.loads(text))
    except json.JSONDecodeError as e:
        raise ProfileError(f"{path} is not JSON: {e}") from None


def save(profile: Profile, path: Path) -> None:
    """Write the whole profile to a temporary file beside `path`, then rename it over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(profile.to_dict(), indent=1) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def game_id(session: GameSession) -> str:
    """The same finished game, whichever file it is in: its table, seed and every action."""
    d = session.state.to_dict()
    seats = [(s.name, s.bot) for s in session.seats]
    text = json.dumps([session.config.to_dict(), seats, session.seed, d["history"]])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def record(session: GameSession, path: Path | None = None, _: Words = ENGLISH) -> str:
    """Count a finished game with one human seat in the profile, and return the end screen's
    line about the bots at this table ("" for a game that is not counted). An unreadable or
    unwritable profile is said in the line, and the file is left as it was."""
    humans = session.humans
    if not session.state.is_terminal() or len(humans) != 1 or len(session.seats) < 2:
        return ""
    me = humans[0]
    path = path or profile_path()
    places = places_of(session.state)
    bots = [(seat.bot, places[k]) for k, seat in enumerate(session.seats) if seat.bot is not None]
    try:
        profile = load(path)
        if profile.add(game_id(session), places[me], len(places), bots):
            save(profile, path)
    except (ProfileError, OSError) as e:
        return _("Your results against the bots were not recorded: {error}", error=e)
    return profile.line([name for name, _place in bots], _)


__all__ = ["ENV", "Against", "Profile", "ProfileError", "data_dir", "load", "record", "save"]
