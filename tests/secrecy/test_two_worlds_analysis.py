"""The two-worlds test of the post-game analysis (issue 28): the analysis of player P's decision
sees only what P saw then. Two games P cannot tell apart — at every question of P, a second
world with everything hidden from P re-dealt (`worlds.other_world`), and whole games whose hidden
draws differ — give P the same analysis: the same values, marks, labels and sentences, in English
and in French. And the converse, so the test can fail: change what P sees (their own hand), and
the verdict changes."""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise

import pytest

from jamaica import Action, Config, State
from jamaica.analysis.core import (
    analyse_game,
    analysed,
    judge,
    judge_payment,
    payment_plans,
    payment_run,
)
from jamaica.analysis.words import labels, render, say_verdict
from jamaica.bots import GreedyBot
from jamaica.i18n import Words
from jamaica.rules import new_game
from jamaica.rules.driver import play_game

from .worlds import other_world

ITERATIONS = 24
CONFIGS = [Config(players=2, max_rounds=4), Config(players=3, edition="classic", max_rounds=3),
           Config(players=4, ghost_ship=True, max_rounds=3),
           Config(players=6, max_rounds=2)]  # fmt: skip


@cache
def history(config: Config, seed: int) -> tuple[int, ...]:
    players = [GreedyBot(seed * 10 + i) for i in range(config.players)]
    return tuple(play_game(config, players, seed=seed).actions)


def said(s: State, p: int, chosen: int, step: int, run: tuple[int, ...] = ()) -> list[object]:
    """Everything the analysis tells P of this question (a payment: of the way P paid, `run`)."""
    if run:
        v = judge_payment(s, p, run, step, ITERATIONS, seed=5)
        assert v is not None
    else:
        v = judge(s, p, chosen, step, ITERATIONS, seed=5)
    out: list[object] = [v]
    for lang in ("en", "fr"):
        words = labels(s, None, lang, run)
        out += [words, say_verdict(v, words, Words(lang))]
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.edition}")
def test_a_question_judged_in_two_worlds_p_cannot_tell_apart(config: Config) -> None:
    rng = random.Random(config.players)
    s = new_game(config)
    compared = changed = 0
    actions = history(config, 1)
    until = -1  # a payment's later answers: judged with its first
    for step, action in enumerate(actions):
        p = s.current_player()
        paying = step > until and p >= 0 and analysed(s, p) and s.decision_kind() == "pay"
        run = payment_run(s, actions, step) if paying else ()
        until = step + len(run) - 1 if run else until
        if run and len(payment_plans(s, run)) < 2:
            pass  # one way left to pay: no verdict
        elif run or (step > until and p >= 0 and analysed(s, p) and step % 3 == 0):
            w = other_world(s, p, rng)
            assert said(s, p, action, step, run) == said(w, p, action, step, run)
            compared += 1
            PAYMENTS[config] = PAYMENTS.get(config, 0) + bool(run)
            if s.decision_kind() == "card":  # the converse: P's own hand re-dealt too
                u = other_world(s, None, rng)
                if sorted(u.legal) != sorted(s.legal):
                    assert judge(u, p, int(u.legal[0]), step, ITERATIONS, 5) != judge(
                        s, p, int(u.legal[0]), step, ITERATIONS, 5)  # fmt: skip
                    changed += 1
        s.apply(action)
    assert compared >= 5 and changed >= 1, (compared, changed)


PAYMENTS: dict[Config, int] = {}  # payments judged in two worlds, per table


def test_payments_were_judged_in_two_worlds() -> None:
    """The payments — one verdict over every way to pay — are among the questions compared."""
    for config in CONFIGS:
        if config not in PAYMENTS:
            test_a_question_judged_in_two_worlds_p_cannot_tell_apart(config)
    assert sum(PAYMENTS.values()) >= 2, PAYMENTS


def _draws(config: Config, actions: tuple[int, ...]) -> tuple[dict[int, list[tuple[int, str]]],
                                                               dict[int, set[str]]]:  # fmt: skip
    """Per player, the cards they drew (step, card), and the cards they played."""
    s = new_game(config, log=False)
    drew: dict[int, list[tuple[int, str]]] = {q: [] for q in range(config.players)}
    played: dict[int, set[str]] = {q: set() for q in range(config.players)}
    for step, a in enumerate(actions):
        kind = s.decision_kind()
        text = str(Action.from_id(a))
        if kind == "draw_card":
            assert s.q is not None
            drew[s.q[2][0]].append((step, text.split()[1]))
        elif kind == "card":
            played[s.current_player()].add(text.split()[1])
        s.apply(a)
    return drew, played


def swapped(config: Config, actions: tuple[int, ...], q: int) -> tuple[int, ...] | None:
    """The same game with two of player q's draws swapped — two cards q never played, so q's
    hand differs between the two draws and no one else can tell — or None if there are none."""
    drew, played = _draws(config, actions)
    kept = [(step, card) for step, card in drew[q] if card not in played[q]]
    for (i, x), (j, y) in pairwise(kept):
        if x != y:
            out = list(actions)
            out[i], out[j] = int(Action.parse(f"draw {y}")), int(Action.parse(f"draw {x}"))
            return tuple(out)
    return None


def views(config: Config, actions: tuple[int, ...], p: int) -> list[object]:
    """What P is shown at each of their questions (the game replayed: an illegal step raises)."""
    s = new_game(config)
    out: list[object] = []
    for a in actions:
        if s.current_player() == p:
            out.append(s.view(p))
        s.apply(a)
    return out


@pytest.mark.parametrize("config", CONFIGS[:3], ids=lambda c: f"{c.players}p-{c.edition}")
def test_two_whole_games_p_cannot_tell_apart_give_p_the_same_analysis(config: Config) -> None:
    done = 0
    for seed in range(1, 8):
        actions = history(config, seed)
        other = swapped(config, actions, 1)
        if other is None:
            continue
        assert views(config, actions, 0) == views(config, other, 0)  # P=0 cannot tell
        assert views(config, actions, 1) != views(config, other, 1)  # q=1 can
        a = analyse_game(config, actions, 0, iterations=ITERATIONS, seed=3)
        b = analyse_game(config, other, 0, iterations=ITERATIONS, seed=3)
        assert a == b and a.verdicts
        names = [f"ship {k}" for k in range(config.ships)]
        for lang in ("en", "fr"):
            assert render(a, config, actions, names, lang) == render(b, config, other, names, lang)
        done += 1
        if done == 3:
            break
    assert done >= 1, "no game had two draws to swap"
