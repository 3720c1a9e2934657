"""Bot specs: `parse_spec` is the one validator — known bots, typed and bounded options — and
every bot is built through it, so no front end can start a bot that never finishes."""

from __future__ import annotations

import math

import pytest

from jamaica import Config, State, play_game
from jamaica.bots import BOTS, FALLBACK, make_bot, parse_spec, safe_spec

# (spec, words the error must contain: the option and what it allows)
BAD = [
    ("ismcts:seconds=nan", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=inf", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=-inf", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=-1", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=0", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=3600", ["seconds", "0.01 to 10"]),
    ("ismcts:seconds=soon", ["seconds", "a number"]),
    ("ismcts:rollout=banana", ["rollout", "random, greedy"]),
    ("ismcts:rollout=", ["rollout", "random, greedy"]),
    ("ismcts:rollout", ["rollout"]),
    ("ismcts:iterations=0", ["iterations", "1 to 20000"]),
    ("ismcts:iterations=-5", ["iterations", "1 to 20000"]),
    ("ismcts:iterations=1e9", ["iterations", "an integer"]),
    ("ismcts:iterations=100000000", ["iterations", "1 to 20000"]),
    ("ismcts:iterations=2.5", ["iterations", "an integer"]),
    ("ismcts:iterations=many", ["iterations", "an integer"]),
    ("ismcts:heads_up=0", ["heads_up", "1 to 20000"]),
    ("ismcts:heads_up=1.5", ["heads_up", "an integer"]),
    ("ismcts:rollout_rounds=6", ["rollout_rounds", "0 to 5"]),
    ("ismcts:rollout_rounds=-1", ["rollout_rounds", "0 to 5"]),
    ("ismcts:exploration=nan", ["exploration", "0 to 10"]),
    ("ismcts:exploration=-0.5", ["exploration", "0 to 10"]),
    ("ismcts:exploration=1e308", ["exploration", "0 to 10"]),
    ("ismcts:iterations=10:iterations=20", ["iterations", "twice"]),
    ("ismcts:seconds=0.5:seconds=0.5", ["seconds", "twice"]),
    ("ismcts:depth=3", ["depth", "iterations"]),
    ("greedy:samples=0", ["samples", "1 to 64"]),
    ("greedy:samples=65", ["samples", "1 to 64"]),
    ("greedy:samples=nan", ["samples", "an integer"]),
    ("greedy:depth=3", ["depth", "samples"]),
    ("random:seed=3", ["seed", "none"]),
    ("hard:iterations=5000", ["iterations", "none"]),
    ("easy:knowledge=expert", ["knowledge", "none"]),
    ("rules:slips=1.5", ["slips", "0 to 1"]),
    ("rules:slips=-0.1", ["slips", "0 to 1"]),
    ("ismcts:knowledge=genius", ["knowledge", "basic, expert"]),
    ("minimax", ["unknown bot", "random, greedy, ismcts"]),
    ("", ["unknown bot"]),
    ("human", ["unknown bot"]),
    ("ISMCTS", ["unknown bot"]),
    ("ismcts:" + "x" * 300, ["at most"]),
]

GOOD = [
    ("easy", ("easy", {})),
    ("medium", ("medium", {})),
    (" hard ", ("hard", {})),
    ("rules:knowledge=expert", ("rules", {"knowledge": "expert"})),
    ("rules:slips=0.25", ("rules", {"slips": 0.25})),
    ("greedy:knowledge=expert", ("greedy", {"knowledge": "expert"})),
    ("ismcts:knowledge=expert", ("ismcts", {"knowledge": "expert"})),
    ("random", ("random", {})),
    ("greedy", ("greedy", {})),
    (" greedy ", ("greedy", {})),
    ("greedy:samples=1", ("greedy", {"samples": 1})),
    ("greedy:samples=64", ("greedy", {"samples": 64})),
    ("ismcts", ("ismcts", {})),
    ("ismcts:iterations=1", ("ismcts", {"iterations": 1})),
    ("ismcts:iterations=20000", ("ismcts", {"iterations": 20000})),
    ("ismcts:iterations=300:heads_up=600", ("ismcts", {"iterations": 300, "heads_up": 600})),
    ("ismcts:seconds=0.01", ("ismcts", {"seconds": 0.01})),
    ("ismcts:seconds=10", ("ismcts", {"seconds": 10.0})),
    (
        "ismcts:seconds=0.5:rollout=random:rollout_rounds=2:exploration=0",
        ("ismcts", {"seconds": 0.5, "rollout": "random", "rollout_rounds": 2, "exploration": 0.0}),
    ),
    (
        "ismcts:rollout=greedy:rollout_rounds=0",
        ("ismcts", {"rollout": "greedy", "rollout_rounds": 0}),
    ),
    ("ismcts:exploration=10", ("ismcts", {"exploration": 10.0})),
]


@pytest.mark.parametrize(("spec", "words"), BAD, ids=[s[:40] for s, _ in BAD])
def test_a_bad_spec_is_refused_with_a_clear_one_line_message(spec: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        parse_spec(spec)
    message = str(info.value)
    assert "\n" not in message and len(message) < 200
    for word in words:
        assert word in message, message
    named = message.partition("; bots are ")[2].split(", ")
    assert len(named) == len(set(named)), message  # each bot named once (master was twice)
    with pytest.raises(ValueError):
        make_bot(spec, 1)  # make_bot checks through parse_spec too
    assert safe_spec(spec) == FALLBACK


@pytest.mark.parametrize(("spec", "parsed"), GOOD, ids=[s for s, _ in GOOD])
def test_a_good_spec_is_accepted(spec: str, parsed: tuple[str, dict[str, object]]) -> None:
    assert parse_spec(spec) == parsed
    for value in parse_spec(spec)[1].values():
        assert not isinstance(value, float) or math.isfinite(value)
    assert safe_spec(spec) == spec
    make_bot(spec, 1)


def test_not_a_text_is_refused() -> None:
    for spec in (None, 3, ["greedy"], {"bot": "greedy"}):
        with pytest.raises(ValueError):
            parse_spec(spec)  # type: ignore[arg-type]
        assert safe_spec(spec) == FALLBACK  # type: ignore[arg-type]


def test_the_fallback_is_a_valid_bot() -> None:
    assert FALLBACK in BOTS and parse_spec(FALLBACK) == (FALLBACK, {})


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "greedy:samples=1",
        "ismcts:iterations=5:rollout=random:rollout_rounds=0",
        "ismcts:seconds=0.01:exploration=0",
    ],
)
def test_a_bot_built_from_a_good_spec_plays_a_whole_game(spec: str) -> None:
    final: list[State] = []
    agents = [make_bot(spec, 3), make_bot("random", 4)]
    result = play_game(Config(2), agents, seed=8, final_state=final)
    assert final[0].is_terminal() and result.winners
