"""Jamaica, the pirate race board game (Cathala, Braff & Pauchon): rules engine and front ends.

The public API is the rules engine's (`jamaica.rules`), re-exported here.
"""

from . import rules
from .rules import *  # noqa: F403

__version__ = "0.1.0"

__all__ = [*rules.__all__, "__version__"]
