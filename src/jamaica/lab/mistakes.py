"""Plain mistakes in a played game, found by replaying its record (issue 15).

A check that does not trust any bot's judgement, only the rules:

- **avoidable shortages**: a turn of the player that had a shortage although a card in their hand
  (when they chose their card), played with the round's dice, had a plan without any shortage —
  both from the holds they had as they chose it (what they knew) and from those they had as
  their card was revealed (what would really have happened), battles left aside, and without
  attacking the Ghost Ship weakly; it is **fruitless** when the turn also gained nothing: it
  left the ship no further along the race than it started, found no treasure and won no battle
  (in the 2021 edition a shortage's fall-back is never paid, so running short can be a sound
  way forward, or a way to a lair; the fruitless ones never are);
- **weak Ghost Ship attacks**: the player's own move ended on the Ghost Ship's space and it
  fought it with less than an even chance, even spending all of its gunpowder (the Ghost Ship
  rolls with Lady Beth's +2), although a card in their hand had a way to play that never did.

`python -m jamaica.lab.mistakes --bot hard --against greedy --games 100 --seed 15` plays games
(seats rotated) and counts them for the watched bot; it prints its win rate too, and each game
with a mistake (its seed, seats and round); `--save-games FOLDER` saves those games for
`jamaica replay FOLDER/mistakes-SEED.json`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import NamedTuple

from ..rules import Config, State, new_game
from ..rules.actions import PLAY
from ..rules.board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE, moves_left
from ..rules.data import (
    BACKWARD,
    CARDS,
    COMBAT_FACES,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    LADY_BETH,
    PORT,
    PORT_ROYAL,
    SABRE,
    SEA,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
    STAR,
)
from ..rules.events import (
    E_BATTLE,
    E_DUMP,
    E_FACE_DOWN,
    E_FALLBACK,
    E_GAME_END,
    E_GHOST_DIRECTION,
    E_LOAD,
    E_MOVE,
    E_POWER,
    E_REVEAL,
    E_ROUND,
    E_SHORTAGE,
    E_WIN,
)
from ..rules.scoring import Score
from .distributed import Cluster, run_jobs

EVEN: float = 0.5  # an attack on the Ghost Ship with less than this chance is a mistake


@dataclass
class Mistakes:
    """What one player did in one game (or a sum over games)."""

    turns: int = 0
    shortage_turns: int = 0  # turns with at least one shortage of this player
    avoidable_shortages: int = 0  # ... that a card in hand would have avoided
    fruitless_shortages: int = 0  # ... and that gained nothing: no ground, treasure or battle won
    ghost_attacks: int = 0  # battles this player started against the Ghost Ship by its own move
    weak_ghost_attacks: int = 0  # ... with less than an even chance
    rounds: tuple[int, ...] = ()  # the round of each plain mistake (fruitless or weak), in order

    def __add__(self, other: Mistakes) -> Mistakes:
        return Mistakes(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def total(self) -> int:
        """The plain mistakes: shortages that gained nothing and a card would have avoided, and
        weak attacks on the Ghost Ship."""
        return self.fruitless_shortages + self.weak_ghost_attacks


def _held(s: State, ship: int, kind: int) -> int:
    base = ship * SLOTS
    return sum(s.hold_counts[i] for i in range(base, base + SLOTS) if s.hold_types[i] == kind)


def _ends(space: int, lap: int, die: int, forward: bool) -> list[tuple[int, int]]:
    if not forward:
        table = MOVES_BACKWARD
    else:
        table = MOVES_FORWARD_RACE if lap == 0 else MOVES_FORWARD_BEHIND
    out = []
    for dest, crossed in table[space][die]:
        new_lap = lap + (0 if not crossed else 1 if forward else -1)
        out.append((dest, new_lap))
    return out


def _plans(s: State, player: int, card: int, dice: tuple[int, int], avoid_shortages: bool) -> int:
    """How many ways (branches chosen) `card`, played now by `player` with these dice, has that
    never attack the Ghost Ship weakly and, if `avoid_shortages`, never run short (battles and
    shortage fall-backs left aside: a shortage leaves the ship where it ran short)."""
    start = (
        s.pos[player],
        s.lap[player],
        _held(s, player, FOOD),
        _held(s, player, GOLD),
        _held(s, player, GUNPOWDER),
    )
    plans = [start]
    for icon, die in zip(CARDS[card], dice, strict=True):
        after = []
        for space, lap, food, gold, powder in plans:
            if lap >= 1:  # finished: the rest is ignored
                after.append((space, lap, food, gold, powder))
            elif icon == FORWARD or icon == BACKWARD:
                for dest, new_lap in _ends(space, lap, die, icon == FORWARD):
                    kind, cost = SPACE_TYPE[dest], SPACE_COST[dest]
                    free = dest == PORT_ROYAL or new_lap >= 1
                    ghost = s.gh >= 0 and not free and dest == s.pos[s.gh]
                    if ghost and ghost_odds(s, player, powder) < EVEN:
                        continue
                    if free or (kind != SEA and kind != PORT):
                        after.append((dest, new_lap, food, gold, powder))
                    elif kind == SEA and food >= cost:
                        after.append((dest, new_lap, food - cost, gold, powder))
                    elif kind == PORT and gold >= cost:
                        after.append((dest, new_lap, food, gold - cost, powder))
                    elif not avoid_shortages:
                        food, gold = (0, gold) if kind == SEA else (food, 0)
                        after.append((dest, new_lap, food, gold, powder))
            else:
                food_gain = die if icon == FOOD else 0
                gold_gain = die if icon == GOLD else 0
                powder_gain = die if icon == GUNPOWDER else 0
                after.append((space, lap, food + food_gain, gold + gold_gain, powder + powder_gain))
        plans = after
    return len(plans)


def shortage_free(s: State, player: int, card: int, morning: int, evening: int) -> bool:
    """Whether `card`, played now by `player` with these dice, has a plan (branches chosen) that
    never runs short, battles left aside (RULES §5–§7) — nor avoids it only by attacking the
    Ghost Ship weakly, itself a mistake."""
    return _plans(s, player, card, (morning, evening), True) > 0


def ghost_free(s: State, player: int, card: int, morning: int, evening: int) -> bool:
    """Whether `card`, played now by `player` with these dice, has a plan (branches chosen) whose
    own moves never attack the Ghost Ship weakly (battles and shortage fall-backs left aside)."""
    return _plans(s, player, card, (morning, evening), False) > 0


def ghost_odds(s: State, player: int, powder: int | None = None) -> float:
    """P(`player` beats the Ghost Ship attacking it now with all its gunpowder (`powder`, if not
    what its holds show)): the star wins, the Ghost Ship rolls with Lady Beth's +2, a tie counts
    half, the Sabre rerolls a losing die once."""
    have = _held(s, player, GUNPOWDER) if powder is None else powder
    mine = have + (2 if s.powers[LADY_BETH] == player else 0)
    theirs = 2 if s.powers[LADY_BETH] == s.gh else 0

    def outcome(a: int, d: int) -> float:
        if a == STAR:
            return 1.0
        if d == STAR:
            return 0.0
        x, y = a + mine, d + theirs
        return 1.0 if x > y else 0.0 if x < y else 0.5

    total = 0.0
    for a in COMBAT_FACES:
        for d in COMBAT_FACES:
            won = outcome(a, d)
            if s.powers[SABRE] == player and won < 1.0:
                won = max(won, sum(outcome(a, x) for x in COMBAT_FACES) / 6)
            total += won
    return total / 36


def _cards(hand: int) -> list[int]:
    return [c for c in range(11) if hand >> c & 1]


def _ghost_sails(s: State, event: tuple[int, ...]) -> bool:
    """Whether the Ghost Ship's half-turn begins (or goes on) with this event: after every
    player's turn of the round."""
    code = event[1]
    return code == E_GHOST_DIRECTION or (code == E_MOVE and event[2] == s.gh)


def check_game(config: Config, actions: Sequence[int], player: int) -> Mistakes:
    """Replay a game (its config and every action of its record) and count `player`'s mistakes."""
    return check(new_game(config, log=True), actions, player)


class _TurnStarts(list[tuple[int, ...]]):
    """The replay's event log, noting the state as `player`'s card is revealed: its turn begins
    there, after whatever the same step did before (a rival's battle, say, that took a hold)."""

    def __init__(self, s: State, player: int) -> None:
        super().__init__(s.events or [])
        self.s, self.player = s, player
        self.at: State | None = None

    def append(self, event: tuple[int, ...]) -> None:
        super().append(event)
        if event[1] == E_REVEAL and event[2] == self.player:
            self.at = self.s.clone(log=False)


def check(start: State, actions: Sequence[int], player: int) -> Mistakes:
    """Play `actions` on from `start` (left unchanged) and count `player`'s mistakes."""
    s = start.clone(log=True)
    log = s.events = _TurnStarts(s, player)
    out = Mistakes()
    hand = 0  # the hand `player` chose their card from this round
    chosen_at = start  # the state as they chose it (what they knew then)
    at_turn: State | None = None  # the state as `player`'s turn began (its card revealed)
    short = False
    gained = False  # the turn found a treasure or won a battle
    space, lap = 0, 0  # where the ship is, followed through the turn's moves

    def turn_over() -> None:
        nonlocal at_turn, short, gained
        if at_turn is None:
            return
        out.turns += 1
        if short:
            out.shortage_turns += 1
            m, e = at_turn.morning, at_turn.evening
            if any(
                shortage_free(at_turn, player, c, m, e)
                and shortage_free(chosen_at, player, c, m, e)
                for c in _cards(hand)
            ):
                out.avoidable_shortages += 1
                if not gained and moves_left(space, lap) >= at_turn.moves_left(player):
                    out.fruitless_shortages += 1
                    out.rounds += (at_turn.rnd,)
        at_turn, short, gained = None, False, False

    own_move = False  # the player's last movement was its own move (not a shortage's fall-back)
    for a in actions:
        if s.current_player() == player and s.decision_kind() == "card":
            hand = s.hand[player] | (1 << (a - PLAY))
            chosen_at = s.clone(log=False)
        before = s.clone(log=False)
        powder = _held(before, player, GUNPOWDER)  # followed through this step's events
        seen = len(log)
        s.apply(a)
        for e in log[seen:]:
            code = e[1]
            if code == E_REVEAL or code == E_ROUND or code == E_GAME_END or _ghost_sails(s, e):
                turn_over()
                if code == E_REVEAL and e[2] == player and log.at is not None:
                    at_turn = log.at
                    space, lap = at_turn.pos[player], at_turn.lap[player]
            elif e[2] != player:
                continue
            elif code == E_SHORTAGE and at_turn is not None:
                short = True
            elif (code == E_FACE_DOWN or code == E_POWER or code == E_WIN) and at_turn is not None:
                gained = True
            elif code == E_MOVE or code == E_FALLBACK:
                own_move = code == E_MOVE
                space = e[4]
                if code == E_MOVE and e[6]:  # crossed the start line
                    lap += 1 if e[5] else -1
            elif code == E_LOAD and e[3] == GUNPOWDER:
                powder += e[4]
            elif code == E_DUMP and e[3] == GUNPOWDER:
                powder -= e[4]
            elif code == E_BATTLE and own_move and e[3] == s.gh:
                out.ghost_attacks += 1
                dice = chosen_at.morning, chosen_at.evening
                avoidable = any(ghost_free(chosen_at, player, c, *dice) for c in _cards(hand))
                weak = ghost_odds(before, player, powder) < EVEN
                if avoidable and weak:
                    out.weak_ghost_attacks += 1
                    out.rounds += (s.rnd,)
    turn_over()
    return out


def check_state(s: State, player: int) -> Mistakes:
    """`check_game` on a played game's state (its history)."""
    return check_game(s.cfg, s.history, player)


# --- playing games and counting -----------------------------------------------------------------
Job = tuple[int, Config, tuple[str, ...], str]


class Loss(NamedTuple):
    """A game the watched bot lost: its final score and the winner's, and whether the winner
    was the Ghost Ship."""

    mine: Score
    winner: Score
    ghost: bool


class Played(NamedTuple):
    """One game played and checked: the watched bot's win share, its mistakes, the game's seed,
    the game's actions when it made a mistake (to save it; empty otherwise), and, when it lost,
    its score's parts, the winner's, and whether the winner was the Ghost Ship."""

    share: float
    found: Mistakes
    seed: int
    actions: tuple[int, ...]
    lost: Loss | None = None


def play_and_check(job: Job) -> Played:
    """Play one game (chance and bots seeded from `seed`) and check the seats of `watched`."""
    from ..bots import make_bot
    from ..rules import play_game

    seed, config, bots, watched = job
    agents = [make_bot(spec, seed * 10 + seat) for seat, spec in enumerate(bots)]
    final: list[State] = []
    record = play_game(config, agents, seed, final_state=final)
    scores = final[0].scores()
    share = 0.0
    found = Mistakes()
    lost = None
    for seat, spec in enumerate(bots):
        if spec == watched:
            share += 1.0 / len(record.winners) if seat in record.winners else 0.0
            found = found + check_game(config, record.actions, seat)
            if seat not in record.winners and lost is None:
                winner = record.winners[0]
                lost = Loss(scores[seat], scores[winner], winner == final[0].gh)
    actions = tuple(int(a) for a in record.actions) if found.rounds else ()
    return Played(share, found, seed, actions, lost)


def save_game(folder: Path, config: Config, bots: Sequence[str], played: Played) -> Path:
    """Write a game with mistakes as a save file `jamaica replay` steps through
    (`mistakes-SEED.json` in `folder`); its path."""
    from ..session import GameSession, Seat

    seats = [Seat(f"{spec} ({i + 1})", spec) for i, spec in enumerate(bots)]
    session = GameSession(config, seats, played.seed, folder / f"mistakes-{played.seed}.json")
    for a in played.actions:
        session.state.apply(a)
    session.save()
    assert session.path is not None
    return session.path


def _seats(jobs: Sequence[Job], seed: int) -> tuple[str, ...]:
    return next(job[2] for job in jobs if job[0] == seed)


def main(argv: Sequence[str] | None = None) -> int:
    from ..bots import parse_spec
    from .runner import game_seed
    from .stats import wilson

    p = argparse.ArgumentParser(
        prog="python -m jamaica.lab.mistakes",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--bot", default="hard", help="the watched bot (one seat, rotating)")
    p.add_argument("--against", default="greedy", help="the bot in every other seat")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--workers", type=int, default=1,
                   help="games at once; more than 1 starts a local Ray cluster")  # fmt: skip
    p.add_argument("--ray", default=None, help="local, auto or a Ray cluster's HOST:PORT")
    p.add_argument("--save-games", metavar="FOLDER", type=Path,
                   help="save each game with a mistake there, for `jamaica replay`")  # fmt: skip
    ns = p.parse_args(argv)
    if ns.save_games is not None and not ns.save_games.is_dir():
        p.error(f"--save-games: {ns.save_games} is not a folder")
    parse_spec(ns.bot)
    parse_spec(ns.against)
    if ns.bot == ns.against:
        p.error("--bot and --against must differ")
    n = ns.players
    config = Config(n)
    jobs: list[Job] = []
    for g in range(ns.games):
        seats = tuple(ns.bot if i == g % n else ns.against for i in range(n))
        jobs.append((game_seed(ns.seed, g), config, seats, ns.bot))
    wins = 0.0
    total = Mistakes()
    losses: list[Loss] = []
    done = 0

    def report(played: Played) -> None:
        nonlocal wins, total, done
        done += 1
        wins += played.share
        found = played.found
        total = total + found
        if found.rounds:
            seats = _seats(jobs, played.seed)
            rounds = ", ".join(str(r) for r in found.rounds)
            print(f"game seed {played.seed} ({', '.join(seats)}): {found.total} mistake(s) of "
                  f"{ns.bot}, round {rounds}", flush=True)  # fmt: skip
            if ns.save_games is not None:
                print(f"  saved: {save_game(ns.save_games, config, seats, played)}", flush=True)
        if done % 10 == 0 or done == ns.games:
            print(f"{done}/{ns.games} games: {ns.bot} won {wins:g}; {total.total} mistakes "
                  f"({total.fruitless_shortages} fruitless shortages, {total.weak_ghost_attacks} "
                  f"weak Ghost Ship attacks)", flush=True)  # fmt: skip
        if played.lost is not None:
            losses.append(played.lost)

    run_jobs(play_and_check, jobs, Cluster.parse(ns.ray, ns.workers), report)
    lo, hi = wilson(wins, ns.games)
    print(f"{ns.bot} vs {n - 1} x {ns.against}, {ns.games} games, seed {ns.seed}: "
          f"won {wins:g} ({wins / ns.games:.1%}, 95% CI {lo:.1%}–{hi:.1%})")  # fmt: skip
    print(f"mistakes of {ns.bot}: {total.fruitless_shortages} fruitless avoidable shortages "
          f"({total.avoidable_shortages} avoidable, {total.shortage_turns} turns with a shortage, "
          f"{total.turns} turns); {total.weak_ghost_attacks} weak attacks on the Ghost Ship of "
          f"{total.ghost_attacks}")  # fmt: skip
    if losses:
        print(_losses(ns.bot, losses))
    return 0


def _losses(bot: str, losses: Sequence[Loss]) -> str:
    """Where the watched bot lost: the mean parts of its score and of the winner's."""
    n = len(losses)
    parts = ", ".join(
        f"{name} {sum(x.mine[k] for x in losses) / n:.1f} vs "
        f"{sum(x.winner[k] for x in losses) / n:.1f}"
        for k, name in enumerate(Score._fields)
    )
    ghost = sum(x.ghost for x in losses)
    return f"in its {n} losses (the Ghost Ship won {ghost}), {bot} against the winner: {parts}"


if __name__ == "__main__":
    raise SystemExit(main())
