"""The `ismcts` bot: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012), multi-player: every iteration draws a
world consistent with what the searching player sees (`State.resample`), walks down one shared
tree choosing, at each player's node, the action best for *that* player (UCB1 with availability
counts, since a determinization decides which actions exist), expands one node, plays the game on
with a rollout policy for a few rounds, and backs up a reward per player. Chance outcomes are
branches of the tree, drawn from the world's own odds.

With `knowledge="expert"` (the `hard` level) the rollouts and the evaluation are the expert's
(`expert.py`), the budget goes where it matters (`FOCUS`: all of it on the card and the dice
order, a share on smaller questions), and plain blunders are kept out of the root's answers
(`blunders.py`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Final, Protocol

from ..rules import CHANCE, Action, State
from . import blunders, expert, heuristics
from .greedy import LOOKAHEAD_KINDS

Policy = Callable[[State, int, random.Random], Action]
Evaluation = Callable[[State, int], float]
KNOWLEDGE: Final[dict[str, tuple[Policy, Evaluation]]] = {
    "basic": (heuristics.quick, heuristics.evaluate),
    "expert": (expert.quick, expert.evaluate),
}
# With the expert's knowledge the budget is spent where it matters: the whole budget on the card
# and the dice order, a share of it on the smaller questions (a fork, gunpowder, spoils).
FOCUS: Final = {"card": 1.0, "dice_order": 1.0, "move": 0.35, "attack": 0.25, "powder": 0.25,
                "spoils": 0.25}  # fmt: skip

REWARD_SCALE: Final = 6.0  # a score margin of this many points is worth about 0.73 of a win


class Counted(Protocol):
    """The statistics UCB1 reads: a search node's, or one chooser's at a simultaneous node."""

    visits: int
    avail: int
    reward: float


def untried_answers(stats: Mapping[int, Counted], legal: list[Action]) -> list[Action]:
    """The legal answers with no statistics yet; each one that has them was available once
    more (the availability count of UCB1 over determinizations)."""
    untried = []
    for a in legal:
        c = stats.get(a)
        if c is None:
            untried.append(a)
        else:
            c.avail += 1
    return untried


class Node:
    """A node of the search tree: how often it was chosen, was available, and what it earned for
    the player who chose it."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[int, Node] = {}


def rewards(s: State, evaluate: Evaluation = heuristics.evaluate) -> list[float]:
    """Per player, in [0, 1]: the score margin over the best rival, squashed; 1 for a sure win."""
    out = []
    for p in range(s.n):
        x = evaluate(s, p) / REWARD_SCALE
        out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x)))))
    return out


class ISMCTSBot:
    """ISMCTS with a budget of iterations or seconds per decision; `heads_up`, if given, is the
    budget of iterations with two players (a cheaper iteration: fewer turns to play)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 300,
        seconds: float | None = None,
        heads_up: int | None = None,
        rollout: str = "greedy",
        rollout_rounds: int = 1,
        exploration: float = 0.7,
        knowledge: str = "basic",
    ) -> None:
        if rollout not in ("random", "greedy"):
            raise ValueError(f"rollout must be 'random' or 'greedy', not {rollout!r}")
        if knowledge not in KNOWLEDGE:
            raise ValueError(f"knowledge must be 'basic' or 'expert', not {knowledge!r}")
        if iterations < 1 or (seconds is not None and seconds <= 0):
            raise ValueError("the budget must be at least one iteration and a positive time")
        if heads_up is not None and heads_up < 1:
            raise ValueError("the heads-up budget must be at least one iteration")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.heads_up = heads_up  # the budget when two players sit at the table, if another
        self.seconds = seconds
        self.rollout = rollout
        self.rollout_rounds = rollout_rounds
        self.c = exploration
        self.knowledge = knowledge
        self.quick, self.evaluate = KNOWLEDGE[knowledge]
        self.last_iterations = 0
        self._root_legal: list[Action] | None = None  # the root's answers, blunders left out

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = state.decision_kind()
        if kind not in LOOKAHEAD_KINDS:
            answer = self.quick(state.resample(player, self.rng), player, self.rng)
            if self.knowledge == "expert":
                answer = blunders.mend(state, player, answer)  # e.g. a load: not the food due
            return answer
        budget = self.iterations
        if self.heads_up is not None and state.n == 2:
            budget = self.heads_up  # two players' turns to play: an iteration costs about half
        self._root_legal = None
        if self.knowledge == "expert":
            budget = max(16, round(budget * FOCUS[kind]))
            self._root_legal = blunders.sound_actions(state, player)  # public, or its own hand
            if self._root_legal is not None and len(self._root_legal) == 1:
                return self._root_legal[0]
        root = self.search(state, player, budget)
        self._root_legal = None
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best

    def search(self, state: State, player: int, iterations: int | None = None) -> Node:
        """Search `iterations` iterations (default: the bot's budget), or the bot's seconds."""
        root = Node(player)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations if iterations is None else iterations
        n = 0
        while True:
            if deadline is None:
                if n >= budget:
                    break
            elif n and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.resample(player, self.rng))
            n += 1
        self.last_iterations = n
        return root

    def _iterate(self, root: Node, world: State) -> None:
        rng = self.rng
        node = root
        path = [root]
        expanded = False
        while not world.is_terminal():
            who = world.current_player()
            legal = world.legal
            if node is root and self._root_legal is not None:
                legal = self._root_legal
            if who == CHANCE:
                a = world.sample_chance(rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node(CHANCE)
                world.apply(a)
                node = child
                continue
            children = node.children
            untried = untried_answers(children, legal)
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = children[a] = Node(who)
                world.apply(a)
                path.append(child)
                expanded = True
                break
            a = self._select(children, legal)
            world.apply(a)
            node = children[a]
            path.append(node)
        if expanded and not world.is_terminal():
            self._rollout(world)
        r = rewards(world, self.evaluate)
        for nd in path[1:]:
            nd.visits += 1
            nd.reward += r[nd.mover]
        root.visits += 1

    def _select(self, children: Mapping[int, Counted], legal: list[Action]) -> Action:
        """UCB1 with availability counts over the answers' statistics."""
        c = self.c
        best, best_value = legal[0], float("-inf")
        for a in legal:
            ch = children[a]
            v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_value:
                best, best_value = a, v
        return best

    def _rollout(self, world: State) -> None:
        """Play on for a few rounds (random or quick-policy answers), to be evaluated there."""
        rng = self.rng
        rounds_left = self.rollout_rounds
        smart = self.rollout == "greedy"
        quick = self.quick
        while not world.is_terminal():
            who = world.current_player()
            if who == CHANCE:
                if not world.stack and world.decision_kind() == "roll_dice":
                    rounds_left -= 1
                    if rounds_left < 0:
                        return
                world.apply(world.sample_chance(rng))
            elif smart:
                world.apply(quick(world, who, rng))
            else:
                legal = world.legal
                world.apply(legal[int(rng.random() * len(legal))])
