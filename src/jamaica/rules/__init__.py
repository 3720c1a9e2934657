"""The rules of Jamaica: a pure, exact, seeded engine (standard library only, no I/O)."""

from .actions import NUM_ACTIONS, NUM_PLAYER_ACTIONS, Action, ParseError
from .config import EDITIONS, Config
from .driver import Agent, RandomAgent, Record, play_game, replay
from .fields import FieldError
from .ops import CHANCE, TERMINAL
from .prompts import Decision
from .scoring import Score
from .state import IllegalActionError, State, new_game

__all__ = [
    "CHANCE",
    "EDITIONS",
    "NUM_ACTIONS",
    "NUM_PLAYER_ACTIONS",
    "TERMINAL",
    "Action",
    "Agent",
    "Config",
    "Decision",
    "FieldError",
    "IllegalActionError",
    "ParseError",
    "RandomAgent",
    "Record",
    "Score",
    "State",
    "new_game",
    "play_game",
    "replay",
]
