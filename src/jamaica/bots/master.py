"""The `master` level: the strongest bot the project fields within about a second per question.

It is the `hard` level's information-set MCTS (`ismcts.py`) with what the study of hard's losses
asked for (issue 28), each measured against hard on the same deals (`docs/bots.md`, "Master"):

- **the card choice is a simultaneous move.** Every player picks a card before any is shown, so
  the search must not let a later chooser see the earlier choices, as a plain tree does. At the
  card questions of a round the tree is *decoupled* (decoupled UCT, Lanctot et al. 2013): one
  node holds each chooser's own statistics, every player selects from its own, and the child is
  the joint choice. (Measured level with the plain tree; kept as the sound model of the game.)
- **rival ships are a threat**, not only the Ghost Ship: `threat.estimate` prices, for every
  ship, the raid a rival with gunpowder, Lady Beth or the Sabre could make on it next round.
- **a value fitted to outcomes** (`value.py`): the search's reward is each player's chance to
  win, a conditional logit over the ships fitted to the winners of 6,000 self-play games
  (`jamaica lab fit-value`), weighing the estimate, the distance to the finish and the holds
  by how late in the game it is. It predicts the winner better than the hand-made margin and
  costs less (one estimate per ship, not one per pair); `value=False` searches with the margin.
- **a bigger budget**: about twice hard's iterations.

Tried and not kept (measured against hard at hard's budget, `docs/bots.md`): searching loads and
payments instead of the expert's rule of thumb lost games (`loads=True` turns it back on).

Like every bot it decides on worlds drawn from its player's view (`State.resample`), so it never
reads a hidden card. Its budget is counted in iterations, so a game replays from its seed; the
budget was chosen to stay under a second per question on one core of the project's 2-core machine
(`jamaica lab strength` prints the CPU per decision).

`option_values` is the analysis's use of it: master's value of every legal answer, from the
player's view only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules import CHANCE, Action, State
from . import blunders
from .ismcts import ISMCTSBot, Node, rewards, untried_answers
from .threat import evaluate, rival_threat
from .value import rewards as fitted_rewards

# The budget, per question with a choice: HEADS_UP iterations with two players; with n players
# an iteration plays n players' turns, so 2 × HEADS_UP / n of them, and at most ITERATIONS.
# Chosen to keep the dearest question (a card) under about 1 s of one core of the project's
# 2-core machine: an iteration costs about 0.45 ms heads-up (0.9 ms at worst, late in a game)
# and about 2.2 ms with six players.
HEADS_UP: Final = 1100
ITERATIONS: Final = 733  # 2 × 1100 / 3
# The share of the budget spent on each kind of question (the rest answered by the expert).
FOCUS: Final = {"card": 1.0, "dice_order": 1.0, "move": 0.35, "attack": 0.25, "powder": 0.25,
                "spoils": 0.25}  # fmt: skip
# With `loads=True`, loads and payments are searched too (measured: it lost games — see docs).
SEARCHED_LOADS: Final = {"load": 0.2, "pay": 0.2}


# --- the search ------------------------------------------------------------------------------
class Stat:
    """One chooser's statistics for one answer at a simultaneous node."""

    __slots__ = ("avail", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


class SimNode(Node):
    """The card questions of a round as one simultaneous move: each chooser's own statistics,
    and the children keyed by the joint choice (encoded as one int)."""

    __slots__ = ("sim",)

    def __init__(self, mover: int) -> None:
        super().__init__(mover)
        self.sim: dict[int, dict[int, Stat]] = {}


class MasterBot(ISMCTSBot):
    """ISMCTS with decoupled card choices, the rival threat and the fitted value (`simultaneous`,
    `threat`, `value`: each can be switched off to compare), and optionally searched loads."""

    name = "master"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = ITERATIONS,
        heads_up: int = HEADS_UP,
        exploration: float = 0.7,
        simultaneous: bool = True,
        rollout_rounds: int = 1,
        threat: bool = True,
        loads: bool = False,
        value: bool = True,
    ) -> None:
        super().__init__(seed, iterations=iterations, heads_up=heads_up, exploration=exploration,
                         knowledge="expert", rollout="greedy",
                         rollout_rounds=rollout_rounds)  # fmt: skip
        if threat:
            self.evaluate = evaluate
        self.simultaneous = simultaneous
        self.value = value  # the reward: the fitted win chance, or the squashed margin
        self.focus = {**FOCUS, **SEARCHED_LOADS} if loads else FOCUS
        self._sweep = False  # the analysis: every root answer tried as often

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = state.decision_kind()
        if kind not in self.focus:
            return blunders.mend(state, player, self.quick(state.resample(player, self.rng),
                                                           player, self.rng))  # fmt: skip
        budget = max(16, round(self.budget(state.n) * self.focus[kind]))
        self._root_legal = blunders.sound_actions(state, player)
        if self._root_legal is not None and len(self._root_legal) == 1:
            return self._root_legal[0]
        values = self._root_values(self.search(state, player, budget), player)
        self._root_legal = None
        return max(legal, key=lambda a: values.get(a, (-1, 0.0)))

    def budget(self, players: int) -> int:
        """Iterations for a card question with `players` at the table."""
        assert self.heads_up is not None
        if players == 2:
            return self.heads_up
        return min(self.iterations, round(2 * self.heads_up / players))

    def option_values(
        self, state: State, player: int, iterations: int, only: Sequence[Action] | None = None
    ) -> dict[Action, float]:
        """Master's value, in [0, 1] (about a win chance), of each legal answer of `player`'s
        question (or of the answers `only`), every answer tried about as often: `iterations` in
        all. From `player`'s view only: every world searched is drawn from it."""
        legal = state.legal_actions() if only is None else list(only)
        self._root_legal = None if only is None else legal
        self._sweep = True
        try:
            root = self.search(state, player, max(iterations, len(legal)))
        finally:
            self._sweep = False
            self._root_legal = None
        values = self._root_values(root, player)
        return {a: values[a][1] for a in legal if a in values}

    def plan_values(
        self, state: State, player: int, plans: Sequence[Sequence[int]], iterations: int
    ) -> list[float]:
        """Master's value, in [0, 1], of each way to answer a run of `player`'s questions (each
        plan: its answers, in order, as a payment's one-token answers), every plan tried as often
        — `iterations` in all. From `player`'s view only: each world is drawn from it, then the
        plan is played on it and the search goes on from there."""
        self._root_legal = None
        roots = [Node(player) for _ in plans]
        for i in range(max(iterations, len(plans))):
            world = self.world(state, player)
            for a in plans[i % len(plans)]:
                world.apply(a)
            self._iterate(roots[i % len(plans)], world)
        return [root.reward / root.visits for root in roots]

    @staticmethod
    def _root_values(root: Node, player: int) -> dict[Action, tuple[int, float]]:
        """Per root answer: (visits, mean reward)."""
        if isinstance(root, SimNode):
            stats = root.sim.get(player, {})
            return {Action(a): (st.visits, st.reward / st.visits)
                    for a, st in stats.items() if st.visits}  # fmt: skip
        return {Action(a): (ch.visits, ch.reward / ch.visits)
                for a, ch in root.children.items() if ch.visits}  # fmt: skip

    def search(self, state: State, player: int, iterations: int | None = None) -> Node:
        if self.simultaneous and state.decision_kind() == "card":
            root: Node = SimNode(player)
        else:
            root = Node(player)
        budget = self.iterations if iterations is None else iterations
        for _ in range(budget):
            self._iterate(root, self.world(state, player))
        self.last_iterations = budget
        return root

    def world(self, state: State, player: int) -> State:
        """The world one iteration searches: drawn from `player`'s view (never the hidden cards
        themselves)."""
        return state.resample(player, self.rng)

    def _iterate(self, root: Node, world: State) -> None:
        rng = self.rng
        node = root
        path: list[Node] = [root]
        joint: list[tuple[SimNode, int, int]] = []  # (node, chooser, answer) at simultaneous nodes
        expanded = False
        while not world.is_terminal():
            who = world.current_player()
            if who == CHANCE:
                a = world.sample_chance(rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node(CHANCE)
                world.apply(a)
                node = child
                continue
            legal = world.legal
            if node is root and self._root_legal is not None:
                legal = self._root_legal
            if self.simultaneous and world.decision_kind() == "card":
                if isinstance(node, SimNode):
                    sim = node
                else:  # a round's card questions start here: one simultaneous node below
                    found = node.children.get(-1 - who)  # no action has a negative id
                    if not isinstance(found, SimNode):
                        found = node.children[-1 - who] = SimNode(who)
                    sim = found
                key = 0
                while True:
                    a = self._choose(sim, who, legal, node is root)
                    joint.append((sim, who, a))
                    world.apply(a)
                    key = key * 256 + int(a) + 1
                    if world.is_terminal() or world.decision_kind() != "card":
                        break
                    who = world.current_player()
                    if who == CHANCE:
                        break
                    legal = world.legal
                child = sim.children.get(key)
                if child is None:
                    child = sim.children[key] = Node(CHANCE)
                    expanded = True
                    node = child
                    break
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
            if node is root and self._sweep:
                a = min(legal, key=lambda x: children[x].visits)
            else:
                a = self._select(children, legal)
            world.apply(a)
            node = children[a]
            path.append(node)
        if expanded and not world.is_terminal():
            self._rollout(world)
        r = fitted_rewards(world) if self.value else rewards(world, self.evaluate)
        for nd in path[1:]:
            if not isinstance(nd, SimNode):
                nd.visits += 1
                nd.reward += r[nd.mover]
        for sim, chooser, answer in joint:
            st = sim.sim[chooser][answer]
            st.visits += 1
            st.reward += r[chooser]
        root.visits += 1
        root.reward += r[root.mover]  # the root's own value, to its player (`plan_values`)

    def _choose(self, sim: SimNode, who: int, legal: list[Action], at_root: bool) -> Action:
        """A chooser's answer at a simultaneous node, from its own statistics only (UCB1 with
        availability counts; every available answer once first)."""
        stats = sim.sim.get(who)
        if stats is None:
            stats = sim.sim[who] = {}
        untried = untried_answers(stats, legal)
        if untried:
            a = untried[int(self.rng.random() * len(untried))]
            stats[a] = Stat()
            return a
        if at_root and self._sweep and who == sim.mover:
            return min(legal, key=lambda x: stats[x].visits)
        return self._select(stats, legal)


def option_values(
    state: State, player: int, iterations: int = 400, seed: int = 0
) -> dict[Action, float]:
    """Master's value in [0, 1] of each legal answer to `player`'s pending question, from the
    player's view only (see `MasterBot.option_values`); the same seed gives the same values."""
    return MasterBot(seed).option_values(state, player, iterations)


__all__ = ["FOCUS", "HEADS_UP", "ITERATIONS", "MasterBot", "evaluate", "option_values",
           "rival_threat"]  # fmt: skip
