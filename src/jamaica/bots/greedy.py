"""The `greedy` bot: a one-step lookahead. For each legal answer it plays the rest of the current
turn in a determinized world (its own later questions and everyone else's answered by the quick
policy, chance drawn at random), evaluates where that leaves it, and picks the best answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ..rules import CHANCE, Action, State
from ..rules.ops import T_GHOST, T_ROUND_END, T_TURN
from . import expert
from .heuristics import evaluate, quick

# Questions that matter enough to look ahead; the rest are answered by the quick policy.
LOOKAHEAD_KINDS: Final = frozenset({"dice_order", "card", "move", "attack", "powder", "spoils"})
_STRUCTURE: Final = (T_TURN, T_GHOST, T_ROUND_END)


def _turn_end_marker(s: State, player: int) -> int:
    """Where on the stack lies the task that follows the turn in progress (or `player`'s coming
    turn): once it is gone, that turn is over. -1 if there is none."""
    stack = s.stack
    for i, t in enumerate(stack):
        if t[0] == T_TURN and t[1] == player:
            return i - 1
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] in _STRUCTURE:
            return i
    return -1


def play_out_turn(
    s: State,
    player: int,
    rng: random.Random,
    limit: int = 500,
    policy: Callable[[State, int, random.Random], Action] = quick,
) -> None:
    """Answer questions with the quick policy until the turn is over (or the game)."""
    i = _turn_end_marker(s, player)
    if i < 0:
        return
    marker = s.stack[i]
    stack = s.stack
    for _ in range(limit):
        if s.is_terminal() or len(stack) <= i or stack[i] is not marker:
            return
        who = s.current_player()
        s.apply(s.sample_chance(rng) if who == CHANCE else policy(s, who, rng))


class GreedyBot:
    """One-step lookahead over a determinized world; fast and fair."""

    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 2, knowledge: str = "basic") -> None:
        if knowledge not in ("basic", "expert"):
            raise ValueError(f"knowledge must be 'basic' or 'expert', not {knowledge!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        expert_ = knowledge == "expert"
        self.quick = expert.quick if expert_ else quick
        self.evaluate = expert.evaluate if expert_ else evaluate

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = state.resample(player, self.rng)  # fair: the true hidden cards are never read
        if world.decision_kind() not in LOOKAHEAD_KINDS:
            return self.quick(world, player, self.rng)
        return self.lookahead(world, player, legal)

    def lookahead(self, world: State, player: int, legal: list[Action]) -> Action:
        best, best_value = legal[0], float("-inf")
        for a in legal:
            value = 0.0
            for _ in range(self.samples):
                w = world.clone(log=False)
                w.apply(a)
                play_out_turn(w, player, self.rng, policy=self.quick)
                value += self.evaluate(w, player)
            if value > best_value:
                best, best_value = a, value
        return best
