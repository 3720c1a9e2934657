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
    assert label.startswith("fwd-fwd")
    assert "☀ fwd 5 → 5 port $3: have 1 — shortage!" in label
    assert "☾ fwd 1 → from where the shortage leaves you" in label
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
