"""A game at the table: seats (humans or bots), the state, and a save file written after every
decision. Front ends (the terminal app, later the web server) drive a `GameSession`; it knows no
screen.

With a seed, everything random is derived from the game's seed and the number of actions so far,
so a game saved and resumed goes on exactly as it would have without the break (the terminal, the
lab). Without one (`seed=None`, the game server), dice, draws and the bots' own randomness come
from the operating system's secure source (`secrets`): nothing a player can read predicts a
hidden draw, and a game is rebuilt from its stored outcomes, never from a seed.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bots import make_bot, parse_spec
from .rules import CHANCE, NUM_ACTIONS, TERMINAL, Action, Config, State, new_game
from .rules.data import GHOST_NAME, PIRATES
from .rules.fields import Reader, is_int, json_type

SAVE_FORMAT = 1
MAX_NAME = 24
MAX_SAVE_BYTES = 20_000_000  # a 100-round game's save is well under 100 kB


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None = None  # None: a human at this screen

    @property
    def human(self) -> bool:
        return self.bot is None


def clean_name(name: str, seat: int) -> str:
    """A player's name: printable, at most 24 characters; the pirate's name if empty."""
    text = "".join(ch for ch in str(name) if ch.isprintable()).strip()[:MAX_NAME]
    return text or PIRATES[seat]


def make_seats(kinds: Sequence[str], names: Sequence[str] = ()) -> list[Seat]:
    """Seats from kinds ("human" or a bot spec) and optional names; a ValueError naming the seat
    for a kind that is neither (see `jamaica.bots.parse_spec`)."""
    seats = []
    for i, kind in enumerate(kinds):
        kind = kind.strip()
        bot = None if kind == "human" else kind
        if bot is not None:
            try:
                parse_spec(bot)
            except ValueError as e:
                raise ValueError(f"seat {i + 1} ({kind!r}): {e}") from None
        seats.append(Seat(clean_name(names[i] if i < len(names) else "", i), bot))
    return seats


_SECURE = secrets.SystemRandom()


class GameSession:
    def __init__(
        self, config: Config, seats: Sequence[Seat], seed: int | None, path: Path | None = None
    ) -> None:
        if len(seats) != config.players:
            raise ValueError(f"{config.players} players need {config.players} seats")
        self.config = config
        self.seats = list(seats)
        self.seed = seed
        self.path = path
        self.state = new_game(config)

    # --- who is at the screen -------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def name(self, ship: int) -> str:
        return GHOST_NAME if ship >= self.config.players else self.seats[ship].name

    def human_to_move(self) -> int | None:
        """The human seat that must answer now, if any."""
        who = self.state.current_player()
        if who >= 0 and self.seats[who].human:
            return who
        return None

    def waiting_for_bot_or_chance(self) -> bool:
        s = self.state
        return not s.is_terminal() and self.human_to_move() is None

    # --- playing --------------------------------------------------------------------------------
    def _stream(self) -> int:
        """The seed of the next random draw: from the game's seed and the move number, or a fresh
        secret 128-bit number when the game has no seed."""
        if self.seed is None:
            return secrets.randbits(128)
        return self.seed * 1_000_003 + len(self.state.history)

    def auto_action(self) -> Action:
        """The answer to a question that is not a human's: a chance outcome or a bot's decision,
        derived from the seed and the move number (not applied)."""
        s = self.state
        who = s.current_player()
        if who == TERMINAL or (who >= 0 and self.seats[who].human):
            raise ValueError("no automatic step: a human must decide, or the game is over")
        if who == CHANCE:
            rng = _SECURE if self.seed is None else random.Random(self._stream())
            return s.sample_chance(rng)
        bot = self.seats[who].bot
        assert bot is not None
        return self.bot_action(bot, who)

    def bot_action(self, spec: str, seat: int) -> Action:
        """What the bot `spec` would answer for `seat` now (also for a human out of time)."""
        seed = self._stream() if self.seed is None else self._stream() + 17 * seat
        return make_bot(spec, seed).act(self.state, seat)

    def step(self) -> Action:
        """Answer one question that is not a human's, and save."""
        a = self.auto_action()
        self.state.apply(a)
        self.save()
        return a

    def run_until_human(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            if not self.waiting_for_bot_or_chance():
                return
            self.step()

    def answer(self, action: Action | int | str) -> None:
        """A human's answer; an illegal one raises IllegalActionError and changes nothing."""
        if self.human_to_move() is None:
            raise ValueError("it is not a human's turn to decide")
        self.state.apply(action)
        self.save()

    # --- saving ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "game": "jamaica",
            "config": self.config.to_dict(),
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "seed": self.seed,
            "actions": [int(a) for a in self.state.history],
        }

    def save(self) -> None:
        """Write the save file atomically: a crash never leaves half a file."""
        if self.path is None:
            return
        data = json.dumps(self.to_dict(), separators=(",", ":"))
        folder = self.path.resolve().parent
        fd, tmp = tempfile.mkstemp(prefix=".jamaica-", dir=folder)
        try:
            os.chmod(tmp, 0o644)
            with os.fdopen(fd, "w") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @staticmethod
    def from_dict(d: Any, path: Path | None = None) -> GameSession:
        """A session from a save file's contents; a ValueError ("corrupt save file: <field>: …")
        names what is wrong with it, whatever the JSON holds."""
        r = Reader("corrupt save file")
        if (
            not isinstance(d, dict)
            or d.get("game") != "jamaica"
            or not is_int(d.get("format"))
            or d["format"] != SAVE_FORMAT
        ):
            raise ValueError("not a jamaica save file")
        r.obj(d, "", ("format", "game", "config", "seats", "seed", "actions"))
        try:
            config = Config.from_dict(d["config"])
        except ValueError as e:
            raise r.fail("config", str(e)) from None
        seats = []
        for i, seat in enumerate(r.array(d["seats"], "seats", config.players)):
            where = f"seats[{i}]"
            r.obj(seat, where, (), ("name", "bot"))
            name, bot = seat.get("name", ""), seat.get("bot")
            if not isinstance(name, str):
                raise r.fail(f"{where}.name", f"must be a text, not {json_type(name)}")
            if bot is not None:
                try:
                    parse_spec(bot)
                except ValueError as e:
                    raise r.fail(f"{where}.bot", str(e)) from None
            seats.append(Seat(clean_name(name, i), bot))
        seed = d["seed"]
        if seed is not None and not is_int(seed):
            raise r.fail("seed", f"must be an integer or null, not {json_type(seed)}")
        actions = r.integers(d["actions"], "actions", 0, NUM_ACTIONS - 1, meaning="an action id")
        session = GameSession(config, seats, seed, path)
        for i, a in enumerate(actions):
            try:
                session.state.apply(a)
            except ValueError as e:
                raise r.fail(f"actions[{i}]", f"action {i + 1} of {len(actions)}: {e}") from None
        return session

    @staticmethod
    def load(path: Path) -> GameSession:
        """The game saved in `path`; a one-line ValueError naming the file for anything that is
        not a readable jamaica save (missing, a folder, too big, not text, not JSON, nested too
        deep, wrong types, an illegal action). The file is never written."""
        try:
            if path.stat().st_size > MAX_SAVE_BYTES:
                raise ValueError(f"{path}: too big for a save file (over {MAX_SAVE_BYTES} bytes)")
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not a save file (not text)") from None
        try:
            d = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            raise ValueError(f"corrupt save file: {path} is not JSON") from None
        try:
            return GameSession.from_dict(d, path)
        except RecursionError:
            raise ValueError(f"corrupt save file: {path} is nested too deep") from None
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None


def free_save_path(path: Path) -> Path:
    """`path` if no file is there, else the first free `NAME-2.json`, `NAME-3.json`, …: a new
    game never overwrites a file."""
    if not path.exists() and not path.is_symlink():
        return path
    for n in range(2, 10_000):
        other = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not other.exists() and not other.is_symlink():
            return other
    raise ValueError(f"no free file name next to {path}")


def check_writable(path: Path) -> None:
    """A ValueError, in one line, unless a save file can be written at `path` (its folder exists
    and takes new files; the path is not a folder)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ValueError(f"cannot save to {path}: it is a folder")
    if not folder.is_dir():
        raise ValueError(f"cannot save to {path}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".jamaica-", dir=folder)
    except OSError as e:
        raise ValueError(f"cannot save to {path}: {e.strerror or e}") from None
    os.close(fd)
    Path(tmp).unlink(missing_ok=True)


ISMCTS_RATE = 2000  # iterations a second, one core (README, Speed): to turn seconds into a budget


def reproducible(spec: str) -> str:
    """The bot `spec` with a budget that does not depend on the machine's speed: a search given
    `seconds=S` searches about as long on a typical machine as `iterations=S×2000` instead, so a
    saved game goes on exactly as it would have (what the terminal's bots must be)."""
    name, options = parse_spec(spec)
    if "seconds" not in options:
        return spec
    iterations = max(1, min(20_000, round(options.pop("seconds") * ISMCTS_RATE)))
    if "iterations" not in options:
        options = {"iterations": iterations, **options}
    return ":".join([name, *(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                             for k, v in options.items())])  # fmt: skip


def replay_states(session: GameSession) -> list[State]:
    """The state before each action of a saved game, and the last one: for stepping through."""
    s = new_game(session.config)
    states = [s.clone()]
    for a in session.state.history:
        s.apply(a)
        states.append(s.clone())
    return states
