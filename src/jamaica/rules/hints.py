"""Help for a player deciding, computed by the rules (front ends never decide a rule), and true:
tests/rules/test_hint_truth.py plays every hint on the engine.

- `card_preview(state, player)`: for each card in the player's hand, what its morning and
  evening actions would do with the current dice: where a move could end (with the space's cost,
  what the ship would hold to pay it and whether that is a shortage, a ship there to fight, a
  lair's treasure, the finish) or what would be loaded (or that the load is ignored, §5).
  The evening is judged from each place the morning may leave the ship in, holding what it
  holds then: a morning move has paid its space, a morning load has loaded (and emptied the
  hold it chose). Where the morning's choices (a branch at a fork, R2; the hold a load empties)
  lead to different evenings, each of the evening's destinations says after which of them it
  holds (`after`: the morning's answers, `after_words`: in words); after a shortage the place is
  not known (`after_shortage`: the 2021 die or a choice decides, §7). A payment is judged with
  the holds as they are before any battle (spoils change them, R6). It looks only at what the
  player may see (their own hand, the public board), and takes the other ships to stay where
  they are: exact for the Captain, who acts first (§4.3).
- `move_hints(state)`: for a pending move question, what arriving at each legal destination means.
- `pay_plans(state)`: a payment that takes several `pay H` questions, as whole plans (the answers
  from `payment_answers`, a walk with a bound on its work: `pay_walk_bound`).

A destination's hint: `space`; `cost` in words ("4 food", "a treasure", "free", "not paid", "the
finish"); `pays` and `resource` (what is due on arrival: 0 and None when nothing is); `have` (what
the ship would hold of it, None when nothing is due); `shortage`; `battle` and `ships_there`;
`treasure` (a lair whose token is still there); `finish`; `after` and `after_words` (see above;
empty and None when the destination does not depend on the morning).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .actions import MOVE, PAY, Action
from .board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE
from .data import (
    BACKWARD,
    CARD_NAMES,
    CARDS,
    FOOD,
    FORWARD,
    GOLD,
    HOLD6,
    LAIR,
    NUM_CARDS,
    PORT,
    PORT_ROYAL,
    RESOURCE_NAMES,
    SEA,
    SIXTH,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
)
from .holds import load_holds, slot_count, total
from .ops import K_MOVE, K_PAY, M_FALLBACK_2021, M_GHOST
from .phrases import ENGLISH, N_, SPACE_KINDS, Translations, amount, card, hold

if TYPE_CHECKING:
    from .state import State

EMPTIED: Final = {1: N_("after emptying food"), 2: N_("after emptying gunpowder"),
                  3: N_("after emptying doubloons")}  # fmt: skip
FULL: Final = {1: N_("Load {amount} (ignored: every hold holds food)"),
               2: N_("Load {amount} (ignored: every hold holds gunpowder)"),
               3: N_("Load {amount} (ignored: every hold holds doubloons)")}  # fmt: skip
PAY_WORDS: Final = {1: N_("Pay food: {takes}"), 2: N_("Pay gunpowder: {takes}"),
                    3: N_("Pay doubloons: {takes}")}  # fmt: skip


class _Place(NamedTuple):
    """Where a ship may be in the middle of its turn, and what it holds then."""

    space: int  # -1: not known (it fell back after a shortage)
    lap: int  # 1: finished
    food: int
    gold: int
    tokens: int  # the lairs whose treasure is still there
    # its usable holds one by one (types, counts), while nothing has made them uncertain
    types: tuple[int, ...] | None
    counts: tuple[int, ...]
    drawable: bool = False  # a lair's treasure may still be the 6th Hold (no one has drawn it)
    maybe_sixth: bool = False  # the holds are `types`, unless a treasure just drawn is the 6th Hold


class _Outcome(NamedTuple):
    """One way the morning may end: the answers that lead there (a move's destination, the
    holds a load may choose), in words, and the place it leaves the ship in."""

    answers: tuple[str, ...]
    words: str
    place: _Place
    then_ignored: bool | None = None  # a load settled whether the evening's load is ignored
    then_room: int | None = None  # a load settled whether the evening's must empty a hold


def _arrive(
    s: State, ship: int, dest: int, finishes: bool, tokens: int, t: Translations
) -> dict[str, Any]:
    """What arriving on `dest` means, whatever the ship holds: its cost, a battle, a lair's
    treasure, the finish (`_judge` adds what the ship holds and a shortage)."""
    kind = SPACE_TYPE[dest]
    due, resource = 0, None
    if not finishes and kind == PORT:
        due, resource = SPACE_COST[dest], GOLD
    elif not finishes and kind == SEA:
        due, resource = SPACE_COST[dest], FOOD
    treasure = kind == LAIR and bool(tokens >> dest & 1)
    if finishes:
        words = t.gettext(N_("the finish"))
    elif due and resource is not None:
        words = amount(due, resource, t)
    else:
        words = t.gettext(N_("a treasure")) if treasure else t.gettext(N_("free"))
    others = [k for k in range(s.ns) if k != ship and s.pos[k] == dest]
    battle = bool(others) and dest != PORT_ROYAL and not finishes
    return {
        "space": dest,
        "cost": words,
        "pays": due,
        "resource": resource,
        "battle": battle,
        "ships_there": others if battle else [],
        "treasure": treasure,
        "finish": finishes,
    }


def _judge(arrival: dict[str, Any], food: int, gold: int) -> dict[str, Any]:
    """The hint for an arrival by a ship holding `food` and `gold`: what it would hold to pay
    (the holds before any battle), and whether that is short."""
    resource = arrival["resource"]
    have = None if resource is None else food if resource == FOOD else gold
    return {
        **arrival,
        "resource": None if resource is None else RESOURCE_NAMES[resource],
        "have": have,
        "shortage": have is not None and have < arrival["pays"],
        "after": [],
        "after_words": None,
    }


def _moves(place: _Place, die: int, forward: bool) -> tuple[tuple[int, bool], ...]:
    """The engine's destinations (turns.move_options) for a ship at `place`."""
    if forward:
        table = MOVES_FORWARD_RACE if place.lap == 0 else MOVES_FORWARD_BEHIND
    else:
        table = MOVES_BACKWARD
    return table[place.space][die]


def _move(
    s: State, ship: int, place: _Place, die: int, forward: bool, t: Translations
) -> list[tuple[dict[str, Any], bool]]:
    """The hint for each destination of a move from a known place, and whether the move
    crosses the start line to get there."""
    out = []
    for dest, crossed in _moves(place, die, forward):
        finishes = bool(crossed) and forward and place.lap == 0
        hint = _judge(_arrive(s, ship, dest, finishes, place.tokens, t), place.food, place.gold)
        out.append((hint, bool(crossed)))
    return out


def _after(place: _Place, hint: dict[str, Any], crossed: bool, forward: bool) -> _Place:
    """Where a move from `place` to `hint`'s destination leaves the ship, holding what."""
    dest, due, resource = hint["space"], hint["pays"], hint["resource"]
    if hint["finish"]:
        return place._replace(space=dest, lap=1)
    if hint["shortage"]:  # pays all it has of it, then falls back: where, not known
        food, gold = (0, place.gold) if resource == "food" else (place.food, 0)
        return _Place(-1, place.lap, food, gold, place.tokens, None, place.counts)
    lap = place.lap + (1 if forward else -1) if crossed else place.lap
    food = place.food - (due if resource == "food" else 0)
    gold = place.gold - (due if resource == "doubloons" else 0)
    tokens = place.tokens & ~(1 << dest) if hint["treasure"] else place.tokens
    # a payment (from which holds?) or a battle changes the holds; a treasure only if it is the
    # 6th Hold (a new empty hold), which the hint says as "unless you draw the 6th Hold"
    same = not (due or hint["battle"])
    maybe = bool(hint["treasure"]) and place.drawable
    return _Place(dest, lap, food, gold, tokens, place.types if same else None, place.counts,
                  place.drawable, maybe)  # fmt: skip


def _load(place: _Place, resource: int, die: int, t: Translations) -> list[_Outcome]:
    """The ways a load that is not ignored may end (§5), by what they leave for an evening move:
    the food and doubloons held (the hold it empties, the player's choice, may have held some)."""
    types, counts = place.types, place.counts
    assert types is not None
    answers: dict[tuple[int, int], list[str]] = {}
    for h in load_holds(types, counts, resource):
        dumped = types[h]
        lost = counts[h] if dumped == FOOD or dumped == GOLD else 0
        answers.setdefault((dumped, lost) if lost else (dumped, 0), []).append(f"load {h}")
    out = []
    for (dumped, lost), loads in answers.items():
        food = place.food + (die if resource == FOOD else 0) - (lost if dumped == FOOD else 0)
        gold = place.gold + (die if resource == GOLD else 0) - (lost if dumped == GOLD else 0)
        if lost:
            words = t.gettext(N_("after emptying {amount}")).format(amount=amount(lost, dumped, t))
        elif dumped:
            words = t.gettext(EMPTIED[dumped])
        else:
            words = t.gettext(N_("after loading"))
        out.append(_Outcome(tuple(loads), words, place._replace(food=food, gold=gold, types=None)))
    return out


def _where(space: int, t: Translations) -> str:
    return t.gettext(SPACE_KINDS[0]) if space == PORT_ROYAL else str(space)


def _ignored(place: _Place, resource: int) -> bool | None:
    """Whether a load is ignored, if the holds are known: every hold holds that type (§5)."""
    if place.lap >= 1:
        return True  # finished: every action is ignored
    types = place.types
    if types is None or (place.maybe_sixth and types.count(resource) == len(types)):
        return None  # the 6th Hold, if drawn, would take it
    return types.count(resource) == len(types)


EMPTIES: Final = 1  # `_makes_room`: a load must empty a hold
UNLESS_SIXTH: Final = 2  # … unless the treasure drawn on the way is the 6th Hold


def _makes_room(place: _Place) -> int | None:
    """Whether a load (not ignored) must first empty a hold (§5: no empty hold), if the holds
    are known: 0, `EMPTIES` or `UNLESS_SIXTH`. A review saw "load 1 food" beside full holds of
    doubloons: nothing said that playing the card throws a hold's doubloons out; another saw it
    again after a lair, whose treasure might have been the 6th Hold."""
    if place.types is None:
        return None
    if 0 in place.counts:
        return 0
    return UNLESS_SIXTH if place.maybe_sixth else EMPTIES


def _morning(
    s: State, ship: int, icons: tuple[int, int], die: int, place: _Place, t: Translations
) -> tuple[dict[str, Any], list[_Outcome]]:
    """The morning step of a card with these `icons`, and each way it may end."""
    icon, then = icons
    if icon in (FORWARD, BACKWARD):
        forward = icon == FORWARD
        step = _move_step("morning", forward, die, place.lap >= 1, t)
        if place.lap >= 1:  # finished: the move is ignored
            return step, [_Outcome((), "", place)]
        moves = _move(s, ship, place, die, forward, t)
        step["destinations"] = [hint for hint, _ in moves]
        after = t.gettext(N_("after {space}"))
        return step, [_Outcome((f"move {hint['space']}",),
                               after.format(space=_where(hint["space"], t)),
                               _after(place, hint, crossed, forward))
                      for hint, crossed in moves]  # fmt: skip
    ignored = _ignored(place, icon)
    step = _load_step("morning", icon, die, ignored, t, room=_makes_room(place))
    if ignored:
        return step, [_Outcome((), "", place)]
    if then in (FORWARD, BACKWARD):
        return step, _load(place, icon, die, t)
    # Two loads: the evening's is ignored only if, once this one is loaded (into a hold that
    # did not hold its type), every hold holds the evening's type: the same type, with one
    # hold left that did not hold it (whichever hold the player chooses).
    types = place.types
    assert types is not None
    full = then == icon and len(types) - types.count(icon) == 1
    # this load takes an empty hold if there is one (else empties one): the evening's load has
    # an empty hold left only if there were two
    room = place.counts.count(0) <= 1
    return step, [_Outcome((), "", place._replace(types=None), then_ignored=full,
                           then_room=room)]


def _move_step(
    time: str, forward: bool, die: int, finished: bool, t: Translations
) -> dict[str, Any]:
    way = N_("Forward {die}") if forward else N_("Backward {die}")
    return {"time": time, "what": "move", "words": t.gettext(way).format(die=die), "die": die,
            "destinations": [], "after_shortage": False, "finished": finished}  # fmt: skip


def _load_step(time: str, icon: int, die: int, ignored: bool | None, t: Translations,
               finished: bool = False, room: int | None = None) -> dict[str, Any]:  # fmt: skip
    """A load's step; `ignored`: every hold holds that type (§5), None if not known yet;
    `finished`: the ship has finished, the action is ignored (§9); `room`: a hold must be
    emptied first (`_makes_room`), None if not known."""
    name = RESOURCE_NAMES[icon]
    if not ignored and room == EMPTIES:
        said = N_("Load {amount}, emptying a hold")
    elif not ignored and room == UNLESS_SIXTH:
        said = N_("Load {amount}, emptying a hold unless you draw the 6th Hold")
    elif not ignored:
        said = N_("Load {amount}")
    elif finished:
        said = N_("Load {amount} (ignored: finished)")
    else:
        said = FULL[icon]
    words = t.gettext(said).format(amount=amount(die, icon, t))
    return {"time": time, "what": "load", "words": words, "die": die, "resource": name,
            "amount": die, "ignored": ignored, "finished": finished,
            "empties": room == EMPTIES and not ignored}  # fmt: skip


def _evening(
    s: State, ship: int, icon: int, die: int, morning: list[_Outcome], t: Translations
) -> dict[str, Any]:
    """The evening step from each way the morning may end; a destination that does not hold
    after every one of them says after which (`after`, `after_words`)."""
    if icon not in (FORWARD, BACKWARD):
        known = {_ignored(o.place, icon) if o.then_ignored is None else o.then_ignored
                 for o in morning}  # fmt: skip
        done = all(o.place.lap >= 1 for o in morning)
        room = {_makes_room(o.place) if o.then_room is None else o.then_room
                for o in morning}  # said only if every way agrees
        return _load_step("evening", icon, die, known.pop() if len(known) == 1 else None, t, done,
                          room=room.pop() if len(room) == 1 else None)  # fmt: skip
    forward = icon == FORWARD
    step = _move_step("evening", forward, die, all(o.place.lap >= 1 for o in morning), t)
    step["after_shortage"] = any(o.place.space < 0 for o in morning)
    every = [a for o in morning for a in o.answers]
    # the same place and holds, the same evening: an arrival per place and destination
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for o in morning:
        if o.place.space < 0 or o.place.lap >= 1:
            continue
        for hint, _ in _move(s, ship, o.place, die, forward, t):
            key = (hint["space"], hint["have"], hint["shortage"], hint["treasure"],
                   hint["battle"])  # fmt: skip
            entry = merged.setdefault(key, {**hint, "after": [], "after_words": []})
            entry["after"] += o.answers
            entry["after_words"].append(o.words)
    out = []
    for entry in merged.values():
        if len(entry["after"]) == len(every):  # after whatever the morning does
            entry["after"], entry["after_words"] = [], None
        else:
            entry["after_words"] = t.gettext(N_(" or ")).join(entry["after_words"])
        out.append(entry)
    step["destinations"] = sorted(out, key=lambda d: (d["space"], d["after"]))
    return step


def card_preview(s: State, player: int, t: Translations = ENGLISH) -> list[dict[str, Any]]:
    """One entry per card in `player`'s hand (only meaningful once the dice are placed): the
    morning step from where the ship is, the evening step from every place the morning may
    leave it in (see the module's docstring)."""
    out = []
    base = player * SLOTS
    end = base + slot_count(s, player)
    types, counts = tuple(s.hold_types[base:end]), tuple(s.hold_counts[base:end])
    here = _Place(s.pos[player], s.lap[player], total(s, player, FOOD), total(s, player, GOLD),
                  s.tokens, types, counts, s.powers[HOLD6] == -1)  # fmt: skip
    for c in range(NUM_CARDS):
        if not s.hand[player] >> c & 1:
            continue
        first, outcomes = _morning(s, player, CARDS[c], s.morning, here, t)
        second = _evening(s, player, CARDS[c][1], s.evening, outcomes, t)
        out.append({
            "action": f"play {CARD_NAMES[c]}",
            "card": CARD_NAMES[c],
            "title": card(CARD_NAMES[c], t),
            "summary": t.gettext(N_("{morning}, then {evening}")).format(
                morning=first["words"], evening=second["words"].lower()),
            "steps": [first, second],
        })  # fmt: skip
    return out


def move_hints(s: State, t: Translations = ENGLISH) -> list[dict[str, Any]]:
    """For a pending move question: per legal answer, in their order, what arriving there means
    (a destination's hint, as `card_preview` gives it for a card's move). The Ghost Ship's moves
    and the 2021 fall-back are not paid (§10, §7.2): a port or sea space costs them nothing."""
    assert s.q is not None and s.q[0] == K_MOVE, "move_hints needs a pending move question"
    ship, mode, routes = s.q[2]
    by_dest = {route[0]: route for route in routes}
    unpaid = mode in (M_GHOST, M_FALLBACK_2021)
    food, gold = total(s, ship, FOOD), total(s, ship, GOLD)
    out = []
    for a in s.legal:
        dest, crossed, forward = by_dest[a - MOVE]
        finishes = bool(crossed) and bool(forward) and s.lap[ship] == 0
        arrival = _arrive(s, ship, dest, finishes, s.tokens, t)
        if unpaid and not finishes:
            arrival.update(cost=t.gettext(N_("not paid")), pays=0, resource=None)
        out.append(_judge(arrival, food, gold))
    return out


def pay_plans(s: State, limit: int = 24, t: Translations = ENGLISH) -> list[dict[str, Any]]:
    """The ways to finish the pending payment, each as its list of answers and in words (what
    the answers take from each hold; once only one way is left, the engine takes the rest itself);
    empty if the pending question is not a payment (`payment_ways`, worded)."""
    return [{"label": payment_label(s, taken, t), "actions": [str(a) for a in answers],
             "taken": [[h, n] for h, n in taken]}
            for answers, taken in payment_ways(s, limit)]  # fmt: skip


def payment_ways(
    s: State, limit: int = 24
) -> list[tuple[list[Action], tuple[tuple[int, int], ...]]]:
    """The different ways to finish the pending payment: per way, the answers of
    `payment_answers` that make it and what it takes from each hold (`payment_taken`), each way
    once; empty if the pending question is not a payment."""
    out: list[tuple[list[Action], tuple[tuple[int, int], ...]]] = []
    for answers in payment_answers(s, limit):
        taken = payment_taken(s, answers)
        if all(taken != other for _, other in out):
            out.append((answers, taken))
    return out


def payment_goes_on(s: State, ship: int, resource: int, stack: list[tuple[Any, ...]]) -> bool:
    """Whether `s` still asks the payment of `resource` by `ship` begun with the task `stack`:
    the engine may have taken tokens itself since the last answer (holds alike), but it has run
    no other task — what follows, even another payment, is not part of it."""
    q = s.q
    return q is not None and q[0] == K_PAY and q[2][:2] == (ship, resource) and s.stack == stack


def payment_taken(s: State, answers: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """What the pending payment takes from each hold, (hold, tokens), when the player gives
    `answers` (`pay H` each): the engine's paying restated on the holds' counts (`_settle`),
    with the tokens it takes itself whenever one way is left — between two answers too.
    tests/rules/test_hints.py checks it against the engine."""
    assert s.q is not None and s.q[0] == K_PAY, "payment_taken needs a pending payment"
    who, (_, resource, owed) = s.q[1], s.q[2]
    before = held = _payment_holds(s, who, resource)
    for a in answers:
        if owed > 0:
            held, owed = _settle(held, a - PAY, owed)
    return tuple((h, n - held[h]) for h, n in enumerate(before) if n > held[h])


def payment_left(s: State, taken: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """What a way to pay the pending payment leaves in the holds it pays from, as counts in
    order (two holds of the same count are alike to the rules: two ways that leave the same
    counts are one choice)."""
    assert s.q is not None and s.q[0] == K_PAY, "payment_left needs a pending payment"
    held = list(_payment_holds(s, s.q[1], s.q[2][1]))
    for h, n in taken:
        held[h] -= n
    return tuple(sorted(held))


def _pay_ways(held: Sequence[int]) -> list[int]:
    """The holds a payment may take its next token from (`holds.pay_options` on counts): the
    first regular hold of each count, and the 6th Hold."""
    seen: set[int] = set()
    out = []
    for h, n in enumerate(held):
        if n and (h == SIXTH or n not in seen):
            if h != SIXTH:
                seen.add(n)
            out.append(h)
    return out


def payment_label(s: State, taken: Sequence[tuple[int, int]], t: Translations = ENGLISH) -> str:
    """A way to pay the pending payment in words: "Pay doubloons: 2 from hold 1 and 1 from
    hold 3" (`taken`: `payment_taken`'s)."""
    assert s.q is not None and s.q[0] == K_PAY, "payment_label needs a pending payment"
    words = t.gettext(N_(" and ")).join(
        t.gettext(N_("{n} from {hold}")).format(n=n, hold=hold(h, t)) for h, n in taken
    )
    return t.gettext(PAY_WORDS[s.q[2][1]]).format(takes=words)


def payment_answers(s: State, limit: int = 24) -> list[list[Action]]:
    """The sets of `pay H` answers that finish the pending payment (at most `limit`), each in
    the first order the engine's answers allow, in the order found; empty if the pending
    question is not a payment.

    The walk tries the answers in the engine's order, depth first, and meets each *set* of
    answers once: after the same answers in any order the holds are mostly the same, so a set
    met already leads to nothing new. A plan goes on until its payment is over: where holds are
    alike (one way left) the engine takes tokens itself between two answers, then asks again.
    There the same answers in two orders may leave different holds, and a way reached only by
    the order skipped is not listed (rare; the plans listed are each exact — what they take is
    `payment_taken`'s, the engine's paying restated). The walk of every order cloned the state
    once per order (billions for 17 tokens in six holds).

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
            if not payment_goes_on(u, who, resource, stack):
                found[key] = after
            else:
                walked.add(key)
                walk(u, after)

    plain: list[list[Action]] = []

    def drain(first: Action) -> None:
        """One plan for each hold the payment may start from: that hold, then the same hold
        again as long as it holds any (where it comes down to the count of a hold before it, the
        engine asks for that one: the same result) — a hold that holds enough pays it all: the plain
        way, listed first even where the depth-first walk would reach it late or not at all
        within `limit`). Kept apart from the walk's sets: where the engine takes tokens itself,
        the same answers in another order may pay another way, which the walk must still meet."""
        nonlocal budget
        t, answers, a = root, [], first
        while budget > 0:
            budget -= 1
            t = t.clone(log=False)
            t.apply(a)
            answers.append(a)
            if not payment_goes_on(t, who, resource, stack):
                plain.append(answers)
                return
            if a not in t.legal:  # a hold of the same count stands for it (the same result)
                count = t.hold_counts[base + a - PAY]
                same = [b for b in t.legal if count and t.hold_counts[base + b - PAY] == count]
                a = same[0] if same else t.legal[0]

    for first in root.legal:
        drain(first)
    walk(root, [])
    plain_sets = {tuple(sorted(p)) for p in plain}
    return (plain + [p for k, p in found.items() if k not in plain_sets])[:limit]


def _payment_holds(s: State, ship: int, resource: int) -> tuple[int, ...]:
    """The counts of `resource` in each of the ship's usable holds (0: another kind, or none)."""
    base = ship * SLOTS
    return tuple(
        s.hold_counts[base + h] if s.hold_types[base + h] == resource else 0
        for h in range(slot_count(s, ship))
    )


def _settle(held: tuple[int, ...], h: int, due: int) -> tuple[tuple[int, ...], int]:
    """A token from hold `h`, then what the engine takes itself (`holds.pay`): the holds, and
    what is still owed when it asks again (0: paid)."""
    left = list(held)
    left[h] -= 1
    due -= 1
    while due > 0:
        if sum(left) == due:
            return (0,) * len(left), 0
        ways = _pay_ways(left)
        if len(ways) > 1:
            break
        left[ways[0]] -= 1
        due -= 1
    return tuple(left), due


def pay_walk_bound(owed: int, holds: int, limit: int = 24) -> int:
    """The most sets of answers `payment_answers` meets, each with a clone and an apply, for a
    payment of `owed` tokens from `holds` holds: `limit` × (`owed` + 1) × `holds`."""
    return limit * (owed + 1) * holds
