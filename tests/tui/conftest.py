"""Every terminal test keeps its local profile (`jamaica.tui.profile`) in a directory of its own:
a game finished in a test is never counted in the profile of whoever runs the tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("JAMAICA_DATA_DIR", str(path))
    return path
