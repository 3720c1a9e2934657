"""Games for the trainer, played through the engine directly (no environment wrapper): the
teacher's games for behaviour cloning, the learner's games for PPO, and duels for the curve.

Everything here is numpy: the learner plays with `DeepPolicy`, the numpy copy of its network.
A decision is kept only where there is a choice (more than one legal action). Its record is the
features, the output rows of the legal actions, the row chosen, and for the learner the
log-probability and value it had; a trajectory's reward is the "rank" return of
`jamaica.envs.vocabulary.returns` (+1 first, −1 last, the Ghost Ship counted), given at the end.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ...bots import make_bot
from ...bots.deep import DeepBot
from ...envs.vocabulary import returns
from ...rules import CHANCE, Agent, Config, State, new_game, play_game
from ...rules.actions import NUM_PLAYER_ACTIONS
from ..deep import DeepPolicy, probabilities
from ..features import FEATURES, features, outputs

SELF = "self"
# Player counts drawn per game: heads-up (the target, and the cheapest game: one opponent to
# run) three times in four, 3 to 6 players the rest, so the one network plays every count.
PLAYER_MIX: tuple[int, ...] = (2,) * 12 + (3, 4, 5, 6)


@dataclass
class Trajectory:
    """One player's decisions in one game."""

    xs: list[np.ndarray] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    picks: list[int] = field(default_factory=list)  # the output row chosen
    logps: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    reward: float = 0.0
    win: float = 0.0  # the player's share of the victory


@dataclass
class Batch:
    """Decisions as arrays: x (N, FEATURES), mask (N, NUM_PLAYER_ACTIONS), action (N,) …"""

    x: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    advantage: np.ndarray
    ret: np.ndarray

    def __len__(self) -> int:
        return len(self.action)


def gae(values: Sequence[float], reward: float, lam: float) -> np.ndarray:
    """Generalized advantage estimates (γ = 1, the reward at the end of the trajectory)."""
    v = np.asarray(values, np.float32)
    nxt = np.append(v[1:], np.float32(reward))
    delta = nxt - v
    adv = np.zeros_like(v)
    acc = 0.0
    for t in range(len(v) - 1, -1, -1):
        acc = float(delta[t]) + lam * acc
        adv[t] = acc
    return adv


def to_batch(trajectories: Sequence[Trajectory], lam: float = 0.95) -> Batch:
    n = sum(len(t.picks) for t in trajectories)
    x = np.zeros((n, FEATURES), np.float32)
    mask = np.zeros((n, NUM_PLAYER_ACTIONS), bool)
    action = np.zeros(n, np.int32)
    logp, value, adv, ret = (np.zeros(n, np.float32) for _ in range(4))
    i = 0
    for t in trajectories:
        k = len(t.picks)
        if not k:
            continue
        x[i : i + k] = np.stack(t.xs)
        for j, rows in enumerate(t.rows):
            mask[i + j, rows] = True
        action[i : i + k] = t.picks
        logp[i : i + k] = t.logps if t.logps else 0.0
        if t.values:
            value[i : i + k] = t.values
            adv[i : i + k] = gae(t.values, t.reward, lam)
            ret[i : i + k] = adv[i : i + k] + value[i : i + k]
        else:  # the teacher's games: the value is fitted to the return itself
            ret[i : i + k] = t.reward
        i += k
    return Batch(x, mask, action, logp, value, adv, ret)


def _decide(state: State, who: int, trajectory: Trajectory, pick: Callable[[list[int]], int]
            ) -> None:  # fmt: skip
    """Record the question's features and rows, let `pick` choose a row, apply its action."""
    x = features(state.view(who))
    rows = outputs(state, who)
    trajectory.xs.append(x)
    trajectory.rows.append(rows)
    row = pick(rows)
    trajectory.picks.append(row)
    state.apply(state.legal[rows.index(row)])


def _nth(i: int, rows: list[int]) -> int:
    return rows[i]


def teacher_game(spec: str, config: Config, rng: random.Random) -> list[Trajectory]:
    """A game of `spec` in every seat; every seat's decisions (the teacher's labels)."""
    bots = [make_bot(spec, rng.getrandbits(32)) for _ in range(config.players)]
    s = new_game(config, log=False)
    out = [Trajectory() for _ in range(config.players)]
    while not s.is_terminal():
        who = s.current_player()
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
        elif len(s.legal) == 1:
            s.apply(s.legal[0])
        else:
            index = s.legal.index(bots[who].act(s, who))
            _decide(s, who, out[who], partial(_nth, index))
    for t, r in zip(out, returns(s, "rank"), strict=True):
        t.reward = r
    return out


def learner_game(
    policy: DeepPolicy, config: Config, seat: int, opponents: dict[int, Agent],
    rng: random.Random,
) -> Trajectory:  # fmt: skip
    """A game of the learner at `seat` (sampling from `policy`) against `opponents`."""
    s = new_game(config, log=False)
    t = Trajectory()

    def pick(rows: list[int]) -> int:
        logits, value = policy.forward(t.xs[-1])
        p = probabilities(logits, rows)
        i = min(int(np.searchsorted(np.cumsum(p), rng.random())), len(rows) - 1)
        t.logps.append(float(np.log(max(p[i], 1e-12))))
        t.values.append(float(value))
        return rows[i]

    while not s.is_terminal():
        who = s.current_player()
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
        elif who != seat:
            s.apply(opponents[who].act(s, who))
        elif len(s.legal) == 1:
            s.apply(s.legal[0])
        else:
            _decide(s, who, t, pick)
    t.reward = returns(s, "rank")[seat]
    winners = s.winners()
    t.win = 1.0 / len(winners) if seat in winners else 0.0
    return t


def opponents_for(
    spec: str, config: Config, seat: int, pool: Sequence[DeepPolicy], rng: random.Random
) -> dict[int, Agent]:
    """An opponent of `spec` in every seat but `seat` (`self`: a past learner from `pool`)."""
    bots: dict[int, Agent] = {}
    for p in range(config.players):
        if p != seat:
            seed = rng.getrandbits(32)
            bots[p] = (DeepBot(seed, rng.choice(pool), sample=True) if spec == SELF
                       else make_bot(spec, seed))  # fmt: skip
    return bots


def duel(
    policy: DeepPolicy, spec: str, games: int, seed: int, deadline: float = math.inf
) -> tuple[float, int]:
    """The learner's share of wins (greedy play) against `spec` heads-up, over `games` games on
    fresh seeds, its seat alternating; stops early (after two games at least) once
    `time.perf_counter()` passes `deadline`. Returns the share and the games played."""
    wins = 0.0
    played = 0
    for k in range(games):
        if played >= 2 and time.perf_counter() > deadline:
            break
        seat = k % 2
        game_seed = (seed * 1_000_003 + k * 7_919) % 2**31
        agents: list[Agent] = [make_bot(spec, game_seed * 10 + p) for p in range(2)]
        agents[seat] = DeepBot(game_seed, policy)
        finals: list[State] = []
        play_game(Config(players=2), agents, game_seed, final_state=finals)
        winners = finals[0].winners()
        wins += 1.0 / len(winners) if seat in winners else 0.0
        played += 1
    return wins / played, played
