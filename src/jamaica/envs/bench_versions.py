"""PettingZoo steps/s of this checkout against the code of an earlier commit, in one process:
`python -m jamaica.envs.bench --against-commit REV` (e.g. 1fe44fe, the commit before the research
issue was filed). This is the one way the benchmarks compare with an earlier version: no old code
is kept in the package.

The commit is checked out into a temporary git worktree (so this needs the repository's history)
and its `jamaica` package is imported beside this one under the same name, one after the other:
each import's modules are taken out of `sys.modules` once loaded, so the two never mix. Both play
random 4-player games, timed in chunks taking turns (a busy spell slows both alike): the bare
`raw_env` by default, or with `--wrapped` the `env()` users get (PettingZoo's order-enforcing
wrapper around it, a cost per step that is the same in both, so the ratio is smaller).
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

_HERE = Path(__file__).resolve().parents[3]  # the checkout: src/jamaica/envs/ → ../../..


def random_steps(env: Any, steps: int, rng: random.Random) -> Callable[[], None]:
    """A run of `steps` random legal actions in a PettingZoo AEC `env` (reset when over), each
    after observing the agent to move, as a learner would."""

    def run() -> None:
        for _ in range(steps):
            if all(env.terminations.values()):
                env.reset()
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))

    return run


def _isolated_import(src: Path) -> ModuleType:
    """`jamaica.envs.jamaica_v0` from the package under `src`, its modules out of `sys.modules`."""
    ours = {m: mod for m, mod in sys.modules.items() if m == "jamaica" or m.startswith("jamaica.")}
    for m in ours:
        del sys.modules[m]
    sys.path.insert(0, str(src))
    try:
        module = importlib.import_module("jamaica.envs.jamaica_v0")
    finally:
        sys.path.remove(str(src))
        for m in [m for m in sys.modules if m == "jamaica" or m.startswith("jamaica.")]:
            del sys.modules[m]
        sys.modules.update(ours)
    return module


def compare(
    rev: str, seed: int = 1, chunks: int = 15, steps: int = 2000, wrapped: bool = False
) -> dict[str, float]:
    """Steps/s of this checkout and of `rev`, each over `chunks` × `steps` steps of random play
    (of `raw_env`, or of the wrapped `env()` if `wrapped`)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(_HERE), "worktree", "add", "--detach", str(tree), rev],
                       check=True, capture_output=True)  # fmt: skip
        try:
            old = _isolated_import(tree / "src")
            new = _isolated_import(_HERE / "src")
            runs = []
            for module in (new, old):
                env = module.env(players=4) if wrapped else module.raw_env(players=4)
                env.reset(seed=seed)
                runs.append(random_steps(env, steps, random.Random(seed)))
            total = [0.0, 0.0]
            for _ in range(chunks):
                for i, run in enumerate(runs):
                    total[i] += timeit.timeit(run, number=1)
        finally:
            subprocess.run(["git", "-C", str(_HERE), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)  # fmt: skip
    done, name = chunks * steps, "PettingZoo env()" if wrapped else "PettingZoo raw_env"
    return {f"{name} steps/s": done / total[0], f"{name} steps/s at {rev}": done / total[1],
            f"{name} speed-up": total[1] / total[0]}  # fmt: skip
