// Step through any game as a spectator sees it: by decision, by round, or playing at a speed;
// a chart of every ship's score over the rounds; the final table; the table's chat.
import { el } from "/static/common.js";
import { BoardView, ready as boardReady, inkOn, shipColour, shipLetters } from "/static/boardview.js";
import { icon } from "/static/icons.js";
import { Log } from "/static/log.js";
import { BattlePanel, DicePanel, drawShips, scoreTable, winnerWords } from "/static/panels.js";
import { loadChat } from "/static/chat.js";
import { ghostName } from "/static/words.js";
import { fetchIn, loadWords, n, t } from "/static/i18n.js";
import { Analysis } from "/static/analysis.js";

await loadWords(); // the reader's words, before anything is drawn

const tableId = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const STEP_MS = 700; // one decision per tick at normal speed
let layout = null, board = null, names = [], ghost = -1;
let step = 0, steps = 0, round = 0, playing = null, loading = 0;
const starts = new Map(); // round -> {step, view}: where each round begins
const cache = new Map(); // step -> {round, view}
const log = new Log($("log"), null);
const dice = new DicePanel($("dice"));
const battle = new BattlePanel($("battle"));
// a player's own decisions judged by master (their seat's token in the fragment, or their key)
const analysis = new Analysis(tableId, $("analysis-body"), (n) => { pause(); show(n); },
  () => { drawRounds(); drawChart(); });

async function fetchStep(n, tries = 6) {
  const r = await fetchIn(`/api/tables/${tableId}/replay?step=${n}`);
  if ((r.status === 429 || r.status === 503) && tries > 0) {
    // The server is busy or this address asked a lot at once: wait as told, then ask again.
    const wait = Math.min(10, Number(r.headers.get("Retry-After")) || 1);
    await new Promise((done) => setTimeout(done, wait * 1000));
    return fetchStep(n, tries - 1);
  }
  const d = await r.json();
  if (!r.ok || d.error) throw new Error(d.error || t("error {status}", { status: r.status }));
  cache.set(d.step, { round: d.view.round, view: d.view });
  return d;
}

async function roundAt(n) {
  if (!cache.has(n)) await fetchStep(n);
  return cache.get(n).round;
}

/** Every round's first step, found by halving the intervals in which the round changes. */
async function indexRounds() {
  const mark = (r, n) => {
    if (!starts.has(r) || starts.get(r).step > n) starts.set(r, { step: n, view: cache.get(n).view });
  };
  const split = async (lo, hi) => {
    const [a, b] = await Promise.all([roundAt(lo), roundAt(hi)]);
    if (a === b) return;
    if (hi - lo === 1) {
      for (let r = a + 1; r <= b; r++) mark(r, hi);
      return;
    }
    const mid = (lo + hi) >> 1;
    await split(lo, mid);
    await split(mid, hi);
  };
  mark(await roundAt(0), 0);
  const parts = 8;
  const cuts = Array.from({ length: parts + 1 }, (_, i) => Math.round((steps * i) / parts));
  await Promise.all(cuts.slice(1).map((c, i) => split(cuts[i], c)));
  drawRounds();
  drawChart();
}

function lineText(text) {
  const line = String(text);
  // a round begins, in the server's English or French
  const m = /^(?:Round (\d+) begins|la manche (\d+) commence)\./i.exec(line);
  if (m) return { kind: "round", args: [Number(m[1] || m[2])], text: line };
  const lower = line.toLowerCase();
  const k = names.map((name, i) => [name, i]).sort((x, y) => y[0].length - x[0].length)
    .find(([name]) => name && lower.startsWith(name.toLowerCase()));
  return { kind: "line", args: k ? [k[1]] : [], text: line };
}

async function show(n) {
  const token = ++loading;
  let d;
  try {
    d = await fetchStep(Math.max(0, Math.min(n, steps || n)));
  } catch (e) {
    $("where").textContent = String(e.message || e);
    return;
  }
  if (token !== loading) return; // a later request wins
  names = d.names;
  steps = d.steps;
  analysis.gameOver(d.over !== false); // its analysis opens when the game is over
  step = d.step;
  round = d.view.round;
  ghost = d.view.ships.findIndex((s) => s.ghost);
  ghostName(names, ghost);
  // round 0 is the setup (the hands are drawn, then the first Captain): no round has begun
  const at = round >= 1 ? t("Round {round}", { round }) : t("Before round 1");
  $("where").textContent = at + " · " + t("step {step} of {steps}", { step, steps });
  board.draw(d.view, names, {});
  drawShips($("ships"), d.view, names, null);
  dice.show(d.view, names);
  const events = d.events.map((e) => (typeof e === "string" ? lineText(e) : e));
  // the battle of this step, told by its events from the last one's start (so a won battle
  // shows its dice and winner, as at the table), or by the view (a battle still going on)
  battle.close();
  const fought = events.map((e) => e.kind).lastIndexOf("battle");
  if (fought >= 0) for (const ev of events.slice(fought)) battle.event(ev, names, d.view);
  battle.fromView(d.view, names);
  log.reset(names, null, ghost);
  for (const ev of events.slice(-250)) log.add(ev, false);
  log.toBottom();
  const fin = $("final");
  fin.hidden = !d.view.game_over;
  if (d.view.game_over) {
    $("winner").textContent = winnerWords(d.view, names);
    $("final-table").replaceChildren(scoreTable(d.view, names));
    cache.set(step, { round, view: d.view });
  }
  $("first").disabled = $("prev").disabled = $("prevround").disabled = step === 0;
  $("last").disabled = $("next").disabled = $("nextround").disabled = step >= steps;
  for (const b of $("rounds").querySelectorAll("button")) b.setAttribute("aria-current", String(Number(b.dataset.round) === round));
  if (step >= steps) pause();
  drawChart();
  analysis.at(step);
}

// --- rounds and the chart ------------------------------------------------------------------------
function drawRounds() {
  const box = $("rounds");
  box.replaceChildren(el("span", { class: "muted" }, t("Round:") + " "));
  for (const r of [...starts.keys()].sort((a, b) => a - b)) {
    if (r < 1) continue;
    const b = el("button", { type: "button", "data-round": r, "aria-label": t("Round {round}", { round: r }) }, String(r));
    b.setAttribute("aria-current", String(r === round));
    const marked = analysis.roundMarks().get(r); // the worst mark of the player's decisions there
    if (marked) {
      b.dataset.mark = marked.mark;
      b.append(el("span", { class: "round-mark", "aria-hidden": "true" }, marked.symbol));
      b.setAttribute("aria-label", t("Round {round}: {mark}", { round: r, mark: markWords(marked.mark) }));
    }
    b.addEventListener("click", () => { pause(); show(starts.get(r).step); });
    box.appendChild(b);
  }
}

function roundStep(delta) {
  const rounds = [...starts.keys()].sort((a, b) => a - b);
  if (delta < 0) {
    const here = starts.get(round);
    const target = here && here.step < step ? round : round - 1; // to the start of this round first
    return starts.has(target) ? starts.get(target).step : 0;
  }
  const next = rounds.find((r) => r > round);
  return next === undefined ? steps : starts.get(next).step;
}

/** A ship's score if the game ended now, from what a spectator sees: its place on the track and
 * its doubloons (face-down treasures are secret until the end). */
function publicScore(ship) {
  const doubloons = ship.holds.filter((h) => h.type === "gold").reduce((n, h) => n + h.count, 0);
  let place = layout.no_score ?? -5;
  if (ship.finished) place = layout.finish_score ?? 15;
  else if (ship.lap >= 0 && ship.space > 0) place = layout.spaces[ship.space].score ?? place;
  return place + doubloons;
}

function drawChart() {
  const points = [...starts.entries()].filter(([r]) => r >= 1).sort((a, b) => a[0] - b[0]);
  const end = cache.get(steps);
  const series = []; // per ship: [[x, score]]
  const xs = points.map(([r]) => r);
  const lastX = (xs[xs.length - 1] || 1) + 1;
  if (!points.length) return;
  const shipsN = points[0][1].view.ships.length;
  for (let k = 0; k < shipsN; k++) {
    const line = points.map(([r, p]) => [r, publicScore(p.view.ships[k])]);
    if (end && end.view.game_over) line.push([lastX, end.view.scores[k].total]);
    series.push(line);
  }
  const all = series.flat().map((p) => p[1]);
  const lo = Math.min(-5, ...all), hi = Math.max(10, ...all);
  const W = 420, H = 200, L = 30, R = 18, T = 12, B = 22;
  const x = (v) => L + ((v - 1) / Math.max(1, lastX - 1)) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const add = (tag, attrs, text = null) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== null) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  const tick = Math.max(5, Math.ceil((hi - lo) / 5 / 5) * 5);
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" });
    add("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, String(v));
  }
  const every = Math.max(1, Math.ceil(xs.length / 10));
  xs.forEach((r, i) => { if (i % every === 0) add("text", { x: x(r), y: H - 6, "text-anchor": "middle" }, String(r)); });
  if (end && end.view.game_over) add("text", { x: x(lastX), y: H - 6, "text-anchor": "middle" }, t("end"));
  if (round >= 1) add("line", { x1: x(round), x2: x(round), y1: T, y2: H - B, class: "now" });
  for (const [r, m] of analysis.roundMarks()) { // the player's marked rounds, as lichess marks moves
    if (r < 1 || r >= lastX) continue;
    add("text", { x: x(r), y: T + 2, "text-anchor": "middle", class: "chart-mark", "data-mark": m.mark }, m.symbol);
  }
  const summary = [];
  const letters = shipLetters(names);
  // each line drawn over a dark edge (a yellow or an aqua line shows on the paper), and ended by
  // the ship's letters, as on the board: a colour is never the only way to tell the lines apart
  series.forEach((line, k) => {
    const ship = points[0][1].view.ships[k];
    const colour = shipColour(k, ship.ghost);
    const pts = line.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(" ");
    if (!ship.ghost) add("path", { d: "M" + pts.replaceAll(" ", " L"), class: "edge", fill: "none", stroke: "#1b1b1b", "stroke-width": 4 });
    add("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": ship.ghost ? 2.5 : 2, "stroke-dasharray": ship.ghost ? "5 3" : "none" });
    summary.push(`${names[k]} ${line[line.length - 1][1]}`);
  });
  series.forEach((line, k) => {  // the letters over every line
    const ship = points[0][1].view.ships[k];
    const colour = shipColour(k, ship.ghost);
    const [lx, ly] = line[line.length - 1];
    add("circle", { cx: x(lx), cy: y(ly), r: 9.5, fill: colour, stroke: ship.ghost ? "#e6edf2" : "#000", "stroke-width": 1 });
    add("text", { x: x(lx), y: y(ly) + 3.5, "text-anchor": "middle", class: "chart-letters", fill: inkOn(colour) }, letters[k] || "");
  });
  svg.setAttribute("aria-label", n("Scores over {n} round; last: {scores}", "Scores over {n} rounds; last: {scores}", xs.length, { scores: summary.join(", ") }));
  $("chart").replaceChildren(svg);
  const legend = $("legend");
  legend.replaceChildren();
  points[0][1].view.ships.forEach((ship, k) => {
    const item = el("span");
    const colour = shipColour(k, ship.ghost);
    const chip = el("span", { class: "chip letters", "aria-hidden": "true" }, letters[k] || "");
    chip.style.backgroundColor = colour;
    chip.style.color = inkOn(colour);
    item.append(chip, document.createTextNode(names[k]));
    legend.appendChild(item);
  });
}

function markWords(mark) {
  return { inaccuracy: t("an inaccuracy"), mistake: t("a mistake"), blunder: t("a blunder") }[mark] || "";
}

// --- playing -------------------------------------------------------------------------------------
function play() {
  if (step >= steps) show(0);
  const b = $("play");
  b.replaceChildren(icon("pause", 18, "icon"), el("span", {}, t("Pause")));
  b.setAttribute("aria-label", t("Pause"));
  const tick = async () => {
    if (!playing) return;
    if (step >= steps) { pause(); return; }
    await show(step + 1);
    if (playing) playing = setTimeout(tick, STEP_MS * Number($("speed").value));
  };
  playing = setTimeout(tick, 10);
}

function pause() {
  clearTimeout(playing);
  playing = null;
  const b = $("play");
  b.replaceChildren(icon("play", 18, "icon"), el("span", {}, t("Play")));
  b.setAttribute("aria-label", t("Play"));
}

function button(id, glyph, words) {
  const b = $(id);
  b.replaceChildren(icon(glyph, 18, "icon"), el("span", { class: "btn-words" }, words));
  b.title = b.getAttribute("aria-label");
}

button("first", "first", t("Start"));
button("prevround", "prevround", t("Round"));
button("prev", "prev", t("Step"));
button("next", "next", t("Step"));
button("nextround", "nextround", t("Round"));
button("last", "last", t("End"));
pause();
$("first").onclick = () => { pause(); show(0); };
$("prev").onclick = () => { pause(); show(Math.max(0, step - 1)); };
$("next").onclick = () => { pause(); show(Math.min(steps, step + 1)); };
$("last").onclick = () => { pause(); show(steps); };
$("prevround").onclick = () => { pause(); show(roundStep(-1)); };
$("nextround").onclick = () => { pause(); show(roundStep(1)); };
$("play").onclick = () => (playing ? pause() : play());
$("table-link").href = `/table/${tableId}`;
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) return;
  const go = { ArrowRight: () => Math.min(steps, step + 1), ArrowLeft: () => Math.max(0, step - 1),
    PageDown: () => roundStep(1), PageUp: () => roundStep(-1), Home: () => 0, End: () => steps }[e.key];
  if (go) { e.preventDefault(); pause(); show(go()); }
});

Promise.all([fetchIn("/api/board").then((r) => r.json()), boardReady]).then(async ([b]) => {
  layout = b;
  board = new BoardView($("board"), layout);
  await show(0);
  await fetchStep(steps);
  await indexRounds();
  drawRounds();
});
loadChat(tableId, $("chat-list")); // the table's chat, kept with it

