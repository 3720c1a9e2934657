// The lobby: who you are (a name, a key kept by this browser), your tables, the open seats to take
// with one click, the tables being played, the finished games, and a new table's form. Names and
// every other text from the server go through textContent.
import { el } from "/static/common.js";
import { adoptKey, adoptKeyFromFragment, api, createPlayer, deviceLink, forgetPlayer, loadPlayer, savePlayer } from "/static/player.js";
import { EDITION_NAMES, botRatings, profileLink, ratingBadge, ratingText } from "/static/ratings.js";

const $ = (id) => document.getElementById(id);
const PIRATES = ["Anne Bonny", "Mary Read", "John Rackham", "Olivier Levasseur", "Samuel Bellamy", "Edward Drummond"];
const KINDS = [["me", "Me"], ["open", "Open"], ["invite", "Invite (private link)"], ["bot", "Bot"]];
const LEVELS = [["easy", "easy"], ["medium", "medium"], ["hard", "hard"], ["random", "random"], ["greedy", "greedy"]];
// Until the server knows the named levels, they are played by the bots it has.
const REFRESH_MS = 4000;
const FINISHED_SHOWN = 12;

let player = loadPlayer();
let me = null; // GET /api/me: {id, name, tables, stats}
let tables = []; // GET /api/tables
let wantSeat = null; // {table, seat}: a Sit clicked before giving a name
let bots = {}; // the bots' measured ratings: {edition: {level: rating}}

// --- words ---------------------------------------------------------------------------------------
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const botName = (spec) => String(spec || "").split(":")[0];

function headline(t) {
  const parts = [`${t.players} players`, t.edition === "classic" ? "classic edition" : `${t.edition} edition`];
  if (t.ghost) parts.push("Ghost Ship");
  parts.push(t.seconds_per_decision ? `${t.seconds_per_decision} s per decision` : "no time limit");
  return parts.join(" · ");
}

function ordinal(n) {
  return `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;
}

/** A seat in words, with a dot for a connected player. */
function seatItem(s, i, extra = null, presence = true, edition = null) {
  const li = el("li", { class: `tseat kind-${s.kind || "player"}` });
  if (s.kind === "open") {
    li.appendChild(el("span", { class: "muted" }, "open seat"));
  } else if (s.kind === "reserved") {
    li.appendChild(el("span", { class: "tname" }, s.name || `Seat ${i + 1}`));
    li.appendChild(el("span", { class: "muted" }, " (seat kept for the rematch)"));
  } else if (s.kind === "bot" || (s.bot && s.kind !== "player")) {
    li.appendChild(el("span", { class: "tname" }, s.name));
    const level = botName(s.bot);
    const r = edition && (bots[edition] || {})[level];
    li.appendChild(el("span", { class: "muted" }, ` (${level} bot${r ? `, rated ${r.display}` : ""})`));
  } else {
    const on = Boolean(s.connected);
    if (presence) li.appendChild(el("span", { class: `dot ${on ? "on" : "off"}`, title: on ? "connected" : "not connected", "aria-hidden": "true" }));
    li.appendChild(el("span", { class: "tname" }, s.name));
    if (presence) li.appendChild(el("span", { class: "sr-only" }, on ? " (connected)" : " (not connected)"));
    if (s.kind === "invite") li.appendChild(el("span", { class: "muted" }, " (invited)"));
    if (s.replaced) li.appendChild(el("span", { class: "muted" }, " (a bot plays)"));
  }
  if (extra) li.appendChild(extra);
  return li;
}

function resultLine(t, mySeat = null) {
  const p = el("p", { class: "result" });
  const rows = [...(t.result || [])].sort((a, b) => a.rank - b.rank);
  rows.forEach((r, k) => {
    if (k) p.appendChild(document.createTextNode(" · "));
    const who = el(r.rank === 1 ? "strong" : "span", {}, `${r.rank === 1 ? "★ " : ""}${r.name} ${r.score}`);
    p.appendChild(who);
  });
  if (mySeat !== null && t.result && t.result[mySeat]) {
    const mine = t.result[mySeat];
    p.appendChild(el("span", { class: "mine-result" }, ` — you came ${ordinal(mine.rank)}`));
  }
  return p;
}

function card(t, cls = "") {
  const box = el("article", { class: `tcard ${cls}`, "data-table": t.id });
  const head = el("div", { class: "tcard-head" });
  head.appendChild(el("b", {}, headline(t)));
  if (t.rated) {
    const range = t.range ? ` ${t.range[0]}–${t.range[1]}` : "";
    head.appendChild(el("span", { class: "tag-rated", title: t.range ? `for players rated ${t.range[0]} to ${t.range[1]}` : "the result moves the players' ratings" }, `rated${range}`));
  }
  box.appendChild(head);
  return box;
}

/** A rated table's seat: its player's rating, linking to their profile. */
function seatRating(t, i) {
  const r = t.rated && t.ratings ? t.ratings[i] : null;
  if (!r) return null;
  const span = el("span", { class: "seat-rating" });
  span.appendChild(document.createTextNode(" "));
  span.appendChild(ratingBadge(r));
  span.appendChild(document.createTextNode(" "));
  span.appendChild(profileLink(r.id, "profile"));
  return span;
}

function unavailable(t) {
  const box = el("article", { class: "tcard", "data-table": t.id });
  box.appendChild(el("span", { class: "muted" }, `Table ${t.id}: unavailable (the server could not rebuild it)`));
  return box;
}

// --- the lists -----------------------------------------------------------------------------------
/** Rebuild `box` only when its data changed (a keyboard user's focus stays where it was). */
function render(box, data, build) {
  const sig = JSON.stringify(data);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  box.replaceChildren(...build());
  if (focused) {
    const again = box.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

function button(text, focusKey, onClick, cls = "") {
  const b = el("button", { type: "button", "data-focus": focusKey, class: cls }, text);
  b.addEventListener("click", onClick);
  return b;
}

function myTableCard(t) {
  if (t.available === false) return unavailable(t);
  const status = t.status || (t.finished ? "finished" : "playing");
  const box = card(t, `mine ${t.your_turn ? "your-turn" : ""} status-${status}`);
  const head = box.firstChild;
  const state = el("span", { class: "tstate" });
  const actions = el("div", { class: "tactions" });
  const seatLink = el("a", { href: `/table/${t.id}`, class: "go", "data-focus": `go-${t.id}` }, "Back to my seat");
  if (t.pending) {
    state.textContent = "A rematch: your seat is kept";
    state.classList.add("offer");
    actions.append(
      button("Accept", `accept-${t.id}`, () => accept(t.id, t.seat), "primary"),
      button("Decline", `decline-${t.id}`, () => decline(t.id)),
    );
  } else if (status === "waiting") {
    state.textContent = `Waiting for ${plural(t.open_seats || 0, "player")}`;
    actions.appendChild(seatLink);
    if (t.creator !== false && !t.rated) actions.appendChild(button("Start now with bots", `start-${t.id}`, () => start(t.id)));
  } else if (status === "playing") {
    if (t.your_turn) {
      state.textContent = "Your turn";
      state.classList.add("turn");
    } else {
      state.textContent = roundWords(t.round);
    }
    actions.appendChild(seatLink);
  } else {
    state.textContent = status === "archived" ? "Finished (archived)" : "Finished";
    seatLink.textContent = "The table";
    actions.append(seatLink, el("a", { href: `/replay/${t.id}`, "data-focus": `replay-${t.id}` }, "Replay"));
  }
  head.appendChild(state);
  const seats = el("ul", { class: "tseats" });
  (t.seats || []).forEach((s, i) => {
    const li = seatItem(s, i, seatRating(t, i), status === "waiting" || status === "playing", t.edition);
    if (i === t.seat) li.appendChild(el("span", { class: "you-tag" }, "you"));
    seats.appendChild(li);
  });
  box.appendChild(seats);
  if (t.result && (status === "finished" || status === "archived")) box.appendChild(resultLine(t, t.seat));
  box.appendChild(actions);
  return box;
}

const ORDER = (t) => (t.pending ? 0 : t.your_turn ? 1 : t.status === "waiting" ? 2 : t.status === "playing" ? 3 : 4);

function drawMine() {
  const mine = me ? [...me.tables] : [];
  mine.sort((a, b) => ORDER(a) - ORDER(b)); // stable: newest first within each kind
  const current = mine.filter((t) => ORDER(t) < 4);
  const done = mine.filter((t) => ORDER(t) === 4).slice(0, 5);
  render($("my-tables"), [current, done], () => {
    if (!mine.length) return [el("p", { class: "muted" }, "No tables yet: sit at an open table or create one.")];
    const out = current.map(myTableCard);
    if (done.length) {
      out.push(el("h3", { class: "sub" }, "Recently finished"));
      out.push(...done.map(myTableCard));
    }
    return out;
  });
  const turns = current.filter((t) => t.your_turn).length;
  document.title = turns ? `(${turns}) Your turn — Jamaica lobby` : "Jamaica — lobby";
}

function openCard(t) {
  const box = card(t, "open");
  box.firstChild.appendChild(el("span", { class: "tstate" }, `${plural(t.open_seats, "open seat")}`));
  const seats = el("ul", { class: "tseats" });
  const mine = me && me.ratings ? me.ratings[t.edition] : null;
  const outside = Boolean(t.range && mine && (mine.display < t.range[0] || mine.display > t.range[1]));
  if (outside) box.appendChild(el("p", { class: "muted" }, `For players rated ${t.range[0]} to ${t.range[1]}; yours is ${mine.display}.`));
  (t.seats || []).forEach((s, i) => {
    const take = s.kind === "open" && !outside ? button("Sit", `sit-${t.id}-${i}`, () => sit(t.id, i), "primary sit") : null;
    if (take) take.setAttribute("aria-label", `Sit at seat ${i + 1}`);
    seats.appendChild(seatItem(s, i, take || seatRating(t, i), true, t.edition));
  });
  box.appendChild(seats);
  return box;
}

/** Round 0 is the setup (hands drawn, the first Captain): the game is starting. */
function roundWords(round) {
  return round >= 1 ? `Round ${round}` : "Starting";
}

function playingCard(t) {
  if (t.available === false) return unavailable(t);
  const box = card(t, "playing");
  box.firstChild.appendChild(el("span", { class: "tstate" }, `${roundWords(t.round)}${t.watchers ? ` · ${t.watchers} watching` : ""}`));
  const seats = el("ul", { class: "tseats" });
  (t.seats || []).forEach((s, i) => seats.appendChild(seatItem(s, i, seatRating(t, i), true, t.edition)));
  box.appendChild(seats);
  const actions = el("div", { class: "tactions" });
  actions.appendChild(el("a", { href: `/table/${t.id}`, "data-focus": `watch-${t.id}` }, "Watch"));
  box.appendChild(actions);
  return box;
}

function finishedCard(t) {
  if (t.available === false) return unavailable(t);
  const box = card(t, "finished");
  box.appendChild(resultLine(t));
  const actions = el("div", { class: "tactions" });
  actions.appendChild(el("a", { href: `/replay/${t.id}`, "data-focus": `replay-${t.id}` }, "Replay"));
  box.appendChild(actions);
  return box;
}

function drawPublic() {
  const mine = new Set(me ? me.tables.map((t) => t.id) : []);
  const open = tables.filter((t) => t.status === "waiting" && t.open_seats > 0 && !mine.has(t.id) && t.available !== false);
  const playing = tables.filter((t) => (t.status === "playing" || (!t.status && !t.finished)) && !mine.has(t.id));
  const done = tables.filter((t) => t.status === "finished" || t.status === "archived" || (!t.status && t.finished))
    .slice(0, FINISHED_SHOWN);
  render($("open-tables"), open, () => open.length ? open.map(openCard)
    : [el("p", { class: "muted" }, "No open seats right now: create a table with open seats and wait here, or invite someone.")]);
  render($("playing-tables"), playing, () => playing.length ? playing.map(playingCard)
    : [el("p", { class: "muted" }, "No game is being played.")]);
  render($("finished-tables"), done, () => done.length ? done.map(finishedCard)
    : [el("p", { class: "muted" }, "No finished games yet.")]);
}

function drawYou() {
  const known = Boolean(player);
  $("welcome").hidden = known;
  for (const id of ["mine-panel", "new-panel", "you-panel"]) $(id).hidden = !known;
  $("me").textContent = known ? `You are ${player.name}` : "";
  if (!known) return;
  $("device-link").value = deviceLink(player);
  if (me) {
    $("my-profile").href = `/player/${encodeURIComponent(me.id)}`;
    const parts = Object.entries(me.ratings || {}).map(([e, r]) => `${EDITION_NAMES[e] || e} ${ratingText(r)}`);
    $("my-ratings").textContent = parts.length ? `Rating: ${parts.join(" · ")}` : "";
  }
  const s = me && me.stats;
  if (s) {
    const mean = typeof s.mean_score === "number" ? Math.round(s.mean_score * 10) / 10 : null;
    $("stats").textContent = s.games
      ? `${plural(s.games, "game")} played · ${plural(s.wins, "win")} · mean score ${mean}`
      : "No finished games yet.";
  }
  for (const i of [0, 1, 2, 3, 4, 5]) {
    const name = $(`name${i}`);
    if (name && $(`kind${i}`).value === "me") name.value = player.name;
  }
}

async function refresh() {
  const [list, mine] = await Promise.all([
    api("/api/tables", { player: null }),
    player ? api("/api/me") : Promise.resolve(null),
  ]);
  if (list.ok && Array.isArray(list.data)) tables = list.data;
  if (mine) {
    if (mine.status === 401) {
      forgetPlayer();
      player = null;
      me = null;
      $("join-error").textContent = "This server does not know your key any more: give your name to come aboard again.";
    } else if (mine.ok) {
      me = mine.data;
      if (player.name !== me.name) { player = { ...player, name: me.name }; savePlayer(player); }
    }
  }
  drawYou();
  if (player) drawMine();
  drawPublic();
}

// --- actions -------------------------------------------------------------------------------------
async function sit(id, seat) {
  $("sit-error").textContent = "";
  if (!player) {
    wantSeat = { table: id, seat };
    $("join-error").textContent = "Give your name first, then you sit down.";
    $("player-name").focus();
    return;
  }
  const r = await api(`/api/tables/${id}/sit`, { method: "POST", body: { seat } });
  if (r.ok) { location.assign(`/table/${id}`); return; }
  $("sit-error").textContent = r.status === 409 ? `That seat is not free any more (${r.data.error}).` : r.data.error;
  refresh();
}

async function accept(id, seat) {
  const r = await api(`/api/tables/${id}/sit`, { method: "POST", body: { seat } });
  if (r.ok || r.status === 409) { location.assign(`/table/${id}`); return; } // 409: seated already
  $("lobby-live").textContent = r.data.error;
  refresh();
}

async function decline(id) {
  const r = await api(`/api/tables/${id}/decline`, { method: "POST", body: {} });
  $("lobby-live").textContent = r.ok ? "You declined the rematch." : r.data.error;
  refresh();
}

async function start(id) {
  const r = await api(`/api/tables/${id}/start`, { method: "POST", body: {} });
  if (r.ok) { location.assign(`/table/${id}`); return; }
  $("lobby-live").textContent = r.data.error;
  const b = document.querySelector(`[data-focus="start-${id}"]`);
  if (b) b.replaceWith(el("span", { class: "note" }, r.data.error));
}

$("join").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("player-name").value.trim();
  if (!name) return;
  $("join-button").disabled = true;
  const r = await createPlayer(name);
  $("join-button").disabled = false;
  if (!r.ok) { $("join-error").textContent = r.data.error; return; }
  player = loadPlayer();
  $("join-error").textContent = "";
  await refresh();
  if (wantSeat) { const w = wantSeat; wantSeat = null; sit(w.table, w.seat); return; }
  $("mine-title").focus();
});

$("paste").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const r = await adoptKey($("paste-key").value);
  if (r.error) { $("join-error").textContent = r.error; return; }
  player = r;
  $("paste-key").value = "";
  $("join-error").textContent = "";
  refresh();
});

$("rename").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("new-name").value.trim();
  const r = await api("/api/me", { method: "POST", body: { name } });
  if (!r.ok) { $("lobby-live").textContent = r.data.error; return; }
  player = { ...player, name: r.data.name };
  savePlayer(player);
  $("new-name").value = "";
  $("rename-box").open = false;
  refresh();
});

$("copy-link").addEventListener("click", async () => {
  const input = $("device-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-link").textContent = "Copied";
  } catch {
    input.select();
    $("copy-link").textContent = "Press Ctrl+C";
  }
  setTimeout(() => { $("copy-link").textContent = "Copy"; }, 2500);
});

// --- a new table ---------------------------------------------------------------------------------
function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((r) => ({
    kind: r.querySelector(".kind").value, name: r.querySelector(".name").value, bot: r.querySelector(".level").value,
  }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = el("div", { class: "seat", "data-i": i });
    const label = el("span", { class: "seat-no", id: `seat-label${i}` }, `Seat ${i + 1}`);
    const kind = el("select", { id: `kind${i}`, class: "kind", "aria-labelledby": `seat-label${i}` });
    for (const [v, text] of KINDS) kind.appendChild(el("option", { value: v }, text));
    const name = el("input", { id: `name${i}`, class: "name", maxlength: 24, "aria-label": `Seat ${i + 1}: name` });
    const level = el("select", { id: `bot${i}`, class: "level", "aria-label": `Seat ${i + 1}: bot level` });
    for (const [v, text] of LEVELS) level.appendChild(el("option", { value: v }, text));
    const was = old[i];
    kind.value = was ? was.kind : i === 0 ? "me" : i === 1 ? "open" : "bot";
    name.value = was ? was.name : PIRATES[i];
    level.value = was ? was.bot : "medium";
    kind.addEventListener("change", () => {
      if (kind.value === "me") {
        for (const other of box.querySelectorAll(".kind")) {
          if (other !== kind && other.value === "me") { other.value = "open"; seatShape(other.closest(".seat")); }
        }
      }
      seatShape(row);
    });
    row.append(label, kind, name, level);
    box.appendChild(row);
    seatShape(row);
  }
}

/** Show the fields a seat's kind needs: a name (invite, bot), a level (bot). */
function seatShape(row) {
  const i = Number(row.dataset.i);
  const kind = row.querySelector(".kind").value;
  const name = row.querySelector(".name");
  const level = row.querySelector(".level");
  name.hidden = kind === "open";
  name.disabled = kind === "me";
  if (kind === "me" && player) name.value = player.name;
  else if (player && name.value === player.name) name.value = PIRATES[i];
  name.placeholder = kind === "invite" ? "their name" : "";
  level.hidden = kind !== "bot";
}

/** A rated table: people only (your seat and open seats) and a clock. */
function ratedShape() {
  const on = $("rated").checked;
  $("within-label").hidden = !on;
  if (on && !$("limit").value) $("limit").value = 60;
  for (const kind of document.querySelectorAll("#seats .kind")) {
    for (const option of kind.options) option.disabled = on && (option.value === "bot" || option.value === "invite");
    if (on && (kind.value === "bot" || kind.value === "invite")) { kind.value = "open"; seatShape(kind.closest(".seat")); }
  }
}

function seatsBody() {
  const n = Number($("players").value);
  const seats = [];
  for (let i = 0; i < n; i++) {
    const kind = $(`kind${i}`).value;
    const name = $(`name${i}`).value.trim();
    if (kind === "me" || kind === "open") seats.push({ kind });
    else if (kind === "invite") seats.push({ kind, name });
    else {
      const level = $(`bot${i}`).value;
      seats.push({ kind, name, bot: level });
    }
  }
  return seats;
}

$("players").addEventListener("change", () => { seatRows(); ratedShape(); });
$("rated").addEventListener("change", ratedShape);

$("play-now").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("play-now-error").textContent = "";
  const players = $("pn-players").value ? Number($("pn-players").value) : null;
  const r = await api("/api/play-now", { method: "POST", body: { edition: $("pn-edition").value, players } });
  if (r.ok) { location.assign(`/table/${r.data.id}`); return; }
  $("play-now-error").textContent = r.data.error;
});

/** The bot levels with their measured ratings, so that a player knows what they face. */
async function labelLevels() {
  bots = await botRatings();
  const edition = $("edition").value;
  for (const select of document.querySelectorAll("#seats .level")) {
    for (const option of select.options) {
      const r = (bots[edition] || {})[option.value];
      option.textContent = r ? `${option.value} (rated ${r.display})` : option.value;
    }
  }
}
$("edition").addEventListener("change", labelLevels);
$("players").addEventListener("change", labelLevels);
$("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("error").textContent = "";
  const n = Number($("players").value);
  const ghost = { auto: null, on: true, off: false }[$("ghost").value];
  const limit = $("limit").value ? Number($("limit").value) : null;
  const body = { players: n, edition: $("edition").value, ghost_ship: ghost, seconds_per_decision: limit, seats: seatsBody() };
  if ($("rated").checked) {
    body.rated = true;
    if ($("within").value) body.within = Number($("within").value);
  }
  $("create-button").disabled = true;
  const r = await api("/api/tables", { method: "POST", body });
  $("create-button").disabled = false;
  if (!r.ok) { $("error").textContent = r.data.error; return; }
  const d = r.data;
  const invites = d.seats.filter((s) => s.url && s.kind === "invite");
  if (!invites.length) { location.assign(`/table/${d.id}`); return; }
  const links = $("links");
  links.replaceChildren();
  for (const s of invites) {
    const li = el("li");
    li.appendChild(el("b", {}, `${s.name}: `));
    li.appendChild(el("a", { href: s.url, class: "seat-link", "data-seat": s.seat }, new URL(s.url, location.href).href));
    links.appendChild(li);
  }
  const li = el("li");
  li.appendChild(el("b", {}, "Spectators: "));
  li.appendChild(el("a", { href: d.spectator_url, id: "spectator-link" }, new URL(d.spectator_url, location.href).href));
  links.appendChild(li);
  $("go-table").href = `/table/${d.id}`;
  $("created").hidden = false;
  refresh();
});

// --- start ---------------------------------------------------------------------------------------
async function boot() {
  const carried = await adoptKeyFromFragment();
  if (carried && carried.error) $("join-error").textContent = `The link from your other device did not work: ${carried.error}.`;
  else if (carried) player = carried;
  seatRows();
  await labelLevels();
  drawYou();
  await refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

boot();
