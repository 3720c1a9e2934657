"""The bots' measured ratings, shipped in the package for the lobby (issue 25): every level and
anchor in both editions, on the players' scale, read back as `Rating`s."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from jamaica.bots import LEVELS
from jamaica.lab.ratebots import LEVELS as RATED
from jamaica.ratings import Rating, RatingError, bot_ratings
from jamaica.ratings.bots import bot_ratings_source
from jamaica.rules import EDITIONS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_level_has_a_measured_rating_in_each_edition(edition: str) -> None:
    ratings = bot_ratings(edition)
    assert set(ratings) == set(RATED) >= set(LEVELS)
    for r in ratings.values():
        assert isinstance(r, Rating) and r.games >= 50 and r.sigma < 5
    shown = [r.conservative for r in ratings.values()]
    assert shown == sorted(shown, reverse=True)  # strongest first, as the lobby lists them


def test_the_file_says_how_it_was_measured() -> None:
    source = bot_ratings_source()
    assert source.startswith("jamaica rate-bots --games ") and "games" in source
    data = json.loads(resources.files("jamaica.ratings").joinpath("bots.json").read_text())
    assert data["model"]["name"] == "openskill PlackettLuce"


def test_the_file_is_package_data_of_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "ratings/*.json" in config["tool"]["setuptools"]["package-data"]["jamaica"]
    assert any(d.startswith("openskill>=6") for d in config["project"]["dependencies"])


def test_an_unknown_edition_is_refused() -> None:
    with pytest.raises(RatingError, match="edition must be"):
        bot_ratings("1999")
