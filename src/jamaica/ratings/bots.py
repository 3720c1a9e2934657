"""The bots' measured ratings, shipped with the package (`bots.json`), for the lobby to show.

`jamaica rate-bots` plays the levels against each other and rates them with the same model as
the players (`model.rate`); its JSON output, made by the command named in the file, is copied
here. The bots start where every newcomer starts, so the scale is the players' scale; its
centre (mu 25) is the average of the bots rated, so a newcomer is presumed about as strong as
the middle bots (`rules`, `greedy`) until their games say otherwise. A bot's sigma after a few
hundred games (about 3) is smaller than a player's when they stop being provisional (6), so a
bot shows up to 270 points more than a newly established player of the same mu: compare mu, or
the display values of established players, to judge a match.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..rules import EDITIONS
from .model import Rating, RatingError

FILE = "bots.json"


@cache
def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("editions"), dict):
        raise RatingError(f"{FILE} has no ratings by edition")
    return data


def bot_ratings(edition: str) -> dict[str, Rating]:
    """Each bot level's rating in `edition` ("2021" or "classic"), by level name (`easy`,
    `medium`, `hard`, and the anchors `random` and `greedy`), strongest first."""
    if edition not in EDITIONS:
        raise RatingError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
    levels = _load()["editions"].get(edition, {})
    out = {level: Rating.from_dict(levels[level]["rating"]) for level in levels}
    return dict(sorted(out.items(), key=lambda kv: -kv[1].conservative))


def bot_ratings_source() -> str:
    """How the shipped ratings were measured: the command, and the games it played."""
    data = _load()
    return f"{data.get('command', '?')} ({data.get('summary', '')})"


__all__ = ["bot_ratings", "bot_ratings_source"]
