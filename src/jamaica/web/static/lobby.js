// The lobby: who you are (a name, a key kept by this browser), your tables, the open seats to take
// with one click, the tables being played, the finished games, and a new table's form. Names and
// every other text from the server go through textContent.
import { el } from "/static/common.js";
import { adoptKey, adoptKeyFromFragment, api, createPlayer, deviceLink, forgetPlayer, loadPlayer, savePlayer } from "/static/player.js";
import { botRatings, editionName, levelName, profileLink, ratingBadge, ratingText } from "/static/ratings.js";
import { fmt, loadWords, n, t as tr } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const PIRATES = ["Anne Bonny", "Mary Read", "John Rackham", "Olivier Levasseur", "Samuel Bellamy", "Edward Drummond"];
const KINDS = () => [["me", tr("Me")], ["open", tr("Open")], ["invite", tr("Invite (private link)")], ["bot", tr("Bot")]];
const LEVELS = ["easy", "medium", "hard", "master", "random", "greedy"];
// Until the server knows the named levels, they are played by the bots it has.
const REFRESH_MS = 4000;
const FINISHED_SHOWN = 12;

let player = loadPlayer();
let me = null; // GET /api/me: {id, name, tables, stats}
let tables = []; // GET /api/tables
let wantSeat = null; // {table, seat}: a Sit clicked before giving a name
let bots = {}; // the bots' measured ratings: {edition: {level: rating}}

// --- words ---------------------------------------------------------------------------------------
const botName = (spec) => String(spec || "").split(":")[0];

function headline(t) {
  const parts = [n("{n} player", "{n} players", t.players), t.edition === "classic" ? tr("classic edition") : tr("{edition} edition", { edition: t.edition })];
  if (t.ghost) parts.push(tr("Ghost Ship"));
  parts.push(t.seconds_per_decision ? tr("{s} s per decision", { s: t.seconds_per_decision }) : tr("no time limit"));
  return parts.join(" · ");
}

/** "you came 1st" / "tu es arrivé 1er": the place's words come from the catalog. */
function cameWords(rank) {
  return rank === 1 ? tr("you came first") : tr("you came {place}", { place: placeWords(rank) });
}

function placeWords(rank) {
  return { 1: tr("1st"), 2: tr("2nd"), 3: tr("3rd"), 4: tr("4th"), 5: tr("5th"), 6: tr("6th") }[rank] || String(rank);
}

/** A seat in words, with a dot for a connected player. */
function seatItem(s, i, extra = null, presence = true, edition = null) {
  const li = el("li", { class: `tseat kind-${s.kind || "player"}` });
  if (s.kind === "open") {
    li.appendChild(el("span", { class: "muted" }, tr("open seat")));
  } else if (s.kind === "reserved") {
    li.appendChild(el("span", { class: "tname" }, s.name || tr("Seat {k}", { k: i + 1 })));
    li.appendChild(el("span", { class: "muted" }, ` ${tr("(seat kept for the rematch)")}`));
  } else if (s.kind === "bot" || (s.bot && s.kind !== "player")) {
    li.appendChild(el("span", { class: "tname" }, s.name));
    const level = botName(s.bot);
    const r = edition && (bots[edition] || {})[level];
    const said = { level: levelName(level), rating: r ? r.display : "" };
    li.appendChild(el("span", { class: "muted" }, ` ${r ? tr("({level} bot, rated {rating})", said) : tr("({level} bot)", said)}`));
  } else {
    const on = Boolean(s.connected);
    if (presence) li.appendChild(el("span", { class: `dot ${on ? "on" : "off"}`, title: on ? tr("connected") : tr("not connected"), "aria-hidden": "true" }));
    li.appendChild(el("span", { class: "tname" }, s.name));
    if (presence) li.appendChild(el("span", { class: "sr-only" }, ` ${on ? tr("(connected)") : tr("(not connected)")}`));
    if (s.kind === "invite") li.appendChild(el("span", { class: "muted" }, ` ${tr("(invited)")}`));
    if (s.replaced) li.appendChild(el("span", { class: "muted" }, ` ${tr("(a bot plays)")}`));
  }
  if (extra) li.appendChild(extra);
  return li;
}

function resultLine(t, mySeat = null) {
  const p = el("p", { class: "result" });
  const rows = [...(t.result || [])].sort((a, b) => a.rank - b.rank);
  rows.forEach((r, k) => {
    if (k) p.appendChild(document.createTextNode(" · "));
    const name = r.ghost ? tr("the Ghost Ship") : r.name; // the Ghost Ship can win too
    const who = el(r.rank === 1 ? "strong" : "span", {}, `${r.rank === 1 ? "★ " : ""}${name} ${fmt(r.score)}`);
    p.appendChild(who);
  });
  if (mySeat !== null && t.result && t.result[mySeat]) {
    const mine = t.result[mySeat];
    p.appendChild(el("span", { class: "mine-result" }, ` — ${cameWords(mine.rank)}`));
  }
  return p;
}

function card(t, cls = "") {
  const box = el("article", { class: `tcard ${cls}`, "data-table": t.id });
  const head = el("div", { class: "tcard-head" });
  head.appendChild(el("b", {}, headline(t)));
  if (t.rated) {
    const range = t.range ? ` ${t.range[0]}–${t.range[1]}` : "";
    head.appendChild(el("span", { class: "tag-rated", title: t.range ? tr("for players rated {low} to {high}", { low: t.range[0], high: t.range[1] }) : tr("the result moves the players' ratings") }, `${tr("rated")}${range}`));
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
  span.appendChild(profileLink(r.id, tr("profile")));
  return span;
}

function unavailable(t) {
  const box = el("article", { class: "tcard", "data-table": t.id });
  box.appendChild(el("span", { class: "muted" }, tr("Table {id}: unavailable (the server could not rebuild it)", { id: t.id })));
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
  const seatLink = el("a", { href: `/table/${t.id}`, class: "go", "data-focus": `go-${t.id}` }, tr("Back to my seat"));
  if (t.pending) {
    state.textContent = tr("A rematch: your seat is kept");
    state.classList.add("offer");
    actions.append(
      button(tr("Accept"), `accept-${t.id}`, () => accept(t.id, t.seat), "primary"),
      button(tr("Decline"), `decline-${t.id}`, () => decline(t.id)),
    );
  } else if (status === "waiting") {
    state.textContent = n("Waiting for {n} player", "Waiting for {n} players", t.open_seats || 0);
    actions.appendChild(seatLink);
    if (t.creator !== false && !t.rated) actions.appendChild(button(tr("Start now with bots"), `start-${t.id}`, () => start(t.id)));
  } else if (status === "playing") {
    if (t.your_turn) {
      state.textContent = tr("Your turn");
      state.classList.add("turn");
    } else {
      state.textContent = roundWords(t.round);
    }
    actions.appendChild(seatLink);
  } else if (status === "archived") {
    state.textContent = tr("Paused (opens when visited)");
    actions.appendChild(seatLink);
  } else {
    state.textContent = tr("Finished");
    seatLink.textContent = tr("The table");
    actions.append(seatLink, el("a", { href: `/replay/${t.id}`, "data-focus": `replay-${t.id}` }, tr("Replay")));
  }
  head.appendChild(state);
  const seats = el("ul", { class: "tseats" });
  (t.seats || []).forEach((s, i) => {
    const li = seatItem(s, i, seatRating(t, i), status === "waiting" || status === "playing", t.edition);
    if (i === t.seat) li.appendChild(el("span", { class: "you-tag" }, tr("you")));
    seats.appendChild(li);
  });
  box.appendChild(seats);
  if (t.result && status === "finished") box.appendChild(resultLine(t, t.seat));
  box.appendChild(actions);
  return box;
}

// a paused game (archived while unfinished: it opens when visited) is among the current ones
const ORDER = (t) => (t.pending ? 0 : t.your_turn ? 1 : t.status === "waiting" ? 2 : t.status === "playing" || t.status === "archived" ? 3 : 4);

function drawMine() {
  const mine = me ? [...me.tables] : [];
  mine.sort((a, b) => ORDER(a) - ORDER(b)); // stable: newest first within each kind
  const current = mine.filter((t) => ORDER(t) < 4);
  const done = mine.filter((t) => ORDER(t) === 4).slice(0, 5);
  render($("my-tables"), [current, done], () => {
    if (!mine.length) return [el("p", { class: "muted" }, tr("No tables yet: sit at an open table or create one."))];
    const out = current.map(myTableCard);
    if (done.length) {
      out.push(el("h3", { class: "sub" }, tr("Recently finished")));
      out.push(...done.map(myTableCard));
    }
    return out;
  });
  const turns = current.filter((t) => t.your_turn).length;
  document.title = turns ? `(${turns}) ${tr("Your turn — Jamaica lobby")}` : tr("Jamaica — lobby");
}

function openCard(t) {
  const box = card(t, "open");
  box.firstChild.appendChild(el("span", { class: "tstate" }, n("{n} open seat", "{n} open seats", t.open_seats)));
  const seats = el("ul", { class: "tseats" });
  const mine = me && me.ratings ? me.ratings[t.edition] : null;
  const outside = Boolean(t.range && mine && (mine.display < t.range[0] || mine.display > t.range[1]));
  if (outside) box.appendChild(el("p", { class: "muted" }, tr("For players rated {low} to {high}; yours is {mine}.", { low: t.range[0], high: t.range[1], mine: mine.display })));
  (t.seats || []).forEach((s, i) => {
    const take = s.kind === "open" && !outside ? button(tr("Sit"), `sit-${t.id}-${i}`, () => sit(t.id, i), "primary sit") : null;
    if (take) take.setAttribute("aria-label", tr("Sit at seat {k}", { k: i + 1 }));
    seats.appendChild(seatItem(s, i, take || seatRating(t, i), true, t.edition));
  });
  box.appendChild(seats);
  return box;
}

/** Round 0 is the setup (hands drawn, the first Captain): the game is starting. */
function roundWords(round) {
  return round >= 1 ? tr("Round {round}", { round }) : tr("Starting");
}

function playingCard(t) {
  if (t.available === false) return unavailable(t);
  const box = card(t, "playing");
  box.firstChild.appendChild(el("span", { class: "tstate" }, `${roundWords(t.round)}${t.watchers ? ` · ${n("{n} watching", "{n} watching", t.watchers)}` : ""}`));
  const seats = el("ul", { class: "tseats" });
  (t.seats || []).forEach((s, i) => seats.appendChild(seatItem(s, i, seatRating(t, i), true, t.edition)));
  box.appendChild(seats);
  const actions = el("div", { class: "tactions" });
  actions.appendChild(el("a", { href: `/table/${t.id}`, "data-focus": `watch-${t.id}` }, tr("Watch")));
  box.appendChild(actions);
  return box;
}

function finishedCard(t) {
  if (t.available === false) return unavailable(t);
  const box = card(t, "finished");
  box.appendChild(resultLine(t));
  const actions = el("div", { class: "tactions" });
  actions.appendChild(el("a", { href: `/replay/${t.id}`, "data-focus": `replay-${t.id}` }, tr("Replay")));
  box.appendChild(actions);
  return box;
}

function drawPublic() {
  const mine = new Set(me ? me.tables.map((t) => t.id) : []);
  const open = tables.filter((t) => t.status === "waiting" && t.open_seats > 0 && !mine.has(t.id) && t.available !== false);
  const playing = tables.filter((t) => (t.status === "playing" || (!t.status && !t.finished)) && !mine.has(t.id));
  // the reader's own games are under "My tables": here, the others' (said so when they play)
  const minePlaying = tables.some((t) => t.status === "playing" && mine.has(t.id));
  const done = tables.filter((t) => t.status === "finished" || (!t.status && t.finished))
    .slice(0, FINISHED_SHOWN);
  render($("open-tables"), open, () => open.length ? open.map(openCard)
    : [el("p", { class: "muted" }, tr("No open seats right now: create a table with open seats and wait here, or invite someone."))]);
  render($("playing-tables"), playing, () => playing.length ? playing.map(playingCard)
    : [el("p", { class: "muted" }, minePlaying ? tr("No other game is being played.") : tr("No game is being played."))]);
  render($("finished-tables"), done, () => done.length ? done.map(finishedCard)
    : [el("p", { class: "muted" }, tr("No finished games yet."))]);
}

function drawYou() {
  const known = Boolean(player);
  $("welcome").hidden = known;
  for (const id of ["mine-panel", "new-panel", "you-panel"]) $(id).hidden = !known;
  $("me").textContent = known ? tr("You are {name}", { name: player.name }) : "";
  if (!known) return;
  $("device-link").value = deviceLink(player);
  if (me) {
    $("my-profile").href = `/player/${encodeURIComponent(me.id)}`;
    const parts = Object.entries(me.ratings || {}).map(([e, r]) => `${editionName(e)} ${ratingText(r)}`);
    $("my-ratings").textContent = parts.length ? tr("Rating: {ratings}", { ratings: parts.join(" · ") }) : "";
  }
  const s = me && me.stats;
  if (s) {
    const mean = typeof s.mean_score === "number" ? Math.round(s.mean_score * 10) / 10 : null;
    $("stats").textContent = s.games
      ? [n("{n} game played", "{n} games played", s.games), n("{n} win", "{n} wins", s.wins),
        tr("mean score {score}", { score: fmt(mean) })].join(" · ")
      : tr("No finished games yet.");
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
      $("join-error").textContent = tr("This server does not know your key any more: give your name to come aboard again.");
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
    $("join-error").textContent = tr("Give your name first, then you sit down.");
    $("player-name").focus();
    return;
  }
  const r = await api(`/api/tables/${id}/sit`, { method: "POST", body: { seat } });
  if (r.ok) { location.assign(`/table/${id}`); return; }
  $("sit-error").textContent = r.status === 409 ? tr("That seat is not free any more ({why}).", { why: r.data.error }) : r.data.error;
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
  $("lobby-live").textContent = r.ok ? tr("You declined the rematch.") : r.data.error;
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
    $("copy-link").textContent = tr("Copied");
  } catch {
    input.select();
    $("copy-link").textContent = tr("Press Ctrl+C");
  }
  setTimeout(() => { $("copy-link").textContent = tr("Copy"); }, 2500);
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
    const label = el("span", { class: "seat-no", id: `seat-label${i}` }, tr("Seat {k}", { k: i + 1 }));
    const kind = el("select", { id: `kind${i}`, class: "kind", "aria-labelledby": `seat-label${i}` });
    for (const [v, text] of KINDS()) kind.appendChild(el("option", { value: v }, text));
    const name = el("input", { id: `name${i}`, class: "name", maxlength: 24, "aria-label": tr("Seat {k}: name", { k: i + 1 }) });
    const level = el("select", { id: `bot${i}`, class: "level", "aria-label": tr("Seat {k}: bot level", { k: i + 1 }) });
    for (const v of LEVELS) level.appendChild(el("option", { value: v }, levelName(v)));
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
  name.placeholder = kind === "invite" ? tr("their name") : "";
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
      const said = { level: levelName(option.value), rating: r ? r.display : "" };
      option.textContent = r ? tr("{level} (rated {rating})", said) : said.level;
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
  li.appendChild(el("b", {}, `${tr("Spectators:")} `));
  li.appendChild(el("a", { href: d.spectator_url, id: "spectator-link" }, new URL(d.spectator_url, location.href).href));
  links.appendChild(li);
  $("go-table").href = `/table/${d.id}`;
  $("created").hidden = false;
  refresh();
});

// --- start ---------------------------------------------------------------------------------------
async function boot() {
  await loadWords();
  const carried = await adoptKeyFromFragment();
  if (carried && carried.error) $("join-error").textContent = tr("The link from your other device did not work: {why}.", { why: carried.error });
  else if (carried) player = carried;
  seatRows();
  await labelLevels();
  drawYou();
  await refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

boot();
