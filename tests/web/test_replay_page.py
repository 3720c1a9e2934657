"""The replay's panels at a chosen step, as a reader who jumps there sees them (a player's
review): the dice of the round jumped to (not the text of the setup), and a battle's result in
the battle panel as well as in the log."""

from __future__ import annotations

import time
from typing import Any

from .server import Server
from .shots import screenshot
from .test_table_page import open_page, shared  # noqa: F401  (the module's one server)

WHERE = "document.querySelector('#where').textContent"  # "Round 6 · step 80 of 168"


def _finished(server: Server, seats: list[tuple[str, str | None]]) -> dict[str, Any]:
    t = server.table(seats)
    end = time.monotonic() + 120
    while not any(x["id"] == t["id"] and x["finished"] for x in server.get("/api/tables")):
        assert time.monotonic() < end, "the bots' game did not finish"
        time.sleep(0.2)
    return t


def _kinds(server: Server, table: str, step: int) -> list[str]:
    return [e["kind"] for e in server.get(f"/api/tables/{table}/replay?step={step}")["events"]]


def _go(page: Any, round_: int, step: int, steps: int) -> None:
    """To `step` as a reader does: the round's button, then one step on at a time."""
    page.click(f"#rounds button[data-round='{round_}']")
    page.wait_for_function(f"() => {WHERE}.includes('Round {round_} ')")
    for _ in range(200):
        at = int(page.inner_text("#where").split("step ")[1].split(" of")[0])
        if at == step:
            return
        assert at < step, (at, step)
        page.click("#next")
        page.wait_for_function(f"() => !{WHERE}.includes('step {at} of {steps}')")
    raise AssertionError(f"never reached step {step}")


def test_a_jump_shows_the_round_s_dice_and_a_battle_s_result(shared: Server, browser: Any) -> None:  # noqa: F811
    t = _finished(shared, [("Bot A", "greedy"), ("Bot B", "greedy"), ("Bot C", "greedy")])
    replay = shared.get(f"/api/tables/{t['id']}/replay")
    steps = replay["steps"]
    kinds = [e["kind"] for e in replay["events"]]
    assert "win" in kinds, "no battle was won in this game"
    # the first step whose events end with the first battle's winner (a binary search)
    wins = kinds.index("win") + 1
    low, high = 0, steps
    while low < high:
        mid = (low + high) // 2
        if len(_kinds(shared, t["id"], mid)) >= wins:
            high = mid
        else:
            low = mid + 1
    won = shared.get(f"/api/tables/{t['id']}/replay?step={low}")
    page = open_page(browser, f"{shared.url}/replay/{t['id']}")
    try:
        page.wait_for_selector("#rounds button")
        # a jump to round 2's start: its dice, not "The first round has not begun."
        page.click("#rounds button[data-round='2']")
        page.wait_for_function(f"() => {WHERE}.includes('Round 2 ')")
        dice = page.inner_text("#dice")
        assert "not begun" not in dice and ("2" in dice or "Captain" in dice), dice
        _go(page, won["view"]["round"], low, steps)
        panel = page.locator("#battle")
        assert panel.is_visible(), "the battle's result is not shown in its panel"
        assert page.locator("#battle .battle-side.winner").count() == 1
        assert page.locator("#battle .battle-result").inner_text() == "Wins!"
        # over: no side waits for a die (after an attacker's star the defender never rolls)
        assert "?" not in page.locator("#battle .battle-die").all_inner_texts()
        screenshot(page, "replay-battle-won")
    finally:
        page.context.close()
