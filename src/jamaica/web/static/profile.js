// A player's public page: their rating in each edition with its history drawn as a chart, their
// games by number of players, how they fare against each bot, recent games (with replays) and
// head-to-head against anyone they have played. Only public results: names, places, scores.
import { el } from "/static/common.js";
import { day, fmt, loadWords, n, t } from "/static/i18n.js";
import { editionName, levelName, profileLink, ratingBadge, row } from "/static/ratings.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const playerId = decodeURIComponent(location.pathname.split("/").pop() || "");
const when = day;

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
  box.appendChild(svg("text", { x: w - pad.r, y: h - 6, "text-anchor": "end", class: "tick" }, n("{n} rated game", "{n} rated games", games)));
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
  if (!editions.length) { box.replaceChildren(el("p", { class: "muted" }, t("No rated game yet."))); return; }
  box.replaceChildren(...editions.map(([edition, r]) => {
    const part = el("div", { class: "edition-rating" });
    const head = el("h3", { class: "sub" }, `${editionName(edition)} `);
    head.appendChild(ratingBadge(r));
    part.appendChild(head);
    part.appendChild(el("p", { class: "muted" }, r.provisional
      ? n("Provisional ({n} rated game so far): the number settles as the games add up.", "Provisional ({n} rated games so far): the number settles as the games add up.", r.games)
      : n("{n} rated game.", "{n} rated games.", r.games)));
    if (r.history.length) part.appendChild(chart(r.history, t("{name}: rating ({edition}) after each rated game", { name: d.name, edition: editionName(edition) })));
    return part;
  }));
}

function drawCounts(d) {
  const box = $("counts");
  if (!d.by_players.length) { box.replaceChildren(row([t("No finished game yet.")])); return; }
  box.replaceChildren(row([t("Players"), t("Games"), t("Won"), t("Mean score"), t("Mean place")], true),
    ...d.by_players.map((c) => row([c.players, c.games, c.won, fmt(Math.round(c.mean_score * 10) / 10), fmt(Math.round(c.mean_place * 100) / 100)])));
}

function drawBots(d) {
  const list = $("bots");
  if (!d.bots.length) { list.replaceChildren(el("li", { class: "muted" }, t("No game with a bot yet."))); return; }
  list.replaceChildren(...d.bots.map((b) => el("li", {},
    n("Finished ahead of {bot} {ahead} time in {n}", "Finished ahead of {bot} {ahead} times in {n}", b.games, { bot: levelName(b.bot), ahead: fmt(b.ahead) }) +
    (b.level ? ` ${n("(level {n} time)", "(level {n} times)", b.level)}` : ""))));
}

function drawRecent(d) {
  const box = $("recent");
  if (!d.recent.length) { box.replaceChildren(row([t("No finished game yet.")])); return; }
  box.replaceChildren(row([t("Date"), t("Place"), t("Players"), t("Rating"), ""], true), ...d.recent.map((g) => {
    const who = el("span", { class: "players" });
    [...g.seats].sort((a, b) => a.place - b.place).forEach((s, i) => {
      if (i) who.appendChild(document.createTextNode(", "));
      const name = s.id && s.id !== d.id ? profileLink(s.id, s.name) : el("span", { class: s.id === d.id ? "self" : "" }, s.name);
      who.appendChild(name);
      who.appendChild(document.createTextNode(` ${fmt(s.score)}${s.bot ? ` ${t("(bot)")}` : ""}${s.abandoned ? ` ${t("(left)")}` : ""}`));
    });
    const change = g.rating ? `${g.rating.before} → ${g.rating.after}` : g.rated ? "" : t("casual");
    return row([when(g.at), t("{place} of {players}", { place: g.place, players: g.seats.length }), who, change,
      el("a", { href: `/replay/${encodeURIComponent(g.table)}` }, t("Replay"))]);
  }));
}

function drawVersusChoices(d) {
  const seen = new Map();
  for (const g of d.recent) for (const s of g.seats) if (s.id && s.id !== d.id) seen.set(s.id, s.name);
  const select = $("versus-with");
  select.replaceChildren(...[...seen].map(([id, name]) => el("option", { value: id }, name)));
  $("versus-form").hidden = !seen.size;
  if (!seen.size) $("versus").textContent = t("No opponent yet.");
}

$("versus-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const other = $("versus-with").value;
  const r = await fetch(`/api/players/${encodeURIComponent(playerId)}/versus/${encodeURIComponent(other)}`);
  const d = await r.json();
  if (!r.ok) { $("versus").textContent = d.error; return; }
  const together = n("{a} and {b} played {n} game together:", "{a} and {b} played {n} games together:", d.games, { a: d.player.name, b: d.other.name });
  const how = t("{a} finished ahead {ahead}, behind {behind}, level {level}.", { a: d.player.name, ahead: fmt(d.ahead), behind: fmt(d.behind), level: fmt(d.level) });
  $("versus").textContent = [together, how].join(" ");
});

async function boot() {
  await loadWords();
  const r = await fetch(`/api/players/${encodeURIComponent(playerId)}`);
  const d = await r.json();
  if (!r.ok) {
    $("missing").hidden = false;
    $("missing").textContent = d.error;
    for (const s of document.querySelectorAll("main > section")) s.hidden = true;
    return;
  }
  document.title = t("Jamaica — {name}", { name: d.name });
  $("title").textContent = d.name;
  drawRatings(d);
  drawCounts(d);
  drawBots(d);
  drawRecent(d);
  drawVersusChoices(d);
}

boot();
