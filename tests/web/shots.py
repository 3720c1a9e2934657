"""Screenshots of the browser tests: always to tests/web/artifacts/ (git-ignored) to look at;
with `JAMAICA_DOC_SHOTS=1`, those the docs show go to docs/ too, so that the README's and the
manual's pictures are the ones the tests take (taken only once the test got that far)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).parent / "artifacts"
DOCS = Path(__file__).parents[2] / "docs"


def screenshot(page: Any, name: str, doc: str | None = None) -> None:
    """`name`.png in the artifacts; `doc`: also docs/`doc`.png (with JAMAICA_DOC_SHOTS)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    if doc is not None and os.environ.get("JAMAICA_DOC_SHOTS"):
        page.screenshot(path=str(DOCS / f"{doc}.png"))


def fits_screen(page: Any) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    wide = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide} px wider than the screen"
