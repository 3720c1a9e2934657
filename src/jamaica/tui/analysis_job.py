"""The analysis of one seat's decisions, run in a process of its own (never in the terminal app's
process: the search would hold the interpreter and freeze the screen), its progress reported as
it goes, stopped when the reader leaves; the analyses already made, kept for the session and in
a file beside the save (`NAME.analysis.json`).

The child is `python -m jamaica.tui.analysis_job`, spoken to in lines of JSON over its stdin
and stdout (its stderr goes nowhere: nothing it says can draw over the screen). This module does
not import Textual: the child imports only the rules, the bots and `jamaica.analysis`."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import select
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.core import DEFAULT_ITERATIONS, MARKS, GameAnalysis
from ..rules import Config

ITERATIONS = DEFAULT_ITERATIONS  # master's search per decision (the whole game is bounded too)
MAX_ITERATIONS = 5000
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Request:
    """What to analyse: a game (its table and every action), the seat, master's budget."""

    config: Config
    history: tuple[int, ...]
    player: int
    iterations: int = ITERATIONS
    seed: int = 0
    save: Path | None = None  # the game's save file: its analyses are kept beside it

    def key(self) -> tuple[Any, ...]:
        return (game_hash(self.config, self.history), self.player, self.iterations, self.seed)


_CACHE: dict[tuple[Any, ...], GameAnalysis] = {}  # the analyses made in this session


def cached(request: Request) -> GameAnalysis | None:
    """The analysis of `request` made earlier in this session, if any."""
    return _CACHE.get(request.key())


def child_main() -> None:
    """The child process (`python -m jamaica.tui.analysis_job`): reads the request, one line of
    JSON on stdin; writes one line of JSON per event on stdout: {"progress": [done, total]} as
    it goes, then {"analysis": …} or {"error": "…"}."""
    with contextlib.suppress(OSError):
        os.nice(10)  # the screen and the other programs first
    out = sys.stdout

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    try:
        from ..analysis.core import analyse_game

        def progress(done: int, total: int) -> None:
            send({"progress": [done, total]})

        d = json.loads(sys.stdin.readline())
        result = analyse_game(Config.from_dict(d["config"]), [int(a) for a in d["history"]],
                              int(d["player"]), iterations=int(d["iterations"]),
                              seed=int(d["seed"]), progress=progress)  # fmt: skip
        send({"analysis": result.to_dict()})
    except BrokenPipeError:  # the app went away
        pass
    except Exception as e:  # said on the screen, in one line
        send({"error": f"{type(e).__name__}: {e}"})


class AnalysisFailed(RuntimeError):
    pass


MAX_OUTPUT = 50_000_000  # bytes the child may send (a long game's analysis is well under 1 MB)


def _messages(process: subprocess.Popen[bytes], cancelled: Callable[[], bool]) -> (
        Iterator[dict[str, Any]]):  # fmt: skip
    """The child's messages, one per line, as they come; stops when `cancelled()`."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    buffer, total = b"", 0
    while not cancelled():
        ready, _w, _x = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            if buffer.strip():
                yield json.loads(buffer)
            return
        total += len(chunk)
        if total > MAX_OUTPUT:
            raise AnalysisFailed("the analysis said too much")
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if line.strip():
                yield json.loads(line)


def analyse(request: Request, progress: Progress, cancelled: Callable[[], bool],
            started: Callable[[subprocess.Popen[bytes]], None] | None = None) -> (
        GameAnalysis | None):  # fmt: skip
    """The analysis of `request` (from the session's cache or the file kept beside the save,
    else made in a child process, given to `started`), calling `progress(done, total)` as
    decisions are analysed; None if `cancelled()` turned true first (the child is then stopped).
    Meant for a worker thread: it blocks until done."""
    found = cached(request) or read_kept(request)
    if found is not None:
        _CACHE[request.key()] = found
        return found
    process = subprocess.Popen([sys.executable, "-m", "jamaica.tui.analysis_job"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    if started is not None:
        started(process)
    try:
        assert process.stdin is not None
        process.stdin.write(json.dumps({
            "config": request.config.to_dict(), "history": list(request.history),
            "player": request.player, "iterations": request.iterations, "seed": request.seed,
        }).encode() + b"\n")  # fmt: skip
        process.stdin.close()
        for message in _messages(process, cancelled):
            if "progress" in message:
                done, total = message["progress"]
                progress(int(done), int(total))
            elif "analysis" in message:
                result = GameAnalysis.from_dict(message["analysis"])
                _CACHE[request.key()] = result
                keep(request, result)
                return result
            else:
                raise AnalysisFailed(str(message.get("error", "?")))
        if cancelled():
            return None
        raise AnalysisFailed(f"the analysis stopped (exit code {process.wait()})")
    except (BrokenPipeError, ValueError) as e:
        raise AnalysisFailed(f"the analysis stopped: {e}") from None
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


# --- kept beside the save file -------------------------------------------------------------------
KEPT_FORMAT = 3  # 2: a payment is one verdict (its ways to pay, by index); 3: one way per
# result, the Ghost Ship's decisions named as its own, a mark looked at twice
MAX_KEPT_BYTES = 4_000_000
MAX_KEPT = 16  # analyses in one file (seats × budgets); the oldest go first


def game_hash(config: Config, history: Sequence[int]) -> str:
    """What identifies a game: its table and every action."""
    text = json.dumps({"config": config.to_dict(), "actions": [int(a) for a in history]},
                      sort_keys=True, separators=(",", ":"))  # fmt: skip
    return hashlib.sha256(text.encode()).hexdigest()


def kept_path(save: Path) -> Path:
    """Where the analyses of the game saved in `save` are kept: `NAME.analysis.json` beside it."""
    return save.with_name(f"{save.stem}.analysis.json")


def _read_file(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_KEPT_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("format") != KEPT_FORMAT:
        return {}
    return data


def _checked(d: Any, request: Request) -> GameAnalysis | None:
    """The kept analysis `d` if it is one of this game and seat, every value in range; else None
    (a file edited by hand or from another game is never believed)."""
    try:
        analysis = GameAnalysis.from_dict(d)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    history = request.history
    if analysis.player != request.player:
        return None
    for v in analysis.verdicts:
        # (a payment's answer is the index of its way to pay)
        if not (0 <= v.step < len(history) and (v.kind == "pay" or history[v.step] == v.chosen)
                and v.chosen in dict(v.values)
                and v.mark in MARKS and math.isfinite(v.loss) and 0 <= v.loss <= 1
                and all(math.isfinite(x) and 0 <= x <= 1 for _a, x in v.values)):  # fmt: skip
            return None
    return analysis


def _entry_key(request: Request) -> list[int]:
    return [request.player, request.iterations, request.seed]


def read_kept(request: Request) -> GameAnalysis | None:
    """The analysis of `request` kept beside its save file, if there is one for this very game."""
    if request.save is None:
        return None
    data = _read_file(kept_path(request.save))
    if data.get("game") != game_hash(request.config, request.history):
        return None
    entries = data.get("analyses")
    if not isinstance(entries, list):
        return None
    for entry in entries:
        if isinstance(entry, dict) and entry.get("key") == _entry_key(request):
            return _checked(entry.get("analysis"), request)
    return None


def keep(request: Request, analysis: GameAnalysis) -> None:
    """Keep `analysis` beside the save file (atomically); a folder that takes no file is no
    error: the analysis is still shown, only made again next time."""
    if request.save is None:
        return
    path = kept_path(request.save)
    game = game_hash(request.config, request.history)
    data = _read_file(path)
    old = data.get("analyses") if data.get("game") == game else []
    entries = [e for e in old if isinstance(e, dict) and e.get("key") != _entry_key(request)] if \
        isinstance(old, list) else []  # fmt: skip
    entries = [*entries, {"key": _entry_key(request), "analysis": analysis.to_dict()}][-MAX_KEPT:]
    text = json.dumps({"format": KEPT_FORMAT, "game": game, "analyses": entries},
                      separators=(",", ":"))  # fmt: skip
    try:
        fd, tmp = tempfile.mkstemp(prefix=".jamaica-", dir=path.resolve().parent)
    except OSError:
        return
    try:
        os.chmod(tmp, 0o644)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


__all__ = ["ITERATIONS", "MAX_ITERATIONS", "AnalysisFailed", "Request", "analyse", "cached",
           "game_hash", "keep", "kept_path", "read_kept"]  # fmt: skip


if __name__ == "__main__":
    child_main()
