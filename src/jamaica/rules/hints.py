"""Help for a player deciding, computed by the rules (front ends never decide a rule):

- `card_preview(state, player)`: for each card in the player's hand, what its morning and
  evening actions would do with the current dice: where a move could end (with the space's cost,
  whether the ship could pay it, whether a ship is there to fight) or what would be loaded. It
  looks only at what the player may see (their own hand, the public board), and assumes the other
  ships stay where they are.
- `pay_plans(state)`: a payment that takes several `pay H` questions, as whole plans.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE
from .data import (
    BACKWARD,
    CARD_NAMES,
    CARDS,
    EMPTY,
    FOOD,
    FORWARD,
    GOLD,
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
from .ops import K_PAY

if TYPE_CHECKING:
    from .state import State


def _held(s: State, ship: int, resource: int) -> int:
    base = ship * SLOTS
    return sum(s.hn[base + h] for h in range(SLOTS) if s.ht[base + h] == resource)


def _destinations(s: State, ship: int, space: int, die: int, icon: int) -> list[dict[str, Any]]:
    if icon == FORWARD:
        table = MOVES_FORWARD_RACE if s.lap[ship] == 0 else MOVES_FORWARD_BEHIND
    else:
        table = MOVES_BACKWARD
    out = []
    for dest, _crossed in table[space][die]:
        kind = SPACE_TYPE[dest]
        cost, resource = 0, EMPTY
        if kind == PORT:
            cost, resource = SPACE_COST[dest], GOLD
        elif kind == SEA:
            cost, resource = SPACE_COST[dest], FOOD
        others = [k for k in range(s.ns) if k != ship and s.pos[k] == dest]
        out.append({
            "space": dest,
            "cost": amount(cost, resource) if cost else ("a treasure" if kind == LAIR else "free"),
            "battle": bool(others) and dest != PORT_ROYAL,
            "shortage": cost > _held(s, ship, resource) if cost else False,
        })  # fmt: skip
    return out


def _step(s: State, ship: int, icon: int, die: int, time: str, starts: list[int]) -> dict[str, Any]:
    if icon in (FORWARD, BACKWARD):
        seen: dict[int, dict[str, Any]] = {}
        for start in starts:
            for d in _destinations(s, ship, start, die, icon):
                seen.setdefault(d["space"], d)
        way = "Forward" if icon == FORWARD else "Backward"
        return {"time": time, "what": "move", "words": f"{way} {die}", "die": die,
                "destinations": [seen[k] for k in sorted(seen)]}  # fmt: skip
    name = RESOURCE_NAMES[icon]
    return {"time": time, "what": "load", "words": f"Load {amount(die, icon)}", "die": die,
            "resource": name, "amount": die}  # fmt: skip


def card_preview(s: State, player: int) -> list[dict[str, Any]]:
    """One entry per card in `player`'s hand (only meaningful once the dice are placed)."""
    out = []
    for c in range(NUM_CARDS):
        if not s.hand[player] >> c & 1:
            continue
        morning_icon, evening_icon = CARDS[c]
        first = _step(s, player, morning_icon, s.morning, "morning", [s.pos[player]])
        ends = [d["space"] for d in first.get("destinations", [])] or [s.pos[player]]
        second = _step(s, player, evening_icon, s.evening, "evening", ends)
        out.append({
            "action": f"play {CARD_NAMES[c]}",
            "card": CARD_NAMES[c],
            "title": card_title(CARD_NAMES[c]),
            "summary": f"{first['words']}, then {second['words'].lower()}",
            "steps": [first, second],
        })  # fmt: skip
    return out


def pay_plans(s: State, limit: int = 24) -> list[dict[str, Any]]:
    """The ways to finish the pending payment, each as its list of answers and in words (what
    the answers take from each hold; once only one way is left, the engine takes the rest itself);
    empty if the pending question is not a payment."""
    assert s.q is not None
    if s.q[0] != K_PAY:
        return []
    who, (_, resource, owed) = s.q[1], s.q[2]
    plans: dict[tuple[str, ...], list[str]] = {}

    def walk(t: State, answers: list[str]) -> None:
        if len(plans) >= limit:
            return
        q = t.q
        if q is None or q[0] != K_PAY or q[2] != (who, resource, owed - len(answers)):
            # this payment is over (what follows, even another payment, is not part of it)
            plans.setdefault(tuple(sorted(answers)), answers)
            return
        for a in t.legal:
            u = t.clone(log=False)
            u.apply(a)
            walk(u, [*answers, str(a)])

    walk(s.clone(log=False), [])
    base = who * SLOTS
    holds = [h for h in range(SLOTS) if s.ht[base + h] == resource and s.hn[base + h]]
    out, labels = [], set()
    for answers in plans.values():
        left = {h: s.hn[base + h] for h in holds}
        for a in answers:
            left[int(a.split()[1])] -= 1
        rest = owed - len(answers)
        while rest > 0:  # what the engine then takes itself: one way left, from the first hold
            h = next(h for h in holds if left[h] > 0)
            left[h] -= 1
            rest -= 1
        taken = [(h, s.hn[base + h] - left[h]) for h in holds if s.hn[base + h] > left[h]]
        words = " and ".join(f"{n} from {hold_name(h)}" for h, n in taken)
        label = f"Pay {RESOURCE_NAMES[resource]}: {words}"
        if label not in labels:
            labels.add(label)
            out.append({"label": label, "actions": answers})
    return out
