"""The battle panel's life at the table (`panels.js`, in Chromium): a battle shows from its first
event to its end, stays while its own questions are asked (the winner's spoils), and gives the
board back when the reader is asked anything else — a review found a won battle covering the
board (all of it above the question, on a phone) while the Captain was asked where the Ghost
Ship goes."""

from __future__ import annotations

from typing import Any

from .test_board import bench  # noqa: F401  (the board's test bench: a page of the server's)

BATTLE_JS = """async (asks) => {
  const { BattlePanel } = await import('/static/panels.js');
  const box = document.createElement('div');
  box.hidden = true;
  document.body.appendChild(box);
  const panel = new BattlePanel(box);
  const names = ['Ann', 'Bob'];
  const seen = [];
  const events = [['battle', [0, 1, 9]], ['die', [0, 5, 0]], ['win', [0, 1]]];
  for (const [kind, args] of events) panel.event({ kind, args, text: kind }, names, null);
  seen.push([box.hidden, [...box.querySelectorAll('.battle-die')].map((d) => d.textContent)]);
  for (const kind of asks) {
    panel.asked(kind);
    seen.push([box.hidden, kind]);
  }
  return seen;
}"""


def test_a_battle_over_gives_the_board_back_at_the_reader_s_next_question(
    browser: Any, bench: str  # noqa: F811
) -> None:
    page = browser.new_page()
    try:
        page.goto(bench + "#{}")
        seen = page.evaluate(BATTLE_JS, ["spoils", "move"])
    finally:
        page.close()
    # the attacker's star: the defender never rolls, and once it is over nothing waits ("–")
    assert seen[0] == [False, ["★", "–"]]
    assert seen[1] == [False, "spoils"]  # the winner's question: the panel stays
    assert seen[2] == [True, "move"]  # any other question: the board comes back


def test_a_battle_going_on_stays_whatever_is_asked(
    browser: Any, bench: str  # noqa: F811
) -> None:
    page = browser.new_page()
    try:
        page.goto(bench + "#{}")
        seen = page.evaluate(BATTLE_JS.replace(", ['win', [0, 1]]", ""), ["pay", "move"])
    finally:
        page.close()
    assert seen[0] == [False, ["★", "?"]]
    assert [hidden for hidden, _ in seen[1:]] == [False, False]


FLASH_JS = """async () => {
  const { drawShips, flashShip } = await import('/static/panels.js');
  const box = document.createElement('div');
  document.body.appendChild(box);
  const ship = (k) => ({ ship: k, ghost: false, holds: [], space: 3, finished: false,
    moves_left: 30, lap: 0, powers: [], face_down: 0, face_down_known: [], hand_size: 3,
    has_chosen: false });
  const view = { ships: [ship(0), ship(1)], captain: 0 };
  drawShips(box, view, ['Ann', 'Bob'], 0);
  flashShip(box, 1, '+3 doubloons', 'gain');
  await new Promise((r) => setTimeout(r, 300));
  drawShips(box, view, ['Ann', 'Bob'], 0);  // the next update redraws the cards
  const f = box.querySelector('.shipcard[data-ship="1"] .flash');
  const other = box.querySelector('.shipcard[data-ship="0"] .flash');
  return { text: f.textContent, cls: f.className, delay: f.style.animationDelay,
           other: other.className };
}"""


def test_a_ship_s_flash_goes_on_when_the_cards_are_redrawn(
    browser: Any, bench: str  # noqa: F811
) -> None:
    """Every update redraws the ship cards: a review saw a quarter of the flashes ("+2
    doubloons") cut short by the next update. A running flash now goes on where it stands."""
    page = browser.new_page()
    try:
        page.goto(bench + "#{}")
        seen = page.evaluate(FLASH_JS)
    finally:
        page.close()
    assert seen["text"] == "+3 doubloons" and seen["cls"] == "flash show gain", seen
    assert seen["delay"].startswith("-") and 250 <= float(seen["delay"][1:-2]) < 1800, seen
    assert seen["other"] == "flash"  # the ship that did not flash does not start to


CLOSABLE_JS = """async (over) => {
  const { BattlePanel } = await import('/static/panels.js');
  const box = document.createElement('div');
  box.id = 'closable';
  document.body.appendChild(box);
  const panel = new BattlePanel(box);
  const events = [['battle', [0, 1, 9]], ['die', [0, 5, 0]], ...(over ? [['win', [0, 1]]] : [])];
  for (const [kind, args] of events) panel.event({ kind, args, text: kind }, ['Ann', 'Bob'], null);
}"""


def test_a_battle_over_can_be_closed_by_the_reader(browser: Any, bench: str) -> None:  # noqa: F811
    """On a phone an ended battle stayed pinned over the log while a bot played on (a review):
    once it is over, the reader may close it; while it goes on, nothing closes it."""
    page = browser.new_page()
    try:
        page.goto(bench + "#{}")
        page.evaluate(CLOSABLE_JS, False)
        assert page.locator("#closable .battle-close").count() == 0  # going on
        page.evaluate("() => document.getElementById('closable').remove()")
        page.evaluate(CLOSABLE_JS, True)
        shut = page.locator("#closable .battle-close")
        assert shut.get_attribute("aria-label") == "Close the battle"
        shut.click()
        assert page.evaluate("() => document.getElementById('closable').hidden") is True
    finally:
        page.close()
