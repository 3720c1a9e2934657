"""OpenSpiel's NFSP on the information state tensor (`jamaica.envs.spiel_nfsp`, issue 27): a very
short run of the command trains (both networks' losses computed), its average policy and its best
response play legal moves to the end of games through `pyspiel.evaluate_bots` (`NFSPBot` raises on
an illegal one), and the report is printed and written. The run is seeded (its games too): both
networks learn within its 150 steps (the average policy once 16 best-response decisions are kept),
every time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jamaica.envs.spiel_nfsp import main  # jax and chex: the jax extra, in dev


def test_a_short_run_trains_and_plays_legal_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nfsp.json"
    args = ["--steps", "150", "--max-rounds", "2", "--games", "1", "--hidden", "16",
            "--learn-every", "8", "--min-buffer", "16", "--batch-size", "16",
            "--anticipatory", "0.5", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "NFSP on python_jamaica" in printed and "average policy vs greedy" in printed
    report = json.loads(out.read_text())
    training = report["training"]
    assert training["steps"] >= 150 and training["games"] >= 2 and training["learned"] > 0
    assert training["sl_loss"] and training["rl_loss"], "a network did not learn"
    for who in ("nfsp", "best response", "random"):
        for opponent in ("random", "greedy"):
            result = report[f"{who} vs {opponent}"]
            assert result["games"] == 1
            assert 0.0 <= result["low"] <= result["win_share"] <= result["high"] <= 1.0
