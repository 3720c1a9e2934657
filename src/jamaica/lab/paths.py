"""Output paths, checked before any game is played: a run of thousands of games must not end in
a traceback because its file cannot be written."""

from __future__ import annotations

import contextlib
from pathlib import Path


def check_writable(path: str | Path, option: str) -> None:
    """Refuse (ValueError, one line) a file `path` that cannot be written: a missing folder, a
    folder in its place, or a place the user may not write to. Tried for real (opened for
    appending, so nothing is lost; a file made for the test is removed again)."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{option} {path}: that is a folder, not a file")
    if not p.resolve().parent.is_dir():
        raise ValueError(f"{option} {path}: no such directory")
    existed = p.exists()
    try:
        with p.open("a"):
            pass
    except OSError as e:
        raise ValueError(f"{option} {path}: cannot be written ({e.strerror})") from None
    finally:
        if not existed:
            with contextlib.suppress(OSError):
                p.unlink()
