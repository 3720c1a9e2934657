"""A finished game's decisions of one player, judged by master (issue 28): what lichess's analysis
board does for chess, on the engine's own questions.

For each question the player answered that had a real choice (more than one legal answer, a kind
of `KINDS`), master values every legal answer (`bots.master.option_values`: a win chance in
[0, 1], every answer tried about as often), and the verdict says how much the answer taken lost
against master's best, marked as an inaccuracy, a mistake or a blunder above `THRESHOLDS`
(heads-up; scaled by 2/n with n players: `thresholds`).

Secrecy: the verdict on a question of player P is worked out from P's question alone — master
only ever searches worlds drawn from P's view (`State.resample(P, rng)`), and the seed of each
search is the analysis's seed and the question's rank among P's own questions, never anything
hidden. Two games P cannot tell apart give P the same analysis (tests/secrecy).

The budget is bounded: `iterations` per question (DEFAULT_ITERATIONS), and at most GAME_BUDGET
iterations for the whole game (spread evenly over its questions, at least MIN_ITERATIONS each,
so a game of more than MAX_QUESTIONS questions of one player — none seen: a heads-up game has
45 to 90 — has its first MAX_QUESTIONS judged).
Pure: no I/O, no clock; the same game, player and seed give the same analysis.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..bots.master import MasterBot
from ..rules import Config, State, new_game
from ..rules.hints import payment_goes_on, payment_left, payment_taken, payment_ways
from ..rules.ops import K_PAY
from ..rules.prompts import question_ship

# Value lost, heads-up (a fair share of 0.5); with n players the thresholds scale by 2/n, the
# fair share 1/n over 1/2: five points of a 50% chance weigh as much as 1.7 of a 17% one.
THRESHOLDS: Final = (("inaccuracy", 0.05), ("mistake", 0.10), ("blunder", 0.20))
MARKS: Final = ("", "inaccuracy", "mistake", "blunder")
SYMBOLS: Final = {"": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
# The questions a player answers (the chance kinds are never a player's). All are analysed when
# they offer a choice; a question with one legal answer is forced and skipped.
KINDS: Final = ("card", "move", "load", "pay", "dice_order", "attack", "powder", "sabre", "spoils")
DEFAULT_ITERATIONS: Final = 400  # master's iterations per question
GAME_BUDGET: Final = 40_000  # iterations for the whole game, at most
MIN_ITERATIONS: Final = 64  # per question, however long the game…
MAX_QUESTIONS: Final = GAME_BUDGET // MIN_ITERATIONS  # …so only the first 625 are judged
SEED_STRIDE: Final = 1_000_003  # one seed per question: seed * SEED_STRIDE + its rank
SECOND_LOOK: Final = 1 << 40  # added to a question's seed for its second look (a mark's)
PLANS: Final = 24  # ways to pay listed per payment (and the player's own, if not among them)
Taken = tuple[tuple[int, int], ...]  # what a payment takes from each hold: (hold, tokens)


@dataclass(frozen=True)
class Verdict:
    """One decision of the player: master's value of every legal answer (best first), the
    answer taken, the value it lost against the best, and its mark."""

    step: int  # index in the game's history of the action taken
    round: int
    kind: str  # `question_kind`: "card", "move", "load", …, "ghost_move" (the Captain's), …
    values: tuple[tuple[int, float], ...]  # (action id, master's value), best first
    chosen: int  # the action id the player took
    loss: float  # the best value − the chosen value, as the percentages shown (≥ 0, whole points)
    mark: str  # "", "inaccuracy", "mistake", "blunder"

    @property
    def best(self) -> int:
        """Master's preferred answer."""
        return self.values[0][0]

    @property
    def even(self) -> bool:
        """Every answer shows the same win chance (a game already decided, or a choice that does
        not matter): master's preference among them is noise, and the screens say so."""
        return len(self.values) > 1 and percent(self.values[0][1]) == percent(self.values[-1][1])

    @property
    def symbol(self) -> str:
        """The mark as a chess annotation: ?!, ? or ??."""
        return SYMBOLS[self.mark]

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "round": self.round, "kind": self.kind,
                "values": [[a, v] for a, v in self.values], "chosen": self.chosen,
                "loss": self.loss, "mark": self.mark}  # fmt: skip

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Verdict:
        return Verdict(int(d["step"]), int(d["round"]), str(d["kind"]),
                       tuple((int(a), float(v)) for a, v in d["values"]), int(d["chosen"]),
                       float(d["loss"]), str(d["mark"]))  # fmt: skip


@dataclass(frozen=True)
class GameAnalysis:
    """One player's decisions in one game, judged; `iterations`: master's per question."""

    player: int
    verdicts: tuple[Verdict, ...]
    iterations: int = DEFAULT_ITERATIONS
    seed: int = 0

    def worst(self) -> Verdict | None:
        """Where the player lost most (the earliest of equal losses); None if nothing was lost."""
        lost = [v for v in self.verdicts if v.loss > 0]
        return max(lost, key=lambda v: (v.loss, -v.step)) if lost else None

    def counts(self) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders."""
        return {m: sum(v.mark == m for v in self.verdicts) for m in MARKS[1:]}

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "iterations": self.iterations, "seed": self.seed,
                "verdicts": [v.to_dict() for v in self.verdicts]}  # fmt: skip

    @staticmethod
    def from_dict(d: dict[str, Any]) -> GameAnalysis:
        return GameAnalysis(int(d["player"]),
                            tuple(Verdict.from_dict(v) for v in d["verdicts"]),
                            int(d["iterations"]), int(d["seed"]))  # fmt: skip


def thresholds(players: int = 2) -> tuple[tuple[str, float], ...]:
    """The marks' thresholds for a game of `players` (THRESHOLDS heads-up, scaled by 2/n)."""
    return tuple((name, round(x * 2 / players, 4)) for name, x in THRESHOLDS)


def percent(value: float) -> int:
    """A value in [0, 1] as the whole percentage every screen shows: exactly the page's
    `Math.round(value * 100)` (half up on the product as computed: 0.515 → 52, and 0.285 → 28,
    for 0.285 × 100 is 28.499999999999996)."""
    return math.floor(value * 100 + 0.5)


def points(loss: float) -> int:
    """A loss of win chance in whole percentage points, as every screen shows it (`percent`)."""
    return percent(loss)


def mark(loss: float, players: int = 2) -> str:
    """The mark of a loss in a game of `players`: the highest threshold its points, as shown
    (`points`), reach — so that "5 pts" is always an inaccuracy heads-up, "4 pts" never."""
    found = ""
    shown = points(loss)
    for name, threshold in thresholds(players):
        if shown >= round(threshold * 100, 6):
            found = name
    return found


def analysed(state: State, player: int) -> bool:
    """Whether the pending question is one of `player`'s the analysis judges."""
    return (
        state.current_player() == player and len(state.legal) > 1 and state.decision_kind() in KINDS
    )


def questions(config: Config, history: Sequence[int], player: int) -> list[tuple[int, State]]:
    """The player's judged questions of a game: (step, a copy of the game at that step). A
    payment the engine asks one token at a time is one question, at its first token."""
    s = new_game(config, log=False)
    found = []
    until = -1  # the last step of the payment being answered
    for step, action in enumerate(history):
        if step > until and analysed(s, player):
            found.append((step, s.clone()))
            if s.decision_kind() == "pay":
                until = step + len(payment_run(s, history, step)) - 1
        s.apply(action)
    return found


def payment_run(state: State, history: Sequence[int], step: int) -> tuple[int, ...]:
    """The answers (`pay H`, from `history[step]` on) that make the payment pending in `state`:
    the engine asks one token at a time while more than one way is left (`payment_goes_on`)."""
    assert state.q is not None and state.q[0] == K_PAY, "payment_run needs a pending payment"
    ship, resource = state.q[2][:2]
    s = state.clone(log=False)
    out = []
    for action in history[step:]:
        s.apply(action)
        out.append(int(action))
        if not payment_goes_on(s, ship, resource, state.stack):
            break
    return tuple(out)


def payment_plans(state: State, run: Sequence[int] = ()) -> list[tuple[tuple[int, ...], Taken]]:
    """The ways to make the payment pending in `state`, as the rules list them
    (`payment_ways`: each its answers and what it takes from each hold) and the way `run` took
    if that list, bounded, has it not; one per result, as the page offers them — ways that leave
    the same counts in the holds are one choice (`payment_left`), said by the player's own way
    (`run`) or else by the one that takes from the fewest holds."""
    ways = [(tuple(int(a) for a in answers), taken)
            for answers, taken in payment_ways(state, PLANS)]  # fmt: skip
    mine = payment_taken(state, run) if run else None
    if run and all(t != mine for _, t in ways):
        ways.append((tuple(run), mine or ()))
    plans: dict[tuple[int, ...], tuple[tuple[int, ...], Taken]] = {}
    for answers, taken in ways:
        key = payment_left(state, taken)
        was = plans.get(key)
        if was is None or (was[1] != mine and (taken == mine or len(taken) < len(was[1]))):
            plans[key] = (answers, taken)
    return list(plans.values())


def budget(count: int, iterations: int = DEFAULT_ITERATIONS) -> int:
    """Master's iterations per question for a game of `count` judged questions."""
    if count == 0:
        return iterations
    return max(min(iterations, MIN_ITERATIONS), min(iterations, GAME_BUDGET // count))


def judge(state: State, player: int, chosen: int, step: int, iterations: int, seed: int,
          second_look: bool = True) -> Verdict:  # fmt: skip
    """The verdict on `player`'s answer `chosen` to the pending question of `state`, from the
    player's view only (master searches worlds drawn from it). A loss that would be marked is
    looked at again (`second_look`)."""
    found = {int(a): v for a, v in MasterBot(seed).option_values(state, player, iterations).items()}
    if second_look and _marked(found, chosen, state.n):
        best = _best(found)
        again = MasterBot(seed + SECOND_LOOK).option_values(
            state, player, iterations, [a for a in state.legal if int(a) in (best, chosen)])
        found.update({int(a): v for a, v in again.items()})
    return _verdict(state, step, found, chosen)


def _best(found: dict[int, float]) -> int:
    return min(found, key=lambda a: (-round(found[a], 4), a))  # as `_verdict` sorts them


def _loss(found: dict[int, float], chosen: int) -> float:
    """What `chosen` loses to the best, as the percentages shown (the values as kept, to 4
    places): "51%" and "47%" lose "4 pts"."""
    best = round(found[_best(found)], 4)
    mine = round(found.get(chosen, best), 4)
    return max(0, percent(best) - percent(mine)) / 100


def _marked(found: dict[int, float], chosen: int, players: int) -> bool:
    """Whether the answer `chosen` would be marked on these values (a first look)."""
    return bool(mark(_loss(found, chosen), players))


def judge_payment(
    state: State, player: int, run: Sequence[int], step: int, iterations: int, seed: int,
    plans: list[tuple[tuple[int, ...], Taken]] | None = None, second_look: bool = True,
) -> Verdict | None:  # fmt: skip
    """The verdict on the way `player` made the payment pending in `state` (its answers: `run`):
    master values each way to pay (`plans`, by default `payment_plans`; the verdict's answers
    are their indexes), from the player's view only. None if only one way was left."""
    plans = payment_plans(state, run) if plans is None else plans
    if len(plans) < 2:
        return None
    taken = payment_taken(state, run)
    chosen = next(i for i, (_, t) in enumerate(plans) if t == taken)
    found = dict(enumerate(MasterBot(seed).plan_values(state, player, [p for p, _ in plans],
                                                        iterations)))  # fmt: skip
    if second_look and _marked(found, chosen, state.n):
        two = [_best(found), chosen]
        again = MasterBot(seed + SECOND_LOOK).plan_values(state, player,
                                                          [plans[i][0] for i in two], iterations)
        found.update(zip(two, again, strict=True))
    return _verdict(state, step, found, chosen)


def _verdict(state: State, step: int, found: dict[int, float], chosen: int) -> Verdict:
    values = sorted(((a, round(v, 4)) for a, v in found.items()), key=lambda x: (-x[1], x[0]))
    loss = _loss(found, chosen)
    return Verdict(step, state.rnd, question_kind(state), tuple(values), chosen, loss,
                   mark(loss, state.n))  # fmt: skip


def question_kind(state: State) -> str:
    """The pending question's kind as the analysis names it: the engine's (`decision_kind`),
    "ghost_move", "ghost_powder", "ghost_spoils" or "ghost_attack" when the Captain answers it for
    the Ghost Ship — its move is not the player's own."""
    kind = state.decision_kind()
    if state.gh >= 0 and question_ship(state) == state.gh:
        return "ghost_" + kind
    return kind


def analyse_game(
    config: Config,
    history: Sequence[int],
    player: int,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    skip: Collection[int] = (),
    second_look: bool = True,
) -> GameAnalysis:
    """Judge every question `player` answered with a choice in the game `history` (every action
    applied since `new_game(config)`, chance outcomes included), but the steps of `skip` (answers
    that were not the player's: a bot played for them while they were away, or their time ran
    out). `progress(done, total)` is called before the first question and after each one.

    A mark is looked at twice (`second_look`): the first look values every answer, each tried
    about as often, so with many answers each gets few worlds and the noise between two of them
    can pass a threshold. When the answer taken would be marked, master values it and the best
    answer again, the question's whole budget on those two (`SECOND_LOOK`: a seed of their own);
    the verdict keeps those two values. At most twice the budget, for the marked questions only."""
    if not 0 <= player < config.players:
        raise ValueError(f"player must be a seat from 0 to {config.players - 1}, not {player}")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    every = []  # (its rank in all: the question's seed, step, state, a payment's answers, ways)
    for rank, (step, s) in enumerate(questions(config, history, player)):
        paying = s.decision_kind() == "pay"
        run = payment_run(s, history, step) if paying else (history[step],)
        plans = payment_plans(s, run) if paying else []
        if paying and len(plans) < 2:
            continue  # one way to pay in the end (holds alike): nothing was chosen
        if all(step + i not in skip for i in range(len(run))):
            every.append((rank, step, s, run, plans))
    found = every[:MAX_QUESTIONS]
    each = budget(len(found), iterations)
    verdicts = []
    if progress is not None:
        progress(0, len(found))
    for done, (rank, step, state, run, plans) in enumerate(found):
        seeded = seed * SEED_STRIDE + rank
        if plans:
            verdict = judge_payment(state, player, run, step, each, seeded, plans, second_look)
        else:
            verdict = judge(state, player, history[step], step, each, seeded, second_look)
        if verdict is not None:
            verdicts.append(verdict)
        if progress is not None:
            progress(done + 1, len(found))
    return GameAnalysis(player, tuple(verdicts), each, seed)


__all__ = ["DEFAULT_ITERATIONS", "GAME_BUDGET", "KINDS", "MARKS", "MAX_QUESTIONS",
           "MIN_ITERATIONS", "SYMBOLS", "THRESHOLDS", "GameAnalysis", "Verdict", "analyse_game",
           "analysed", "budget", "judge", "judge_payment", "mark", "payment_plans", "payment_run",
           "percent", "points", "question_kind", "questions", "thresholds"]  # fmt: skip
