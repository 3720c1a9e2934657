"""`master-seer`: master's search on the true state — it sees every hidden card. Lab only.

A bound, not a player: how much of master's shortfall comes from not knowing the hidden cards
(its rivals' hands; what the deck deals next is still drawn by chance). Master draws
each iteration's world from its player's view (`State.resample`); the seer searches a copy of
the game itself, with master's budget, tree, value and rules of thumb otherwise unchanged. If the
seer wins little more than master, the hidden information is not what master lacks.

It is no bot of `jamaica.bots` (`make_bot` does not know it), so no server or front end can seat
it; `jamaica lab strength --rows master-seer` plays it (see docs/lab.md).
"""

from __future__ import annotations

from ..bots.master import MasterBot
from ..rules import State

SEER = "master-seer"


class SeerBot(MasterBot):
    """`MasterBot` whose every iteration searches a copy of the true state."""

    name = SEER

    def world(self, state: State, player: int) -> State:
        return state.clone(log=False)


__all__ = ["SEER", "SeerBot"]
