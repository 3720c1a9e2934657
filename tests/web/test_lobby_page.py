"""Issue 12 in a real browser (Debian's Chromium, headless) against a real server: players who
never handle a secret link find each other in the lobby, fill a table, leave and come back (also
from another device), chat with a spectator watching, and play again.

Every wait is for a condition (the lobby refreshes its lists every few seconds), never a fixed
sleep. Screenshots go to tests/web/artifacts/ (git-ignored); `JAMAICA_DOC_SHOTS=1` also writes
the README's to docs/."""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from jamaica import CHANCE, Config, new_game
from jamaica.web.players import key_hash
from jamaica.web.results import outcome_of
from jamaica.web.store import ActionRow, PlayerRecord, TableRecord
from jamaica.web.store_sqlite import SQLiteStore

from ..soak import soak
from .server import Server
from .shots import screenshot

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
INSTANT = "localStorage.setItem('jamaica.speed', '0')"  # the table page shows events at once
WAIT = 30_000  # ms: generous, the machine may be busy
ANSWER = "#question:not([hidden]) #options button:not([disabled])"
EVIL = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def context(browser: Any, size: str = "laptop") -> Any:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.add_init_script(INSTANT)
    return ctx


def watch_urls(page: Any, seen: list[str]) -> Any:
    page.on("framenavigated", lambda frame: seen.append(frame.url))
    return page


def come_aboard(browser: Any, srv: Server, name: str, size: str = "laptop") -> Any:
    """A new browser (its own storage) whose first visit to the lobby gives a name."""
    page = context(browser, size).new_page()
    page.goto(srv.url + "/")
    page.wait_for_selector("#welcome:not([hidden]) #player-name")
    assert page.locator("#new-panel").is_hidden()  # nothing to do before a name
    page.fill("#player-name", name)
    page.click("#join-button")
    page.wait_for_selector(f"#me:has-text('You are {name}')", timeout=WAIT)
    page.wait_for_selector("#new-panel:not([hidden])")
    return page


def create(page: Any, kinds: list[str], seconds: int | None = None) -> str:
    """Fill the new table's form (each seat me, open, invite or bot) and create it: the page goes
    to the table; returns its id."""
    page.select_option("#players", str(len(kinds)))
    for i, kind in enumerate(kinds):
        page.select_option(f"#kind{i}", kind)
    if seconds is not None:
        page.fill("#limit", str(seconds))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/[^/#?]+$"), timeout=WAIT)
    return str(page.url.rsplit("/", 1)[1])


def sit(page: Any, table: str, open_seats: int = 1) -> None:
    """From the lobby: the first open seat of `table` once the list shows `open_seats` (it
    refreshes every few seconds), one click."""
    buttons = f"#open-tables .tcard[data-table='{table}'] button.sit"
    count = f'() => document.querySelectorAll("{buttons}").length === {open_seats}'
    page.wait_for_function(count, timeout=WAIT)
    page.locator(buttons).first.click()
    page.wait_for_url(re.compile(rf"/table/{table}$"), timeout=WAIT)


def invite(page: Any, name: str, more: list[str] | None = None) -> tuple[str, str]:
    """Create a table of "me", an invite for `name` and `more` seats (open, bot…): the invite's
    link (its secret in the fragment) and the table's id."""
    kinds = ["me", "invite", *(more or [])]
    page.select_option("#players", str(len(kinds)))
    page.select_option("#kind1", "invite")
    page.fill("#name1", name)
    for i, kind in enumerate(kinds[2:], start=2):
        page.select_option(f"#kind{i}", kind)
    page.click("#create-button")
    link = page.locator(".seat-link")
    link.wait_for(timeout=WAIT)
    assert link.count() == 1
    href = str(link.get_attribute("href"))
    assert "token=" in href
    return href, href.split("/table/", 1)[1].split("#", 1)[0]


def waiting_text(page: Any) -> str:
    return str(page.inner_text("#banner-main"))


def started(page: Any) -> None:
    page.wait_for_function(
        "() => { const b = document.querySelector('#banner-main').textContent;"
        " return b && !b.startsWith('Waiting for players')"
        " && !!document.querySelector('#board svg'); }",
        timeout=WAIT,
    )


def dot(page: Any, seat: int, state: str) -> None:
    page.wait_for_selector(f"#seats .seat-item[data-seat='{seat}'] .dot.{state}", timeout=WAIT)


def seated(srv: Server, table: str) -> dict[str, Any]:
    return next(t for t in srv.get("/api/tables") if t["id"] == table)


def test_three_players_find_and_fill_a_table_through_the_lobby(
    server: Server, browser: Any
) -> None:
    urls: list[str] = []
    anne = watch_urls(come_aboard(browser, server, "Anne"), urls)
    bob = watch_urls(come_aboard(browser, server, "Bob"), urls)
    cleo = watch_urls(come_aboard(browser, server, "Cleo", "phone"), urls)
    table = create(anne, ["me", "open", "open"])
    anne.wait_for_selector(
        "#banner-main:has-text('Waiting for players (2 open seats)')", timeout=WAIT
    )
    assert "You are Anne" in anne.inner_text("#whoami")
    # Bob finds the table in the lobby: who sits there, the settings, a Sit per open seat
    card = bob.locator(f"#open-tables .tcard[data-table='{table}']")
    card.wait_for(timeout=WAIT)
    assert "Anne" in card.inner_text() and "3 players" in card.inner_text()
    assert card.locator("button.sit").count() == 2
    sit(bob, table, 2)
    anne.wait_for_selector(
        "#banner-main:has-text('Waiting for players (1 open seat)')", timeout=WAIT
    )
    anne.wait_for_selector("#seats .seat-item[data-seat='1']:has-text('Bob')", timeout=WAIT)
    dot(anne, 1, "on")
    screenshot(cleo, "lobby-phone-open-table")
    sit(cleo, table)
    for page, name in ((anne, "Anne"), (bob, "Bob"), (cleo, "Cleo")):
        started(page)
        page.wait_for_selector(f"#whoami:has-text('You are {name}')", timeout=WAIT)
    for k in range(3):
        dot(anne, k, "on")
    t = seated(server, table)
    assert t["open_seats"] == 0 and t["status"] == "playing"
    assert [s["name"] for s in t["seats"]] == ["Anne", "Bob", "Cleo"]
    # somebody is asked something: the game runs
    anne.wait_for_selector("#hand .card, #options .card, #options button", timeout=WAIT)
    assert not [u for u in urls if "token" in u or "key=" in u], urls  # no secret in any address
    for page in (anne, bob, cleo):
        page.context.close()


def test_a_player_closes_the_page_and_comes_back_from_the_lobby(
    server: Server, browser: Any
) -> None:
    anne = come_aboard(browser, server, "Anne")
    bob = come_aboard(browser, server, "Bob")
    table = create(anne, ["me", "open"])
    sit(bob, table)
    started(bob)
    dot(anne, 1, "on")
    ctx = bob.context
    bob.close()  # closing the tab
    dot(anne, 1, "off")
    again = ctx.new_page()
    again.goto(server.url + "/")
    mine = again.locator(f"#my-tables .tcard[data-table='{table}']")
    mine.wait_for(timeout=WAIT)
    assert re.search(r"Your turn|Round \d+", mine.locator(".tstate").inner_text())
    mine.locator("a.go").click()  # one click back to the seat
    again.wait_for_url(re.compile(rf"/table/{table}$"), timeout=WAIT)
    again.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    again.wait_for_selector("#hand .card, #options .card", timeout=WAIT)  # his hand is back
    dot(anne, 1, "on")
    # a reload keeps the seat too
    again.reload()
    again.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    anne.context.close()
    ctx.close()


def test_the_same_player_continues_on_another_device(server: Server, browser: Any) -> None:
    anne = come_aboard(browser, server, "Anne")
    bob = come_aboard(browser, server, "Bob")
    table = create(anne, ["me", "open"])
    sit(bob, table)
    started(bob)
    bob.goto(server.url + "/")
    bob.click("#device-box summary")
    link = bob.input_value("#device-link")
    assert re.fullmatch(rf"{re.escape(server.url)}/#key=\S+", link), link
    screenshot(bob, "lobby-laptop-device-link")
    phone = context(browser, "phone").new_page()  # another device: nothing stored there
    phone.goto(link)
    phone.wait_for_selector("#me:has-text('You are Bob')", timeout=WAIT)
    assert "key" not in phone.url  # the key left the address at once
    stored = phone.evaluate("JSON.parse(localStorage.getItem('jamaica.player'))")
    assert stored["name"] == "Bob" and stored["key"]
    assert phone.locator("#welcome").is_hidden()
    mine = phone.locator(f"#my-tables .tcard[data-table='{table}']")
    mine.wait_for(timeout=WAIT)
    mine.locator("a.go").click()
    phone.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    phone.wait_for_selector("#hand .card, #options .card", timeout=WAIT)
    # a link with a key the server does not know stores nothing
    stranger = context(browser).new_page()
    stranger.goto(server.url + "/#key=not-a-real-key")
    stranger.wait_for_selector("#join-error:has-text('did not work')", timeout=WAIT)
    assert stranger.evaluate("localStorage.getItem('jamaica.player')") is None
    assert "key" not in stranger.url
    for page in (anne, bob, phone, stranger):
        page.context.close()


def test_chat_between_two_players_and_a_spectator(server: Server, browser: Any) -> None:
    anne = come_aboard(browser, server, "Anne")
    bob = come_aboard(browser, server, "Bob", "phone")
    cleo = come_aboard(browser, server, "Cleo")
    table = create(anne, ["me", "open"])
    sit(bob, table)
    started(anne)
    watch = cleo.locator(f"#playing-tables .tcard[data-table='{table}'] a")
    watch.wait_for(timeout=WAIT)
    watch.click()
    cleo.wait_for_selector("#whoami:has-text('Watching as Cleo')", timeout=WAIT)
    assert cleo.locator(".chat-hide").is_hidden()  # only players hide the spectators
    assert anne.locator(".chat-hide").is_visible()

    def say(page: Any, text: str) -> None:
        page.fill("#chat-input", text)
        page.press("#chat-input", "Enter")

    def line(page: Any, text: str) -> Any:
        loc = page.locator("#chat-list .chat-line", has_text=text)
        loc.first.wait_for(state="attached", timeout=WAIT)
        return loc.first

    say(anne, "Ahoy Bob!")
    for page in (anne, bob, cleo):
        assert "Anne" in line(page, "Ahoy Bob!").inner_text()
    bob.wait_for_selector(".chat-live:has-text('Anne says: Ahoy Bob!')", state="attached")
    say(bob, "Ahoy Anne")
    line(anne, "Ahoy Anne")
    say(cleo, EVIL)
    for page in (anne, bob, cleo):
        shown = line(page, "<script>")
        assert EVIL in shown.inner_text()  # as text
        assert page.locator("#chat-list img, #chat-list script").count() == 0
        assert "watching" in shown.inner_text()
        assert page.evaluate("window.__xss") is None
    bob.evaluate("document.querySelector('#chat').scrollIntoView({block: 'end'})")
    screenshot(bob, "table-chat-390x844", doc="table-chat-390x844")
    # Bob hides the spectators' lines; the choice stays after a reload
    bob.check("#hide-spectators")
    assert line(bob, "<script>").is_hidden() and line(bob, "Ahoy Bob!").is_visible()
    bob.reload()
    bob.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    assert bob.is_checked("#hide-spectators")
    assert line(bob, "<script>").is_hidden() and line(bob, "Ahoy Anne").is_visible()
    # the chat is kept with the table
    texts = [m["text"] for m in server.get(f"/api/tables/{table}/chat")["messages"]]
    assert texts == ["Ahoy Bob!", "Ahoy Anne", EVIL]
    # a flood is refused, and the page says why
    for k in range(7):
        say(anne, f"spam {k}")
    anne.wait_for_selector(".chat-note.error:has-text('at most 5')", timeout=WAIT)
    line(cleo, "spam 3")
    sent = [m["text"] for m in server.get(f"/api/tables/{table}/chat")["messages"]]
    assert "spam 3" in sent and "spam 5" not in sent and "spam 6" not in sent
    assert anne.get_attribute("#chat-input", "maxlength") == "300"
    # Cleo watches; the players do not count
    anne.wait_for_selector("#watchers:has-text('1 watching')", timeout=WAIT)
    # the replay shows the chat, as text
    cleo.goto(f"{server.url}/replay/{table}")
    line(cleo, "Ahoy Anne")
    assert EVIL in cleo.inner_text("#chat-list")
    assert cleo.locator("#chat-list img").count() == 0 and cleo.evaluate("window.__xss") is None
    for page in (anne, bob, cleo):
        page.context.close()


def test_the_lobby_at_a_laptops_and_a_phones_size(server: Server, browser: Any) -> None:
    """A lobby with something in every list: Anne's tables (her turn, waiting), an open table,
    a game being played, a finished game; the same page on a phone, without sideways scrolling."""
    anne = come_aboard(browser, server, "Anne")
    status, zoe = server.post("/api/players", {"name": "Zoe"})
    assert status == 201, zoe
    seats: list[dict[str, Any]] = [
        {"kind": "me"},
        {"kind": "open"},
        {"kind": "bot", "bot": "greedy", "name": "Mary Read"},
    ]
    status, d = server.post(
        "/api/tables", {"players": 3, "seats": seats, "seconds_per_decision": 60}, key=zoe["key"]
    )
    assert status == 201, d
    server.table(
        [("Kim", None), ("Lou", "greedy"), ("Ned", "random"), ("Oda", "greedy")], ghost_ship=True
    )
    done = server.table([("Bot A", "greedy"), ("Bot B", "random")])
    key = anne.evaluate("JSON.parse(localStorage.getItem('jamaica.player')).key")
    status, d = server.post(
        "/api/tables",
        {
            "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy", "name": "Edward Teach"}],
        },
        key=key,
    )
    assert status == 201, d
    create(anne, ["me", "open"])
    anne.goto(server.url + "/")
    anne.wait_for_selector("#my-tables .tcard.your-turn", timeout=WAIT)
    anne.wait_for_selector(f"#finished-tables .tcard[data-table='{done['id']}']", timeout=WAIT)
    anne.wait_for_selector("#open-tables .tcard button.sit", timeout=WAIT)
    anne.wait_for_selector("#playing-tables .tcard", timeout=WAIT)
    assert "Zoe" in anne.inner_text("#open-tables")
    screenshot(anne, "lobby-1280x800", doc="lobby-1280x800")
    anne.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    width, inner = anne.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    screenshot(anne, "lobby-390x844", doc="lobby-390x844")
    anne.context.close()


def test_the_creator_starts_early_with_bots_and_an_invited_player_keeps_the_seat(
    server: Server, browser: Any
) -> None:
    anne = come_aboard(browser, server, "Anne")
    bob = come_aboard(browser, server, "Bob")
    href, table = invite(anne, "Bob", ["open"])
    # Bob opens his private link: the seat becomes his (in his lobby), the secret leaves the address
    bob.goto(href)
    bob.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    bob.wait_for_url(re.compile(rf"/table/{table}$"), timeout=WAIT)
    bob.goto(server.url + "/")
    bob.locator(f"#my-tables .tcard[data-table='{table}'] a.go").click(timeout=WAIT)
    bob.wait_for_selector("#whoami:has-text('You are Bob')", timeout=WAIT)
    bob.wait_for_selector(
        "#banner-main:has-text('Waiting for players (1 open seat)')", timeout=WAIT
    )
    # nobody takes the open seat: Anne starts with a bot from her lobby
    anne.goto(server.url + "/")
    mine = anne.locator(f"#my-tables .tcard[data-table='{table}']")
    mine.wait_for(timeout=WAIT)
    assert "Waiting for 1 player" in mine.inner_text()
    mine.locator("button:has-text('Start now with bots')").click()
    anne.wait_for_url(re.compile(rf"/table/{table}$"), timeout=WAIT)
    for page in (anne, bob):
        started(page)
    assert seated(server, table)["seats"][2]["kind"] == "bot"
    for page in (anne, bob):
        page.context.close()


def test_a_friend_without_a_player_gets_one_and_the_creator_s_link_no_longer_opens_the_seat(
    server: Server, browser: Any
) -> None:
    """The creator holds every invite link. A friend who opens theirs with no player yet gets one
    (named as their seat), and the seat is bound to it: the link alone — the creator's copy —
    opens it for nobody, neither their hand in play nor its analysis after."""
    anne = come_aboard(browser, server, "Anne")
    href, table = invite(anne, "Cleo")
    token = href.split("token=", 1)[1].split("&", 1)[0]
    cleo = context(browser).new_page()  # a browser with no player in it
    cleo.goto(href)
    cleo.wait_for_selector("#whoami:has-text('You are Cleo')", timeout=WAIT)
    cleo.wait_for_url(re.compile(rf"/table/{table}$"), timeout=WAIT)  # claimed: the link is gone
    made = cleo.evaluate("JSON.parse(localStorage.getItem('jamaica.player'))")
    assert made["name"] == "Cleo" and made["key"]
    status, refused = server.post(f"/api/tables/{table}/analysis", {"seat": 1, "token": token})
    assert status == 403 and "a player holds this seat" in refused["error"], refused
    # whoever opens the link now (the creator's copy, in a fresh browser) watches, and is told why
    other = context(browser).new_page()
    other.goto(href)
    other.wait_for_selector("#log p:has-text('the link alone no longer opens it')", timeout=WAIT)
    other.wait_for_selector("#whoami:has-text('Watching')", timeout=WAIT)
    assert "token=" not in other.url and other.locator("#hand .card").count() == 0
    screenshot(other, "invite-claimed-watching")
    other.context.close()
    cleo.reload()  # her key finds her seat
    cleo.wait_for_selector("#whoami:has-text('You are Cleo')", timeout=WAIT)
    for page in (anne, cleo):
        page.context.close()


# Bob answers every question to the end of the game with JAMAICA_SOAK=1; by default he answers
# until Anne has taken her seat back, then lets his clock run too, and bots play both seats to the
# end (some 40 more clicks of his, played whole by other tests).
BOB_TO_THE_END = soak(False, True)


@pytest.mark.soak
def test_a_rematch_starts_with_both_players_seated(server: Server, browser: Any) -> None:
    """A timed table: Anne lets the clock run and a bot plays for her until she takes her seat
    back; Bob plays (to the end with JAMAICA_SOAK=1); Anne offers a rematch, Bob accepts."""
    anne = come_aboard(browser, server, "Anne")
    bob = come_aboard(browser, server, "Bob")
    table = create(anne, ["me", "open"], seconds=2)
    sit(bob, table)
    started(anne)
    took_back = False
    end = time.monotonic() + 300
    while not (anne.locator("#scores").count() and bob.locator("#scores").count()):
        assert time.monotonic() < end, "the game did not finish"
        if not took_back and anne.locator("#replaced:not([hidden])").count():
            assert "A bot is playing for you" in anne.inner_text("#replaced")
            replaced = "#seats .seat-item[data-seat='0'] .seat-tag:has-text('bot plays')"
            bob.wait_for_selector(replaced, timeout=WAIT)
            anne.click("#back")
            anne.wait_for_selector("#replaced", state="hidden", timeout=WAIT)
            took_back = True
        if took_back and not BOB_TO_THE_END:  # the clocks run out: bots play to the end
            with contextlib.suppress(PlaywrightError):
                bob.wait_for_selector("#scores", timeout=5000)
            continue
        try:  # Bob answers whatever he is asked (the page may move on under the click)
            bob.wait_for_selector(f"{ANSWER}, #scores", timeout=5000)
            if not bob.locator("#scores").count():
                bob.locator(ANSWER).first.click(timeout=2000, force=True)
        except PlaywrightError:
            continue
    assert took_back, "Anne's seat was never played by a bot"
    anne.click("#play-again")
    anne.wait_for_url(lambda u: f"/table/{table}" not in u, timeout=WAIT)
    new = str(anne.url.rsplit("/", 1)[1])
    anne.goto(f"{server.url}/table/{table}")  # back at the old table: no offer of her own rematch
    anne.wait_for_selector("#rematch:not([hidden]) a:has-text('go there')", timeout=WAIT)
    assert anne.locator("#accept-rematch, #decline-rematch").count() == 0
    assert "Your seat at the rematch is waiting" in anne.inner_text("#rematch")
    anne.locator("#rematch a").click()
    anne.wait_for_url(re.compile(rf"/table/{new}$"), timeout=WAIT)
    bob.wait_for_selector("#rematch:not([hidden]):has-text('Anne offers a rematch')", timeout=WAIT)
    bob.click("#accept-rematch")
    bob.wait_for_url(re.compile(rf"/table/{new}$"), timeout=WAIT)
    for page, name in ((anne, "Anne"), (bob, "Bob")):
        page.wait_for_selector(f"#whoami:has-text('You are {name}')", timeout=WAIT)
        started(page)
    t = seated(server, new)
    assert t["status"] == "playing" and t["open_seats"] == 0
    assert sorted(s["name"] for s in t["seats"]) == ["Anne", "Bob"]
    assert [s["name"] for s in t["seats"]] == ["Bob", "Anne"]  # rotated: another Captain first
    for page in (anne, bob):
        page.context.close()


def _stored_games(db: Path, key: str, finished: int) -> str:
    """Ann (whose key is `key`) and `finished` finished games of hers against greedy, stored as a
    live table stores them (results included), and one untimed game she has not finished."""
    store = SQLiteStore(db)
    store.create_player(PlayerRecord("id-ann", "Ann", key_hash(key), time.time()))
    seats = [{"kind": "player", "name": "Ann", "bot": None, "token_hash": None, "player": "id-ann"},
             {"kind": "bot", "name": "Mary Read", "bot": "greedy", "token_hash": None}]  # fmt: skip
    for g in range(finished):
        config, rng = Config(2), random.Random(10 + g)
        s = new_game(config)
        while not s.is_terminal():
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
        store.create_table(TableRecord(f"done{g}", config.to_dict(), seats, 0, None,
                                       time.time() - 3600 + g))  # fmt: skip
        rows = [ActionRow(i, int(a), "player") for i, a in enumerate(s.history)]
        store.append_batch([(f"done{g}", rows, True)],
                           outcomes={f"done{g}": outcome_of(s, seats, rated=False)})  # fmt: skip
    store.create_table(TableRecord("paused", Config(2).to_dict(), seats, 0, None, time.time()))
    store.close()
    return "paused"


def test_paused_games_stay_among_the_current_ones_and_five_finished_games_show(
    tmp_path: Path, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review saw a paused game (archived while unfinished) under "Recently finished", with
    the finished games' links and labels, pushing one of the five newest finished games out."""
    key = "k" * 43
    paused = _stored_games(tmp_path / "jamaica.db", key, finished=6)
    for name in ("JAMAICA_ARCHIVE_AFTER", "JAMAICA_ARCHIVE_FINISHED_AFTER", "JAMAICA_SWEEP_EVERY"):
        monkeypatch.setenv(name, "1")
    srv = Server(tmp_path / "jamaica.db").start()
    try:
        end = time.monotonic() + 30
        while srv.get("/api/status")["tables"]["archived"] < 7:  # the untimed game too
            assert time.monotonic() < end, srv.get("/api/status")
            time.sleep(0.3)
        page = context(browser).new_page()
        page.goto(f"{srv.url}/#key={key}")
        page.wait_for_selector("#me:has-text('You are Ann')", timeout=WAIT)
        mine = page.locator("#my-tables")
        card = mine.locator(f".tcard[data-table='{paused}']")
        card.wait_for(timeout=WAIT)
        assert card.locator(".tstate").inner_text() == "Paused (opens when visited)"
        assert card.locator("a.go").inner_text() == "Back to my seat"
        names = mine.locator(".tcard, h3").evaluate_all(
            "els => els.map(e => e.tagName === 'H3' ? 'heading' : e.dataset.table)")
        assert names == [paused, "heading", "done5", "done4", "done3", "done2", "done1"], names
        assert paused not in page.inner_text("#finished-tables")
        screenshot(page, "lobby-paused-and-finished-1280x800")
        page.context.close()
    finally:
        srv.stop()


def test_the_lobby_does_not_say_no_game_is_played_while_mine_is(
    tmp_path: Path, browser: Any
) -> None:
    """Helper's review: "Being played: No game is being played." while "My tables" listed two of
    the reader's games in progress (their own are listed there, not here)."""
    srv = Server(tmp_path / "j.db").start()
    try:
        anne = come_aboard(browser, srv, "Anne")
        assert anne.inner_text("#playing-tables") == "No game is being played."
        table = create(anne, ["me", "bot"])
        started(anne)
        anne.goto(srv.url + "/")
        anne.locator(f"#my-tables .tcard[data-table='{table}']").wait_for(timeout=WAIT)
        anne.wait_for_selector("#playing-tables:has-text('No other game is being played.')",
                               timeout=WAIT)  # fmt: skip
        anne.context.close()
    finally:
        srv.stop()
