"""Post-game analysis for players (issue 28): master's verdict on each of a player's decisions
(`core`), said in the reader's language (`words`). See docs/analysis.md."""

from .core import (
    DEFAULT_ITERATIONS,
    GAME_BUDGET,
    THRESHOLDS,
    GameAnalysis,
    Verdict,
    analyse_game,
)

__all__ = ["DEFAULT_ITERATIONS", "GAME_BUDGET", "THRESHOLDS", "GameAnalysis", "Verdict",
           "analyse_game"]  # fmt: skip
