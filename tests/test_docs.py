"""The front door and the manual: the README stays short and true, the docs site builds cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# The two Quick-start commands, verbatim: one starts the game server on SQLite, one runs the whole
# test suite (the same command as `.ci/run`).
SERVE = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[web]' && .venv/bin/jamaica serve"
)
TEST = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/ruff check . "
    "&& .venv/bin/mypy && .venv/bin/python -m pytest"
)


def test_the_readme_is_a_front_door_of_at_most_220_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 220, f"README.md has {len(lines)} lines: move the detail to docs/"


def test_the_readme_keeps_both_quick_start_commands_verbatim() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert SERVE in lines
    assert TEST in lines


def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    """`mkdocs build --strict`: no warning at all — no broken link or anchor, no page missing
    from the nav, the API reference generated from the docstrings. Offline: no plugin fetches."""
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    for page in ("index.html", "api/index.html", "run-a-server/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("jamaica.State", "jamaica.Action", "jamaica.new_game"):
        assert f'id="{name}"' in api, name

