"""`python -m jamaica.envs.bench --playthrough [FILE]` (issue 27): it writes where it is told, or
to the checkout's committed playthrough whatever the current directory, and says where."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamaica.envs import bench

COMMITTED = Path(__file__).parent / "playthroughs" / "python_jamaica.txt"


def test_it_writes_the_file_it_is_given_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "out" / "p.txt"
    target.parent.mkdir()
    bench.main(["--playthrough", str(target)])
    assert f"playthrough written to {target}" in capsys.readouterr().out
    assert target.read_text(encoding="utf-8").startswith("game: python_jamaica(players=2,")
    assert list(tmp_path.iterdir()) == [target.parent]  # nothing else, in the cwd or beside


def test_by_default_it_is_the_checkouts_file_whatever_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert bench.playthrough_path() == COMMITTED.resolve()


def test_without_a_checkout_it_asks_for_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "PLAYTHROUGH", tmp_path / "nowhere" / "python_jamaica.txt")
    with pytest.raises(SystemExit, match="give a file, --playthrough FILE"):
        bench.main(["--playthrough"])


def test_help_and_unknown_options_answer_at_once_without_measuring(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--help` ran the whole benchmark (its options were read by hand), and so did a typo."""
    monkeypatch.setattr(bench, "figures", lambda: pytest.fail("the benchmark ran"))
    with pytest.raises(SystemExit) as done:
        bench.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--playthrough" in out and "--against-commit" in out and "--infostate" in out
    with pytest.raises(SystemExit) as done:
        bench.main(["--infostat"])
    assert done.value.code == 2
