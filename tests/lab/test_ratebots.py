"""`jamaica rate-bots` (issue 25): seeded games between the bots, rated by the players' model, a
table per edition and the JSON the lobby's bot ratings are shipped from."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from jamaica.cli import main
from jamaica.lab.ratebots import LEVELS, Played, rate_games, schedule
from jamaica.ratings import Rating


def test_a_few_games_give_a_rating_table_and_its_json(tmp_path: Path, capsys) -> None:
    out = tmp_path / "bots.json"
    levels = ["random", "easy", "greedy"]
    main(["rate-bots", "--games", "4", "--levels", ",".join(levels), "--out", str(out)])
    printed = capsys.readouterr().out
    for edition in ("2021", "classic"):
        assert f"bot ratings, {edition} edition, 4 games" in printed
    for word in ("level", "rating", "mu", "sigma", "games", *levels):
        assert word in printed
    data = json.loads(out.read_text())
    assert data["command"].startswith("jamaica rate-bots --games 4 --seed 1")
    assert data["games"] == 8 and set(data["editions"]) == {"2021", "classic"}
    for edition, table in data["editions"].items():
        assert set(table) == set(levels)
        seats = Counter(s for job in schedule(levels, 4, 1, [edition]) for s in job.seats)
        for level, row in table.items():
            r = Rating.from_dict(row["rating"])
            assert row["games"] == r.games == seats[level] > 0  # one game, one rating update
            assert row["display"] == r.display and row["provisional"] == r.provisional
            assert 0.0 <= row["mean_place_share"] <= 1.0
        assert sum(row["games"] for row in table.values()) == sum(
            len(job.seats) for job in schedule(levels, 4, 1, [edition])
        )


def test_the_schedule_mixes_2_to_6_players_of_distinct_bots_in_every_seat() -> None:
    jobs = schedule(LEVELS, 60, 7, ["2021"])
    assert jobs == schedule(LEVELS, 60, 7, ["2021"])  # the same seed, the same games
    assert Counter(len(j.seats) for j in jobs) == {n: 12 for n in range(2, 7)}
    assert all(len(set(j.seats)) == len(j.seats) for j in jobs)  # never a bot against itself
    for level in LEVELS:
        assert {j.seats.index(level) for j in jobs if level in j.seats} >= {0, 1}
    assert len({j.seed for j in jobs}) == 60
    assert schedule(["easy", "hard"], 3, 1, ["classic"])[2].seats in (("easy", "hard"),
                                                                      ("hard", "easy"))  # fmt: skip


def test_games_are_rated_in_game_order_whatever_order_they_finish_in() -> None:
    jobs = schedule(["random", "easy", "greedy"], 6, 2, ["2021"])
    played = [Played(j, tuple(range(1, len(j.seats) + 1)), 10) for j in jobs]
    forward = rate_games(played, ["random", "easy", "greedy"])
    backward = rate_games(played[::-1], ["random", "easy", "greedy"])
    assert {k: v.rating for k, v in forward["2021"].items()} == {
        k: v.rating for k, v in backward["2021"].items()
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "at least 1"),
        (["--levels", "easy"], "at least 2 different"),
        (["--levels", "easy,easy"], "at least 2 different"),
        (["--levels", "easy,chess"], "unknown bot"),
        (["--editions", "1999"], "edition must be"),
    ],
)
def test_bad_options_are_refused_before_playing(args: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["rate-bots", *args])
    assert e.value.code == 2 and message in capsys.readouterr().err
