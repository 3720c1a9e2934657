"""The pending question in plain words, for front ends: who decides, what, and each option —
in English, or through a `gettext`-like catalog passed in (`t`: the reader's language, issue 26)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import (
    ATTACK,
    BLIND,
    CAPTAIN,
    DIE,
    DRAW,
    GIVE,
    LOAD,
    MORNING,
    MOVE,
    PAY,
    PLAY,
    POWDER,
    REROLL,
    ROLL,
    ROLL_PAIRS,
    STEAL,
    STEAL_BLIND,
    TAKE,
    TREASURE,
    Action,
)
from .battle import firepower
from .data import (
    CARD_NAMES,
    COMBAT_FACES,
    CURSED,
    GHOST_NAME,
    GUNPOWDER,
    HOLD6,
    LADY_BETH,
    LADY_BETH_BONUS,
    SIXTH,
    SLOTS,
    SPACE_COST,
    STAR,
)
from .events import ship_name as default_name
from .holds import load_holds, slot_count
from .ops import (
    C_BLIND,
    C_CAPTAIN,
    C_DIE,
    C_DRAW,
    C_ROLL,
    C_TREASURE,
    CHANCE,
    K_ATTACK,
    K_LOAD,
    K_MORNING,
    K_MOVE,
    K_PAY,
    K_PLAY,
    K_POWDER,
    K_SABRE,
    K_SPOILS,
    KIND_NAMES,
    M_GHOST,
    TERMINAL,
)
from .phrases import (
    COMBAT_FACES as FACE_WORDS,
)
from .phrases import (
    ENGLISH,
    GHOST,
    N_,
    TREASURES,
    Translations,
    amount,
    card,
    contract,
    hold,
    space,
)

if TYPE_CHECKING:
    from .base import BaseState


@dataclass(frozen=True)
class Decision:
    """The pending question. `player` is the deciding player, CHANCE, or TERMINAL."""

    player: int
    kind: str
    prompt: str
    actions: tuple[Action, ...]
    options: tuple[str, ...]  # a plain-words label per action
    context: dict[str, Any]


def _hold(s: BaseState, ship: int, h: int, t: Translations) -> str:
    i = ship * SLOTS + h
    if s.hold_counts[i] == 0:
        return t.gettext(N_("{hold} (empty)")).format(hold=hold(h, t))
    return t.gettext(N_("{hold} ({amount})")).format(
        hold=hold(h, t), amount=amount(s.hold_counts[i], s.hold_types[i], t)
    )


def pending(
    s: BaseState, names: Sequence[str] | None = None, t: Translations = ENGLISH
) -> Decision:
    """The pending question in words: `names` per ship (players' names are never translated;
    the Ghost Ship's default name is), `t` the reader's catalog."""
    assert s.q is not None
    kind, who, ctx = s.q
    g = t.gettext
    if who == TERMINAL:
        return Decision(TERMINAL, "", g(N_("The game is over.")), (), (), {})
    n = s.n
    legal = tuple(s.legal)

    def ship_name(k: int, _: int) -> str:
        name = names[k] if names is not None else default_name(k, n)
        return g(GHOST) if name == GHOST_NAME else name

    name = "" if who == CHANCE else ship_name(who, n)
    context: dict[str, Any] = {}
    labels: list[str] = []
    if kind == K_MORNING:
        prompt = g(N_("{name}, Captain: the dice show {a} and {b}. Which die is the morning die?")
                   ).format(name=name, a=ctx[0], b=ctx[1])  # fmt: skip
        labels = [g(N_("{die} in the morning")).format(die=a - MORNING + 1) for a in legal]
    elif kind == K_PLAY:
        prompt = g(N_("{name}: choose an action card (morning {morning}, evening {evening}).")
                   ).format(name=name, morning=s.morning, evening=s.evening)  # fmt: skip
        labels = [card(CARD_NAMES[a - PLAY], t) for a in legal]
    elif kind == K_MOVE:
        prompt, labels, context = _move_words(s, ctx, who, name, ship_name, legal, t)
    elif kind == K_LOAD:
        ship, resource, count = ctx
        prompt = g(N_("{name}: load {amount} into which hold?")).format(
            name=name, amount=amount(count, resource, t)
        )
        labels = [
            (g(N_("into {hold}")) if s.hold_counts[ship * SLOTS + a - LOAD] == 0
             else g(N_("empty and load into {hold}"))).format(hold=_hold(s, ship, a - LOAD, t))
            for a in legal
        ]  # fmt: skip
    elif kind == K_PAY:
        ship, resource, count = ctx
        context = _owed(s, ship, resource, count, t)
        prompt = g(N_("{name}: {owed} — take one from which hold?")).format(
            name=name, owed=context["owed"]
        )
        labels = [_hold(s, ship, a - PAY, t) for a in legal]
    elif kind == K_ATTACK:
        prompt = g(N_("{name}: the space is crowded — which ship does {ship} attack?")).format(
            name=name, ship=ship_name(ctx[0], n)
        )
        labels = [ship_name(a - ATTACK, n) for a in legal]
    elif kind == K_POWDER:
        b = s.battle or [0, 0]
        ship = b[ctx[0]]
        prompt = (g(N_("{name}: how much gunpowder do you spend?")) if ship == who else
                  g(N_("{name}: how much gunpowder do you spend for {ship}?"))
                  ).format(name=name, ship=ship_name(ship, n))  # fmt: skip
        labels = [amount(a - POWDER, GUNPOWDER, t) for a in legal]
    elif kind == K_SABRE:
        fight = s.battle
        assert fight is not None
        side = ctx[0]
        roller = fight[side]
        rolled = _rolled(s, side, who, [ship_name(k, n) for k in range(s.ns)], t)
        prompt = (g(N_("{name}: {rolled} — use Saran's Sabre to have your die rolled again?"))
                  if roller == who else
                  g(N_("{name}: {rolled} — use Saran's Sabre to have {ship}'s die rolled again?"))
                  ).format(name=name, rolled=rolled, ship=ship_name(roller, n))  # fmt: skip
        labels = [g(N_("roll again")) if a == REROLL else g(N_("accept the roll")) for a in legal]
    elif kind == K_SPOILS:
        winner, loser = ctx
        prompt = (g(N_("{name}: you won — choose the spoils from {loser}.")) if winner == who else
                  g(N_("{name}: {winner} won — choose the spoils from {loser}."))
                  )  # fmt: skip
        prompt = prompt.format(name=name, winner=ship_name(winner, n), loser=ship_name(loser, n))
        labels = [_spoil(s, loser, a, t, winner) for a in legal]
    else:
        prompt, labels = _chance_words(kind, legal, [ship_name(k, n) for k in range(s.ns)], t)
    if not labels:
        labels = [str(a) for a in legal]
    return Decision(who, KIND_NAMES[kind], contract(prompt), legal,
                    tuple(contract(label) for label in labels), context)  # fmt: skip


def question_ship(s: BaseState) -> int:
    """The ship the pending question decides for — the one that moves, spends gunpowder, takes
    the spoils or attacks — or -1 for any other question (a card, a load, a payment: always the
    player's own ship). The Captain answers for the Ghost Ship (`s.gh`)."""
    assert s.q is not None
    kind, who, ctx = s.q
    if who in (TERMINAL, CHANCE):
        return -1
    if kind in (K_MOVE, K_SPOILS, K_ATTACK):
        return int(ctx[0])
    if kind == K_POWDER and s.battle is not None:
        return int(s.battle[ctx[0]])
    return -1


def _move_words(
    s: BaseState, ctx: Any, who: int, name: str, ship_name: Any, legal: tuple[Action, ...],
    t: Translations,
) -> tuple[str, list[str], dict[str, Any]]:  # fmt: skip
    g = t.gettext
    ship, mode, options = ctx
    n = s.n
    if mode == M_GHOST:
        prompt = g(N_("{name}, Captain: where does the Ghost Ship go?")).format(name=name)
    elif mode == 0:
        if ship == who:
            prompt = (g(N_("{name}: choose where to go forward.")) if options[0][2] else
                      g(N_("{name}: choose where to go backward.")))  # fmt: skip
        else:
            prompt = (g(N_("{name}: choose where to go forward for {ship}.")) if options[0][2]
                      else g(N_("{name}: choose where to go backward for {ship}.")))  # fmt: skip
    elif ship == who:
        prompt = g(N_("{name}: shortage — by which route does your ship fall back?"))
    else:
        prompt = g(N_("{name}: shortage — by which route does {ship} fall back?"))
    prompt = prompt.format(name=name, ship=ship_name(ship, n))
    by_dest = {o[0]: o for o in options}
    labels = []
    for a in legal:
        dest, _, forward = by_dest[a - MOVE]
        if mode > M_GHOST:
            way = N_("back to {space}")
        else:
            way = N_("forward to {space}") if forward else N_("backward to {space}")
        labels.append(g(way).format(space=space(dest, t)))
    return prompt, labels, {"ship": ship, "destinations": [a - MOVE for a in legal]}


def _spoil(s: BaseState, loser: int, a: Action, t: Translations, winner: int) -> str:
    g = t.gettext
    if a == TAKE + SIXTH:  # the hold's cargo; stealing the card (below) takes both
        return g(N_("take the cargo of {hold}, not the card")).format(
            hold=_hold(s, loser, SIXTH, t)) + _room(s, winner, loser, SIXTH, t)
    if TAKE <= a < TAKE + SLOTS:
        return g(N_("take {hold}")).format(hold=_hold(s, loser, a - TAKE, t)) + _room(
            s, winner, loser, a - TAKE, t)
    if a == STEAL + HOLD6:
        return g(N_("steal the 6th Hold card, with its cargo"))
    if STEAL <= a < STEAL_BLIND:
        return g(N_("steal {treasure}")).format(treasure=g(TREASURES[a - STEAL]))
    if a == STEAL_BLIND:
        return g(N_("steal a face-down card at random"))
    if GIVE <= a < GIVE + len(CURSED):
        return g(N_("give {treasure}")).format(treasure=g(TREASURES[CURSED[a - GIVE]]))
    return g(N_("take nothing"))


def _room(s: BaseState, winner: int, loser: int, h: int, t: Translations) -> str:
    """What loading the loser's hold `h` costs the winner (§5, as `load_options` decides): "",
    or ", emptying your hold 1 (3 food)" (the only hold it can empty: alike holds are one), or
    ", emptying a hold" (the winner's player chooses which). A review: taking 5 doubloons into
    full holds silently threw out the player's only food. The Ghost Ship throws spoils overboard:
    nothing to empty."""
    if winner == s.gh:
        return ""
    resource = s.hold_types[loser * SLOTS + h]
    base = winner * SLOTS
    end = base + slot_count(s, winner)
    holds = load_holds(s.hold_types[base:end], s.hold_counts[base:end], resource)
    if not holds or s.hold_counts[base + holds[0]] == 0:
        return ""  # an empty hold takes it (or every hold holds it: the take is ignored)
    if len(holds) == 1:  # the decider is the winner's player: "your"
        mine = holds[0]
        i = base + mine
        said = (N_(", emptying your 6th Hold ({amount})") if mine == SIXTH else
                N_(", emptying your hold {k} ({amount})"))  # fmt: skip
        return t.gettext(said).format(k=mine + 1,
                                      amount=amount(s.hold_counts[i], s.hold_types[i], t))
    return t.gettext(N_(", emptying a hold"))


def _owed(s: BaseState, ship: int, resource: int, count: int, t: Translations) -> dict[str, Any]:
    """A payment in words, as the log has it: what it is for, what is due and, when the engine
    has taken some already (from the only hold it could be, or the first of alike holds: §6
    leaves nothing to choose there), what is left to pay. `owed`: "2 food for space 27, 1 taken
    already: 1 still to pay"."""
    g = t.gettext
    b = s.battle
    if resource == GUNPOWDER and b is not None and ship in (b[0], b[1]):
        due, what = b[2 + 2 * (b[1] == ship)], g(N_("the battle"))  # the gunpowder spent (§8.1)
    else:  # the space's cost (§6.2)
        due, what = SPACE_COST[s.pos[ship]], g(N_("space {space}")).format(space=s.pos[ship])
    due = max(due, count)
    if due > count:
        said = N_("{amount} for {what}, {taken} taken already where there was no choice: "
                  "{left} still to pay")  # (a review read "1 taken already" as a mistake)
        owed = g(said).format(amount=amount(due, resource, t), what=what, taken=due - count,
                              left=count)  # fmt: skip
    else:
        owed = g(N_("{amount} to pay for {what}")).format(amount=amount(due, resource, t),
                                                          what=what)  # fmt: skip
    return {"ship": ship, "due": due, "left": count, "for": what, "owed": owed}


def _rolled(s: BaseState, side: int, who: int, names: Sequence[str], t: Translations) -> str:
    """The roll a Sabre may undo, in numbers: "Mary Read rolled 4: firepower 6 (4 + 2
    gunpowder) against your 8" (§8, R5, R13)."""
    g = t.gettext
    b = s.battle
    assert b is not None
    roller = b[side]
    face = b[3 + 2 * side]
    if COMBAT_FACES[face] == STAR:
        if side == 0:
            said = (N_("you rolled the star, which wins at once") if roller == who
                    else N_("{ship} rolled the star, which wins at once"))  # fmt: skip
        else:
            said = (N_("you rolled the star, which wins whatever the attacker's firepower")
                    if roller == who else
                    N_("{ship} rolled the star, which wins whatever the attacker's firepower")
                    )  # fmt: skip
        return g(said).format(ship=names[roller])
    parts = [g(FACE_WORDS[face])]
    if b[2 + 2 * side]:
        parts.append(amount(b[2 + 2 * side], GUNPOWDER, t))
    if s.powers[LADY_BETH] == roller:
        parts.append(g(N_("{bonus} Lady Beth")).format(bonus=LADY_BETH_BONUS))
    said = (N_("you rolled {face}: firepower {firepower}") if roller == who
            else N_("{ship} rolled {face}: firepower {firepower}"))  # fmt: skip
    words = g(said).format(ship=names[roller], face=g(FACE_WORDS[face]),
                           firepower=firepower(s, side))  # fmt: skip
    if len(parts) > 1:
        words += f" ({' + '.join(parts)})"
    other = b[1 - side]
    if side == 1:  # the attacker has rolled (not the star: the defender would not roll)
        then = (N_("{words} against your {firepower}") if other == who
                else N_("{words} against {ship}'s {firepower}"))  # fmt: skip
        return g(then).format(words=words, ship=names[other], firepower=firepower(s, 0))
    then = N_("{words}; you roll next") if other == who else N_("{words}; {ship} rolls next")
    return g(then).format(words=words, ship=names[other])


def _chance_words(
    kind: int, legal: tuple[Action, ...], names: list[str], t: Translations
) -> tuple[str, list[str]]:
    g = t.gettext
    if kind == C_ROLL:
        return g(N_("Chance: the Captain rolls the action dice.")), [
            "{}-{}".format(*ROLL_PAIRS[a - ROLL]) for a in legal
        ]
    if kind == C_DIE:
        return g(N_("Chance: the combat die is rolled.")), [g(FACE_WORDS[a - DIE]) for a in legal]
    if kind == C_DRAW:
        return g(N_("Chance: an action card is drawn.")), [
            card(CARD_NAMES[a - DRAW], t) for a in legal
        ]
    if kind == C_TREASURE:
        return g(N_("Chance: a treasure card is drawn.")), [
            g(TREASURES[a - TREASURE]) for a in legal
        ]
    if kind == C_BLIND:
        return g(N_("Chance: a face-down card is stolen.")), [
            g(N_("card {k}")).format(k=a - BLIND + 1) for a in legal
        ]
    if kind == C_CAPTAIN:
        return g(N_("Chance: the first Captain is drawn.")), [names[a - CAPTAIN] for a in legal]
    return g(N_("Chance.")), []
