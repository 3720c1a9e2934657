"""`python -m jamaica.envs.spiel_nfsp --minutes 3`: OpenSpiel's Neural Fictitious Self-Play
(NFSP, `open_spiel.python.jax.nfsp`) trained on `python_jamaica`'s information state tensor, then
its average policy (and its best response) played against `random` and `greedy` (issue 27).

Of OpenSpiel 2.0.2's imperfect-information learners that read the information state tensor, NFSP
is the one that fits: it learns from sampled self-play episodes through `rl_environment` (JAX,
Flax NNX, Optax, and `chex`). Deep CFR (`open_spiel.python.jax.deep_cfr`) traverses every action
of the traversing player at each of their decisions: with ~70 decisions per player a game and up
to dozens of answers each, one traversal never ends. R-NaD is not in 2.0.2 (it needed Haiku),
ESCHER is PyTorch only (and traverses too). Exploitability is out of reach for all of them: it
needs the whole game tree.

The run (defaults): 2 players and the Ghost Ship (the smallest game), `max_rounds` 10 (a game
then ends at round 10 if no ship has finished: shorter episodes, more of them in a few minutes),
reward `rank` (+1 for the first ship, −1 for the last), one NFSP agent per seat (a Q-network for
the best response and an average-policy network, 256 × 256, Adam), trained for `--minutes` of
wall time or `--steps` environment steps. Then the average policy (what NFSP converges with) plays
`--games` games against each opponent, seats alternating, through `pyspiel.evaluate_bots` with
reward `win`: its mean share of wins (1 for a sole win, 1/k for one shared by k, 0 when the Ghost
Ship or the opponent wins), with a 95% Wilson interval, next to the same figure for the agents'
best responses (their Q-networks' greedy actions) and for `random` in the seat (what a policy that
learned nothing would get). Seeded: `--seed`. Prints a summary and
writes it as JSON with `--out FILE`.

Open_spiel 2.0.2's JAX NFSP has a defect this module works around: an agent whose first episode is
played with its average policy learns before it has any average-policy data and fails
(`len(None)`); `_NFSP` skips that learning step. Its JAX agents are slow on a CPU (a score of
eager JAX calls at every step: ~4 ms of CPU a step here, the first minute mostly compiling), so a
few minutes are some 20,000 steps, a few hundred games. The tensor is handed to the agents as
numpy arrays (a list of floats costs JAX ~2 ms to read).

What it learns in that time: nothing measurable. `--minutes 4 --seed 1` (19,428 steps, 251 games,
the shared 2-core machine under load, `nice -n 10`): against `random`, the average policy wins
34.8% (28.5–41.6%) of 200 games, its best response 30.8% (24.8–37.5%), `random` itself 34.2%
(28.0–41.1%); against `greedy` 11.0% (7.4–16.1%), 11.8% (8.0–16.9%) and 8.5% (5.4–13.2%). The
average policy's loss falls (0.63 to ~0.3: it imitates its best response), but a few hundred
games of a game this long are far too few for NFSP; the command is the way to run it longer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pyspiel

from . import openspiel  # noqa: F401  (registers python_jamaica)

OPPONENTS = ("random", "greedy")


@dataclass
class Settings:
    """The game and NFSP's hyperparameters."""

    players: int = 2
    edition: str = "2021"
    max_rounds: int = 10
    reward: str = "rank"  # what the agents learn from; evaluation counts wins
    hidden: tuple[int, ...] = (256, 256)
    replay_capacity: int = 20_000
    reservoir_capacity: int = 20_000
    anticipatory: float = 0.1
    batch_size: int = 128
    learn_every: int = 32
    min_buffer: int = 256
    rl_learning_rate: float = 1e-3
    sl_learning_rate: float = 1e-3
    optimizer: str = "adam"
    epsilon_start: float = 0.06
    epsilon_end: float = 0.001
    epsilon_decay: int = 50_000

    def params(self, reward: str | None = None) -> dict[str, Any]:
        return {"players": self.players, "edition": self.edition, "max_rounds": self.max_rounds,
                "reward": reward or self.reward}  # fmt: skip


@dataclass
class Training:
    """What a training run did."""

    steps: int = 0
    games: int = 0
    seconds: float = 0.0
    learned: int = 0  # average-policy updates (all agents)
    sl_loss: list[float] = field(default_factory=list)  # the average policy's loss, now and then
    rl_loss: list[float] = field(default_factory=list)


def _nfsp_class() -> Any:
    from open_spiel.python.jax import nfsp

    class _NFSP(nfsp.NFSP):  # type: ignore[misc]
        """OpenSpiel's NFSP, learning only once it has average-policy data (2.0.2 fails when
        an agent's first episode is played with its average policy)."""

        def _learn(self) -> Any:
            if self._reservoir_buffer is None:
                return None
            return super()._learn()

    return _NFSP


def make_agents(game: Any, settings: Settings, seed: int) -> list[Any]:
    size = game.information_state_tensor_size()
    actions = game.num_distinct_actions()
    cls = _nfsp_class()
    return [
        cls(
            p, size, actions, list(settings.hidden),
            reservoir_buffer_capacity=settings.reservoir_capacity,
            anticipatory_param=settings.anticipatory,
            batch_size=settings.batch_size,
            rl_learning_rate=settings.rl_learning_rate,
            sl_learning_rate=settings.sl_learning_rate,
            min_buffer_size_to_learn=settings.min_buffer,
            learn_every=settings.learn_every,
            optimizer_str=settings.optimizer,
            seed=seed * 100 + p,
            allow_checkpointing=False,
            replay_buffer_capacity=settings.replay_capacity,
            epsilon_start=settings.epsilon_start,
            epsilon_end=settings.epsilon_end,
            epsilon_decay_duration=settings.epsilon_decay,
        )
        for p in range(game.num_players())
    ]  # fmt: skip


def _as_arrays(time_step: Any) -> Any:
    """The time step with each information state tensor as a float32 numpy array."""
    time_step.observations["info_state"] = [
        np.asarray(x, np.float32) for x in time_step.observations["info_state"]
    ]
    return time_step


def train(
    settings: Settings,
    seed: int = 1,
    minutes: float | None = 3.0,
    steps: int | None = None,
    log: Any = None,
) -> tuple[list[Any], Training]:
    """Self-play through `rl_environment` with the information state tensor until `minutes` of
    wall time or `steps` environment steps (whichever comes first; a game in progress is
    finished)."""
    from open_spiel.python import rl_environment

    game = pyspiel.load_game("python_jamaica", settings.params())
    env = rl_environment.Environment(
        game,
        observation_type=rl_environment.ObservationType.INFORMATION_STATE,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed),  # (`seed=` was ignored)
    )
    agents = make_agents(game, settings, seed)
    done = Training()
    start = time.perf_counter()
    deadline = start + minutes * 60 if minutes is not None else None
    next_log = start + 30
    while (deadline is None or time.perf_counter() < deadline) and (
        steps is None or done.steps < steps
    ):
        time_step = _as_arrays(env.reset())
        while not time_step.last():
            player = time_step.observations["current_player"]
            output = agents[player].step(time_step)
            time_step = _as_arrays(env.step([int(output.action)]))
            done.steps += 1
        for agent in agents:  # every agent sees the end of the game
            agent.step(time_step)
        done.games += 1
        sl, rl = agents[0].loss
        if sl is not None:
            done.sl_loss.append(float(sl))
        if rl is not None:
            done.rl_loss.append(float(rl))
        now = time.perf_counter()
        if log is not None and now >= next_log:
            loss = done.sl_loss[-1] if done.sl_loss else float("nan")
            log(f"  {now - start:6.0f} s: {done.steps} steps, {done.games} games, "
                f"average-policy loss {loss:.3f}")  # fmt: skip
            next_log = now + 30
    done.seconds = time.perf_counter() - start
    done.learned = sum(a.step_counter // a._learn_every for a in agents)
    return agents, done


class NFSPBot(pyspiel.Bot):  # type: ignore[misc]
    """An NFSP agent as a `pyspiel.Bot`: its average policy (what NFSP converges with; its draws
    seeded by the agent's own JAX key) or, with `best_response`, its Q-network's greedy action.
    It reads the information state tensor."""

    def __init__(self, agent: Any, players: int, best_response: bool = False) -> None:
        super().__init__()
        self.agent = agent
        self.players = players
        self.best_response = best_response

    def step(self, state: Any) -> int:
        from open_spiel.python import rl_environment
        from open_spiel.python.jax import nfsp

        p = state.current_player()
        info: list[Any] = [None] * self.players
        legal: list[list[int]] = [[] for _ in range(self.players)]
        info[p] = np.asarray(state.information_state_tensor(p), np.float32)
        legal[p] = state.legal_actions(p)
        time_step = rl_environment.TimeStep(
            observations={"info_state": info, "legal_actions": legal, "current_player": p},
            rewards=None, discounts=None, step_type=rl_environment.StepType.MID,
        )  # fmt: skip
        mode = nfsp.MODE.BEST_RESPONSE if self.best_response else nfsp.MODE.AVERAGE_POLICY
        with self.agent.temp_mode_as(mode):
            action = int(self.agent.step(time_step, is_evaluation=True).action)
        if action not in legal[p]:
            raise AssertionError(f"NFSP chose {action}, not among {legal[p]}")
        return action

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False


def evaluate(
    agents: list[Any] | None,
    settings: Settings,
    opponent: str,
    games: int,
    seed: int,
    best_response: bool = False,
) -> dict[str, float]:
    """Heads-up (or one seat against `players − 1` opponents): the mean win share of the seat
    played by the agents' average policy (or their best response; None: by `random`, the
    baseline), seats rotating, with its 95% Wilson interval."""
    from ..lab.stats import wilson
    from .spiel_bots import spiel_bot

    game = pyspiel.load_game("python_jamaica", settings.params(reward="win"))
    n = settings.players
    total = 0.0
    for g in range(games):
        seat = g % n
        bots: list[Any] = [spiel_bot(opponent, seed=seed * 10_000 + g * n + p) for p in range(n)]
        if agents is None:
            bots[seat] = spiel_bot("random", seed=seed * 10_000 + g * n + seat + 7_777)
        else:
            bots[seat] = NFSPBot(agents[seat], n, best_response)
        total += pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 10_000 + g)[seat]
    low, high = wilson(total, games)
    return {"win_share": total / games, "low": low, "high": high, "games": float(games)}


def run(
    settings: Settings,
    seed: int,
    minutes: float | None,
    steps: int | None,
    games: int,
    log: Any = print,
) -> dict[str, Any]:
    """Train, then evaluate against each of `OPPONENTS` (and the random baseline's figures)."""
    agents, done = train(settings, seed, minutes, steps, log)
    report: dict[str, Any] = {"settings": asdict(settings), "seed": seed,
                              "training": asdict(done)}  # fmt: skip
    report["training"]["sl_loss"] = done.sl_loss[-5:]
    report["training"]["rl_loss"] = done.rl_loss[-5:]
    start = time.perf_counter()
    for opponent in OPPONENTS:
        report[f"nfsp vs {opponent}"] = evaluate(agents, settings, opponent, games, seed)
        report[f"best response vs {opponent}"] = evaluate(agents, settings, opponent, games,
                                                          seed, best_response=True)  # fmt: skip
        report[f"random vs {opponent}"] = evaluate(None, settings, opponent, games, seed)
    report["evaluation seconds"] = time.perf_counter() - start
    return report


def summary(report: dict[str, Any]) -> str:
    t = report["training"]
    s = report["settings"]
    lines = [
        f"NFSP on python_jamaica ({s['players']} players, edition {s['edition']}, "
        f"max_rounds {s['max_rounds']}, seed {report['seed']}): {t['steps']} steps, "
        f"{t['games']} games in {t['seconds']:.0f} s",
        f"  average-policy loss (last): {', '.join(f'{x:.3f}' for x in t['sl_loss']) or '-'}",
        "  win share (95% Wilson interval), seats alternating:",
    ]
    names = {"nfsp": "average policy", "best response": "best response", "random": "random"}
    for opponent in OPPONENTS:
        for who, name in names.items():
            r = report[f"{who} vs {opponent}"]
            interval = f"({r['low']:.1%}–{r['high']:.1%})"
            lines.append(f"    {name:14} vs {opponent:7} {r['win_share']:6.1%} {interval} "
                         f"over {int(r['games'])} games")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jamaica.envs.spiel_nfsp",
        description="OpenSpiel's NFSP on python_jamaica's information state tensor, then "
        "its average policy against random and greedy.",
    )
    parser.add_argument("--minutes", type=float, default=3.0, help="wall time to train (3)")
    parser.add_argument("--steps", type=int, default=None, help="or a number of steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--max-rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--anticipatory", type=float, default=Settings.anticipatory,
                        help="NFSP's share of best-response episodes (0.1)")
    parser.add_argument("--hidden", default="256,256", help="hidden layers (256,256)")
    parser.add_argument("--learn-every", type=int, default=Settings.learn_every,
                        help="steps between two updates of each network (32)")
    parser.add_argument("--min-buffer", type=int, default=Settings.min_buffer,
                        help="transitions before the networks learn (256)")
    parser.add_argument("--batch-size", type=int, default=Settings.batch_size)  # fmt: skip
    parser.add_argument("--out", default=None, help="write the report as JSON here")
    ns = parser.parse_args(argv)
    # One thread for XLA: the networks are small, and the machine is shared.
    os.environ.setdefault(
        "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )
    settings = Settings(
        players=ns.players,
        max_rounds=ns.max_rounds,
        anticipatory=ns.anticipatory,
        hidden=tuple(int(h) for h in ns.hidden.split(",")),
        learn_every=ns.learn_every,
        min_buffer=ns.min_buffer,
        batch_size=ns.batch_size,
    )
    print(f"training NFSP for {ns.minutes} min" + (f" or {ns.steps} steps" if ns.steps else ""))
    report = run(settings, ns.seed, ns.minutes, ns.steps, ns.games)
    print(summary(report))
    if ns.out:
        with open(ns.out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
