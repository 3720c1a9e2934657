// A seat (or a spectator) at a table: one WebSocket, reconnecting by itself; the updates play
// out through the event queue (pacing.js), never far behind the present; the question, the hand,
// the log (events and the server's notes), the panels, and who plays which seat.
import { el } from "/static/common.js";
import { BoardView, ready as boardReady, trackPath } from "/static/boardview.js";
import { setUpHelp } from "/static/help.js";
import { bringIntoSight } from "/static/sight.js";
import { Log, summaryList } from "/static/log.js";
import { BattlePanel, DicePanel, drawShips, flashShip, holdChange, placeWords, scoreTable, winnerWords } from "/static/panels.js";
import { PER_SPACE, Pacer, SPEEDS, baseDuration } from "/static/pacing.js";
import { QuestionPanel } from "/static/question.js";
import { FACES, actionWords, amount, andWords, cardTitle, clock, ghostName, noteWords, plain, promptWords, shortageWords } from "/static/words.js";
import { currentLang, fetchIn, fmt, loadWords, n, t } from "/static/i18n.js";
import { api, createPlayer, loadPlayer } from "/static/player.js";
import { Chat } from "/static/chat.js";
import { Rematch } from "/static/rematch.js";
import { openSeats, seatItems } from "/static/seats.js";

const tableId = location.pathname.split("/").pop();
// The seat and its secret come in the URL's fragment (#seat=0&token=…), which no browser sends
// to a server. Old links had them in the query: still read them, then take them out of the
// address at once, so the token lingers in no history entry, log or Referer.
const fragment = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
const params = fragment.has("token") || fragment.has("seat") ? fragment : query;
const seat = params.has("seat") ? Number(params.get("seat")) : null;
let token = params.get("token");
// Without a seat link, the player's key (player.js) finds their seat, or makes them a named
// spectator; an invite link opened by a player binds that seat to them (claim), and the link's
// secret leaves the address.
let player = loadPlayer();
let useKey = Boolean(player) && token === null;
let watching = false; // the link's seat is claimed by its player: this page watches…
let watchingNote = false; // …and says why, once
if (params === query && (query.has("token") || query.has("seat"))) {
  const hash = seat === null ? "" : `#seat=${seat}&token=${encodeURIComponent(token || "")}`;
  history.replaceState(null, "", location.pathname + hash);
}
await loadWords(); // the reader's words, before anything is drawn
const $ = (id) => document.getElementById(id);
// Answers after which reconnecting cannot help: say it once and stop.
const FINAL = { no_table: true, unavailable: true };
const TITLE = t("Jamaica — table");
const store = (() => { try { return window.localStorage; } catch { return null; } })();

let layout = null, names = [], mySeat = null, ghost = -1, socket = null, retry = 500, stopped = false;
let initial = true; // the next update is the present after a (re)connection: show it at once
let shown = null; // the update whose state is on screen
let lastMoves = {}; // ship -> {from, to}: its last move, marked on the board
let pending = null; // an answer not yet accepted: {actions, words, turn, early, sent}
let preview = null; // destinations of the card pointed at: [{space, cost, battle, shortage, time}]
let board = null;
let finished = false;
let tableStatus = null; // "waiting", "playing", "finished"… (welcome, seats)
let seatsMsg = null; // the last `seats` message
let you = null; // welcome's `you`: {name} or null
let meReplaced = false; // a bot plays this page's seat (the newest update's `replaced`)

const log = new Log($("log"), $("log-live"));
const dice = new DicePanel($("dice"));
const battle = new BattlePanel($("battle"));
const question = new QuestionPanel(
  { box: $("question"), prompt: $("prompt"), note: $("qnote"), options: $("options"), preview: $("preview"),
    hand: $("hand"), handPanel: $("hand-panel") },
  (actions) => act(actions),
  (dests, draw = true) => { preview = dests; if (draw) drawBoard(); },
  (card) => changeCard(card),
);

/** The header's status (read out; on a phone shown only when it is an `alert`: the banner says
 * whose turn it is, but not that the connection is lost or a seat refused). */
function status(text, alert = false) {
  // while the connection is lost, that stays said (updates received before may still play out)
  if (!alert && document.body.classList.contains("offline")) return;
  $("status").textContent = text;
  $("status").classList.toggle("alert", alert);
}
function announce(text) { $("announce").textContent = text; }

// --- the event queue -----------------------------------------------------------------------------
const QUIET_CAPTION = new Set(["start", "draw"]);

/** A move's path along the track (worked out once: the queue asks for its length first). */
function pathOf(ev) {
  if (!ev.path) {
    const [, from, to] = ev.args;
    ev.path = trackPath(layout, from, to, ev.kind === "move" ? Boolean(ev.args[3]) : false);
  }
  return ev.path;
}

function isMove(ev) {
  return (ev.kind === "move" || ev.kind === "fallback") && Array.isArray(ev.args) && Boolean(layout);
}

/** How long an event wants at normal speed (ms). */
function eventCost(ev) {
  return baseDuration(ev, isMove(ev) ? pathOf(ev).length - 1 : 0);
}

function playEvent(ev, u, animate) {
  log.add(ev, animate);
  const a = Array.isArray(ev.args) ? ev.args : null;
  let spaces = 0;
  // at every speed the newest event, never a stale one (what the log leaves out, too: "The race
  // begins" while the table waits for players)
  if (!QUIET_CAPTION.has(ev.kind)) $("caption").textContent = plain(ev.text);
  if (isMove(ev)) {
    const [ship, , to] = a;
    const path = pathOf(ev);
    lastMoves[ship] = path;
    spaces = path.length - 1;
    if (animate && board) board.move(ship, path, spaces * PER_SPACE * pacer.effective());
    const where = $("ships").querySelector(`.shipcard[data-ship="${ship}"] .ship-place`);
    if (where) where.textContent = placeWords(to);
  } else if (a && ev.kind === "roll") {
    dice.rolled(a[0], a[1], animate);
  } else if (a && ev.kind === "dice") {
    dice.placed(a[0], a[1], a[2], names, animate);
  }
  battle.event(ev, names, shown ? shown.view : null);
  const change = holdChange(ev);
  const ms = baseDuration(ev, spaces);
  if (change && animate) flashShip($("ships"), change[0], change[1], change[2]);
  if (a && animate && board) callOut(ev, a, ms * pacer.effective());
  return ms;
}

/** The board's call-outs: a battle, a shortage, a treasure, a payment, a load, where it happens. */
function callOut(ev, a, ms) {
  const at = (ship) => board.spaceOf(ship);
  const long = Math.max(ms, 900 * pacer.effective());
  switch (ev.kind) {
    case "battle": board.flash(a[2], t("Battle!"), "battle", long * 2); break;
    case "win": board.flash(at(a[0]), t("{name} wins", { name: names[a[0]] }), "battle", long); break;
    case "tie": board.flash(at(a[0]), t("A tie"), "battle", long); break;
    case "shortage": board.flash(at(a[0]), shortageWords(a[1]), "shortage", long); break;
    case "shortage_die": board.flash(at(a[0]), t("Shortage die: {face}", { face: FACES[a[1]] }), "shortage", long); break;
    case "power": case "face_down": board.flash(at(a[0]), t("Treasure!"), "treasure", long); break;
    case "pay": board.flash(a[3], `−${amount(a[2], a[1])}`, "info", ms); break;
    case "load": board.flash(at(a[0]), `+${amount(a[2], a[1])}`, "info", ms); break;
    case "take": board.flash(at(a[0]), `+${amount(a[3], a[2])}`, "battle", ms); break;
    case "finish": board.flash(0, t("{name} is home!", { name: names[a[0]] }), "treasure", long); break;
    default: break;
  }
}

/** A note of the server (time ran out, a bot plays for someone, someone is back): a line of
 * the log, read out, and the caption while the game plays out. */
function playNote(text, u, animate) {
  const words = noteWords(text, names);
  log.note(words);
  if (animate) $("caption").textContent = words;
}

/** Whether the newest update still asks the question `u` asked (the same turn, or the same card
 * chosen early): else the server has settled it meanwhile (answered, timed out, a bot took the
 * seat) and it is not shown. */
function stillAsked(u, newest) {
  if (!newest || newest === u) return true;
  const a = u.question, b = newest.question;
  if (!a || !b || a.kind !== b.kind) return false;
  if (!a.early && (b.early || newest.turn !== u.turn)) return false;
  return a.options.map((o) => o.action).join() === b.options.map((o) => o.action).join();
}

function settle(u, newest = null) {
  // What the page shows is never a question the server has settled, nor one a bot answers.
  if (u.question && (u.replaced || !stillAsked(u, newest))) u = { ...u, question: null };
  shown = u;
  const view = u.view;
  // for the tests: the turn on screen, and how many of the updates received it has shown
  Object.assign(document.body.dataset, { turn: String(u.turn), shown: String(u.seq || 0) });
  const isNew = question.show(u, { view, names, seat: mySeat, layout });
  drawBoard();
  drawShips($("ships"), view, names, mySeat);
  if (tableStatus === "waiting" && !view.round) {  // no game yet: no "Round 0"
    $("dice").replaceChildren(el("span", { class: "dice-wait" }, t("The game starts when every seat is taken.")));
    dice.state = null;
  } else dice.show(view, names);
  battle.fromView(view, names);
  if (u.question && isNew) {
    battle.asked(u.question.kind);
    newQuestion(u);
  }
  turnState(u);
  showSince(u);
  if (isNew || !u.question) bringIntoSight(u.question ? u.question.kind : null); // after the banner's words
  if (view.game_over) finish(view);
}

const pacer = new Pacer({
  play: playEvent,
  note: playNote,
  cost: eventCost,
  settle,
  onChange(left) {
    const skip = $("skip");
    skip.hidden = left === 0;
    skip.textContent = t("Skip to now ({n})", { n: fmt(left) });
    document.body.dataset.queue = String(left);
  },
});

function drawBoard() {
  if (!shown || !board) return;
  const q = shown.question;
  const onPick = (space) => act([`move ${space}`]);
  if (preview && preview.length) {
    const hints = {};
    for (const d of preview) {
      const words = [d.cost, d.battle ? t("battle") : "", d.shortage ? t("shortage!") : ""].filter(Boolean).join(" · ");
      const text = d.time === "evening" ? t("Evening: {what}", { what: words }) : t("Morning: {what}", { what: words });
      hints[d.space] = hints[d.space] && hints[d.space] !== text ? `${hints[d.space]} / ${text}` : text;
    }
    board.draw(shown.view, names, { targets: [...new Set(preview.map((d) => d.space))], onPick: null, lastMoves, hints });
  } else if (q && q.kind === "move") {
    const targets = (q.context && q.context.destinations) || [];
    board.draw(shown.view, names, { targets, onPick, lastMoves, hints: question.moveHints || {} });
  } else {
    board.draw(shown.view, names, { targets: [], onPick: null, lastMoves, hints: {} });
  }
}

// --- whose turn ----------------------------------------------------------------------------------
let countdownTimer = null;

function newQuestion(u) {
  const q = u.question;
  preview = null;
  announce(t("Your turn: {question}", { question: promptWords(q.prompt, names[mySeat], q.kind === "pay" ? q.plans : null) }));
  if (!$("help").open) question.focusFirst();
  if (soundOn) beep();
}

function turnState(u) {
  if (tableStatus === "waiting") { waitingState(); return; }
  const q = u.question;
  const view = u.view;
  const bar = $("banner");
  bar.hidden = false;
  bar.classList.toggle("mine", Boolean(q) && !view.game_over);
  bar.classList.toggle("over", view.game_over);
  if (view.game_over) {
    banner(t("The game is over"), t(": see the scores below."));
    document.title = t("Game over — Jamaica");
    status(t("The game is over."));
    countdown(null);
    return;
  }
  if (q) {
    banner(t("Your turn"), q.early ? t(": choose your card (everyone chooses at the same time)")
      : t(": {question}", { question: promptWords(q.prompt, names[mySeat], q.kind === "pay" ? q.plans : null) }));
    document.title = t("▶ Your turn — Jamaica");
    status(t("Your turn"));
    let at = typeof q.deadline_at === "number" ? q.deadline_at : null;
    if (at === null && typeof q.deadline === "number" && !q.early) at = (u.received || Date.now()) + q.deadline * 1000;
    countdown(at);
    return;
  }
  document.title = TITLE;
  countdown(null);
  const waiting = Array.isArray(u.waiting_for) ? u.waiting_for : view.pending.player === null ? [] : [view.pending.player];
  const others = waiting.filter((k) => k !== mySeat).map((k) => names[k]);
  const byBot = waiting.filter((k) => k !== mySeat && seatReplaced(k)).map((k) => names[k]);
  let text;
  if (u.early_choice && mySeat !== null) {
    const players = others.length ? andWords(others) : t("the others");
    text = t("You chose {card}. Waiting for {players}…", { card: cardTitle(u.early_choice), players });
  }
  else if (!others.length) text = view.pending.chance ? t("The dice are rolling…") : t("Playing…");
  else if (byBot.length === others.length) text = t("A bot is playing for {players}…", { players: andWords(others) });
  else text = t("Waiting for {players}…", { players: andWords(others) });
  banner(text, "");
  status(text);
}

/** Whether a bot plays seat k for its absent player (the `seats` message). */
function seatReplaced(k) {
  const s = seatsMsg && Array.isArray(seatsMsg.seats) ? seatsMsg.seats[k] : null;
  return Boolean(s && s.replaced);
}

function banner(main, detail) {
  $("banner-main").textContent = main;
  $("banner-detail").textContent = detail;
}

function countdown(at) {
  const box = $("countdown");
  clearInterval(countdownTimer);
  if (at === null) { box.hidden = true; return; }
  const tick = () => {
    const left = (at - Date.now()) / 1000;
    box.hidden = false;
    box.textContent = t("{time} left", { time: clock(left) });
    box.classList.toggle("urgent", left <= 10);
    box.setAttribute("aria-label", n("{n} second left", "{n} seconds left", Math.max(0, Math.ceil(left))));
  };
  tick();
  countdownTimer = setInterval(tick, 250);
}

function showSince(u) {
  const box = $("since");
  const q = u.question;
  if (!q || !(q.kind === "card" || q.kind === "dice_order")) { box.hidden = true; return; }
  const list = summaryList(log.summary(), names, ghost);
  box.hidden = !list;
  $("since-list").replaceChildren(...(list ? [list] : []));
}

function finish(view) {
  const fin = $("final");
  fin.hidden = false;
  $("winner").textContent = winnerWords(view, names);
  $("final-table").replaceChildren(scoreTable(view, names, mySeat));
  // a seat's link carries its token on to the replay (in the fragment): its player's analysis
  $("replay-link").href = `/replay/${tableId}` + (token && seat !== null ? `#seat=${seat}&token=${encodeURIComponent(token)}` : "");
  question.box.hidden = true;
  $("hand-panel").hidden = true;
  $("replaced").hidden = true;
  if (!finished) {
    finished = true;
    fin.scrollIntoView({ block: "start" });
    rematch.gameOver();
  }
}

// --- answering -----------------------------------------------------------------------------------
function act(actions) {
  const q = question.question;
  if (!q || pending) return;
  pending = { actions, words: answerWords(q, actions), turn: q.turn, early: Boolean(q.early), sent: false };
  question.setBusy(true);
  for (const b of $("options").querySelectorAll("button")) {
    if (b.dataset.action === actions.join(";")) b.classList.add("picked");
  }
  if (socket && socket.readyState === 1) sendPending();
  else question.say(t("Not connected: your answer is kept and will be sent as soon as the connection is back."), "warn");
}

/** An answer in the player's words: the label of the option (or way to pay) they chose. */
function answerWords(q, actions) {
  const key = actions.join(";");
  const plan = (q.plans || []).find((p) => (p.actions || []).join(";") === key);
  if (plan) return plain(plan.label);
  const opt = actions.length === 1 ? (q.options || []).find((o) => o.action === actions[0]) : null;
  return opt ? plain(opt.label) : actions.map((a) => actionWords(a, names)).join(", ");
}

/** A card chosen early may be changed until the engine asks for it (sent like an early answer). */
function changeCard(card) {
  if (pending || !shown) return;
  pending = { actions: [`play ${card}`], words: cardTitle(card), turn: shown.turn, early: true, sent: false };
  if (socket && socket.readyState === 1) sendPending();
  else status(t("Not connected: your new card is kept and will be sent when the connection is back."), true);
}

function sendPending() {
  if (!pending) return;
  const msg = { op: "act", turn: pending.early ? null : pending.turn };
  if (pending.actions.length === 1) msg.action = pending.actions[0];
  else msg.actions = pending.actions;
  send(msg);
  pending.sent = true;
  if (question.question) question.say(t("Sending…"));
}

/** After reconnecting: send the kept answer if its question is still asked, else say so. */
function resendPending(u) {
  if (!pending) return;
  const q = u.question;
  let still = false;
  if (q && pending.early) still = q.kind === "card" && q.options.some((o) => o.action === pending.actions[0]);
  else if (q) still = u.turn === pending.turn;
  if (still) {
    sendPending();
    question.setBusy(true);
    question.say(t("Connected again: your answer was sent."));
  } else {
    const lost = pending.words || pending.actions.map((a) => actionWords(a, names)).join(", ");
    pending = null;
    question.setBusy(false);
    log.note(t("Your answer “{answer}” was not sent: the game moved on while the connection was down.", { answer: lost }));
    if (q) question.say(t("Your previous answer could not be sent: the game moved on. Please answer again."), "error");
  }
}

function send(msg) {
  if (socket && socket.readyState === 1) socket.send(JSON.stringify({ v: 1, ...msg }));
}

// --- the connection ------------------------------------------------------------------------------
// Several nodes: the node a table is kept by may send us there (`moved`): a route of the proxy in
// front of them (/node/NAME) or a node's own address; a lost connection goes back to the front door.
let nodeBase = "";

function socketUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  if (/^https?:\/\//.test(nodeBase)) return `${nodeBase.replace(/^http/, "ws")}/ws/${tableId}`;
  return `${proto}://${location.host}${nodeBase}/ws/${tableId}`;
}

/** Say who this page is: the player's key (their seat here, or a named spectator), the link's
 * seat and token (with the key too, if any: once the seat is bound to them, the link's token
 * alone no longer opens it), or a spectator. In the reader's language: the server says the
 * events, the questions and its errors in it. */
function hello() {
  const lang = currentLang();
  if (useKey) send({ op: "hello", key: player.key, lang });
  else send({ op: "hello", seat: watching ? null : seat, token, ...(player ? { key: player.key } : {}), lang });
}

function connect() {
  socket = new WebSocket(socketUrl());
  socket.onopen = () => {
    retry = 500;
    hello();
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.op === "welcome") {
      names = msg.names;
      mySeat = msg.seat;
      rematch.seat = mySeat;
      ghost = names.length > msg.config.players ? msg.config.players : -1;
      ghostName(names, ghost);
      initial = true;
      pacer.clear();
      log.reset(names, mySeat, ghost);
      if (watchingNote) {
        watchingNote = false;
        log.note("⚠ " + t("This seat is its player's now: the link alone no longer opens it. You are watching. If it is yours, open the table from your lobby on the device where you first opened the link, or use “Play on another device” there to continue here."));
      }
      if (msg.status) tableStatus = msg.status;
      you = msg.you || null;
      whoami();
      chat.connected();
      chat.canHide(mySeat !== null);
      if (token !== null && mySeat !== null) claim();
    } else if (msg.op === "moved") {  // another node keeps the table: reconnect there at once
      nodeBase = typeof msg.to === "string" ? msg.to : "";
      retry = 0;
    } else if (msg.op === "seats") {
      drawSeats(msg);
    } else if (msg.op === "chat") {
      chat.receive(Array.isArray(msg.messages) ? msg.messages : []);
    } else if (msg.op === "rematch") {
      rematch.offered(msg.table, msg.by);
    } else if (msg.op === "update") {
      msg.received = Date.now();
      if (typeof msg.replaced === "boolean") replaced(msg.replaced && !(msg.view && msg.view.game_over));
      if (pending && pending.sent && (msg.turn !== pending.turn || (pending.early && msg.early_choice))) {
        pending = null;
      }
      // A question on screen that this update no longer asks (answered, timed out, a bot took
      // the seat) goes at once, before the events that lead here have played out.
      if (!initial && shown && shown.question && !stillAsked(shown, msg)) settle({ ...shown, question: null });
      if (initial) {
        initial = false;
        pacer.push(msg, true);
        log.toBottom();
        resendPending(msg);
      } else {
        pacer.push(msg);
      }
    } else if (msg.op === "error") {
      if (/^chat/.test(String(msg.code))) {  // a chat line refused (a flood, too long): said under the field
        chat.say(plain(msg.message), "error");
        return;
      }
      if (msg.code === "chosen") {  // this card again (a double click, a resend): it stands
        pending = null;
        question.setBusy(false);
        return;
      }
      if (FINAL[msg.code]) {
        stopped = true;
        log.note(`⚠ ${msg.message}`);
        status(plain(msg.message), true);
        return;
      }
      if (pending) {
        // The server names the action as the engine does ('take 1'): say it as the button did.
        const why = msg.code === "illegal" ? t("“{answer}” is not possible now", { answer: pending.words }) : plain(msg.message);
        pending = null;
        question.setBusy(false);
        question.say(t("Not accepted: {why}.", { why }), "error");
        question.focusFirst();
        log.note("⚠ " + t("Not accepted: {why}.", { why }));
      } else log.note(`⚠ ${msg.message}`);
      if (msg.code === "claimed" && token !== null) {
        // Someone else's seat now (its player opened the link first): watch instead, and say how
        // its player gets it back on this device.
        token = null;
        useKey = Boolean(player);
        watching = true;
        history.replaceState(null, "", location.pathname);
        watchingNote = true; // said once the table is drawn for a spectator (the log restarts)
        hello();
      } else if (["bad_token", "bad_seat", "claimed"].includes(msg.code)) status(plain(msg.message), true);
      if (msg.code === "too_many_connections" || msg.code === "flooding") retry = 5000;
    }
  };
  socket.onclose = (ev) => {
    if (stopped || ev.code === 4404 || ev.code === 4503) {
      stopped = true;
      return;
    }
    if (ev.code !== 4307) nodeBase = "";  // not sent elsewhere: through the front door again
    status(t("Connection lost — reconnecting…"), true);
    document.body.classList.add("offline");
    if (pending) {
      pending.sent = false;
      question.say(t("Connection lost: your answer is kept and will be sent when the connection is back."), "warn");
    }
    setTimeout(connect, retry);
    retry = Math.max(500, Math.min(retry * 2, 5000));
  };
  socket.addEventListener("open", () => document.body.classList.remove("offline"));
}

// --- the people at the table: seats and presence, chat, a bot playing for you, the rematch -------
const chat = new Chat($("chat"), (text) => {
  if (!socket || socket.readyState !== 1) return false;
  send({ op: "chat", text });
  return true;
});
const rematch = new Rematch(tableId, { button: $("play-again"), offer: $("rematch"), note: $("again-note") }, announce);

function whoami() {
  let text;
  if (mySeat !== null) text = t("You are {name}", { name: names[mySeat] });
  else if (you && you.name) text = t("Watching as {name} (spectator)", { name: you.name });
  else text = t("Watching as a spectator");
  $("whoami").textContent = text;
}

/** Who sits where, who is connected, how many watch; someone sitting down renames a seat. */
function drawSeats(msg) {
  seatsMsg = msg;
  if (msg.status) tableStatus = msg.status;
  (msg.seats || []).forEach((s, k) => { if (s.kind !== "open" && s.name && k < names.length) names[k] = s.name; });
  $("seats").replaceChildren(...seatItems(msg, mySeat));
  whoami();
  if (tableStatus === "waiting") waitingState();
  else {
    $("start-now").hidden = true;  // the game started: nothing to start any more
    if (shown) turnState(shown);  // a seat taken by a bot or given back changes the banner
  }
}

let creatorChecked = false;
/** A table with open seats: no game yet, say how many are missing; its creator may start now. */
function waitingState() {
  const open = openSeats(seatsMsg);
  const bar = $("banner");
  bar.hidden = false;
  bar.classList.remove("mine", "over");
  const text = n("Waiting for players ({n} open seat)", "Waiting for players ({n} open seats)", open);
  banner(text, mySeat === null ? "" : t(": the game starts when every seat is taken."));
  status(text);
  document.title = TITLE;
  countdown(null);
  question.box.hidden = true;
  if (!creatorChecked && player && mySeat !== null) {
    creatorChecked = true;
    api("/api/me").then((r) => {
      const mine = r.ok ? (r.data.tables || []).find((x) => x.id === tableId) : null;
      $("start-now").hidden = !(mine && mine.creator) || tableStatus !== "waiting";  // (started meanwhile?)
    });
  }
}

$("start-now").addEventListener("click", async () => {
  const r = await api(`/api/tables/${tableId}/start`, { method: "POST", body: {} });
  if (r.ok) $("start-now").hidden = true;
  else status(r.data.error, true);
});

/** A bot plays this seat (the clock ran out too often): say so, offer to take the seat back. */
function replaced(yes) {
  const box = $("replaced");
  if (yes && box.hidden) announce(t("A bot is playing for you. Take your seat back to play again."));
  box.hidden = !yes;
  if (meReplaced !== yes) {
    meReplaced = yes;
    if (yes && shown && shown.question) settle({ ...shown, question: null });  // the bot answers it
    else if (shown) turnState(shown);
  }
}

$("back").addEventListener("click", () => send({ op: "back" }));

/** An invite link opened: the seat becomes the player's (in their lobby), and the link's secret
 * leaves the address (the key finds the seat from now on). A friend with no player yet gets one,
 * named as their seat: the table's creator holds the link too, and once the seat is claimed the
 * link alone opens it for nobody — not their hand in play, not its analysis after. If no player
 * can be made (offline, too many new players from one address), the link keeps working. */
async function claim() {
  if (!player) {
    const made = await createPlayer(names[mySeat]);
    if (!made.ok) return;
    player = loadPlayer();
    if (!player) return; // a browser that keeps nothing: the link stays the seat's key
  }
  const r = await api(`/api/tables/${tableId}/claim`, { method: "POST", body: { seat, token }, player });
  if (!r.ok) return;
  token = null;
  useKey = true;
  history.replaceState(null, "", location.pathname);
}

// --- settings: speed, skip, sound, help, keys -----------------------------------------------------
const speed = $("speed");
for (const [v, label] of SPEEDS) speed.appendChild(el("option", { value: v }, t(label)));
speed.value = (store && store.getItem("jamaica.speed")) || "1";
if (!SPEEDS.some(([v]) => v === speed.value)) speed.value = "1";
pacer.factor = Number(speed.value);
speed.addEventListener("change", () => {
  pacer.factor = Number(speed.value);
  if (store) store.setItem("jamaica.speed", speed.value);
  if (pacer.factor === 0) pacer.skip();
});
$("skip").addEventListener("click", () => { pacer.skip(); question.focusFirst(); });

let soundOn = Boolean(store && store.getItem("jamaica.sound") === "on");
let audio = null;
function soundButton() {
  const b = $("sound");
  b.textContent = soundOn ? t("Sound on") : t("Sound off");
  b.setAttribute("aria-pressed", String(soundOn));
}
function beep() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [f, at] of [[660, 0], [880, 0.14]]) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.13);
      o.connect(g).connect(audio.destination);
      o.start(now + at);
      o.stop(now + at + 0.15);
    }
  } catch { /* no sound here */ }
}
soundButton();
$("sound").addEventListener("click", () => {
  soundOn = !soundOn;
  if (store) store.setItem("jamaica.sound", soundOn ? "on" : "off");
  soundButton();
  if (soundOn) beep();
});

const openHelp = setUpHelp($("help"), [$("help-open")]);
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || $("help").open) return;
  const target = e.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (e.key === "?" || e.key === "h" || e.key === "H") { e.preventDefault(); openHelp(); return; }
  if (/^[1-9]$/.test(e.key) && !question.box.hidden) {
    const b = $("options").querySelectorAll("button")[Number(e.key) - 1];
    if (b && !b.disabled) { e.preventDefault(); b.focus(); b.click(); }
  }
});

// On a phone the question and the hand are pinned at the bottom: keep room for them.
const dock = $("dock");
new ResizeObserver(() => {
  document.documentElement.style.setProperty("--dock-h", `${dock.offsetHeight}px`);
}).observe(dock);

Promise.all([fetchIn("/api/board").then((r) => r.json()), boardReady]).then(([b]) => {
  layout = b;
  board = new BoardView($("board"), layout);
  connect();
});
