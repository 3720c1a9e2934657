"""Issue 26 on the server: each reader's words in their language. A connection's hello may ask
for a language (else its `?lang=`, else its `Accept-Language`); the log's sentences, the
question, its hints, the notes and the errors it is sent are in that language, while the codes
and numbers (event kinds and arguments, actions) are the same for everyone — two readers of one
table, one in French and one in English, read the same game."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import connect

from .server import Server, hello, recv, send, until, updates

NNBSP = "\u202f"


def _question(m: dict[str, Any]) -> bool:
    return m["op"] == "update" and m["question"] is not None


def _kept(m: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    events += m.get("events", ())
    return m


def _log(ws: Any, seconds: float = 1.0) -> list[dict[str, Any]]:
    """The events a connection is sent in the next `seconds`."""
    return [e for m in updates(ws, seconds) for e in m["events"]]


def test_one_seat_read_in_french_and_in_english_is_the_same_game(server: Server) -> None:
    """The same seat open in two tabs, one in French, one in English (no language asked, no
    Accept-Language): the same events and questions, each in its reader's words."""
    t = server.table([("Ann", None), ("Bob", "greedy")])
    with server.ws(t["id"]) as fr, server.ws(t["id"]) as en, server.ws(t["id"]) as watcher:
        hello(fr, 0, t["seats"][0]["token"], "fr")
        hello(en, 0, t["seats"][0]["token"])
        hello(watcher, None, None)
        french: list[dict[str, Any]] = []
        while True:  # to the first card question (the Captain places the dice first)
            asked = until(fr, lambda m: _question(_kept(m, french)))
            if asked["question"]["kind"] == "card":
                break
            assert f"{NNBSP}:" in asked["question"]["prompt"]  # "Ann, Capitaine : les dés…"
            send(fr, op="act", action=asked["question"]["options"][0]["action"],
                 turn=asked["turn"])  # fmt: skip
        q = asked["question"]
        assert q["kind"] == "card" and "choisis" in q["prompt"].lower(), q["prompt"]
        assert all(" / " in o["label"] for o in q["options"])  # "Avancer / Poudre"
        assert any("Avancer" in o["label"] or "Reculer" in o["label"] or "Nourriture" in o["label"]
                   for o in q["options"])  # fmt: skip
        assert all(p["summary"] and "then" not in p["summary"] for p in q["preview"])
        english: list[dict[str, Any]] = []
        end = time.monotonic() + 10
        while len(english) < len(french) and time.monotonic() < end:
            english += _log(en, 0.3)
        # the same events, codes and numbers, each in its reader's words
        shared = min(len(french), len(english))
        assert shared > 3
        assert [(e["kind"], e["args"]) for e in french[:shared]] == [
            (e["kind"], e["args"]) for e in english[:shared]
        ]
        assert french[0]["text"].startswith("La course commence"), french[0]["text"]
        assert english[0]["text"].startswith("The race begins"), english[0]["text"]
        # an error, in the reader's language, with its code for programs
        send(fr, op="act", action="no such action", turn=asked["turn"])
        err = until(fr, lambda m: m["op"] == "error")
        assert err["code"] in ("illegal", "bad_message") and "pas une action" in err["message"], err
        send(watcher, op="act", action="play fwd-fwd")
        err = until(watcher, lambda m: m["op"] == "error")
        assert (err["code"], err["message"]) == ("not_seated", "spectators cannot act")


def test_the_connection_language_before_a_hello(server: Server) -> None:
    """Before any hello, errors follow `?lang=` or the handshake's Accept-Language."""
    t = server.table([("Ann", None), ("Bob", "greedy")])
    url = f"ws://127.0.0.1:{server.port}/ws/{t['id']}"
    with connect(url + "?lang=fr", open_timeout=10, ping_interval=None) as ws:
        send(ws, op="act", action="play fwd-fwd")
        err = recv(ws)
        assert (err["code"], err["message"]) == ("no_hello", "dis d’abord hello")
    headers = {"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"}
    with connect(url, open_timeout=10, ping_interval=None, additional_headers=headers) as ws:
        ws.send("[1, 2")
        err = recv(ws)
        assert err["code"] == "bad_json" and err["message"] == "un message doit être un objet JSON"
        # a hello's own language wins over the handshake's
        hello(ws, None, None, "en")
        send(ws, op="act", action="play fwd-fwd")
        assert until(ws, lambda m: m["op"] == "error")["message"] == "spectators cannot act"


def test_a_hello_language_is_checked_at_the_edge(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", "greedy")])
    with server.ws(t["id"]) as ws:
        for bad in (5, "x" * 36, ["fr"]):
            send(ws, op="hello", seat=None, lang=bad)
            err = recv(ws)
            assert err["code"] == "bad_message" and "lang" in err["message"], err
        hello(ws, None, None, "de-DE")  # a language we do not speak: English, no error
        send(ws, op="act", action="play fwd-fwd")
        assert until(ws, lambda m: m["op"] == "error")["message"] == "spectators cannot act"


def _http(server: Server, path: str, lang: str, body: bytes | None = None) -> tuple[int, Any]:
    headers = {"Accept-Language": lang, "content-type": "application/json"}
    req = urllib.request.Request(server.url + path, data=body, headers=headers,
                                 method="POST" if body is not None else "GET")  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_http_errors_and_the_replay_speak_the_readers_language(server: Server) -> None:
    gone = "cette table n’existe pas"
    assert _http(server, "/api/tables/nope/replay", "fr") == (404, {"error": gone})
    assert _http(server, "/api/tables/nope/replay", "en") == (404, {"error": "no such table"})
    status, d = _http(server, "/api/tables", "fr", b'{"seats": 3}')
    assert status == 400 and d["error"] == "seats doit être une liste de {name, bot}"
    status, d = _http(server, "/api/players", "fr", json.dumps({"name": " "}).encode())
    assert status == 400 and d["error"] == "choisis un nom de 1 à 24 caractères", d
    t = server.table([("Ann", "greedy"), ("Bob", "greedy")])
    end = time.monotonic() + 30
    while server.get("/api/tables/" + t["id"] + "/replay")["steps"] < 20:
        assert time.monotonic() < end
        time.sleep(0.1)
    fr = _http(server, f"/api/tables/{t['id']}/replay?step=20", "fr")[1]
    en = _http(server, f"/api/tables/{t['id']}/replay?step=20", "en")[1]
    assert fr["view"] == en["view"] and len(fr["events"]) == len(en["events"]) > 0
    assert fr["events"][0]["text"].startswith("La course commence")
    assert en["events"][0]["text"].startswith("The")
    # the codes are the same for every reader, as at the table
    assert [(e["kind"], e["args"]) for e in fr["events"]] == [
        (e["kind"], e["args"]) for e in en["events"]
    ]
    chosen = _http(server, f"/api/tables/{t['id']}/replay?step=20&lang=fr", "en")[1]
    assert chosen["events"] == fr["events"]  # the page's choice, sent as ?lang=, wins


def test_french_typography_in_what_the_server_says(server: Server) -> None:
    """A narrow no-break space before the high punctuation, never a plain space."""
    t = server.table([("Ann", None), ("Bob", "greedy")])
    with server.ws(t["id"]) as ws:
        hello(ws, 0, t["seats"][0]["token"], "fr")
        q = until(ws, _question)["question"]
        for text in [q["prompt"], *(o["label"] for o in q["options"])]:
            for mark in ":;!?":
                assert f" {mark}" not in text, text
        assert f"{NNBSP}:" in q["prompt"], q["prompt"]


def test_a_card_offered_early_is_asked_in_the_readers_language(server: Server) -> None:
    """Two players, both reading French: while one is asked the engine's question (the
    Captain's dice, or the first card), the other is offered their card early — and that offer's
    prompt is French too (a review found "Choose your card — everyone chooses at the same time."
    in English on a French table, every round)."""
    t = server.table([("Ann", None), ("Bob", None)])
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, t["seats"][0]["token"], "fr")
        hello(b, 1, t["seats"][1]["token"], "fr")
        early: dict[str, Any] | None = None
        end = time.monotonic() + 30
        while early is None and time.monotonic() < end:
            for ws in (a, b):
                for m in updates(ws, 0.2):
                    q = m["question"]
                    if q is not None and q["early"]:
                        early = q
                    elif q is not None and q["kind"] == "dice_order":  # the Captain's dice
                        send(ws, op="act", action=q["options"][0]["action"], turn=m["turn"])
        assert early is not None, "no card was offered early"
        assert early["kind"] == "card"
        assert "Choose your card" not in early["prompt"], early["prompt"]
        assert "choisis" in early["prompt"].lower(), early["prompt"]
