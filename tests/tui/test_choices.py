"""The question as the terminal words it: each option with what it leads to, and a payment as
one question whose splits are exactly what the engine's one-token payments do."""

from __future__ import annotations

from jamaica import Action, Config, State
from jamaica.rules.data import FOOD, GOLD, SLOTS
from jamaica.rules.events import EVENT_NAMES
from jamaica.session import GameSession, make_seats
from jamaica.tui.choices import pay_splits, question

NAMES = ["Anne Bonny", "Mary Read", "John Rackham"]
HOLD_EVENTS = {"load", "dump", "take", "pay", "shortage"}


def _kind_holds(s: State, ship: int, kind: int) -> int:
    return sum(
        s.hold_counts[ship * SLOTS + h]
        for h in range(SLOTS)
        if s.hold_types[ship * SLOTS + h] == kind
    )


def test_every_split_pays_exactly_what_is_owed_as_the_engine_does() -> None:
    checked = 0
    for seed in range(1, 9):
        session = GameSession(Config(3), make_seats(["greedy"] * 3), seed)
        while not session.state.is_terminal():
            s = session.state
            if s.decision_kind() == "pay":
                kind, who, (ship, resource, owed) = s.q  # type: ignore[misc]
                splits = pay_splits(s)
                assert len(splits) == len({tuple(sorted(a[:5])) + a[5:] for _, a in splits})
                for seq, after in splits:
                    c = s.clone()
                    mark = len(c.events or [])
                    for a in seq:
                        assert c.q is not None and c.q[0] == kind and c.q[1] == who
                        last = len(c.events or [])
                        c.apply(a)
                    # the payment is over: no more of it asked (a next one starts with an event)
                    assert len(c.events or []) > last or c.q is None or c.q[:2] != (kind, who)
                    paid = _kind_holds(s, ship, resource) - sum(
                        n for t, n in after if t == ("gold" if resource == GOLD else
                                                      "food" if resource == FOOD else "powder")
                    )  # fmt: skip
                    assert paid == owed
                    later = (c.events or [])[mark:]
                    view = c.view(None)["ships"][ship]["holds"]
                    if not any(EVENT_NAMES[e[1]] in HOLD_EVENTS for e in later):
                        assert [(h["type"], h["count"]) for h in view] == list(after)
                    checked += 1
            session.step()
    assert checked > 30


def _at_card_choice(seed: int = 2) -> GameSession:
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"], NAMES), seed)
    session.run_until_human()
    while session.state.decision_kind() != "card":
        session.answer(session.state.legal_actions()[0])
        session.run_until_human()
    return session


def test_a_card_says_where_it_leads_and_warns_of_a_shortage() -> None:
    session = _at_card_choice()
    s = session.state
    s.pos[0], s.lap[0] = 0, 0
    s.morning, s.evening = 5, 1
    base = 0
    for h in range(SLOTS):
        s.hold_types[base + h], s.hold_counts[base + h] = 0, 0
    s.hold_types[0], s.hold_counts[0] = GOLD, 1  # one doubloon; space 5 is a 3-doubloon port
    s.hand[0] = 0b10  # fwd-fwd only
    s.legal = [Action.parse("play fwd-fwd")]
    q = question(s, 0, NAMES)
    label = q.choices[0].label.plain
    assert label.startswith("Forward / Forward")  # the log's words: "reveals Forward / Forward"
    assert "☀ forward 5 → 5 port $3: have 1 — shortage!" in label
    assert "☾ forward 1 → from where the shortage leaves you" in label
    assert q.choices[0].spaces == (5,)


def test_a_move_names_the_battle_it_starts() -> None:
    for seed in range(1, 40):
        session = GameSession(Config(3), make_seats(["greedy"] * 3, NAMES), seed)
        while not session.state.is_terminal():
            s = session.state
            if s.decision_kind() == "move" and s.current_player() >= 0:
                q = question(s, s.current_player(), NAMES)
                for c in q.choices:
                    (dest,) = c.spaces
                    ship = q.ship
                    others = [NAMES[k] for k in range(3) if k != ship and s.pos[k] == dest]
                    if others and dest != 0:
                        assert "→ battle with " + others[0] in c.label.plain
                        return
            session.step()
    raise AssertionError("no move into a battle found")


def _captain_at(space: int, cargo: list[tuple[str, int]], hand: tuple[str, ...],
                roll: tuple[int, int], morning: int) -> State:  # fmt: skip
    from tests.rules.helpers import holds, place, start

    s = start(Config(3), hands=[hand, ("fwd-fwd", "gold-gold", "food-gun"),
                                ("fwd-fwd", "gold-gold", "food-gun")])  # fmt: skip
    place(s, 0, space)
    holds(s, 0, cargo)
    s.apply("roll {}-{}".format(*sorted(roll)))
    s.apply(f"morning {morning}")
    return s


def test_an_evening_that_depends_on_the_morning_says_after_which() -> None:
    """Issue 24, item 8: with 5 food on space 30, forward 3 ends on 33 (free) or 39 (4 food);
    backward 6 then reaches 27 (4 food) from either — short only after 39 (§7, R2)."""
    s = _captain_at(30, [("food", 5), ("gold", 3)], ("fwd-back", "fwd-fwd", "food-fwd"), (3, 6), 3)
    q = question(s, 0, NAMES)
    label = next(c.label.plain for c in q.choices if c.label.plain.startswith("Forward / Back"))
    assert label == (
        "Forward / Backward  ☀ forward 3 → 33 lair ✦ treasure or 39 sea ~4 (have 5)  "
        "☾ backward 6 → 25 lair ✦ treasure; after 33: 27 sea ~4 (have 5); "
        "after 39: 27 sea ~4: have 1 — shortage!"
    )


def test_the_ghost_ships_moves_cost_nothing() -> None:
    """§10: the Ghost Ship never pays for a space: its options name no cost."""
    for seed in range(1, 40):
        session = GameSession(Config(2), make_seats(["greedy"] * 2, NAMES[:2]), seed)
        while not session.state.is_terminal():
            s = session.state
            if s.decision_kind() == "move" and s.q is not None and s.q[2][0] == s.gh:
                q = question(s, s.current_player(), [*NAMES[:2], "The Ghost Ship"])
                labels = [c.label.plain for c in q.choices]
                assert not any("~" in label or "$" in label for label in labels), labels
                if any("sea, not paid" in label or "port, not paid" in label for label in labels):
                    return
            session.step()
    raise AssertionError("no Ghost Ship move onto a port or sea space found")


def test_the_payment_question_says_what_is_left_of_what() -> None:
    """Issue 24, item 9: between two holds of 2 food the engine takes the first token itself;
    the log says "must pay 3 food" (not "pays": the player has yet to say from which holds — a
    review read "pays" beside the question as a payment already made), the question what is left
    of it."""
    from tests.rules.helpers import holds, place, round_, start

    s = start(Config(3), hands=[("fwd-fwd", "gold-gold", "food-gun")] * 3)
    place(s, 0, 1)
    holds(s, 0, [("food", 2), ("food", 2), ("gold", 3)])
    round_(s, (1, 2), 1, {0: "fwd-fwd"})
    assert s.events_for(0)[-1]["text"] == "Anne Bonny must pay 3 food for space 2."
    q = question(s, 0, NAMES)
    assert q.prompt.plain == (
        "Anne Bonny: 3 food for space 2, 1 taken already where there was no choice: 2 still to "
        "pay — from which holds?"
    )
    # the splits count from the holds as they are now: the first token is gone
    assert [c.label.plain for c in q.choices] == [
        "take 1 from hold 1 (of 1), 1 from hold 2 (of 2)  → left: · 1f 3$ · ·"
    ]


def test_a_card_that_loads_into_full_holds_says_it_empties_one() -> None:
    """Helper's review: with holds 3$ 5$ 2$ 5$ 5$ the card read "☀ load 1 food", and only a later
    question said a hold of doubloons goes overboard (§5: with no empty hold, one holding another
    type is emptied)."""
    from jamaica.rules.data import CARD_NAMES

    session = _at_card_choice()
    s = session.state
    s.pos[0], s.lap[0] = 0, 0
    s.morning, s.evening = 1, 6
    for h, n in enumerate((3, 5, 2, 5, 5)):
        s.hold_types[h], s.hold_counts[h] = GOLD, n
    food_fwd = CARD_NAMES.index("food-fwd")
    s.hand[0] = 1 << food_fwd
    s.legal = [Action.parse("play food-fwd")]
    label = question(s, 0, NAMES).choices[0].label.plain
    assert "☀ load 1 food, emptying a hold" in label, label
    s.hold_counts[4], s.hold_types[4] = 0, 0  # an empty hold: nothing is thrown out
    assert "emptying" not in question(s, 0, NAMES).choices[0].label.plain
    # two loads (a second review: the evening's never said it): the morning's takes the one
    # empty hold, so the evening's must empty one; with two empty holds, neither empties one
    s.hand[0] = 1 << CARD_NAMES.index("food-gun")
    s.legal = [Action.parse("play food-gun")]
    label = question(s, 0, NAMES).choices[0].label.plain
    assert "☀ load 1 food " in label + " " and "☾ load 6 gunpowder, emptying a hold" in label
    s.hold_counts[3], s.hold_types[3] = 0, 0
    assert "emptying" not in question(s, 0, NAMES).choices[0].label.plain


def test_a_load_after_a_lair_says_the_6th_hold_could_spare_a_hold() -> None:
    """A strong player's review: holds 5$ 4f 6p 3$ 6$, "Forward / Gunpowder: ☀ forward 4 → 37
    lair ✦ treasure ☾ load 5 gunpowder" — then a question which hold to empty. The treasure
    might be the 6th Hold (a new empty hold), so the hint said nothing; it now says both."""
    from jamaica.rules.data import CARD_NAMES, FOOD, GUNPOWDER, HOLD6

    session = _at_card_choice()
    s = session.state
    s.pos[0], s.lap[0] = 33, 0
    for k in range(1, s.ns):
        s.pos[k] = 0  # nobody on space 37: no battle
    s.tokens |= 1 << 37  # its treasure is still there
    s.morning, s.evening = 4, 5
    for h, (kind, n) in enumerate(((GOLD, 5), (FOOD, 4), (GUNPOWDER, 6), (GOLD, 3), (GOLD, 6))):
        s.hold_types[h], s.hold_counts[h] = kind, n
    s.hand[0] = 1 << CARD_NAMES.index("fwd-gun")
    s.legal = [Action.parse("play fwd-gun")]
    s.powers[HOLD6] = -1  # not drawn yet
    label = question(s, 0, NAMES).choices[0].label.plain
    assert "☾ load 5 gunpowder, emptying a hold unless you draw the 6th Hold" in label, label
    s.powers[HOLD6] = 1  # another ship has it: the treasure cannot be it
    label = question(s, 0, NAMES).choices[0].label.plain
    assert "☾ load 5 gunpowder, emptying a hold" in label and "unless" not in label, label
