"""`python -m jamaica.envs.bench --against-commit REV`: an earlier commit's environment imported
beside this one in one process, both timed playing random games."""

from __future__ import annotations

import subprocess
import sys

from jamaica.envs import jamaica_v0
from jamaica.envs.bench_versions import compare


def test_an_earlier_commit_is_timed_beside_this_checkout_and_then_removed() -> None:
    worktrees = subprocess.run(["git", "worktree", "list"], capture_output=True, text=True,
                               check=True).stdout  # fmt: skip
    for wrapped, name in ((False, "PettingZoo raw_env"), (True, "PettingZoo env()")):
        figures = compare("HEAD", chunks=1, steps=40, wrapped=wrapped)
        assert figures[f"{name} steps/s"] > 0 and figures[f"{name} steps/s at HEAD"] > 0
        assert figures[f"{name} speed-up"] > 0
    # This process's own modules are back in place, and the temporary worktree is gone.
    assert sys.modules["jamaica.envs.jamaica_v0"] is jamaica_v0
    after = subprocess.run(["git", "worktree", "list"], capture_output=True, text=True,
                           check=True).stdout  # fmt: skip
    assert after == worktrees
