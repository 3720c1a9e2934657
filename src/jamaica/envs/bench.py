"""`python -m jamaica.envs.bench`: the research environments' speed, as ratios of things timed
interleaved in one process (so a busy machine slows both sides alike).

- OpenSpiel `clone()` against the engine's `State.clone()` at decisions 50 and 200;
- the information state string, the observation tensor and the encoder alone, in µs;
- PettingZoo random-play steps/s, and OpenSpiel random-play steps/s with today's clone against a
  clone that deep-copies every attribute (what pyspiel did with the old state's attributes).

`--against-commit REV` times PettingZoo against the code of an earlier commit, checked out from
git and imported beside this checkout in the same process (`bench_versions`: the way to compare
with an earlier version, engine included; e.g. 1fe44fe, the commit before the research issue),
the bare `raw_env`, or with `--wrapped` the wrapped `jamaica_v0.env()`;
`--playthrough [FILE]` writes OpenSpiel's playthrough instead, to FILE or by default to the
source checkout's tests/envs/playthroughs/python_jamaica.txt (found from this module's place, not
from the current directory; without a checkout FILE is needed), and says where;
`--ismcts-game` plays one heads-up game of OpenSpiel's `ISMCTSBot` at 1,000 simulations per move
against `greedy` and times it (minutes);
`--infostate` times the information state tensor (`envs/infostate.py`, issue 27: ≤ 50 µs a call)
for 2, 4 and 6 players: a state read again (its counts already up to date), the same through
pyspiel's C++ path (the observer), every player's tensor after every action of random games (what
OpenSpiel's `rl_environment` asks; the counts extended as the game goes), and a state built from
its engine and answers alone (the counts read from the whole log: the worst case).
"""

from __future__ import annotations

import copy
import random
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pyspiel

from ..rules import CHANCE
from . import jamaica_v0
from .bench_versions import compare, random_steps
from .encoding import encode
from .openspiel import JamaicaState


def _best(
    fn: Callable[[], Any],
    number: int,
    repeat: int = 5,
    timer: Callable[[], float] = time.perf_counter,
) -> float:
    """Seconds per call: the best of `repeat` runs (timed by `timer`)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=timer)) / number


def _at_decision(game: Any, decisions: int, seed: int) -> JamaicaState:
    state: JamaicaState = game.new_initial_state()
    rng = random.Random(seed)
    done = 0
    while done < decisions or state.is_chance_node():
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return state


def _old_clone(state: JamaicaState) -> Any:
    """What pyspiel's clone cost before: every attribute deep-copied (the engine and its log)."""
    core = state._core
    return copy.deepcopy([core.engine, core.answers], {})


def _pettingzoo_steps(steps: int, seed: int, rounds: int = 5) -> float:
    """Random play's steps/s (observe + step, 4 players): the best of `rounds` runs of `steps`."""
    env = jamaica_v0.raw_env(players=4)
    env.reset(seed=seed)
    return steps / min(timeit.repeat(random_steps(env, steps, random.Random(seed)), number=1,
                                     repeat=rounds))  # fmt: skip


def _openspiel_steps(old: bool, steps: int, seed: int) -> float:
    """Random play that clones the state before every action (as a search does)."""
    game = pyspiel.load_game("python_jamaica", {"players": 4})
    rng = random.Random(seed)

    def run() -> None:
        state = game.new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                state = game.new_initial_state()
            _old_clone(state) if old else state.clone()
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return steps / _best(run, 1, 3)


def figures(seed: int = 1) -> dict[str, float]:
    game = pyspiel.load_game("python_jamaica", {"players": 4})
    out: dict[str, float] = {}
    for decisions in (50, 200):
        state = _at_decision(game, decisions, seed)
        engine = state._core.engine
        state.information_state_string(0)  # read the recall once, as a search does
        pyspiel_clone = _best(state.clone, 300)
        engine_clone = _best(engine.clone, 300)
        old = _best(lambda s=state: _old_clone(s), 30)  # type: ignore[misc]
        out[f"clone ratio @{decisions}"] = pyspiel_clone / engine_clone
        out[f"old clone ratio @{decisions}"] = old / engine_clone
        p = engine.current_player() if engine.current_player() != CHANCE else 0
        out[f"info state string µs @{decisions}"] = (
            _best(lambda s=state, q=p: s.information_state_string(q), 300) * 1e6  # type: ignore[misc]
        )
        out[f"observation tensor µs @{decisions}"] = (
            _best(lambda s=state, q=p: s.observation_tensor(q), 300) * 1e6  # type: ignore[misc]
        )
        out[f"  of which the encoder µs @{decisions}"] = (
            _best(lambda s=engine, q=p: encode(s, q), 300) * 1e6  # type: ignore[misc]
        )
        out[f"information state tensor µs @{decisions}"] = (
            _best(lambda s=state, q=p: s.information_state_tensor(q), 300) * 1e6  # type: ignore[misc]
        )
    out["PettingZoo steps/s"] = _pettingzoo_steps(2000, seed)
    new_os, old_os = _openspiel_steps(False, 2000, seed), _openspiel_steps(True, 2000, seed)
    out["OpenSpiel steps/s (clone + apply)"], out["OpenSpiel steps/s before"] = new_os, old_os
    out["OpenSpiel speed-up"] = new_os / old_os
    return out


def infostate_figures(
    seed: int = 1, games: int = 3, players_counts: tuple[int, ...] = (2, 4, 6), number: int = 300
) -> dict[str, float]:
    """The information state tensor's cost per call, in µs of this process's CPU time (the
    machine is shared: waiting for a core is not the tensor's cost). See the module docstring."""
    out: dict[str, float] = {}
    cpu = time.process_time
    for players in players_counts:
        game = pyspiel.load_game("python_jamaica", {"players": players})
        for decisions in (50, 200):
            state = _at_decision(game, decisions, seed)
            p = max(0, state.current_player())
            state.information_state_tensor(p)  # the counts brought up to date once
            call = state.information_state_tensor
            out[f"{players}p tensor µs @{decisions}"] = (
                _best(lambda f=call, q=p: f(q), number, 9, cpu) * 1e6  # type: ignore[misc]
            )
            cpp = pyspiel.State.information_state_tensor
            out[f"{players}p  through pyspiel (C++) µs @{decisions}"] = (
                _best(lambda f=cpp, s=state, q=p: f(s, q), number, 9, cpu) * 1e6  # type: ignore[misc]
            )

            def fresh(g: Any = game, c: Any = state._core) -> Any:
                return JamaicaState(g, c.engine, c.answers[:]).information_state_tensor(0)

            out[f"{players}p  counts read afresh µs @{decisions}"] = (
                _best(fresh, max(1, number // 10), 5, cpu) * 1e6
            )
        rng = random.Random(seed)
        calls, spent = 0, 0.0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                start = cpu()
                for q in range(players):
                    state.information_state_tensor(q)
                spent += cpu() - start
                calls += players
                state.apply_action(rng.choice(state.legal_actions()))
        out[f"{players}p  along random games µs (every player, every decision)"] = (
            spent / calls * 1e6
        )
    return out


def ismcts_game(simulations: int = 1000, seed: int = 1) -> dict[str, float]:
    """One heads-up game of OpenSpiel's `ISMCTSBot` (`simulations` per move, the bots' evaluation
    of a position instead of rollouts: `spiel_bots.ismcts_bot`) against the project's `greedy`,
    played with `pyspiel.evaluate_bots`: its length in seconds and in the search's moves."""
    from .spiel_bots import ismcts_bot, spiel_bot

    game = pyspiel.load_game("python_jamaica", {"players": 2})
    searcher = ismcts_bot(game, simulations, seed)
    moves = 0
    step = searcher.step

    def counted(state: Any) -> Any:
        nonlocal moves
        moves += 1
        return step(state)

    searcher.step = counted
    start = time.perf_counter()
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [searcher, spiel_bot("greedy", seed)],
                                    seed)  # fmt: skip
    seconds = time.perf_counter() - start
    return {"ISMCTSBot game seconds": seconds, "ISMCTSBot moves": moves,
            "ISMCTSBot seconds per move": seconds / max(1, moves),
            "ISMCTSBot return": returns[0]}  # fmt: skip


# The committed playthrough of a source checkout: src/jamaica/envs/bench.py → the checkout.
PLAYTHROUGH: Final = (
    Path(__file__).resolve().parents[3] / "tests" / "envs" / "playthroughs" / "python_jamaica.txt"
)


def playthrough_path(given: str | None = None) -> Path:
    """Where `--playthrough` writes: `given`, or the checkout's committed playthrough."""
    if given:
        return Path(given)
    if not PLAYTHROUGH.parent.is_dir():
        raise ValueError(
            f"no source checkout here ({PLAYTHROUGH.parent} does not exist): "
            "give a file, --playthrough FILE"
        )
    return PLAYTHROUGH


def write_playthrough(path: str | Path | None = None) -> Path:
    """Write OpenSpiel's playthrough of a short game to `path` (by default the checkout's
    committed one, see `playthrough_path`) and return where."""
    from open_spiel.python.algorithms import generate_playthrough

    target = playthrough_path(None if path is None else str(path))

    text = generate_playthrough.playthrough(
        "python_jamaica(players=2,max_rounds=1)", None, alsologtostdout=False, seed=1
    )
    target.write_text(text, encoding="utf-8")
    return target


_UNSET = ""  # --playthrough without a file: the checkout's


def main(argv: list[str] | None = None) -> None:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m jamaica.envs.bench", allow_abbrev=False,
        description="The research environments' speed, as ratios of things timed interleaved "
        "in one process (without options: clones, encodings, steps per second).",
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--playthrough", nargs="?", const=_UNSET, metavar="FILE",
                      help="write OpenSpiel's playthrough instead (default: the checkout's "
                      "tests/envs/playthroughs/python_jamaica.txt)")  # fmt: skip
    what.add_argument("--against-commit", metavar="REV",
                      help="time PettingZoo against an earlier commit's code (e.g. 1fe44fe)")
    what.add_argument("--infostate", action="store_true",
                      help="time the information state tensor for 2, 4 and 6 players")
    what.add_argument("--ismcts-game", action="store_true",
                      help="one heads-up game of OpenSpiel's ISMCTSBot (1,000 simulations) "
                      "against greedy, timed (minutes)")  # fmt: skip
    p.add_argument("--wrapped", action="store_true",
                   help="with --against-commit: the wrapped jamaica_v0.env(), not raw_env")
    ns = p.parse_args(sys.argv[1:] if argv is None else argv)
    if ns.playthrough is not None:
        try:
            path = write_playthrough(ns.playthrough or None)
        except ValueError as e:
            sys.exit(f"--playthrough: {e}")
        print(f"playthrough written to {path.resolve()}")
        return
    if ns.against_commit is not None:  # the code of an earlier commit, in a git worktree
        for name, value in compare(ns.against_commit, wrapped=ns.wrapped).items():
            print(f"{name:40} {value:12.2f}")
        return
    if ns.infostate:
        for name, value in infostate_figures().items():
            print(f"{name:56} {value:8.1f}")
        return
    if ns.ismcts_game:  # minutes: not part of the default run
        for name, value in ismcts_game().items():
            print(f"{name:40} {value:12.2f}")
        return
    for name, value in figures().items():
        print(f"{name:40} {value:12.1f}")


if __name__ == "__main__":
    main()
