"""`jamaica lab fit-value`: the conditional logit finds weights it was given, the command's games
and weights follow from its seed, and what it writes is what master's value reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from jamaica.bots.value import FEATURES
from jamaica.lab.fitvalue import SHIPS, Data, fit, log_loss, play, uniform_loss


def _synthetic(w: np.ndarray, positions: int, seed: int) -> Data:
    """Positions of 2 to 7 ships with random features, and a winner drawn from the model `w`."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(positions, SHIPS, len(w)))
    ships = np.arange(SHIPS)[None, :] < rng.integers(2, SHIPS + 1, size=positions)[:, None]
    u = np.where(ships, x @ w, -np.inf)
    p = np.exp(u - u.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.zeros((positions, SHIPS))
    for i in range(positions):
        y[i, rng.choice(SHIPS, p=p[i])] = 1.0
    return Data(x, y, ships, np.full(positions, 4))


def test_the_fit_finds_the_weights_the_winners_were_drawn_with() -> None:
    true = np.array([1.0, -0.5, 0.25, 0.0])
    d = _synthetic(true, 20_000, 1)
    w = fit(d, l2=0.0)
    assert np.abs(w - true).max() < 0.06
    assert log_loss(w, d) < uniform_loss(d) - 0.2


def test_a_game_gives_every_ships_features_at_every_round_start() -> None:
    g = play((7, "rules:knowledge=expert"))
    assert 2 <= g.players <= 6
    assert len(g.positions) >= 5  # a game lasts more than five rounds
    assert all(len(ship) == len(FEATURES) for p in g.positions for ship in p)
    assert g.winners and all(0 <= k < len(g.positions[0]) for k in g.winners)
    assert play((7, "rules:knowledge=expert")) == g


def test_with_several_bots_each_seat_draws_one_from_the_seed() -> None:
    games = [play((seed, "rules:knowledge=expert,greedy")) for seed in range(8)]
    seats = [bot for g in games for bot in g.bots]
    assert len(seats) == sum(g.players for g in games)
    assert set(seats) == {"rules:knowledge=expert", "greedy"}  # both sat, nothing else
    assert play((3, "rules:knowledge=expert,greedy")) == games[3]
    assert play((3, "greedy")).bots == ("greedy",) * games[3].players


def test_the_command_writes_weights_master_can_read_and_replays_from_its_seed(
    tmp_path: Path,
) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        r = subprocess.run(
            [sys.executable, "-m", "jamaica", "lab", "fit-value", "--games", "40", "--seed", "3",
             "--bot", "rules:knowledge=expert", "--workers", "1", "--out", str(out)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert "| the fitted value |" in r.stdout
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]
    assert tuple(outs[0]["features"]) == FEATURES
    assert len(outs[0]["weights"]) == len(FEATURES)
    assert outs[0]["fitted"]["games"] == 40


def test_a_bad_bot_is_refused_before_any_game() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "jamaica", "lab", "fit-value", "--bot", "nobody", "--workers", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2
    assert "unknown bot" in r.stderr
