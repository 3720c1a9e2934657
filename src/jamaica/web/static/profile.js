// A player's public page: their rating in each edition with its history drawn as a chart, their
// games by number of players, how they fare against each bot, recent games (with replays) and
// head-to-head against anyone they have played. Only public results: names, places, scores.
import { el } from "/static/common.js";
import { EDITION_NAMES, profileLink, ratingBadge, ratingTitle } from "/static/ratings.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const playerId = decodeURIComponent(location.pathname.split("/").pop() || "");
const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;
const when = (t) => new Date(t * 1000).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** The rating after each rated game, as a line; its lowest and highest values on the axis. */
function chart(history, label) {
  const w = 480, h = 140, pad = { l: 44, r: 10, t: 10, b: 22 };
  const values = history.map((p) => p.display);
  const lo = Math.min(...values) - 10, hi = Math.max(...values) + 10;
  const x = (i) => pad.l + (history.length === 1 ? (w - pad.l - pad.r) / 2 : (i * (w - pad.l - pad.r)) / (history.length - 1));
  const y = (v) => pad.t + ((hi - v) * (h - pad.t - pad.b)) / (hi - lo || 1);
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "chart", role: "img", "aria-label": label });
  box.appendChild(svg("line", { x1: pad.l, y1: h - pad.b, x2: w - pad.r, y2: h - pad.b, class: "axis" }));
  box.appendChild(svg("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: h - pad.b, class: "axis" }));
  for (const v of [Math.round(lo + 10), Math.round(hi - 10)]) {
    box.appendChild(svg("text", { x: pad.l - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
  }
  const games = history.length - 1; // the first point is the rating before the first game
  box.appendChild(svg("text", { x: w - pad.r, y: h - 6, "text-anchor": "end", class: "tick" }, `${games} rated game${games === 1 ? "" : "s"}`));
  const points = history.map((p, i) => `${x(i).toFixed(1)},${y(p.display).toFixed(1)}`).join(" ");
  box.appendChild(svg("polyline", { points, class: "line" }));
  history.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(p.display).toFixed(1), r: 3, class: "dot" });
    dot.appendChild(svg("title", {}, `${when(p.at)}: ${p.display}`));
    box.appendChild(dot);
  });
  return box;
}

function drawRatings(d) {
  const box = $("ratings");
  const editions = Object.entries(d.ratings);
  if (!editions.length) { box.replaceChildren(el("p", { class: "muted" }, "No rated game yet.")); return; }
  box.replaceChildren(...editions.map(([edition, r]) => {
    const part = el("div", { class: "edition-rating" });
    const head = el("h3", { class: "sub" }, `${EDITION_NAMES[edition] || edition}: `);
    head.appendChild(ratingBadge(r));
    part.appendChild(head);
    part.appendChild(el("p", { class: "muted" }, r.provisional
      ? `Provisional (${ratingTitle(r).replace("provisional: ", "")}): the number settles as the games add up.`
      : `${r.games} rated games.`));
    if (r.history.length) part.appendChild(chart(r.history, `${d.name}'s ${EDITION_NAMES[edition] || edition} rating after each rated game`));
    return part;
  }));
}

function row(cells, head = false) {
  const tr = el("tr");
  for (const c of cells) {
    const cell = el(head ? "th" : "td");
    if (c instanceof Node) cell.appendChild(c); else cell.textContent = String(c);
    tr.appendChild(cell);
  }
  return tr;
}

function drawCounts(d) {
  const t = $("counts");
  if (!d.by_players.length) { t.replaceChildren(row(["No finished game yet."])); return; }
  t.replaceChildren(row(["Players", "Games", "Won", "Mean score", "Mean place"], true),
    ...d.by_players.map((c) => row([c.players, c.games, c.won, c.mean_score.toFixed(1), c.mean_place.toFixed(2)])));
}

function drawBots(d) {
  const list = $("bots");
  if (!d.bots.length) { list.replaceChildren(el("li", { class: "muted" }, "No game with a bot yet.")); return; }
  list.replaceChildren(...d.bots.map((b) => el("li", {},
    `Finished ahead of ${b.bot} ${b.ahead} time${b.ahead === 1 ? "" : "s"} in ${b.games}` +
    (b.level ? ` (level ${b.level})` : ""))));
}

function drawRecent(d) {
  const t = $("recent");
  if (!d.recent.length) { t.replaceChildren(row(["No finished game yet."])); return; }
  t.replaceChildren(row(["Date", "Place", "Players", "Rating", ""], true), ...d.recent.map((g) => {
    const who = el("span", { class: "players" });
    [...g.seats].sort((a, b) => a.place - b.place).forEach((s, i) => {
      if (i) who.appendChild(document.createTextNode(", "));
      const name = s.id && s.id !== d.id ? profileLink(s.id, s.name) : el("span", { class: s.id === d.id ? "self" : "" }, s.name);
      who.appendChild(name);
      who.appendChild(document.createTextNode(` ${s.score}${s.bot ? " (bot)" : ""}${s.abandoned ? " (left)" : ""}`));
    });
    const change = g.rating ? `${g.rating.before} → ${g.rating.after}` : g.rated ? "" : "casual";
    return row([when(g.at), `${ordinal(g.place)} of ${g.seats.length}`, who, change,
      el("a", { href: `/replay/${encodeURIComponent(g.table)}` }, "Replay")]);
  }));
}

function drawVersusChoices(d) {
  const seen = new Map();
  for (const g of d.recent) for (const s of g.seats) if (s.id && s.id !== d.id) seen.set(s.id, s.name);
  const select = $("versus-with");
  select.replaceChildren(...[...seen].map(([id, name]) => el("option", { value: id }, name)));
  $("versus-form").hidden = !seen.size;
  if (!seen.size) $("versus").textContent = "No opponent yet.";
}

$("versus-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const other = $("versus-with").value;
  const r = await fetch(`/api/players/${encodeURIComponent(playerId)}/versus/${encodeURIComponent(other)}`);
  const d = await r.json();
  $("versus").textContent = r.ok
    ? `${d.player.name} and ${d.other.name} played ${d.games} game${d.games === 1 ? "" : "s"} together: ` +
      `${d.player.name} finished ahead ${d.ahead} time${d.ahead === 1 ? "" : "s"}, behind ${d.behind}, level ${d.level}.`
    : d.error;
});

async function boot() {
  const r = await fetch(`/api/players/${encodeURIComponent(playerId)}`);
  const d = await r.json();
  if (!r.ok) {
    $("missing").hidden = false;
    $("missing").textContent = d.error;
    for (const s of document.querySelectorAll("main > section")) s.hidden = true;
    return;
  }
  document.title = `Jamaica — ${d.name}`;
  $("title").textContent = d.name;
  drawRatings(d);
  drawCounts(d);
  drawBots(d);
  drawRecent(d);
  drawVersusChoices(d);
}

boot();
