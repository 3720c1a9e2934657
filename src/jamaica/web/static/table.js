// A seat (or a spectator) at a table: one WebSocket, reconnecting by itself.
import { cardElement, drawBattle, drawBoard, drawDice, drawShips, el, scoreTable } from "/static/common.js";

const tableId = location.pathname.split("/").pop();
// The seat and its secret come in the URL's fragment (#seat=0&token=…), which no browser sends
// to a server. Old links had them in the query: still read them, then take them out of the
// address at once, so the token lingers in no history entry, log or Referer.
const fragment = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
const params = fragment.has("token") || fragment.has("seat") ? fragment : query;
const seat = params.has("seat") ? Number(params.get("seat")) : null;
const token = params.get("token");
if (params === query && (query.has("token") || query.has("seat"))) {
  const hash = seat === null ? "" : `#seat=${seat}&token=${encodeURIComponent(token || "")}`;
  history.replaceState(null, "", location.pathname + hash);
}
const $ = (id) => document.getElementById(id);
// Answers after which reconnecting cannot help: say it once and stop.
const FINAL = { no_table: true, unavailable: true };
let layout = null, names = [], lastUpdate = null, socket = null, retry = 500, stopped = false;

function status(text) { $("status").textContent = text; }

function logLine(text, cls = "") {
  const log = $("log");
  const p = el("p", cls ? { class: cls } : {}, text);
  log.appendChild(p);
  log.scrollTop = log.scrollHeight;
}

function send(msg) { if (socket && socket.readyState === 1) socket.send(JSON.stringify({ v: 1, ...msg })); }

function act(action) {
  send({ op: "act", action, turn: lastUpdate ? lastUpdate.turn : null });
  $("question").hidden = true;
}

function render(u) {
  const view = u.view;
  const q = u.question;
  const targets = q && q.kind === "move" ? q.context.destinations : [];
  drawBoard($("board"), layout, view, names, targets, (space) => act(`move ${space}`));
  drawShips($("ships"), view, names);
  drawDice($("dice"), view);
  drawBattle($("battle"), view, names);
  const hand = $("hand");
  hand.replaceChildren();
  for (const c of view.hand || []) {
    const card = cardElement(c);
    if (q && q.kind === "card") {
      card.classList.add("clickable");
      card.addEventListener("click", () => act(`play ${c}`));
    }
    hand.appendChild(card);
  }
  if (view.chosen) hand.appendChild(el("div", { class: "muted" }, `chosen: ${view.chosen}`));
  for (const e of u.events) logLine(e.text, e.kind === "round" ? "round" : "");
  for (const n of u.notes) logLine(n, "note");
  const box = $("question");
  if (q) {
    $("prompt").textContent = q.prompt;
    const opts = $("options");
    opts.replaceChildren();
    for (const o of q.options) {
      const b = el("button", { "data-action": o.action }, o.label);
      b.addEventListener("click", () => act(o.action));
      opts.appendChild(b);
    }
    box.hidden = false;
  } else {
    box.hidden = true;
  }
  if (view.game_over) {
    const fin = $("final");
    fin.hidden = false;
    $("winner").textContent = "The race is over. Winner: " + view.winners.map((w) => names[w]).join(" and ");
    fin.querySelector("table")?.remove();
    fin.appendChild(scoreTable(view, names));
    status("game over");
  } else if (q) {
    status("your turn");
  } else {
    const who = view.pending.player;
    status(who === null ? "the dice are rolling…" : `waiting for ${names[who]}…`);
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  socket.onopen = () => { retry = 500; send({ op: "hello", seat, token }); };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.op === "welcome") {
      names = msg.names;
      $("log").replaceChildren();
      $("whoami").textContent = msg.seat === null ? "spectator" : `you are ${names[msg.seat]}`;
    } else if (msg.op === "update") {
      lastUpdate = msg;
      render(msg);
    } else if (msg.op === "error") {
      if (FINAL[msg.code]) {
        stopped = true;
        logLine(`⚠ ${msg.message}`, "note");
        status(msg.message);
        return;
      }
      logLine(`⚠ ${msg.message}`, "note");
      if (msg.code === "bad_token" || msg.code === "bad_seat") status(msg.message);
      if (msg.code === "too_many_connections" || msg.code === "flooding") retry = 5000;
    }
  };
  socket.onclose = (ev) => {
    if (stopped || ev.code === 4404 || ev.code === 4503) {
      stopped = true;
      return;
    }
    status("connection lost — reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

fetch("/api/board").then((r) => r.json()).then((b) => { layout = b; connect(); });
