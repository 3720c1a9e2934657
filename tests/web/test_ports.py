"""The loopback port every server a tool or test starts takes (`services.free_port`)."""

from __future__ import annotations

import socket

import pytest

from jamaica.web.services import free_port


def test_ports_come_from_jamaica_ports_never_twice_and_skip_a_busy_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JAMAICA_PORTS", "32100-32109")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 32100))  # something outside the suite holds one of them
        busy.listen()
        taken = [free_port() for _ in range(9)]
    assert sorted(taken) == list(range(32101, 32110))  # all the others, each once


def test_without_jamaica_ports_the_kernel_chooses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAMAICA_PORTS", raising=False)
    assert free_port() >= 1024


@pytest.mark.parametrize("span", ["32100", "80-90", "32110-32100", "a-b"])
def test_a_bad_range_is_refused_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, span: str
) -> None:
    monkeypatch.setenv("JAMAICA_PORTS", span)
    with pytest.raises(ValueError, match="JAMAICA_PORTS must be FIRST-LAST"):
        free_port()
