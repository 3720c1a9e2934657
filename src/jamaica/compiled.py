"""The compiled rules core: `jamaica.rules` compiled with mypyc from the same source (optional).

The pure-Python package is the default and the reference; the compiled copy is a build of the
same files for research throughput, and must play the very same games.

    python -m jamaica.compiled build            # compile once (about a minute), print where
    python -m jamaica.compiled run my_study.py  # run a script with the compiled core
    python -m jamaica.compiled run -m jamaica tournament ...
    python -m jamaica.compiled hash             # the same-games hash of both builds
    python -m jamaica.compiled bench            # games/s and clone(), both builds, as ratios

How it is built: the files of `jamaica/rules` are copied to a build directory as a top-level
package named `jamaica_crules` (the rules core imports only itself, relatively, and the standard
library) and compiled there by `mypyc`; a build is cached under a key of its sources, the mypy
version and the Python version. Under that name the compiled copy can be imported beside the pure
package in one process (the hash and the benchmark compare them so). `run` starts Python with the
compiled copy standing in for `jamaica.rules` (and each of its modules) before anything imports
`jamaica`: everything else (bots, environments, the lab) runs unchanged on top of it.

Needs mypy (it brings mypyc: the `dev` extra) and a C compiler (`gcc`, Debian's build-essential).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.machinery
import json
import os
import pkgutil
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = "jamaica_crules"
SOURCE = Path(__file__).resolve().parent / "rules"
CACHE_ENV = "JAMAICA_COMPILED_DIR"

# Run in a fresh interpreter before anything imports `jamaica`: the compiled copy in the build
# directory (argv[1]) stands in for `jamaica.rules` and each of its modules.
BOOTSTRAP = f"""\
import sys
build = sys.argv.pop(1)
sys.path.insert(0, build)
import importlib, pkgutil
import {PACKAGE} as compiled
sys.modules["jamaica.rules"] = compiled
for m in pkgutil.iter_modules(compiled.__path__):
    sys.modules["jamaica.rules." + m.name] = importlib.import_module("{PACKAGE}." + m.name)
import jamaica
jamaica.rules = compiled
"""


class BuildError(RuntimeError):
    """mypyc or the C compiler failed; the message ends with their output."""


def source_files() -> list[Path]:
    return sorted(SOURCE.glob("*.py"))


def build_key() -> str:
    """What a build depends on: the rules' sources, the mypy (mypyc) version, the Python."""
    import mypy.version

    h = hashlib.sha256()
    for f in source_files():
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(mypy.version.__version__.encode())
    h.update(sys.implementation.cache_tag.encode())
    return h.hexdigest()[:16]


def default_root() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jamaica" / "compiled"


def build(root: Path | None = None, *, log: Callable[[str], None] | None = None) -> Path:
    """The build directory of the compiled copy (`root/<key>`), compiling it first if it is not
    there. The build runs in a temporary directory beside it and is renamed into place when it
    is complete, so a half-built copy is never used."""
    root = root if root is not None else default_root()
    dest = root / build_key()
    if (dest / "BUILT").exists():
        return dest
    if shutil.which(os.environ.get("CC", "cc")) is None:
        raise BuildError("no C compiler (cc): install gcc (Debian: build-essential)")
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="building-", dir=root))
    try:
        shutil.copytree(SOURCE, work / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
        if log:
            log(f"compiling {len(source_files())} modules with mypyc in {work} ...")
        t = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", PACKAGE],
            cwd=work,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": ""},
        )
        if done.returncode != 0:
            raise BuildError(f"mypyc failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        for tmp in (work / "build").glob("temp.*"):
            shutil.rmtree(tmp)  # the object files
        (work / "BUILT").write_text(f"{time.perf_counter() - t:.1f} s\n")
        try:
            work.rename(dest)
        except OSError:  # built meanwhile by another process
            if not (dest / "BUILT").exists():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work)
    return dest


def load(dest: Path) -> ModuleType:
    """The compiled copy in `dest`, imported (as `jamaica_crules`) with all its modules, beside
    the pure package; refuses a copy whose modules are not compiled."""
    if str(dest) not in sys.path:
        sys.path.insert(0, str(dest))
    package = importlib.import_module(PACKAGE)
    loaded = Path(package.__file__ or "").resolve().parent
    if loaded != (dest / PACKAGE).resolve():
        raise ImportError(f"{PACKAGE} was already imported from {loaded}, not {dest}")
    for m in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{PACKAGE}.{m.name}")
        if not (module.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            raise ImportError(f"{module.__name__} is not compiled: {module.__file__}")
    return package


def command(dest: Path, args: Sequence[str]) -> list[str]:
    """A command line that runs Python (`args` as after `python`) with the compiled copy in
    `dest` standing in for `jamaica.rules`."""
    if not args:
        raise ValueError("nothing to run: give a script or -m module")
    if args[0] == "-m":
        run = "import runpy; sys.argv[:2] = [sys.argv[1]]; runpy.run_module(sys.argv[0], " \
              "run_name='__main__', alter_sys=True)"  # fmt: skip
    elif args[0] == "-c":
        run = "code = sys.argv.pop(1); sys.argv[0] = '-c'; exec(compile(code, '<string>', 'exec'))"
    else:
        run = ("import os, runpy; sys.argv.pop(0); "
               "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0]))); "
               "runpy.run_path(sys.argv[0], run_name='__main__')")
    rest = list(args[1:]) if args[0] in ("-m", "-c") else list(args)
    return [sys.executable, "-c", BOOTSTRAP + run, str(dest), *rest]


# --- the same games --------------------------------------------------------------------------


def hash_configs(rules: ModuleType) -> list[Any]:
    """Both editions, 2 to 6 players, with and without the Ghost Ship where the rules allow it."""
    configs = []
    for edition in rules.EDITIONS:
        for players in range(2, 7):
            for ghost in (None,) if players == 2 else (False,) if players == 6 else (False, True):
                configs.append(rules.Config(players=players, edition=edition, ghost_ship=ghost))
    return configs


def game_digests(rules: ModuleType, games: int = 10, seed: int = 0) -> dict[str, str]:
    """Per game ("2021 3p ghost=True #4"), a digest of `games` seeded random games per
    configuration (`hash_configs`) as `rules` plays them: every action, the final state (its
    event log included) and each player's view of it."""
    out = {}
    for c, config in enumerate(hash_configs(rules)):
        for g in range(games):
            rng = random.Random(seed * 1_000_003 + c * 1009 + g)
            s = rules.new_game(config)
            _play_out(s, rng)
            record = {
                "config": config.to_dict(),
                "history": [int(a) for a in s.history],
                "state": s.to_dict(),
                "views": [s.view(p) for p in range(config.players)],
                "winners": s.winners(),
            }
            text = json.dumps(record, sort_keys=True, separators=(",", ":"))
            name = f"{config.edition} {config.players}p ghost={config.ghost_ship} #{g}"
            out[name] = hashlib.sha256(text.encode()).hexdigest()
    return out


def same_games_hash(rules: ModuleType, games: int = 10, seed: int = 0) -> str:
    """One hash of all the games of `game_digests`."""
    digests = game_digests(rules, games, seed)
    return hashlib.sha256("".join(f"{k}={v}\n" for k, v in digests.items()).encode()).hexdigest()


# --- speed -----------------------------------------------------------------------------------


def _play_out(s: Any, rng: random.Random) -> int:
    """Play `s` to its end at random (chance by its odds); the number of steps."""
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = legal[int(rng.random() * len(legal))]
        s.apply(a)
        steps += 1
    return steps


def _random_games(rules: ModuleType, config: Any, seed: int, games: int) -> int:
    rng = random.Random(seed)
    return sum(_play_out(rules.new_game(config, log=False), rng) for _ in range(games))


def _mid_game(rules: ModuleType, config: Any, steps: int = 200) -> Any:
    rng = random.Random(7)
    s = rules.new_game(config)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return s


def bench(
    pure: ModuleType, compiled: ModuleType, *, rounds: int = 5, games: int = 40, players: int = 4
) -> dict[str, tuple[float, float]]:
    """Per measure, (pure, compiled): games/s and clone() in µs (mid-game, with and without its
    event log), timed turn about in this process, `rounds` rounds each, best round kept."""
    config = {m: m.Config(players=players) for m in (pure, compiled)}
    mids = {m: _mid_game(m, config[m]) for m in (pure, compiled)}
    best: dict[tuple[str, ModuleType], float] = {}

    def keep(name: str, m: ModuleType, seconds: float) -> None:
        best[name, m] = min(best.get((name, m), float("inf")), seconds)

    for r in range(rounds):
        for m in (pure, compiled) if r % 2 == 0 else (compiled, pure):
            t = time.perf_counter()
            _random_games(m, config[m], seed=r, games=games)
            keep("games", m, time.perf_counter() - t)
            mid = mids[m]
            for name, log in (("clone", None), ("clone(log=False)", False)):
                t = time.perf_counter()
                for _ in range(2000):
                    mid.clone(log=log)
                keep(name, m, (time.perf_counter() - t) / 2000)
    out = {"games/s": (games / best["games", pure], games / best["games", compiled])}
    for name in ("clone", "clone(log=False)"):
        out[name + " µs"] = (best[name, pure] * 1e6, best[name, compiled] * 1e6)
    return out


# --- the command -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jamaica.compiled",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--dir", type=Path, default=None,
                        help=f"where builds are cached (default: ${CACHE_ENV} or "
                             "~/.cache/jamaica/compiled)")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="compile the rules core (if not built yet); print where")
    run = sub.add_parser("run", help="run a script (or -m module) with the compiled rules core")
    run.add_argument("args", nargs="*", help="a script and its arguments, or -m module ...")
    hsh = sub.add_parser("hash", help="the same-games hash of the pure and the compiled core")
    hsh.add_argument("--games", type=int, default=10, help="games per configuration (16 of them)")
    hsh.add_argument("--seed", type=int, default=0)
    bch = sub.add_parser("bench", help="games/s and clone(), pure vs compiled, turn about")
    bch.add_argument("--rounds", type=int, default=5)
    bch.add_argument("--games", type=int, default=40, help="4-player games per round")
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = argv[argv.index("run") + 1 :] if "run" in argv else []  # what follows is the script's
    a = parser.parse_args(argv[: len(argv) - len(rest)])

    def say(text: str) -> None:
        print(text, file=sys.stderr)

    try:
        dest = build(a.dir, log=say)
    except BuildError as e:
        say(str(e))
        return 1
    if a.command == "build":
        print(dest)
        return 0
    if a.command == "run":
        return subprocess.call(command(dest, rest))
    from . import rules

    compiled = load(dest)
    if a.command == "hash":
        pure_hash = same_games_hash(rules, a.games, a.seed)
        compiled_hash = same_games_hash(compiled, a.games, a.seed)
        n = a.games * len(hash_configs(rules))
        print(f"pure      {pure_hash}  ({n} games)")
        print(f"compiled  {compiled_hash}  ({n} games)")
        print("same games" if pure_hash == compiled_hash else "DIFFERENT GAMES")
        return 0 if pure_hash == compiled_hash else 1
    results = bench(rules, compiled, rounds=a.rounds, games=a.games)
    print(f"{'':20}{'pure':>10}{'compiled':>10}{'ratio':>8}   (best of {a.rounds} rounds)")
    for name, (p, c) in results.items():
        ratio = c / p if name == "games/s" else p / c
        print(f"{name:20}{p:10.1f}{c:10.1f}{ratio:7.2f}×")
    print("ratio: how many times faster the compiled core is")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
