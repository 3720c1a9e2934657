"""Jamaica, the pirate race board game (Cathala, Braff & Pauchon): rules engine and front ends."""

from .rules import (
    CHANCE,
    EDITIONS,
    NUM_ACTIONS,
    NUM_PLAYER_ACTIONS,
    TERMINAL,
    Action,
    Agent,
    Config,
    Decision,
    IllegalActionError,
    ParseError,
    RandomAgent,
    Record,
    Score,
    State,
    new_game,
    play_game,
    replay,
)

__version__ = "0.1.0"

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
    "IllegalActionError",
    "ParseError",
    "RandomAgent",
    "Record",
    "Score",
    "State",
    "__version__",
    "new_game",
    "play_game",
    "replay",
]
