"""Gymnasium's seeding convention for the engine's `random.Random`.

`reset(seed=s)` starts a stream of episodes; every later plain `reset()` takes its episode's
generator from that stream. So after `reset(seed=42)` the second, third … episodes are the same in
every process, and each depends only on `s` and its place in the stream, not on the actions taken
in the episodes before it. A first `reset()` without a seed draws fresh entropy.
"""

from __future__ import annotations

import random


class EpisodeSeeds:
    """The stream of episode generators of one environment."""

    __slots__ = ("_stream",)

    def __init__(self) -> None:
        self._stream = random.Random()

    def episode(self, seed: int | None = None) -> random.Random:
        """The generator for a new episode; `seed` restarts the stream."""
        if seed is not None:
            self._stream = random.Random(f"jamaica-episodes:{int(seed)}")
        return random.Random(self._stream.getrandbits(64))
