"""The "two worlds" test (issue 9): the project's systematic defence against leaks.

Over random games of every configuration (2–6 players, both editions, Ghost Ship on and off), at
many decision points and for every player p and the spectator, a second world that p cannot tell
from the first is built (`worlds.other_world`: hands, draw piles, chosen cards, unknown face-down
values and the treasure pile re-dealt; private events p cannot see rewritten), and everything p
receives must be identical in both:

- `view(p)`, `events_for(p)` (and the events in French), which question is pending and who must
  answer it, p's legal answers, the question in words with its hints, in English and in French;
- `resample(p, rng)` for the same rng (a bot's determinization is a function of p's information);
- the PettingZoo observation (also the fixed-size seat-relative one with its relative mask) and
  the OpenSpiel observation strings, tensors and information state (its string and its tensor,
  issue 27; and the string and tensor of every observer);
- one step on: the game's next answer, mirrored in the second world, must give p the same again
  (so whether a question is asked, and of whom, cannot depend on a secret), unless that step shows
  p a value the second world was free to deal differently (a card revealed, a treasure seen).

And the converse, so the test can fail: change something p does see, and p's output changes.
Every event's audience is checked against the rules (`worlds.PRIVATE_EVENTS`), and the public
classes of face-down cards against a replay of the public events (R15, R16).

The number of decision points and comparisons is printed (`pytest -s`); see the README.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.envs.encoding import encode_fixed
from jamaica.envs.jamaica_v0 import raw_env
from jamaica.envs.openspiel import _SEEN_SHIFT as SEEN_SHIFT
from jamaica.envs.openspiel import JamaicaState
from jamaica.envs.relative import legal_mask_relative
from jamaica.i18n import translations
from jamaica.i18n.events import describe as describe_in
from jamaica.rules.events import (
    E_FACE_DOWN_SEEN,
    E_GIVE_SEEN,
    E_POWER,
    E_REVEAL,
    E_STEAL_SEEN,
)
from jamaica.rules.hints import card_preview, move_hints, pay_plans
from jamaica.rules.ops import PUBLIC_BIT
from jamaica.rules.phrases import ENGLISH
from jamaica.rules.view import can_see

from ..rules.strategies import ALL_CONFIGS
from ..soak import soak
from .worlds import (
    Classes,
    answer_audience,
    check_audiences,
    check_classes,
    check_knowledge,
    other_world,
    sees,
)

FRENCH = translations("fr")
GAMES = int(os.environ.get("JAMAICA_TWO_WORLDS_GAMES", "1"))  # per configuration
# Every decision point is stepped on in both worlds (for the observers of `observers`); every 6th
# is also compared at rest (every one with JAMAICA_TWO_WORLDS_EVERY=1), and every 60th with whole
# event logs and determinizations.
EVERY = int(os.environ.get("JAMAICA_TWO_WORLDS_EVERY", "6"))
FULL_LOG_EVERY = 10
# Which observers are checked at a decision point: by default the spectator, the player who
# answers and one more player in turn (every player every n points), and every observer at the
# points with whole event logs; every observer at every point with JAMAICA_SOAK=1.
EVERY_OBSERVER = soak(False, True)
PUBLIC_KINDS = {"dice_order", "move", "load", "pay", "attack", "powder", "sabre", "roll_dice",
                "combat_die", "first_captain"}  # fmt: skip
REVEALING = {E_REVEAL, E_POWER, E_FACE_DOWN_SEEN, E_STEAL_SEEN, E_GIVE_SEEN}

SINGLE, NONE = pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE
STATS: Counter[str] = Counter()


def said(s: State, p: int | None, events: bool = True) -> list[Any]:
    """What the engine tells p now (the events: only those logged in `s`, see `fresh`)."""
    who = s.current_player()
    out: list[Any] = [s.view(p), s.events_for(p) if events else None, s.decision_kind(), who]
    if events:  # and in French (issue 26: a translation must not add information)
        out.append([describe_in(e, s.n, None, "fr") for e in s.events or () if can_see(e[0], p)])
    if p is not None and who == p:
        out.append(s.legal_actions())
        for t in (ENGLISH, FRENCH):  # the question in words, with its hints
            d = s.pending(None, t)
            out.append((d.prompt, d.options, d.context))
            kind = s.decision_kind()
            if kind == "card":
                out.append(card_preview(s, p, t))
            elif kind == "move":
                out.append(move_hints(s, t))
            elif kind == "pay":
                out.append(pay_plans(s, t=t))
    return out


def fresh(s: State) -> State:
    """A copy whose event log starts empty: after one step it holds just that step's events."""
    c = s.clone(log=False)
    c.events = []
    return c


class Envs:
    """The research environments' outputs for an engine state (and, for OpenSpiel, the answers
    it recorded: see `Envs.recorded`)."""

    def __init__(self, config: Config) -> None:
        self.pz = raw_env(players=config.players, edition=config.edition,
                          ghost_ship=config.ghost_ship)  # fmt: skip
        ghost = {None: "auto", True: "on", False: "off"}[config.ghost_ship]
        edition = "modern" if config.edition == "2021" else "classic"
        params = {"players": config.players, "edition": edition, "ghost_ship": ghost}
        self.game = pyspiel.load_game("python_jamaica", params)
        kinds = [pyspiel.IIGObservationType(perfect_recall=r, private_info=i)
                 for r in (False, True) for i in (SINGLE, NONE)]  # fmt: skip
        self.observers = [self.game.make_py_observer(k) for k in kinds]
        self.answers: list[int] = []  # the OpenSpiel state's record of the real game

    def observe(self, s: State, p: int) -> list[bytes]:
        self.pz.game = s
        obs = self.pz.observe(self.pz.possible_agents[p])
        return [np.asarray(obs["observation"]).tobytes(), np.asarray(obs["action_mask"]).tobytes(),
                encode_fixed(s, p).tobytes(), legal_mask_relative(s, p).tobytes()]  # fmt: skip

    def openspiel(self, s: State, p: int, answers: list[int]) -> list[Any]:
        state = JamaicaState(self.game, s, answers)
        out: list[Any] = [state.observation_string(p), state.information_state_string(p),
                          list(state.observation_tensor(p)),
                          state.information_state_tensor(p)]  # fmt: skip
        for observer in self.observers:
            out.append(observer.string_from(state, p))
            if observer.tensor is not None:
                observer.set_from(state, p)
                out.append(observer.tensor.tobytes())
        return out

    def hidden_answers(self, p: int | None, rng: random.Random) -> list[int]:
        """The recorded answers with those p may not see replaced by random ones."""
        bit = SEEN_SHIFT + (PUBLIC_BIT if p is None else p)
        return [r if r >> bit & 1 else (r & ~0xFF) | rng.randrange(206) for r in self.answers]


def compare(
    s: State, p: int | None, rng: random.Random, envs: Envs, full: bool, classes: Classes
) -> None:
    if full:
        w = other_world(s, p, rng, classes=classes)
    else:  # the same world with its event log left out: the log is compared when `full`
        c = s.clone(log=False)
        w = other_world(c, p, rng, classes=classes)
    assert said(s, p, full) == said(w, p, full)
    STATS["comparisons"] += 1
    if p is None:
        return
    assert envs.observe(s, p) == envs.observe(w, p)
    if full:
        mine, other = envs.answers, envs.hidden_answers(p, rng)
        assert envs.openspiel(s, p, mine) == envs.openspiel(w, p, other)
        STATS["OpenSpiel comparisons"] += 1
    STATS["environment comparisons"] += 1
    if full:
        a, b = s.resample(p, random.Random(7)), w.resample(p, random.Random(7))
        assert a.to_dict() == b.to_dict(), "resample knows what the player does not"
        STATS["resample comparisons"] += 1


def step_on(s: State, a1: Any, p: int | None, rng: random.Random, classes: Classes) -> None:
    """One step in both worlds: the game's answer here, and its mirror in the other world."""
    w = other_world(s.clone(log=False), p, rng, keep_chosen=True, classes=classes)
    s1 = fresh(s)
    s1.apply(a1)
    target = said(s1, p)
    kind, who = s.decision_kind(), s.current_player()
    give = str(a1).startswith("give")
    if who == p or kind in PUBLIC_KINDS or (kind == "spoils" and not give):
        assert a1 in w.legal, f"{a1} ({kind}) is legal in one world only"
        candidates = [a1]
    else:
        candidates = sorted(w.legal, key=lambda a: a != a1)
    for a2 in candidates:
        w1 = fresh(w)
        w1.apply(a2)
        if said(w1, p) == target:
            STATS["steps mirrored"] += 1
            return
    shown = [e for e in s1.events or [] if sees(e[0], p) and e[1] in REVEALING]
    # Also legitimately different: a card stolen from the Ghost Ship shows whether it is a power.
    stealing = kind == "blind_steal" or str(a1) == "steal blind"
    from_ghost = stealing and s.q is not None and s.q[2][1] == s.gh
    shown = shown or give or from_ghost or s1.is_terminal()
    assert shown, f"{kind} {a1}: {p} can tell the worlds apart"
    STATS["steps that showed a dealt value"] += 1


def converse(s: State, p: int | None, envs: Envs) -> None:
    """A change p can see changes what p receives."""
    c = s.clone()
    c.pos[0] = (c.pos[0] + 1) % 50  # a ship on another space: public
    assert c.view(p) != s.view(p)
    if p is not None and s.hand[p] and s.drawp[p]:
        c = s.clone()
        mine, other = s.hand[p] & -s.hand[p], s.drawp[p] & -s.drawp[p]
        c.hand[p] ^= mine | other
        c.drawp[p] ^= mine | other
        assert c.view(p) != s.view(p)
        assert envs.observe(c, p) != envs.observe(s, p)
    STATS["converse checks"] += 1


def observers(s: State, step: int, every: bool) -> list[int | None]:
    """The spectator and the players checked at this decision point (see EVERY_OBSERVER)."""
    if every:
        return [None, *range(s.n)]
    who = s.current_player()
    return [None, *sorted({step % s.n} | ({who} if who >= 0 else set()))]


def play(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    envs = Envs(config)
    s = new_game(config)
    step = 0
    spiel = JamaicaState(envs.game, s)  # records the answers as OpenSpiel sees them
    envs.answers = spiel.answers
    while not s.is_terminal():
        a = s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal)
        audience = answer_audience(s, a)
        STATS["decision points"] += 1
        classes = check_classes(s)
        look = step % EVERY == 0
        full = step % (EVERY * FULL_LOG_EVERY) == 0
        for p in observers(s, step, EVERY_OBSERVER or full):
            step_on(s, a, p, rng, classes)
            if p is not None and full:
                check_knowledge(s, p)
            if look:
                compare(s, p, rng, envs, full, classes)
                converse(s, p, envs)
        spiel.apply_action(int(a))  # applies `a` to `s`
        seen = envs.answers[-1] >> SEEN_SHIFT & 0x1FF
        assert seen == audience, f"{a}: OpenSpiel says {seen:b} see it, the rules {audience:b}"
        step += 1
    check_audiences(s)
    check_classes(s)
    STATS["games"] += 1


@pytest.mark.soak
def test_two_worlds() -> None:
    """Every configuration; prints how much was compared (the README quotes it)."""
    STATS.clear()
    for config in ALL_CONFIGS:
        for g in range(GAMES):
            play(config, 1000 * g + ALL_CONFIGS.index(config))
    print("\ntwo worlds:", ", ".join(f"{v} {k}" for k, v in STATS.items()))
    assert STATS["games"] == len(ALL_CONFIGS) * GAMES
    assert STATS["decision points"] > 1000 and STATS["steps that showed a dealt value"] > 0
    # every decision point is stepped on for at least the spectator and one player
    stepped = STATS["steps mirrored"] + STATS["steps that showed a dealt value"]
    assert stepped >= 2 * STATS["decision points"], STATS
