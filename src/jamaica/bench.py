"""`jamaica bench`: how fast the engine is, measured on one core; `jamaica bench --hints`: the
worst work of what the server computes for an update, per kind of question (issue 21)."""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final

from .rules import CHANCE, Action, Config, State, hints, new_game
from .rules.data import (
    CARD_NAMES,
    CLASS_TREASURE,
    CURSED,
    EMPTY,
    FOOD,
    GOLD,
    GUNPOWDER,
    HOLD6,
    HOLDS,
    LADY_BETH,
    LAIR_SPACES,
    MAP,
    NUM_POWERS,
    SABRE,
    SIXTH,
    SLOTS,
)
from .rules.ops import KIND_NAMES
from .rules.turns import encode_card


@dataclass
class BenchResult:
    games: int
    seconds: float
    decisions: int
    steps: int
    clone_us: float
    view_us: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds


def random_game(config: Config, rng: random.Random) -> tuple[State, int, int]:
    """A complete game with uniformly random decisions, through the public API, no event log."""
    s = new_game(config, log=False)
    decisions = steps = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = legal[int(rng.random() * len(legal))]
            decisions += 1
        s.apply(a)
        steps += 1
    return s, decisions, steps


def mid_game_state(config: Config, seed: int = 7, steps: int = 200) -> State:
    rng = random.Random(seed)
    s = new_game(config)
    for _ in range(steps):
        if s.is_terminal():
            break
        a = s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        s.apply(a)
    return s


def _per_call_us(fn: object, repeat: int) -> float:
    f = fn  # a zero-argument callable
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            f()  # type: ignore[operator]
        best = min(best, (time.perf_counter() - t) / repeat)
    return best * 1e6


def run_bench(
    games: int = 500, players: int = 4, edition: str = "2021", seed: int = 1
) -> BenchResult:
    config = Config(players=players, edition=edition)
    rng = random.Random(seed)
    decisions = steps = 0
    t = time.perf_counter()
    for _ in range(games):
        _, d, n = random_game(config, rng)
        decisions += d
        steps += n
    seconds = time.perf_counter() - t
    mid = mid_game_state(config)
    clone_us = _per_call_us(mid.clone, 2000)
    silent = mid.clone(log=False)
    view_us = _per_call_us(lambda: silent.view(0), 500)
    return BenchResult(games, seconds, decisions, steps, clone_us, view_us)


def bot_bench(players: int = 4, edition: str = "2021", games: int = 10) -> tuple[float, float]:
    """Greedy decisions per second (time inside the bot) and ISMCTS iterations per second on a
    4-player mid-game position."""
    from .bots import GreedyBot, ISMCTSBot

    config = Config(players=players, edition=edition)
    spent, decisions = 0.0, 0
    for g in range(games):
        bots = [GreedyBot(g * 10 + p) for p in range(players)]
        rng = random.Random(g)
        s = new_game(config, log=False)
        while not s.is_terminal():
            who = s.current_player()
            if who == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            t = time.perf_counter()
            a = bots[who].act(s, who)
            spent += time.perf_counter() - t
            decisions += 1
            s.apply(a)
    mid = mid_game_state(Config(players=4, edition=edition), seed=3, steps=150)
    rng = random.Random(0)
    while mid.current_player() == CHANCE or mid.decision_kind() != "card":
        mid.apply(mid.sample_chance(rng) if mid.current_player() == CHANCE else mid.legal[0])
    bot = ISMCTSBot(1, seconds=2.0)
    t = time.perf_counter()
    bot.search(mid, mid.current_player())
    return decisions / spent, bot.last_iterations / (time.perf_counter() - t)


def report(r: BenchResult, players: int, edition: str) -> str:
    return "\n".join(
        [
            f"random {players}-player games ({edition} edition), one core:",
            f"  games/s            {r.games_per_s:10.0f}   ({r.games} games in {r.seconds:.2f} s)",
            f"  decisions/s        {r.decisions_per_s:10.0f}   (player decisions)",
            f"  steps/s            {r.steps_per_s:10.0f}   (decisions and chance events)",
            f"  clone()            {r.clone_us:10.1f} µs (mid-game, with its event log)",
            f"  view()             {r.view_us:10.1f} µs",
        ]
    )


def env_bench(seconds: float = 3.0) -> tuple[float, float]:
    """Environment steps per second with random actions: PettingZoo (`jamaica_v0.env`, through
    `agent_iter`/`last`/`step`, observations included) and OpenSpiel (`apply_action`, with an
    observation tensor per step)."""
    import numpy as np

    from .envs import jamaica_v0

    env = jamaica_v0.env(players=4)
    rng = random.Random(1)
    steps, game = 0, 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        env.reset(seed=game)
        game += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    pettingzoo = steps / (time.perf_counter() - t)

    import pyspiel

    from .envs import openspiel  # noqa: F401  (registers the game)

    ospiel = pyspiel.load_game("python_jamaica", {"players": 4})
    steps = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        state = ospiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return pettingzoo, steps / (time.perf_counter() - t)


# --- hints: what the server computes for each update, at its worst (issue 21) ------------------
# The server calls these synchronously, for every update it sends a seated player
# (web/tables.py `update_for`): the view, the pending question in words, and the rules' hints
# for it. Their work is counted, not timed, so that a bound can be asserted (tests/rules/
# test_hint_bounds.py): clones and applies (the payment walk is the only search), arrivals (one
# destination judged by a preview) and lines of the rules package executed (everything else).

_RULES_DIR = os.path.dirname(hints.__file__) + os.sep


@dataclass
class Work:
    """Deterministic operation counts of a computation."""

    clones: int = 0
    applies: int = 0
    arrivals: int = 0
    lines: int = 0

    def __add__(self, other: Work) -> Work:
        return Work(
            self.clones + other.clones,
            self.applies + other.applies,
            self.arrivals + other.arrivals,
            self.lines + other.lines,
        )


@contextmanager
def counting() -> Iterator[Work]:
    """Count the work done inside the block: `State.clone` and `State.apply` calls, the hints'
    arrivals (`hints._arrive`) and the lines of `jamaica.rules` executed (sys.settrace)."""
    work = Work()
    clone, apply, arrive = State.clone, State.apply, hints._arrive

    def counted_clone(self: State, *, log: bool | None = None) -> State:
        work.clones += 1
        return clone(self, log=log)

    def counted_apply(self: State, action: Action | int | str) -> None:
        work.applies += 1
        apply(self, action)

    def counted_arrive(*args: Any) -> dict[str, Any]:
        work.arrivals += 1
        return arrive(*args)

    def line(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            work.lines += 1
        return line

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        return line if frame.f_code.co_filename.startswith(_RULES_DIR) else None

    State.clone = counted_clone  # type: ignore[method-assign,assignment]
    State.apply = counted_apply  # type: ignore[method-assign]
    hints._arrive = counted_arrive  # type: ignore[assignment]
    before = sys.gettrace()
    sys.settrace(call)
    try:
        yield work
    finally:
        sys.settrace(before)
        State.clone = clone  # type: ignore[method-assign]
        State.apply = apply  # type: ignore[method-assign]
        hints._arrive = arrive


def update_calls(s: State, seat: int) -> list[tuple[str, Callable[[], object]]]:
    """What the server computes from the rules for an update to `seat` at `s`, by name (as
    web/tables.py `update_for` does): the view; for the decider the question in words and, for
    a payment, its plans or, for a move, what each destination means; a card preview for every
    seat that chooses a card now or may choose early."""
    calls: list[tuple[str, Callable[[], object]]] = [("view", lambda: s.view(seat))]
    if s.is_terminal():
        return calls
    kind = s.decision_kind()
    if s.current_player() == seat:
        calls.append(("pending", lambda: s.pending(None)))
        if kind == "pay":
            calls.append(("pay_plans", lambda: hints.pay_plans(s)))
        elif kind == "move":
            calls.append(("move_hints", lambda: hints.move_hints(s)))
    if kind == "card" and (s.current_player() == seat or s.chosen[seat] < 0):
        calls.append(("card_preview", lambda: hints.card_preview(s, seat)))
    return calls


def update_work(s: State, seat: int) -> dict[str, Work]:
    """The work of each computation of `update_calls(s, seat)`."""
    out = {}
    for name, fn in update_calls(s, seat):
        with counting() as work:
            fn()
        out[name] = work
    return out


def update_seconds(s: State, seat: int, repeat: int = 3) -> float:
    """Wall time of one update's computations for `seat` at `s` (the best of `repeat`)."""
    calls = [fn for _, fn in update_calls(s, seat)]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for fn in calls:
            fn()
        best = min(best, time.perf_counter() - t)
    return best


# --- the worst positions we can build, one per kind of question ---------------------------------
LOADING: Final = ("gun-gold", "gold-gold", "food-gun")  # cards that move nobody
WORST_PAYMENT: Final = ((6, 1, 3, 5, 6), 6, 25)  # gunpowder per regular hold, 6th Hold, spent


def _table(players: int = 6, hands: dict[int, tuple[str, ...]] | None = None, **cfg: Any) -> State:
    """A new game after setup, player 0 the Captain, each player holding the given cards (else
    loading cards): waiting for the roll."""
    s = new_game(Config(players, **cfg))
    for p in range(s.n):
        for card in (hands or {}).get(p, LOADING):
            s.apply(f"draw {card}")
    s.apply("captain 0")
    return s


def _fill(s: State, ship: int, kind: int, counts: Sequence[int], sixth: int = 0) -> None:
    """Set a ship's holds: `counts` tokens of `kind` in its regular holds, the rest empty;
    `sixth` tokens in the 6th Hold (its owner only)."""
    base = ship * SLOTS
    for h in range(SLOTS):
        s.hold_types[base + h], s.hold_counts[base + h] = EMPTY, 0
    for h, n in enumerate([*counts, *([0] * (HOLDS - len(counts))), sixth]):
        if n:
            s.hold_types[base + h], s.hold_counts[base + h] = kind, n


def _treasure(s: State, ship: int, t: int) -> None:
    """Ship `ship` drew treasure `t` from a lair (the lair's token is gone): face up if a power,
    else face down, known to its owner."""
    s.pile[t] -= 1
    s.tokens &= ~(1 << max(space for space in LAIR_SPACES if s.tokens >> space & 1))
    if t < NUM_POWERS:
        s.powers[t] = ship
    else:
        s.face_down[ship] += (encode_card(t, CLASS_TREASURE, 1 << ship),)


def _round(s: State, roll: tuple[int, int], morning: int, cards: dict[int, str]) -> None:
    """Roll, place the morning die, and let every player choose (the given card, else the
    first): the engine runs on to its next question."""
    s.apply("roll {}-{}".format(*sorted(roll)))
    if roll[0] != roll[1]:
        s.apply(f"morning {morning}")
    while s.decision_kind() == "card":
        p = s.current_player()
        s.apply(f"play {cards[p]}" if p in cards else s.legal[0])


def long_log(s: State, events: int = 20_000, history: int = 10_000) -> State:
    """The same position after a longer game than R7 allows: the event log and the history
    padded (with copies of their own entries) to `events` and `history` entries."""
    if s.events:
        s.events.extend(s.events[i % len(s.events)] for i in range(events - len(s.events)))
    s.history.extend(s.history[i % len(s.history)] for i in range(history - len(s.history)))
    return s


def _battle(attacker: Sequence[int], defender: Sequence[int], sixth: int = 0) -> State:
    """6 players: Anne (0, the Captain) sails 3 from space 3 onto Mary (1) on space 6 (a 5-doubloon
    port) with gunpowder in her holds (`sixth` in her 6th Hold); Mary holds `defender`
    gunpowder. Waiting for Anne's gunpowder."""
    s = _table(6, {0: ("fwd-fwd", "gold-gold", "food-gun")})
    s.pos[0], s.pos[1] = 3, 6
    if sixth:
        _treasure(s, 0, HOLD6)
    _fill(s, 0, GUNPOWDER, attacker, sixth)
    _fill(s, 1, GUNPOWDER, defender)
    _round(s, (2, 3), 3, {0: "fwd-fwd"})
    return s


def scene_pay_gunpowder() -> State:
    """§8.1, §6 ("the player chooses which holds to pay from"): Anne spends 25 of the 27
    gunpowder in her six holds (the 6th Hold's included, R11): of all the hold contents a game
    can reach, the payment whose walk met the most sets of answers (1,727; 1,752 since a plan goes
    on past the tokens the engine takes itself; 1,857 since each hold's plain way comes first)."""
    counts, sixth, spent = WORST_PAYMENT
    s = _battle(counts, (), sixth)
    s.apply(f"powder {spent}")
    return s


def _arrive_and_pay(kind: int, space: int, start: int, die: int) -> State:
    s = _table(6, {0: ("fwd-fwd", "gold-gold", "food-gun")})
    s.pos[0] = start
    _treasure(s, 0, HOLD6)
    _fill(s, 0, kind, (1, 2, 3, 4, 5), 6)
    _round(s, (die, die), die, {0: "fwd-fwd"})
    assert s.pos[0] == space
    return s


def scene_pay_gold() -> State:
    """§6.2: Anne reaches the 7-doubloon port (space 45) with 21 doubloons in six holds."""
    return _arrive_and_pay(GOLD, 45, 38, 5)


def scene_pay_food() -> State:
    """§6.2: Anne reaches a 4-food sea space (14) with 21 food in six holds."""
    return _arrive_and_pay(FOOD, 14, 13, 1)


def scene_powder() -> State:
    """§8.1: Anne may spend any of her 36 gunpowder (six holds of 6): 37 answers."""
    return _battle((6, 6, 6, 6, 6), (), 6)


def scene_attack() -> State:
    """§8: Anne ends her move where the five other ships are: she chooses one of them."""
    s = _table(6, {0: ("fwd-fwd", "gold-gold", "food-gun")})
    s.pos[:] = [3, 6, 6, 6, 6, 6]
    _round(s, (2, 3), 3, {0: "fwd-fwd"})
    return s


def scene_sabre() -> State:
    """§8.5, R5: Anne holds Saran's Sabre; after her own roll she may have it rolled again."""
    s = _battle((), ())
    _treasure(s, 0, SABRE)
    s.apply("die 2")
    return s


def scene_spoils() -> State:
    """R6, R12: Anne beats Mary, who has six different holds (the 6th Hold's included), the
    four powers and a face-down treasure; Anne holds the three cursed treasures: every kind of
    spoils is offered."""
    s = _table(6, {0: ("fwd-fwd", "gold-gold", "food-gun")})
    s.pos[0], s.pos[1] = 3, 6
    for t in (MAP, SABRE, LADY_BETH, HOLD6):
        _treasure(s, 1, t)
    _treasure(s, 1, NUM_POWERS)  # a +3, face down
    for t in CURSED:
        _treasure(s, 0, t)
    base = SLOTS
    for h, (kind, n) in enumerate([(FOOD, 1), (FOOD, 2), (GOLD, 3), (GOLD, 4), (FOOD, 5)]):
        s.hold_types[base + h], s.hold_counts[base + h] = kind, n
    s.hold_types[base + SIXTH], s.hold_counts[base + SIXTH] = GOLD, 6
    _round(s, (2, 3), 3, {0: "fwd-fwd"})
    for answer in ("die 10", "accept", "die 2", "accept"):
        if s.decision_kind() in ("combat_die", "sabre"):
            s.apply(answer)
    return s


def scene_card() -> State:
    """§4.2, R2, R10: Anne holds Morgan's Map and four cards whose moves fork, morning and
    evening, from space 17 with a 6 in the morning and a 4 in the evening."""
    s = _table(6, {0: ("food-fwd", "fwd-fwd", "fwd-back")})
    _treasure(s, 0, MAP)
    c = CARD_NAMES.index("back-fwd")
    s.hand[0] |= 1 << c
    s.drawp[0] &= ~(1 << c)
    s.pos[0] = 17
    s.apply("roll 4-6")
    s.apply("morning 6")
    return s


def scene_move() -> State:
    """§10, R2: neither alone in the lead nor alone last, the Ghost Ship goes where the Captain
    chooses: forward or backward, and each way forks (four answers)."""
    s = _table(5, ghost_ship=True)
    s.pos[s.gh], s.pos[1] = 17, 45
    _round(s, (4, 5), 4, {})
    return s


def scene_load() -> State:
    """§5: Anne loads doubloons with every hold full of something else, no two alike: she
    chooses which of her six holds to empty."""
    s = _table(6, {0: ("gold-gold", "fwd-fwd", "food-gun")})
    _treasure(s, 0, HOLD6)
    base = 0
    for h, (kind, n) in enumerate([(FOOD, 1), (FOOD, 2), (GUNPOWDER, 3), (GUNPOWDER, 4),
                                   (FOOD, 5), (GUNPOWDER, 6)]):  # fmt: skip
        s.hold_types[base + h], s.hold_counts[base + h] = kind, n
    _round(s, (2, 3), 3, {0: "gold-gold"})
    return s


def scene_dice_order() -> State:
    """§4.1: the Captain places the dice."""
    s = _table(6)
    s.apply("roll 1-6")
    return s


SCENES: Final = {
    "dice_order": scene_dice_order,
    "card": scene_card,
    "move": scene_move,
    "load": scene_load,
    "pay gunpowder": scene_pay_gunpowder,
    "pay doubloons": scene_pay_gold,
    "pay food": scene_pay_food,
    "attack": scene_attack,
    "powder": scene_powder,
    "sabre": scene_sabre,
    "spoils": scene_spoils,
}


def game_configs() -> list[Config]:
    """Every configuration: 2 to 6 players, both editions, the Ghost Ship on and off."""
    out: list[Config] = []
    for players in range(2, 7):
        for edition in ("2021", "classic"):
            ghosts: tuple[bool | None, ...] = (True, False) if 2 < players < 6 else (None,)
            out.extend(Config(players, edition, ghost) for ghost in ghosts)
    return out


def random_questions(games: int, seed: int = 1) -> Iterator[tuple[str, State]]:
    """Every question of `games` random games (uniform answers, the configurations in turn) and
    their ends, with where each comes from. The state is the game's own: use it before the next."""
    configs = game_configs()
    for g in range(games):
        config = configs[g % len(configs)]
        rng = random.Random(seed * 1_000_003 + g)
        s = new_game(config)
        where = f"random game {g} ({config.players}p {config.edition})"
        while not s.is_terminal():
            yield where, s
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
        yield where, s


@dataclass
class HintCost:
    """The costliest update seen for one kind of question: where, for which seat, its work and
    its wall time (the computations of `update_calls`, the best of three runs)."""

    kind: str
    where: str
    seat: int
    work: Work
    seconds: float = 0.0


def hint_bench(games: int = 60, seed: int = 1) -> list[HintCost]:
    """The worst update per kind of question (by lines executed), over the constructed worst
    cases (`SCENES`, each with a long log) and every question of `games` random games."""
    worst: dict[str, tuple[HintCost, State]] = {}

    def consider(where: str, s: State) -> None:
        kind = s.decision_kind() or "game_over"
        for seat in range(s.n):
            work = sum(update_work(s, seat).values(), Work())
            best = worst.get(kind)
            if best is None or work.lines > best[0].work.lines:
                worst[kind] = (HintCost(kind, where, seat, work), s.clone())

    for name, build in SCENES.items():
        consider(f"worst case: {name}", long_log(build()))
    for where, s in random_questions(games, seed):
        consider(where, s)
    out = []
    for kind in [*KIND_NAMES, "game_over"]:
        if kind in worst:
            cost, s = worst[kind]
            cost.seconds = update_seconds(s, cost.seat)
            out.append(cost)
    return out


def hint_report(costs: list[HintCost], games: int) -> str:
    lines = [
        "what the server computes for one update (view, question, card preview, move hints,",
        f"pay plans), the worst per kind of question over {len(SCENES)} constructed worst cases"
        f" and {games} random games:",
        f"  {'question':<14}{'clones':>7}{'applies':>8}{'arrivals':>9}{'lines':>9}{'time':>10}"
        "   worst at",
    ]
    for c in costs:
        w = c.work
        lines.append(
            f"  {c.kind:<14}{w.clones:>7}{w.applies:>8}{w.arrivals:>9}{w.lines:>9}"
            f"{c.seconds * 1e3:>8.2f} ms   {c.where}"
        )
    counts, sixth, spent = WORST_PAYMENT
    holds = len(counts) + (1 if sixth else 0)
    lines += [
        "  clones, applies: the payment walk, the only search; pay_plans makes at most",
        f"    1 + 24 × (owed + 1) × holds clones ({1 + hints.pay_walk_bound(spent, holds)} for"
        f" {spent} of {sum(counts) + sixth} gunpowder in {holds} holds)",
        "  arrivals: destinations judged by a hint; lines: lines of the rules package executed",
    ]
    return "\n".join(lines)
