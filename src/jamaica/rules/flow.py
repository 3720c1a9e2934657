"""Where the game stands: the task stack and the pending question of a state, checked against the
way the engine builds them (for a loaded state, so that every legal action can be applied).

The stack is read bottom up. Before the first round: the first Captain's draw under the setup's
card draws. Between rounds: the draws, in seat order from the last Captain. In a round: the round
end, the Ghost Ship's two moves, the players' turns, then their card choices, in seat order; the
turn in progress (its card in play, the evening's action if the morning is being played); then,
above the half-turn's arrival, a battle's remaining steps. The pending question must be one the
engine asks there, and its legal answers (and chance probabilities) exactly those it would list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from .actions import (
    ACCEPT,
    ACTIONS,
    ATTACK,
    BLIND,
    CAPTAIN,
    DRAW,
    MAX_POWDER,
    MORNING,
    MOVE,
    PLAY,
    POWDER,
    REROLL,
    TREASURE,
    Action,
)
from .battle import DIE_ACTIONS, STAR_FACE, decider, spoils_options
from .board import NEAREST
from .data import (
    BACKWARD,
    CARDS,
    COMBAT_FACES,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    HAND_LIMIT,
    HAND_LIMIT_WITH_MAP,
    LAIR,
    MAP,
    MAX_HOLD,
    NUM_CARDS,
    NUM_TREASURE_TYPES,
    PORT,
    SABRE,
    SEA,
    SPACE_COST,
    SPACE_TYPE,
)
from .fields import FieldError
from .holds import load_options, pay_options, total
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
    M_FALLBACK_2021,
    M_FALLBACK_CLASSIC,
    M_GHOST,
    M_NORMAL,
    T_ACTION,
    T_CARD_END,
    T_CHECK,
    T_CHOOSE,
    T_DRAW,
    T_FIRST_CAPTAIN,
    T_GHOST,
    T_ROLL,
    T_ROUND_END,
    T_SABRE,
    T_SETTLE,
    T_TURN,
    TASK_NAMES,
    TERMINAL,
)
from .shortage import classic_fallbacks
from .turns import ROLL_ACTIONS, ROLL_PROBS, ghost_options, move_options, seat_order

if TYPE_CHECKING:
    from .base import BaseState



def _fail(path: str, why: str) -> NoReturn:
    raise FieldError("inconsistent state", path, why)


def check_flow(s: BaseState) -> None:
    """Raise a FieldError unless the stack and the pending question are ones the engine makes."""
    q = s.q
    if not isinstance(q, tuple) or len(q) != 3 or not isinstance(q[2], tuple):
        _fail("pending", "no pending question")
    kind, who, _ = q
    if who == TERMINAL:
        _over(s)
        return
    if not 0 <= kind < len(KIND_NAMES) or not (who == CHANCE or 0 <= who < s.n):
        _fail("pending", f"no question {kind} for {who}")
    for i, t in enumerate(s.stack):
        if not t or t[0] not in _WAITING or len(t) != _WAITING[t[0]]:
            _fail(f"stack[{i}]", "not a task that waits on the stack")
    if s.battle is not None and (not s.stack or s.stack[-1][0] not in _BATTLE_TASKS):
        _fail("battle", "a battle whose steps are not on the stack")
    if s.rnd == 0:
        _setup(s)
    elif not s.stack or s.stack[0][0] == T_DRAW:
        _between_rounds(s)
    else:
        _round(s)


# The tasks that ever wait on the stack (the others run as soon as they are pushed), with their
# lengths (the code and the arguments).
_WAITING = {T_FIRST_CAPTAIN: 1, T_DRAW: 2, T_ROUND_END: 1, T_GHOST: 2, T_TURN: 2, T_CHOOSE: 2,
            T_CARD_END: 3, T_ACTION: 5, T_SETTLE: 3, T_CHECK: 2, T_SABRE: 2, T_ROLL: 2}  # fmt: skip
_BATTLE_TASKS = (T_CHECK, T_SABRE, T_ROLL)


def _ctx(s: BaseState, size: int) -> tuple[int, ...]:
    """The pending question's context: `size` integers."""
    assert s.q is not None
    ctx = s.q[2]
    if len(ctx) != size or not all(isinstance(x, int) for x in ctx):
        _fail("pending[2]", f"a {KIND_NAMES[s.q[0]]} question's context is {size} integers")
    return ctx


def _answers(s: BaseState, who: int, legal: list[Action], probs: list[float] | None = None) -> None:
    """The question is asked of `who`, with exactly these answers (and probabilities)."""
    assert s.q is not None
    name = KIND_NAMES[s.q[0]]
    if s.q[1] != who:
        _fail("pending[1]", f"the {name} question is {_whose(who)}, not {_whose(s.q[1])}")
    if s.legal != legal:
        _fail("legal", f"the {name} question's answers are {', '.join(map(str, legal))}")
    if s.probs != probs:
        _fail("probs", f"not the {name} question's probabilities")


def _whose(who: int) -> str:
    return "chance's" if who == CHANCE else f"player {who}'s"


def _no_cards_chosen(s: BaseState) -> None:
    for p in range(s.n):
        if s.chosen[p] != -1:
            _fail(f"chosen[{p}]", "no card is chosen now")


def _dice(s: BaseState, placed: bool) -> None:
    """The roll of this round (or the last), and its dice placed in the morning and evening."""
    roll = s.roll
    if len(roll) != 2 or not 1 <= roll[0] <= roll[1] <= 6:
        _fail("roll", "a round's roll is two dice, the lower first")
    ways = [(roll[0], roll[1]), (roll[1], roll[0])] if placed else [(0, 0)]
    if (s.morning, s.evening) not in ways:
        _fail("morning", f"the dice {roll[0]} and {roll[1]} are not placed that way")


def _draw(s: BaseState, p: int) -> None:
    """A card drawn by player p: one of their draw pile, while their hand is not full."""
    limit = HAND_LIMIT_WITH_MAP if s.powers[MAP] == p else HAND_LIMIT
    if s.hand[p].bit_count() >= limit or not s.drawp[p]:
        _fail(f"hand[{p}]", f"player {p} draws no card now")
    pile = s.drawp[p]
    _answers(s, CHANCE, [ACTIONS[DRAW + c] for c in range(NUM_CARDS) if pile >> c & 1])


def _over(s: BaseState) -> None:
    if s.q != (-1, TERMINAL, ()):
        _fail("pending", "a finished game's question is [-1, -4, []]")
    if s.stack:
        _fail("stack", "a finished game has no tasks left")
    if s.legal or s.probs is not None:
        _fail("legal", "a finished game has no legal actions")
    if not (s.ending or s.rnd >= s.cfg.max_rounds) or s.rnd < 1:
        _fail("round", "the game ends when a ship finishes or at the round limit")
    if s.battle is not None:
        _fail("battle", "no battle is fought after the game")
    _dice(s, True)
    _no_cards_chosen(s)


def _setup(s: BaseState) -> None:
    """Round 0: the players draw their cards (in seat order), then the first Captain is drawn."""
    kind = s.q[0] if s.q is not None else -1
    if s.cap != -1 or s.roll or s.morning or s.evening or s.ending or s.battle is not None:
        _fail("round", "round 0 is the setup: no Captain, dice or battle yet")
    _no_cards_chosen(s)
    if kind == C_CAPTAIN:
        if s.stack:
            _fail("stack", "the first Captain is drawn last")
        _answers(s, CHANCE, list(ACTIONS[CAPTAIN : CAPTAIN + s.n]))
        return
    if kind != C_DRAW:
        _fail("pending[0]", "the setup asks for card draws and the first Captain")
    (p,) = _ctx(s, 1)
    if not 0 <= p < s.n or s.stack != [(T_FIRST_CAPTAIN,)] + [(T_DRAW, k) for k in
                                                               range(s.n - 1, p, -1)]:
        _fail("stack", f"not the setup's draws while player {p} draws")
    _draw(s, p)


def _between_rounds(s: BaseState) -> None:
    """The draws after a round (from its Captain, clockwise), the roll, the dice's order."""
    assert s.q is not None
    kind = s.q[0]
    if s.ending or s.battle is not None or s.rnd > s.cfg.max_rounds:
        _fail("ending", "the game is over or in a round")
    _no_cards_chosen(s)
    if kind == C_DRAW:
        (p,) = _ctx(s, 1)
        order = [(s.cap - 1 + i) % s.n for i in range(s.n)]  # from the last round's Captain
        if p not in order or s.stack != [(T_DRAW, k) for k in order[:order.index(p):-1]]:
            _fail("stack", f"not the draws of the round's end while player {p} draws")
        if s.rnd >= s.cfg.max_rounds:
            _fail("round", "no draws after the last round")
        _dice(s, True)
        _draw(s, p)
        return
    if s.stack:
        _fail("stack", "only draws wait between rounds")
    if kind == C_ROLL:
        if s.roll or s.morning or s.evening:
            _fail("roll", "the dice are not rolled yet")
        _answers(s, CHANCE, ROLL_ACTIONS, ROLL_PROBS)
    elif kind == K_MORNING:
        lo, hi = _ctx(s, 2)
        if s.roll != (lo, hi):
            _fail("pending[2]", "the dice of the dice-order question are the roll's")
        _dice(s, False)
        _answers(s, s.cap, [ACTIONS[MORNING + d - 1] for d in sorted({lo, hi})])
    else:
        _fail("pending[0]", f"no {KIND_NAMES[kind]} question between rounds")


def _round(s: BaseState) -> None:
    """The round's tasks, bottom up: its end, the Ghost Ship's moves, the turns, the choices."""
    stack, n = s.stack, s.n
    if stack[0] != (T_ROUND_END,):
        _fail("stack[0]", "a round's tasks start with its end")
    _dice(s, True)
    i, ghost_moves = 1, 0
    if s.gh >= 0:
        for half in (1, 0):
            if i < len(stack) and stack[i] == (T_GHOST, half):
                ghost_moves, i = ghost_moves + 1, i + 1
            else:
                break
    order = seat_order(s)
    turns = 0  # players still to take their turn: order[n - turns:]
    while i < len(stack) and turns < n and stack[i] == (T_TURN, order[n - 1 - turns]):
        turns, i = turns + 1, i + 1
    if s.gh >= 0 and ghost_moves < 2:  # the Ghost Ship's morning (1 move left) or evening move
        if turns:
            _fail(f"stack[{i - turns}]", "the Ghost Ship moves after the players' turns")
        _no_cards_chosen(s)
        half = 0 if ghost_moves == 1 else 1
        _half(s, i, s.gh, s.morning if half == 0 else s.evening, -1)
        return
    if turns == n:  # the players choose their cards
        choices = 0  # players still to choose: order[n - choices:]
        while i < len(stack) and choices < n and stack[i] == (T_CHOOSE, order[n - 1 - choices]):
            choices, i = choices + 1, i + 1
        if i < len(stack) or choices == n:
            _fail(f"stack[{i}]", "not the card choices of the round")
        p = order[n - 1 - choices]
        for j, k in enumerate(order):
            if (s.chosen[k] >= 0) != (j < n - 1 - choices):
                _fail(f"chosen[{k}]", f"player {k} has {'not ' * (j < n - 1 - choices)}chosen")
        if s.q is None or s.q[0] != K_PLAY or _ctx(s, 1) != (p,) or not s.hand[p]:
            _fail("pending", f"player {p} chooses a card now")
        _answers(s, p, [ACTIONS[PLAY + c] for c in range(NUM_CARDS) if s.hand[p] >> c & 1])
        return
    p = order[n - 1 - turns]  # a player's turn: their card is in play
    for j, k in enumerate(order):
        if (s.chosen[k] >= 0) != (j >= n - turns):
            _fail(f"chosen[{k}]", f"player {k}'s card is {'not ' * (j >= n - turns)}chosen")
    if i == len(stack) or stack[i][:2] != (T_CARD_END, p) or not 0 <= stack[i][2] < NUM_CARDS:
        _fail(f"stack[{i}]", f"player {p}'s card in play")
    card = stack[i][2]
    if not s.disc[p] >> card & 1:
        _fail(f"discard[{p}]", f"player {p}'s card in play is face up on their discard pile")
    i += 1
    half = 1
    if i < len(stack) and stack[i][0] == T_ACTION:
        if stack[i] != (T_ACTION, p, CARDS[card][1], s.evening, 1):
            _fail(f"stack[{i}]", f"not the evening action of player {p}'s card")
        half, i = 0, i + 1
    _half(s, i, p, s.morning if half == 0 else s.evening, CARDS[card][half])


def _half(s: BaseState, i: int, ship: int, die: int, icon: int) -> None:
    """Half a turn of `ship` (its action `icon`, -1 for the Ghost Ship, with `die`), from
    stack[i] up: after its arrival, a battle (above the arrival's settling); else a question."""
    stack = s.stack
    if i < len(stack):
        if stack[i][:2] != (T_SETTLE, ship):
            _fail(f"stack[{i}]", f"a {TASK_NAMES[stack[i][0]]} task cannot wait here")
        mode = stack[i][2]
        if mode != (M_GHOST if ship == s.gh else _player_mode(s, mode)):
            _fail(f"stack[{i}]", f"ship {ship} cannot have arrived in mode {mode}")
        _battle(s, i + 1, ship)
        return
    assert s.q is not None
    kind = s.q[0]
    if s.battle is not None:
        _fail("battle", "no battle is being fought")
    if kind == K_MOVE:
        _move(s, ship, die, icon)
    elif kind == K_LOAD and FOOD <= icon <= GOLD:
        if _ctx(s, 3) != (ship, icon, die):
            _fail("pending[2]", f"ship {ship} loads {die} of resource {icon}")
        _answers(s, ship, load_options(s, ship, icon))
    elif kind == K_PAY and ship != s.gh:
        space = s.pos[ship]
        resource = {PORT: GOLD, SEA: FOOD}.get(SPACE_TYPE[space], -1)
        _pay(s, ship, resource, SPACE_COST[space])
    elif kind == C_TREASURE:
        space = s.pos[ship]
        if _ctx(s, 2) != (ship, space) or SPACE_TYPE[space] != LAIR or not s.tokens >> space & 1:
            _fail("pending[2]", f"ship {ship} finds no treasure on space {space}")
        legal = [ACTIONS[TREASURE + t] for t in range(NUM_TREASURE_TYPES) if s.pile[t]]
        drawn = sum(s.pile)
        _answers(s, CHANCE, legal, [s.pile[a - TREASURE] / drawn for a in legal])
    elif kind == C_DIE and not s.classic and ship != s.gh:
        if _ctx(s, 2) != (1, ship):
            _fail("pending[2]", f"ship {ship} rolls the shortage die")
        _answers(s, CHANCE, DIE_ACTIONS)
    else:
        _fail("pending[0]", f"no {KIND_NAMES[kind]} question in ship {ship}'s half-turn")


def _player_mode(s: BaseState, mode: int) -> int:
    """`mode` if a player's ship can arrive that way in this edition, else -1."""
    allowed = (M_NORMAL, M_FALLBACK_CLASSIC if s.classic else M_FALLBACK_2021)
    return mode if mode in allowed else -1


def _move(s: BaseState, ship: int, die: int, icon: int) -> None:
    assert s.q is not None
    ctx = s.q[2]
    if len(ctx) != 3 or ctx[0] != ship or not isinstance(ctx[1], int) or s.lap[ship] >= 1:
        _fail("pending[2]", f"ship {ship} does not move now")
    mode, options = ctx[1], ctx[2]
    who = ship
    if ship == s.gh and mode == M_GHOST:
        expected = [tuple(ghost_options(s, die)[1])]
        who = s.cap
    elif mode == M_NORMAL and icon in (FORWARD, BACKWARD):
        expected = [tuple(move_options(s, ship, die, icon == FORWARD))]
    elif ship != s.gh and mode == _player_mode(s, mode) == M_FALLBACK_2021:
        nearest = NEAREST[PORT], NEAREST[SEA], NEAREST[LAIR]
        expected = [tuple((space, 0, 0) for space in spaces[s.pos[ship]]) for spaces in nearest]
    elif ship != s.gh and mode == _player_mode(s, mode) == M_FALLBACK_CLASSIC:
        expected = [tuple((space, 0, 0) for space in classic_fallbacks(s, ship))]
    else:
        _fail("pending[2]", f"ship {ship} cannot move in mode {mode} now")
    if options not in expected:
        _fail("pending[2]", f"not ship {ship}'s moves from space {s.pos[ship]}")
    _answers(s, who, [ACTIONS[MOVE + o[0]] for o in options])


def _pay(s: BaseState, ship: int, resource: int, most: int) -> None:
    """Paying `resource` (at most `most` still due) from chosen holds: asked while the ship has
    more than is due and the holds it may pay from differ."""
    ctx = _ctx(s, 3)
    have = total(s, ship, resource)
    if ctx[:2] != (ship, resource) or not 0 < ctx[2] <= most or ctx[2] >= have:
        _fail("pending[2]", f"ship {ship} pays no {ctx[2]} of resource {resource} now")
    _answers(s, ship, pay_options(s, ship, resource))


def _battle(s: BaseState, i: int, ship: int) -> None:
    """Ship `ship` has arrived among others: the attack question, the battle's steps from
    stack[i] up, or (the battle over) its spoils."""
    stack, b = s.stack, s.battle
    assert s.q is not None
    kind = s.q[0]
    if i == len(stack):
        if b is not None:
            _fail("battle", "a battle whose steps are not on the stack")
        if kind == K_ATTACK:
            space = s.pos[ship]
            foes = tuple(k for k in range(s.ns) if k != ship and s.pos[k] == space)
            if s.q[2] != (ship, foes) or not foes:
                _fail("pending[2]", f"ship {ship} attacks one of the ships on space {space}")
            _answers(s, s.cap if ship == s.gh else ship, [ACTIONS[ATTACK + k] for k in foes])
        elif kind == K_SPOILS or kind == C_BLIND:
            winner, loser = _fighters(s, ship)
            if kind == K_SPOILS:
                _answers(s, decider(s, winner, loser), spoils_options(s, winner, loser))
            elif not s.face_down[loser]:
                _fail(f"face_down[{loser}]", "a blind steal from a ship without face-down cards")
            else:
                _answers(s, CHANCE, list(ACTIONS[BLIND : BLIND + len(s.face_down[loser])]))
        elif kind == K_LOAD:  # the spoils: the contents of a hold
            winner, resource, amount = _ctx(s, 3)
            if not (0 <= winner < s.ns and s.pos[winner] == s.pos[ship]) or not (
                (GOLD if winner == s.gh else FOOD) <= resource <= GOLD and 1 <= amount <= MAX_HOLD
            ):
                _fail("pending[2]", "not a hold's contents taken in a battle")
            who = s.q[1]
            if who != winner and not (winner == s.gh and who in (s.cap, (s.cap + 1) % s.n)):
                _fail("pending[1]", f"ship {winner}'s spoils are loaded by its player")
            _answers(s, who, load_options(s, winner, resource))
        else:
            _fail("pending[0]", f"no {KIND_NAMES[kind]} question after an attack")
        return
    if b is None:
        _fail("battle", "the battle's steps are on the stack, but no battle")
    if b[0] != ship or not (0 <= b[1] < s.ns and b[1] != ship and s.pos[b[1]] == s.pos[ship]):
        _fail("battle", f"ship {ship} attacks a ship on its space")
    if not all(0 <= x <= MAX_POWDER for x in (b[2], b[4])) or not all(
        -1 <= x < len(COMBAT_FACES) for x in (b[3], b[5])
    ) or b[6] not in (0, 1):  # fmt: skip
        _fail("battle", "not a battle's gunpowder, dice and Sabre")
    side = stack[i][1] if stack[i][0] == T_CHECK else -1
    if side == 0 and (b[4], b[5]) != (0, -1):
        _fail("battle", "the defender has not spent gunpowder or rolled yet")
    if side == 1 and not 0 <= b[3] < STAR_FACE:
        _fail("battle", "the defender fights once the attacker has rolled, but not the star")
    steps = stack[i + 1 :]
    if side < 0 or any(t[1] != side for t in steps):
        _fail(f"stack[{i}]", "not the steps of a battle")
    face = b[3 + 2 * side]
    if steps == [(T_SABRE, side), (T_ROLL, side)] and face == -1:  # gunpowder first
        fighter = b[side]
        if kind == K_POWDER and _ctx(s, 1) == (side,) and b[2 + 2 * side] == 0:
            have = min(total(s, fighter, GUNPOWDER), MAX_POWDER)
            if have == 0:
                _fail("pending", f"ship {fighter} has no gunpowder to spend")
            who = decider(s, fighter, b[1 - side])
            _answers(s, who, list(ACTIONS[POWDER : POWDER + have + 1]))
            return
        if kind == K_PAY and fighter != s.gh:
            _pay(s, fighter, GUNPOWDER, b[2 + 2 * side])
            return
    elif (steps == [(T_SABRE, side)] and face == -1) or (not steps and face >= 0 and b[6]):
        if kind == C_DIE and _ctx(s, 2) == (0, side):  # the roll, or the roll again
            _answers(s, CHANCE, DIE_ACTIONS)
            return
    elif not steps and face >= 0 and not b[6] and kind == K_SABRE and _ctx(s, 1) == (side,):
        owner = s.powers[SABRE]
        if owner not in b[:2]:
            _fail(f"powers[{SABRE}]", "the Sabre's owner fights in this battle")
        _answers(s, owner, [ACTIONS[REROLL], ACTIONS[ACCEPT]])
        return
    _fail("pending", f"not a question of this battle's side {side}")


def _fighters(s: BaseState, ship: int) -> tuple[int, int]:
    """The winner and the loser of the battle `ship` started (the spoils' context)."""
    winner, loser = _ctx(s, 2)
    if ship not in (winner, loser) or not (0 <= winner < s.ns and 0 <= loser < s.ns) or (
        winner == loser or s.pos[winner] != s.pos[loser]
    ):  # fmt: skip
        _fail("pending[2]", f"not a battle of ship {ship}")
    return winner, loser
