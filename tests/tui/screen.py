"""Helpers for the pilot tests: what a person sees on the terminal, and waiting for the app."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.app import App


def screen_text(app: App[Any]) -> str:
    """The screen as the terminal shows it, line by line, in plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)  # fmt: skip
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


async def until(pilot: Any, condition: Callable[[], bool], steps: int = 500) -> None:
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app never got there")
