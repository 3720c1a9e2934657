"""Every hint is what the engine then does (issue 24, item 8): the rules' help for a player
(`rules.hints`) checked against the engine on thousands of random positions.

A card's preview (`card_preview`) is checked where it is exact: at the Captain's card choice,
since the Captain acts first (§4.3) and no other ship moves before them. At the dice question of
random games of every configuration (both editions, 2–6 players, the Ghost Ship on and off), for
each die order (§4.1) the Captain's every card is played on a clone, down every route its
actions offer (each branch at a fork, R2; each hold a load may empty, §5), and each half of the
turn is compared with what the preview said of it:

- a move: the destinations offered; on arrival a battle (and with which ships), the cost paid
  and what the ship held to pay it, a shortage (§7), a lair's treasure (§6.2), the finish (§9);
- a load: whether it is ignored (§5: every hold holds that type);
- the evening: from where the morning left the ship, holding what it holds then — or after a
  shortage, from a place the preview says it cannot know (the 2021 die, §7.2; a choice, §7.1).

Battles are played out with the spoils declined (R6: spoils are optional): the preview judges
a payment with the holds as they are before any battle, and says so.

Each move question of the same games (`move_hints`: a card's move, the Ghost Ship's, §10, and
the fall-backs, §7) is checked the same way, answer by answer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.rules.actions import ACTIONS, ATTACK, MOVE, NOTHING, PLAY
from jamaica.rules.data import CARD_NAMES, FOOD, GOLD, RESOURCE_NAMES
from jamaica.rules.events import (
    E_BATTLE,
    E_DUMP,
    E_FACE_DOWN,
    E_FALLBACK,
    E_FINISH,
    E_GAME_END,
    E_GHOST_DIRECTION,
    E_IGNORED,
    E_LOAD,
    E_LOAD_IGNORED,
    E_MOVE,
    E_PAY,
    E_POWER,
    E_REVEAL,
    E_ROUND,
    E_SHORTAGE,
    E_SHORTAGE_DIE,
    amount,
)
from jamaica.rules.hints import card_preview, move_hints
from jamaica.rules.holds import total
from jamaica.rules.ops import K_ATTACK, K_LOAD, K_MORNING, K_MOVE, K_SPOILS, M_NORMAL, T_CARD_END
from jamaica.rules.progress import resolving

from ..soak import soak
from .helpers import holds, place, start
from .strategies import ALL_CONFIGS

Event = tuple[int, ...]
DECLINE = ACTIONS[NOTHING]
PRIMARY = (E_MOVE, E_LOAD, E_LOAD_IGNORED, E_IGNORED)  # the event that starts a half-turn
TREASURE = (E_POWER, E_FACE_DOWN)
# after a move, the first of these ends its arrival (another action, a shortage's fall-back)
NEXT = (*PRIMARY, E_FALLBACK, E_SHORTAGE_DIE, E_REVEAL, E_ROUND, E_GHOST_DIRECTION, E_GAME_END)


def _policy(t: State, rng: random.Random) -> Any:
    """Whatever is not the player's own route: any answer, the dice at random, and the spoils
    declined (R6: they are optional; the preview judges a payment as the holds are before any
    battle)."""
    if t.current_player() == CHANCE:
        return t.sample_chance(rng)
    if t.q is not None and t.q[0] == K_SPOILS:
        return DECLINE
    return rng.choice(t.legal)


# --- what arriving on a space did, against its hint ----------------------------------------------
def arrival(events: list[Event]) -> list[Event]:
    """The events of a move's arrival: from the move up to the next action or a fall-back."""
    for i, e in enumerate(events[1:], 1):
        if e[1] in NEXT:
            return events[:i]
    return events


def check_arrival(hint: dict[str, Any], ship: int, events: list[Event],
                  held: dict[int, int]) -> str:  # fmt: skip
    """What the hint says of arriving where `events` (from the move on) went, against them;
    `held`: the food and doubloons the ship held when it moved. Returns what happened."""
    mine = arrival(events)
    assert hint["space"] == mine[0][4], (hint, mine)
    finish = any(e[1] == E_FINISH and e[2] == ship for e in mine)
    assert hint["finish"] == finish, (hint, mine)
    if finish:
        return "finish"
    battles = [e for e in mine if e[1] == E_BATTLE and e[2] == ship]
    assert hint["battle"] == bool(battles), (hint, mine)
    treasure = any(e[1] in TREASURE and e[2] == ship for e in mine)
    assert hint["treasure"] == treasure, (hint, mine)
    paid = [e for e in mine if e[1] == E_PAY and e[2] == ship]
    short = [e for e in mine if e[1] == E_SHORTAGE and e[2] == ship]
    assert hint["shortage"] == bool(short), (hint, mine)
    if short:
        _, _, _, resource, have, cost = short[0]
        assert (hint["pays"], hint["resource"], hint["have"]) == (
            cost, RESOURCE_NAMES[resource], have), (hint, short)  # fmt: skip
        assert hint["cost"] == amount(cost, resource)
    elif paid:
        _, _, _, resource, cost, _ = paid[0]
        assert (hint["pays"], hint["resource"], hint["have"]) == (
            cost, RESOURCE_NAMES[resource], held[resource]), (hint, paid)  # fmt: skip
        assert hint["cost"] == amount(cost, resource)
    else:
        assert hint["pays"] == 0 and hint["have"] is None, (hint, mine)
    return "battle" if battles else "shortage" if short else "paid" if paid else "free"


# --- playing a card down every route -------------------------------------------------------------
@dataclass
class Half:
    """What one half of a turn did, read off the engine."""

    offered: list[int] = field(default_factory=list)  # the spaces a move question offered
    events: list[Event] = field(default_factory=list)


def _playing(t: State, p: int, first: int) -> bool:
    """Whether `p`'s turn is still to come or in progress (the events from `first` on)."""
    assert t.events is not None
    if any(task[0] == T_CARD_END and task[1] == p for task in t.stack):
        return True
    return not any(e[1] == E_REVEAL and e[2] == p for e in t.events[first:])


def routes(s: State, p: int, card: str, rng: random.Random) -> Iterator[list[Half]]:
    """Play `card` for the Captain `p` on clones of `s`, once down each route of its actions
    (every answer to the player's own move and load questions); yield its two halves each time."""
    t = s.clone()
    assert t.events is not None
    first = len(t.events)
    t.apply(f"play {card}")
    yield from _explore(t, p, first, [Half(), Half()], rng)


def _explore(t: State, p: int, first: int, halves: list[Half],
             rng: random.Random) -> Iterator[list[Half]]:  # fmt: skip
    while _playing(t, p, first):
        q = t.q
        assert q is not None
        own = (q[0] == K_MOVE and q[2][0] == p and q[2][1] == M_NORMAL) or (
            q[0] == K_LOAD and q[2][0] == p and q[1] == p
        )
        if own:
            now = resolving(t)
            assert now is not None and now.ship == p
            for a in t.legal:
                u = t.clone()
                u.apply(a)
                branch = list(halves)
                if q[0] == K_MOVE:
                    branch[now.half] = Half([b - MOVE for b in t.legal])
                yield from _explore(u, p, first, branch, rng)
            return
        t.apply(_policy(t, rng))
    assert t.events is not None
    events = t.events[first:]
    starts = [i for i, e in enumerate(events) if e[1] in PRIMARY and e[2] == p]
    assert len(starts) == 2, events
    # a load that empties a hold first: the hold's emptying begins the half (§5)
    starts = [i - 1 if events[i - 1][1] == E_DUMP and events[i - 1][2] == p else i for i in starts]
    halves[0].events = events[starts[0] : starts[1]]
    halves[1].events = events[starts[1] :]
    yield halves


def held_after(held: dict[int, int], events: list[Event], ship: int) -> dict[int, int]:
    """The food and doubloons a ship holds after `events`, by the log (spoils are declined)."""
    out = dict(held)
    for e in events:
        if len(e) < 3 or e[2] != ship:
            continue
        if e[1] == E_PAY:
            out[e[3]] = out.get(e[3], 0) - e[4]
        elif e[1] == E_SHORTAGE:
            out[e[3]] = 0
        elif e[1] == E_LOAD:
            out[e[3]] = out.get(e[3], 0) + e[4]
        elif e[1] == E_DUMP:
            out[e[3]] = out.get(e[3], 0) - e[4]
    return out


def _primary(half: Half) -> Event:
    return next(e for e in half.events if e[1] in PRIMARY)


def check_card(preview: dict[str, Any], p: int, held: dict[int, int], halves: list[Half],
               seen: Counter[str]) -> None:  # fmt: skip
    """One route of a card against its preview (`held`: the ship's food and doubloons)."""
    morning, evening = preview["steps"]
    first, second = halves
    start = _primary(first)
    if morning["what"] == "move":
        assert start[1] == E_MOVE
        dest = start[4]
        assert sorted(first.offered or [dest]) == [d["space"] for d in morning["destinations"]]
        hint = next(d for d in morning["destinations"] if d["space"] == dest)
        seen["morning " + check_arrival(hint, p, first.events, held)] += 1
        key = f"move {dest}"
    else:
        ignored = start[1] == E_LOAD_IGNORED
        assert morning["ignored"] == ignored, (morning, start)
        key = "" if ignored else f"load {start[5]}"
    # the evening, from where the morning left the ship, with what it holds then
    here = [d for d in evening.get("destinations", []) if not d["after"] or key in d["after"]]
    if any(e[1] == E_SHORTAGE and e[2] == p for e in first.events):
        assert evening["what"] != "move" or evening["after_shortage"], evening
        assert not here, here  # nothing is said of a place nobody knows yet
        seen["evening after a shortage"] += 1
        return
    start = _primary(second)
    if start[1] == E_IGNORED:
        assert evening["finished"] and not here
        seen["evening ignored"] += 1
        return
    if evening["what"] == "load":
        if evening["ignored"] is not None:
            assert evening["ignored"] == (start[1] == E_LOAD_IGNORED), (evening, start)
        return
    assert start[1] == E_MOVE
    dest = start[4]
    assert sorted(second.offered or [dest]) == sorted(d["space"] for d in here), (evening, key)
    hint = next(d for d in here if d["space"] == dest)
    told = "after a choice " if hint["after"] else ""
    seen[
        "evening " + told + check_arrival(hint, p, second.events, held_after(held, first.events, p))
    ] += 1


def check_previews(s: State, rng: random.Random, seen: Counter[str]) -> None:
    """At the dice question: for each die order, every card of the Captain down every route."""
    assert s.q is not None and s.q[0] == K_MORNING
    p = s.q[1]
    for order in s.legal:
        t = s.clone()
        t.apply(order)
        assert t.current_player() == p and t.decision_kind() == "card"
        previews = {pv["card"]: pv for pv in card_preview(t, p)}
        held = {r: total(t, p, r) for r in (FOOD, GOLD)}
        assert sorted(previews) == sorted(CARD_NAMES[a - PLAY] for a in t.legal)
        for card, preview in previews.items():
            for halves in routes(t, p, card, rng):
                check_card(preview, p, held, halves, seen)


# --- a move question, answer by answer --------------------------------------------------------
def check_move_hints(s: State, rng: random.Random, seen: Counter[str]) -> None:
    assert s.q is not None and s.q[0] == K_MOVE
    ship, mode, _ = s.q[2]
    hints = move_hints(s)
    assert [h["space"] for h in hints] == [a - MOVE for a in s.legal]
    held = {r: total(s, ship, r) for r in (FOOD, GOLD)}
    for a, hint in zip(s.legal, hints, strict=True):
        t = s.clone()
        assert t.events is not None
        first = len(t.events)
        t.apply(a)
        new = t.events[first:]
        if t.q is not None and t.q[0] == K_ATTACK and len(arrival(new)) == len(new):
            assert hint["battle"] and hint["ships_there"] == [b - ATTACK for b in t.legal]
        while not t.is_terminal() and not _settled(t.events[first:]):
            t.apply(_policy(t, rng))
        seen[f"move {mode} " + check_arrival(hint, ship, t.events[first:], held)] += 1


def _settled(events: list[Event]) -> bool:
    """Whether the arrival is over: paid, short, a treasure drawn, or the next thing begun."""
    return any(e[1] in (E_PAY, E_SHORTAGE, E_FINISH, *TREASURE, *NEXT) for e in events[1:])


# --- random positions ------------------------------------------------------------------------
def positions(config: Config, seed: int, games: int) -> Iterator[State]:
    """The state before every action of `games` random games."""
    rng = random.Random(seed)
    for _ in range(games):
        s = new_game(config)
        while not s.is_terminal():
            yield s
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))


@pytest.mark.soak
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=str)
def test_every_hint_is_what_the_engine_then_does(config: Config) -> None:
    seed = ALL_CONFIGS.index(config)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    dice = moves = 0
    for s in positions(config, seed, games=soak(8, 100)):
        if s.q is not None and s.q[0] == K_MORNING:
            check_previews(s, rng, seen)
            dice += 1
        elif s.q is not None and s.q[0] == K_MOVE:
            check_move_hints(s, rng, seen)
            moves += 1
    assert dice >= 20 and moves >= 20, (dice, moves, seen)
    for case in ("morning paid", "morning free", "evening paid", "move 0 paid"):
        assert seen[case], (case, seen)


# --- the rulebook's examples -----------------------------------------------------------------
def _previews(hand: tuple[str, str, str], space: int, cargo: list[tuple[str, int]],
              roll: tuple[int, int], morning: int) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Anne (the Captain) on `space` holding `cargo`, the dice placed: her cards' previews."""
    s = start(Config(2), hands=[hand, ("fwd-fwd", "gold-gold", "food-gun")])
    place(s, 0, space)
    holds(s, 0, cargo)
    s.apply("roll {}-{}".format(*sorted(roll)))
    s.apply(f"morning {morning}")
    return {pv["card"]: pv for pv in card_preview(s, 0)}


def _evening(preview: dict[str, Any], space: int) -> dict[str, dict[str, Any]]:
    """The evening hints for `space`, by the morning answer they follow."""
    out = {}
    for d in preview["steps"][1]["destinations"]:
        if d["space"] == space:
            for answer in d["after"] or ["any"]:
                out[answer] = d
    return out


def test_the_evening_through_33_is_not_the_evening_through_39() -> None:
    """Issue 24's preview: with 5 food on space 30, forward 3 in the morning ends on the lair 33
    (free) or, through the inner channel (R2), on 39 (4 food: 1 left); backward 6 in the evening
    reaches 27 (4 food) from either. Only through 39 is that a shortage (§7); the preview said
    "27 sea ~4: have 5 — shortage!"."""
    previews = _previews(("fwd-back", "fwd-fwd", "food-fwd"), 30, [("food", 5), ("gold", 3)],
                         (3, 6), 3)  # fmt: skip
    at_27 = _evening(previews["fwd-back"], 27)
    assert set(at_27) == {"move 33", "move 39"}
    assert (at_27["move 33"]["have"], at_27["move 33"]["shortage"]) == (5, False)
    assert (at_27["move 39"]["have"], at_27["move 39"]["shortage"]) == (1, True)
    assert at_27["move 33"]["after_words"] == "after 33"
    assert at_27["move 39"]["after_words"] == "after 39"
    lair = _evening(previews["fwd-back"], 25)  # the lair 25, free after either morning
    assert set(lair) == {"any"} and lair["any"]["treasure"]


def test_a_morning_load_that_empties_a_hold_changes_the_evening() -> None:
    """§5: with every hold full, loading doubloons empties a hold of another type, the player
    chooses which: emptying the food leaves nothing to pay the sea space the evening reaches."""
    cargo = [("food", 3), ("powder", 2), ("gold", 1), ("gold", 1), ("gold", 1)]
    previews = _previews(("gold-fwd", "fwd-fwd", "food-fwd"), 41, cargo, (2, 1), 2)
    morning = previews["gold-fwd"]["steps"][0]
    assert morning["ignored"] is False
    at_42 = _evening(previews["gold-fwd"], 42)  # 2 food
    assert (at_42["load 0"]["have"], at_42["load 0"]["shortage"]) == (0, True)
    assert at_42["load 0"]["after_words"] == "after emptying 3 food"
    assert (at_42["load 1"]["have"], at_42["load 1"]["shortage"]) == (3, False)
    assert at_42["load 1"]["after_words"] == "after emptying gunpowder"


def test_a_load_into_holds_that_all_hold_it_is_ignored() -> None:
    """§5: "If every hold holds that type, the action is ignored" — and the preview says so."""
    previews = _previews(("food-fwd", "fwd-fwd", "gold-fwd"), 5, [("food", 1)] * 5, (2, 1), 2)
    morning = previews["food-fwd"]["steps"][0]
    assert morning["ignored"] is True and "ignored" in morning["words"]
    assert previews["gold-fwd"]["steps"][0]["ignored"] is False


def test_a_looted_lair_promises_no_treasure() -> None:
    """§6.2: a lair gives its treasure only while its token is there."""
    s = start(Config(2), hands=[("fwd-fwd", "gold-gold", "food-gun"),
                                ("fwd-fwd", "gold-gold", "food-gun")])  # fmt: skip
    s.tokens &= ~(1 << 4)
    s.apply("roll 2-4")
    s.apply("morning 4")  # 0 → 4, the looted lair
    morning = next(pv for pv in card_preview(s, 0) if pv["card"] == "fwd-fwd")["steps"][0]
    (lair,) = morning["destinations"]
    assert lair["space"] == 4 and not lair["treasure"] and lair["cost"] == "free"
