"""The bots a strength table rates (its rows), and how each one sits at a table.

A row is an `Entrant`: a label, a spec and the budget it is given, said in words. A spec is
either one of the project's bots (anything `jamaica.bots.make_bot` takes: `"greedy"`, `"hard"`,
`"ismcts:iterations=300"`…) or OpenSpiel's own `ISMCTSBot`, `"openspiel-ismcts:simulations=N"`,
with one random rollout per simulation, searching at the engine's speed
(`jamaica.lab.spielsearch`: OpenSpiel's code on a thin engine-backed state). Adding a row to the
table is adding a line to `ENTRANTS` (the baseline's default rows); `BOUNDS` are rows played only
when named.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import make_bot, parse_spec
from ..rules import Agent, Config, State
from .seer import SEER, SeerBot

OPENSPIEL_ISMCTS = "openspiel-ismcts"


@dataclass(frozen=True)
class Entrant:
    """A row of the table: the bot rated (`spec`) and what it may spend (`budget`, in words)."""

    label: str
    spec: str
    budget: str


ENTRANTS: tuple[Entrant, ...] = (
    Entrant("random", "random", "a legal answer at random"),
    Entrant("greedy", "greedy", "one-step lookahead, 1 sampled world"),
    Entrant("easy", "easy", "rules of thumb, 25% random slips"),
    Entrant("medium", "medium", "one-step lookahead, 2 worlds, expert knowledge"),
    Entrant("hard", "hard", "ISMCTS, 300 iterations (600 heads-up), expert knowledge"),
    Entrant(
        "master",
        "master",
        "decoupled ISMCTS, fitted value, 1,100 iterations heads-up (2 × 1,100 / n)",
    ),
    Entrant("learned", "learned", "the shipped REINFORCE policy network, one forward pass"),
    Entrant("deep", "deep", "the shipped JAX-trained (PPO) network, in numpy, one forward pass"),
    Entrant(
        "OpenSpiel ISMCTS-10",
        f"{OPENSPIEL_ISMCTS}:simulations=10",
        "OpenSpiel's ISMCTSBot: 10 simulations, 1 random rollout each",
    ),
    Entrant(
        "OpenSpiel ISMCTS-50",
        f"{OPENSPIEL_ISMCTS}:simulations=50",
        "OpenSpiel's ISMCTSBot: 50 simulations, 1 random rollout each",
    ),
)
# Not a row of the baseline's default run: a bound that sees every hidden card (`--rows
# master-seer` plays it, in either table).
BOUNDS: tuple[Entrant, ...] = (
    Entrant(SEER, SEER, "master's search on the true state: it sees every hidden card (a bound)"),
)


def openspiel_simulations(spec: str) -> int | None:
    """The simulations of an `openspiel-ismcts:simulations=N` spec; None for one of our bots."""
    name, _, rest = spec.partition(":")
    if name != OPENSPIEL_ISMCTS:
        return None
    key, _, value = rest.partition("=")
    if key != "simulations" or not value.isdigit() or not 1 <= int(value) <= 100_000:
        raise ValueError(f"{OPENSPIEL_ISMCTS} takes simulations=N (1 to 100000), not {spec!r}")
    return int(value)


def check_spec(spec: str) -> None:
    """Raise ValueError now for a spec no seat could play."""
    if spec != SEER and openspiel_simulations(spec) is None:
        parse_spec(spec)


class Seat:
    """One seat's player: `act` answers the question of `state`; `observe` is told every action
    applied (chance's included) so that a player keeping its own game in step can follow."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def act(self, state: State, player: int) -> int:
        return int(self.agent.act(state, player))

    def observe(self, action: int) -> None:
        pass


class SpielSeat(Seat):
    """OpenSpiel's `ISMCTSBot`, deciding on an `EngineSpielState` (`python_jamaica`'s state, as
    the bot sees it, answered from the engine) kept in step with the game (the same action ids);
    it draws its worlds with `resample_from_infostate`."""

    def __init__(self, config: Config, simulations: int, seed: int) -> None:
        import pyspiel

        from ..envs.openspiel import settings
        from .spielsearch import EngineSpielState, ismcts_bot

        edition = "modern" if config.edition == "2021" else config.edition
        ghost = "auto" if config.ghost_ship is None else "on" if config.ghost_ship else "off"
        self.game = pyspiel.load_game("python_jamaica", {
            "players": config.players, "edition": edition, "ghost_ship": ghost,
            "max_rounds": config.max_rounds, "reward": "win"})  # fmt: skip
        if settings(self.game)[0] != config:
            raise ValueError(f"python_jamaica does not play {config}")
        self.bot = ismcts_bot(self.game, simulations, seed)
        self.state = EngineSpielState.new(self.game)

    def act(self, state: State, player: int) -> int:
        return int(self.bot.step(self.state))

    def observe(self, action: int) -> None:
        self.state.apply_action(action)


def seat(spec: str, seed: int, config: Config) -> Seat:
    """The player for `spec` at a table of `config`, seeded."""
    if spec == SEER:  # lab only: it reads the hidden cards
        return Seat(SeerBot(seed))
    simulations = openspiel_simulations(spec)
    if simulations is not None:
        return SpielSeat(config, simulations, seed)
    return Seat(make_bot(spec, seed))


__all__ = ["ENTRANTS", "OPENSPIEL_ISMCTS", "Entrant", "Seat", "check_spec", "seat"]
