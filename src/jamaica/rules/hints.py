"""Help for a player deciding, computed by the rules (front ends never decide a rule):

- `card_preview(state, player)`: for each card in the player's hand, what its morning and
  evening actions would do with the current dice: where a move could end (with the space's cost,
  whether the ship could pay it, whether a ship is there to fight, whether it finishes) or what
  would be loaded. The evening starts from where the morning may end, with what the ship holds
  then (a morning load counts, a morning move has paid); after a shortage the place is unknown
  (`after_shortage`). It looks only at what the player may see (their own hand, the public
  board), and assumes the other ships stay where they are.
- `move_hints(state)`: for a pending move question, what arriving at each legal destination means.
- `pay_plans(state)`: a payment that takes several `pay H` questions, as whole plans (the answers
  from `payment_answers`, a walk with a bound on its work: `pay_walk_bound`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import MOVE, PAY, Action
from .board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE
from .data import (
    BACKWARD,
    CARD_NAMES,
    CARDS,
    EMPTY,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    LAIR,
    NUM_CARDS,
    PORT,
    PORT_ROYAL,
    RESOURCE_NAMES,
    SEA,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
)
from .events import amount, card_title, hold_name
from .ops import K_MOVE, K_PAY, M_FALLBACK_2021, M_GHOST

if TYPE_CHECKING:
    from .state import State


def _held(s: State, ship: int, resource: int) -> int:
    base = ship * SLOTS
    return sum(s.hold_counts[base + h] for h in range(SLOTS) if s.hold_types[base + h] == resource)


Place = tuple[int, int, dict[int, int]]  # (space, lap, resource -> tokens held); space -1: unknown


def _arrive(s: State, ship: int, dest: int, held: dict[int, int], finishes: bool) -> dict[str, Any]:
    """What arriving on `dest` holding `held` means: its cost, a shortage, a battle, the finish."""
    kind = SPACE_TYPE[dest]
    cost, resource = 0, EMPTY
    if kind == PORT:
        cost, resource = SPACE_COST[dest], GOLD
    elif kind == SEA:
        cost, resource = SPACE_COST[dest], FOOD
    others = [k for k in range(s.ns) if k != ship and s.pos[k] == dest]
    if finishes:
        words = "the finish"
    elif cost:
        words = amount(cost, resource)
    else:
        words = "a treasure" if kind == LAIR else "free"
    battle = bool(others) and dest != PORT_ROYAL and not finishes
    return {
        "space": dest,
        "cost": words,
        "battle": battle,
        "ships_there": others if battle else [],
        "shortage": not finishes and cost > held.get(resource, 0),
        "finish": finishes,
        "have": held.get(resource, 0) if cost else None,  # what the ship would hold to pay
    }


def _move_from(
    s: State, ship: int, places: list[Place], die: int, forward: bool
) -> tuple[list[dict[str, Any]], list[Place], bool]:
    """Where a move of `die` can end from each place the ship may be in, and the places after it
    (what it holds having paid; after a shortage the place is unknown: -1). The flag: some place
    is unknown (the ship fell back after a shortage earlier in the turn)."""
    seen: dict[int, dict[str, Any]] = {}
    after: list[Place] = []
    unknown = False
    for space, lap, held in places:
        if lap >= 1:  # finished: the move is ignored (RULES: a finished ship stays)
            after.append((space, lap, held))
            continue
        if space < 0:
            unknown = True
            continue
        if forward:
            table = MOVES_FORWARD_RACE if lap == 0 else MOVES_FORWARD_BEHIND
        else:
            table = MOVES_BACKWARD
        for dest, crossed in table[space][die]:
            finishes = bool(crossed) and forward and lap == 0
            d = _arrive(s, ship, dest, held, finishes)
            known = seen.setdefault(dest, d)
            known["shortage"] = known["shortage"] or d["shortage"]
            left = dict(held)
            if finishes:
                after.append((dest, 1, left))
                continue
            new_lap = lap + (1 if forward else -1) if crossed else lap
            kind = SPACE_TYPE[dest]
            resource = GOLD if kind == PORT else FOOD
            if kind in (PORT, SEA):
                if d["shortage"]:
                    left[resource] = 0  # pays all it has, then falls back: where, not known
                    after.append((-1, new_lap, left))
                    continue
                left[resource] -= SPACE_COST[dest]
            after.append((dest, new_lap, left))
    return [seen[k] for k in sorted(seen)], after, unknown


def _step(
    s: State, ship: int, icon: int, die: int, time: str, places: list[Place]
) -> tuple[dict[str, Any], list[Place]]:
    if icon in (FORWARD, BACKWARD):
        forward = icon == FORWARD
        dests, after, unknown = _move_from(s, ship, places, die, forward)
        way = "Forward" if forward else "Backward"
        step = {"time": time, "what": "move", "words": f"{way} {die}", "die": die,
                "destinations": dests, "after_shortage": unknown,
                "finished": all(lap >= 1 for _, lap, _ in places)}  # fmt: skip
        return step, after or places
    name = RESOURCE_NAMES[icon]
    loaded = [(space, lap, {**held, icon: held.get(icon, 0) + die}) for space, lap, held in places]
    step = {"time": time, "what": "load", "words": f"Load {amount(die, icon)}", "die": die,
            "resource": name, "amount": die}  # fmt: skip
    return step, loaded


def card_preview(s: State, player: int) -> list[dict[str, Any]]:
    """One entry per card in `player`'s hand (only meaningful once the dice are placed): the
    evening step starts from every place the morning step may end in, holding what the ship
    holds then (a morning load counts; a morning move has paid its cost)."""
    out = []
    held = {r: _held(s, player, r) for r in (FOOD, GOLD, GUNPOWDER)}
    for c in range(NUM_CARDS):
        if not s.hand[player] >> c & 1:
            continue
        morning_icon, evening_icon = CARDS[c]
        start: list[Place] = [(s.pos[player], s.lap[player], dict(held))]
        first, places = _step(s, player, morning_icon, s.morning, "morning", start)
        second, _ = _step(s, player, evening_icon, s.evening, "evening", places)
        out.append({
            "action": f"play {CARD_NAMES[c]}",
            "card": CARD_NAMES[c],
            "title": card_title(CARD_NAMES[c]),
            "summary": f"{first['words']}, then {second['words'].lower()}",
            "steps": [first, second],
        })  # fmt: skip
    return out


def move_hints(s: State) -> list[dict[str, Any]]:
    """For a pending move question: per legal answer, in their order, what arriving there means
    — the space, its cost in words, a shortage, a battle (and with which ships), the finish — as
    `card_preview` gives it for a card's move. The Ghost Ship's moves and the 2021 fall-back are
    not paid (RULES §7.2): no cost, no shortage."""
    assert s.q is not None and s.q[0] == K_MOVE, "move_hints needs a pending move question"
    ship, mode, routes = s.q[2]
    by_dest = {route[0]: route for route in routes}
    held = {r: _held(s, ship, r) for r in (FOOD, GOLD)}
    out = []
    for a in s.legal:
        dest, crossed, forward = by_dest[a - MOVE]
        finishes = bool(crossed) and bool(forward) and s.lap[ship] == 0
        finishes = finishes and mode != M_FALLBACK_2021
        d = _arrive(s, ship, dest, held, finishes)
        if mode in (M_GHOST, M_FALLBACK_2021) and not finishes:
            d.update(cost="not paid", shortage=False, have=None)
        out.append(d)
    return out


def pay_plans(s: State, limit: int = 24) -> list[dict[str, Any]]:
    """The ways to finish the pending payment, each as its list of answers and in words (what
    the answers take from each hold; once only one way is left, the engine takes the rest itself);
    empty if the pending question is not a payment. The answers are `payment_answers`'s, one
    list per different wording."""
    assert s.q is not None
    if s.q[0] != K_PAY:
        return []
    who, (_, resource, owed) = s.q[1], s.q[2]
    base = who * SLOTS
    holds = [
        h for h in range(SLOTS) if s.hold_types[base + h] == resource and s.hold_counts[base + h]
    ]
    out, labels = [], set()
    for answers in payment_answers(s, limit):
        left = {h: s.hold_counts[base + h] for h in holds}
        for a in answers:
            left[a - PAY] -= 1
        rest = owed - len(answers)
        while rest > 0:  # what the engine then takes itself: one way left, from the first hold
            h = next(h for h in holds if left[h] > 0)
            left[h] -= 1
            rest -= 1
        taken = [
            (h, s.hold_counts[base + h] - left[h])
            for h in holds
            if s.hold_counts[base + h] > left[h]
        ]
        words = " and ".join(f"{n} from {hold_name(h)}" for h, n in taken)
        label = f"Pay {RESOURCE_NAMES[resource]}: {words}"
        if label not in labels:
            labels.add(label)
            out.append({"label": label, "actions": [str(a) for a in answers]})
    return out


def payment_answers(s: State, limit: int = 24) -> list[list[Action]]:
    """The sets of `pay H` answers that finish the pending payment (at most `limit`), each in
    the first order the engine's answers allow, in the order found; empty if the pending
    question is not a payment.

    The walk tries the answers in the engine's order, depth first, and meets each *set* of
    answers once: after the same answers in any order the holds are the same (each `pay H` takes
    one token from hold H, and a payment that goes on has taken nothing else), so a set met
    already leads to nothing new. The sets, their order and their answers are those of a walk of
    every order, which cloned the state once per order (billions for 17 tokens in six holds).

    The walk clones the state once, then once per set of answers, and stops after
    `pay_walk_bound(owed, holds, limit)` of those, whatever the holds. On the hold contents a
    game can reach (six holds of at most 6 tokens) no walk needs more than 0.6 of that bound
    (every one of them is walked in tests/rules/test_hint_bounds.py), so none is cut short.
    """
    assert s.q is not None
    if s.q[0] != K_PAY:
        return []
    who, (_, resource, owed) = s.q[1], s.q[2]
    base = who * SLOTS
    holds = sum(
        1 for h in range(SLOTS) if s.hold_types[base + h] == resource and s.hold_counts[base + h]
    )
    budget = pay_walk_bound(owed, holds, limit)
    root = s.clone(log=False)
    root.history = []  # a clone copies the history: the walk's cost must not grow with the game
    stack = root.stack
    found: dict[tuple[int, ...], list[Action]] = {}
    walked: set[tuple[int, ...]] = set()

    def walk(t: State, answers: list[Action]) -> None:
        nonlocal budget
        for a in t.legal:
            if len(found) >= limit or budget <= 0:
                return
            after = [*answers, a]
            key = tuple(sorted(after))
            if key in walked or key in found:
                continue  # these answers in another order: nothing new below them
            budget -= 1
            u = t.clone(log=False)
            u.apply(a)
            q = u.q
            if (
                q is None
                or q[0] != K_PAY
                or q[2] != (who, resource, owed - len(after))
                or u.stack != stack
            ):
                # this payment is over (what follows, even another payment, is not part of it)
                found[key] = after
            else:
                walked.add(key)
                walk(u, after)

    walk(root, [])
    return list(found.values())


def pay_walk_bound(owed: int, holds: int, limit: int = 24) -> int:
    """The most sets of answers `payment_answers` meets, each with a clone and an apply, for a
    payment of `owed` tokens from `holds` holds: `limit` × (`owed` + 1) × `holds`."""
    return limit * (owed + 1) * holds
