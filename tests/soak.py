"""The one switch for the long forms of the tests: JAMAICA_SOAK=1.

A test with a long form is marked `soak` and takes its sizes from `soak(default, full)`: the
default run tests the same thing on less data (fewer games, rounds, samples) and keeps the whole
suite within about 10 minutes on 2 cores; `JAMAICA_SOAK=1 pytest -m soak` runs the full forms."""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SOAK = os.environ.get("JAMAICA_SOAK", "").strip() not in ("", "0")


def soak(default: T, full: T) -> T:
    """`full` with JAMAICA_SOAK=1, else the bounded `default`."""
    return full if SOAK else default
