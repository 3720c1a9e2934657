"""The engine's machinery: task and decision codes, their handler tables, and the helpers that
ask a question or log an event.

The game's flow is a stack of small tasks (plain tuples of ints, so a state clones and serializes
cheaply). Running the stack either finishes the game or stops at one question: a decision of a
player (`kind`, the deciding player, a context tuple, the legal actions) or a chance event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from .actions import Action

if TYPE_CHECKING:
    from .base import BaseState

CHANCE: Final = -1
TERMINAL: Final = -4

# An event's audience is a bit mask of players; PUBLIC marks an event everyone may see, spectators
# included (ruling R16: public is a property of the event, never "every player is in the audience").
PUBLIC_BIT: Final = 8
PUBLIC: Final = 1 << PUBLIC_BIT

# --- tasks ---------------------------------------------------------------------------------------
(
    T_ROUND,
    T_CHOOSE,
    T_TURN,
    T_ACTION,
    T_ARRIVE,
    T_SETTLE,
    T_PAY,
    T_LOAD,
    T_SHORTAGE,
    T_POWDER,
    T_ROLL,
    T_SABRE,
    T_CHECK,
    T_SPOILS,
    T_GHOST,
    T_ROUND_END,
    T_DRAW,
    T_TREASURE,
    T_FIRST_CAPTAIN,
    T_CARD_END,
) = range(20)
TASK_NAMES: Final = (
    "round",
    "choose",
    "turn",
    "action",
    "arrive",
    "settle",
    "pay",
    "load",
    "shortage",
    "powder",
    "roll",
    "sabre",
    "check",
    "spoils",
    "ghost",
    "round_end",
    "draw",
    "treasure",
    "first_captain",
    "card_end",
)

# --- decisions (player) and chance events --------------------------------------------------------
(
    K_MORNING,
    K_PLAY,
    K_MOVE,
    K_LOAD,
    K_PAY,
    K_ATTACK,
    K_POWDER,
    K_SABRE,
    K_SPOILS,
    C_ROLL,
    C_DIE,
    C_DRAW,
    C_TREASURE,
    C_BLIND,
    C_CAPTAIN,
) = range(15)
KIND_NAMES: Final = (
    "dice_order",
    "card",
    "move",
    "load",
    "pay",
    "attack",
    "powder",
    "sabre",
    "spoils",
    "roll_dice",
    "combat_die",
    "draw_card",
    "draw_treasure",
    "blind_steal",
    "first_captain",
)

# Movement modes: what happens after a ship arrives.
M_NORMAL: Final = 0  # pay the space (a lair gives its treasure)
M_GHOST: Final = 1  # the Ghost Ship never pays
M_FALLBACK_2021: Final = 2  # RULES §7.2: never paid
M_FALLBACK_CLASSIC: Final = 3  # RULES §7.1: paid; a new shortage if it can't be

Task = tuple[int, ...]
TaskHandler = Callable[["BaseState", Task], None]
DecisionHandler = Callable[["BaseState", tuple[Any, ...], Action], None]

TASKS: list[TaskHandler] = [None] * len(TASK_NAMES)  # type: ignore[list-item]
DECIDE: list[DecisionHandler] = [None] * len(KIND_NAMES)  # type: ignore[list-item]


def task(code: int) -> Callable[[TaskHandler], TaskHandler]:
    def register(fn: TaskHandler) -> TaskHandler:
        TASKS[code] = fn
        return fn

    return register


def decision(code: int) -> Callable[[DecisionHandler], DecisionHandler]:
    def register(fn: DecisionHandler) -> DecisionHandler:
        DECIDE[code] = fn
        return fn

    return register


def ask(
    s: BaseState,
    kind: int,
    actor: int,
    ctx: tuple[Any, ...],
    legal: list[Action],
    *,
    always: bool = False,
) -> None:
    """Pose a question; a question with a single legal answer is answered at once, unless
    `always`: whether a question is asked must depend only on public information (R16), so a
    question whose answers depend on the decider's secrets is asked even when only one is left."""
    if len(legal) == 1 and not always:
        DECIDE[kind](s, ctx, legal[0])
    else:
        s.q = (kind, actor, ctx)
        s.legal = legal
        s.probs = None


def chance(
    s: BaseState, kind: int, ctx: tuple[Any, ...], legal: list[Action], probs: list[float] | None
) -> None:
    """A chance event; `probs=None` means uniform. A certain outcome is applied at once."""
    if len(legal) == 1:
        DECIDE[kind](s, ctx, legal[0])
    else:
        s.q = (kind, CHANCE, ctx)
        s.legal = legal
        s.probs = probs


def ev(s: BaseState, audience: int, code: int, *args: int) -> None:
    """Log an event seen by the players in the `audience` bit mask (`s.all` for a public event:
    every player and the PUBLIC mark)."""
    if s.events is not None:
        s.events.append((audience, code, *args))


def run(s: BaseState) -> None:
    """Work through the task stack until a question is pending or the game is over."""
    stack = s.stack
    tasks = TASKS
    while s.q is None:
        if not stack:
            stack.append((T_ROUND,))
        t = stack.pop()
        tasks[t[0]](s, t)


def push_all(s: BaseState, tasks: Sequence[Task]) -> None:
    """Schedule tasks to run in the given order."""
    s.stack.extend(reversed(tasks))
