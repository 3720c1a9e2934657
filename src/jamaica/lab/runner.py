"""Playing many games, in parallel and reproducibly, and what each game tells."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import make_bot
from ..rules import Config, State, play_game
from ..rules.actions import CAPTAIN, TREASURE
from ..rules.board import DIST_TO_FINISH
from ..rules.data import TREASURE_NAMES
from ..rules.events import E_BATTLE, E_MOVE, E_SHORTAGE
from ..rules.scoring import rank_key
from .distributed import Cluster, run_jobs

# The three forks: (merge space, outer lane spaces, inner channel spaces).
FORKS = ((15, range(7, 13), (13, 14)), (28, range(20, 26), (26, 27)), (41, range(33, 39), (39, 40)))


@dataclass
class GameResult:
    """One game: who sat where, what they scored, and the numbers a designer asks for."""

    game: int
    seed: int
    bots: list[str]  # per seat
    first_captain: int
    rounds: int
    ended_by: str  # "finish", "ghost" or "limit"
    scores: list[list[int]]  # per ship: position, doubloons, treasures, total
    winners: list[int]  # ships
    ranks: list[float]  # per ship: 1 = best (shared ranks averaged)
    battles: int
    shortages: int
    lanes: list[list[int]]  # per fork: [outer, inner] passages of the players' ships
    treasures: list[str]  # treasure cards drawn, by name

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_seed(base: int, game: int) -> int:
    return (base * 1_000_003 + game * 7_919) % 2**31


def _ranks(s: State) -> list[float]:
    key = [rank_key(s, k) for k in range(s.ns)]
    ranks = []
    for k in range(s.ns):
        better = sum(1 for j in range(s.ns) if key[j] < key[k])
        same = sum(1 for j in range(s.ns) if key[j] == key[k])
        ranks.append(better + (same + 1) / 2)
    return ranks


def _lanes(s: State) -> list[list[int]]:
    """For each fork, how many players' ships went round by its outer lane and by its inner
    channel (the Ghost Ship's wandering is no player's choice). A ship that got past a fork without
    ever stopping on the outer lane took the inner channel: the outer lane is longer than any
    die."""
    landed: list[set[int]] = [set() for _ in range(s.ns)]
    for e in s.events or []:
        if e[1] == E_MOVE:
            landed[e[2]].add(e[4])
    out = []
    for merge, outer, inner in FORKS:
        counts = [0, 0]
        for k in range(s.n):
            past = s.lap[k] >= 1 or (s.lap[k] == 0 and s.moves_left(k) <= DIST_TO_FINISH[merge])
            if landed[k] & set(outer):
                counts[0] += 1
            elif landed[k] & set(inner) or past:
                counts[1] += 1
        out.append(counts)
    return out


def summarize(game: int, seed: int, bots: Sequence[str], s: State) -> GameResult:
    history = s.history
    first_captain = next(a - CAPTAIN for a in history if CAPTAIN <= a < CAPTAIN + 6)
    ended_by = "limit"
    if s.ending:
        ended_by = "ghost" if s.gh >= 0 and s.lap[s.gh] >= 1 else "finish"
    events = s.events or []
    return GameResult(
        game=game,
        seed=seed,
        bots=list(bots),
        first_captain=first_captain,
        rounds=s.rnd,
        ended_by=ended_by,
        scores=[[sc.position, sc.doubloons, sc.treasures, sc.total] for sc in s.scores()],
        winners=s.winners(),
        ranks=_ranks(s),
        battles=sum(1 for e in events if e[1] == E_BATTLE),
        shortages=sum(1 for e in events if e[1] == E_SHORTAGE),
        lanes=_lanes(s),
        treasures=[TREASURE_NAMES[a - TREASURE] for a in history if TREASURE <= a < TREASURE + 10],
    )


Job = tuple[int, int, Config, tuple[str, ...]]


def play_job(job: Job) -> GameResult:
    """One game of a batch (run in a Ray worker or here): bots seeded from the game's seed."""
    game, seed, config, bots = job
    agents = [make_bot(spec, seed * 10 + seat) for seat, spec in enumerate(bots)]
    finals: list[State] = []
    play_game(config, agents, seed, log=True, final_state=finals)
    return summarize(game, seed, bots, finals[0])


def run_games(
    jobs: Sequence[Job],
    cluster: Cluster | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play the jobs where `cluster` says (default: in this process); results in game order
    whatever the workers: each game's seed is in its job."""
    return run_jobs(play_job, jobs, cluster or Cluster(), on_result)
