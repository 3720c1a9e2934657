// The board: the island map from /api/board (layout.py), the spaces, the ships and the marks
// a player needs to decide. Everything is SVG built with createElementNS and attributes (the
// pages' Content-Security-Policy allows no inline style); names go in as text, never as markup.
//
//   drawBoard(svg, layout, view, names, options) -> the <svg>
//       svg: an <svg> element (or a container to draw one into); layout: GET /api/board;
//       view: the server's view (ships, lair_tokens); names: one per ship;
//       options: { targets: [space], onPick(space), lastMoves: {ship: [from, …, to] or {from, to}},
//                  hints: {space: "text"} }
//       targets are ringed; with onPick they are buttons (.space.target: click, Enter, Space),
//       without it only shown (.space.preview), e.g. where a card in the hand would lead.
//   moveShip(svg, ship, path, options) -> Promise   glide a ship along a list of spaces
//   flashSpace(svg, space, text, {kind, ms}) -> Promise   call out a battle, shortage, treasure
//   trackPath(layout, from, to, steps) -> [space]   the spaces a move passes through
//   shipColor(ship, ghost) -> "#rrggbb";  inkOn(colour) -> "#000000" or "#ffffff"

import { n, signed, t } from "/static/i18n.js";

const NS = "http://www.w3.org/2000/svg";
const N_ = (s) => s; // marks a message for the catalogs; t() translates it when shown
// Six ship colours chosen to stay apart for every colour vision: any two differ by a CIEDE2000
// distance of at least 30 with normal sight and at least 19 as a protanope, a deuteranope or a
// tritanope sees them (tests/web/test_ship_colours.py simulates each); in seat order, the first
// ones are the furthest apart (two players: blue and yellow). Each also keeps its initials
// readable (black or white ink at 4.5:1 or more). The Ghost Ship is black. A ship never shows
// by its colour alone: its letters are on its sail, or on its pawn on a crowded space.
export const PALETTE = ["#2222dd", "#f5dd11", "#7a5500", "#77eedd", "#ee4477", "#8899ff"];
export const GHOST_COLOUR = "#111111";
const PALETTE_NAMES = [N_("blue"), N_("yellow"), N_("brown"), N_("aqua"), N_("rose"), N_("lavender")];

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

const r1 = (v) => Math.round(v * 10) / 10;

// --- colours ---------------------------------------------------------------------------------

export function shipColor(ship, ghost = false) {
  if (ship !== null && typeof ship === "object") return shipColor(ship.ship, ship.ghost);
  return ghost ? GHOST_COLOUR : PALETTE[((ship % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

export function colourName(ship, ghost = false) {
  return ghost ? t("black") : t(PALETTE_NAMES[ship % PALETTE.length]);
}

function luminance(hex) {
  const c = hex.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(c.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// White or black, whichever reads better on this colour (every palette colour reaches 4.5:1).
export function inkOn(colour) {
  return contrast(colour, "#ffffff") >= contrast(colour, "#000000") ? "#ffffff" : "#000000";
}

// A name without its article: "the Ghost Ship" (or its name in the reader's language) → "Ghost Ship".
function bare(name) {
  return String(name) === t("the Ghost Ship") ? t("Ghost Ship") : String(name).replace(/^the\s+/i, "");
}

export function initials(name) {
  const words = bare(name).split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((w) => [...w][0]).join("").toUpperCase() || "?";
}

// Letters that tell every ship at the table apart: its initials or, where two ships share them
// ("Anna" and "Alice"), its first letter and another of its name ("AN", "AL"; its seat's number
// if none is left).
export function shipLetters(names) {
  const first = names.map(initials);
  const shared = (t) => first.filter((u) => u === t).length > 1;
  const used = new Set(first.filter((t) => !shared(t)));
  return first.map((t, i) => {
    if (!shared(t)) return t;
    const head = [...t][0];
    const letters = [...bare(names[i]).toUpperCase()].slice(1)
      .filter((c) => /[\p{L}\p{N}]/u.test(c));
    const pick = letters.map((c) => head + c).find((two) => !used.has(two)) ?? head + String(i + 1);
    used.add(pick);
    return pick;
  });
}

// --- the track --------------------------------------------------------------------------------

// The spaces from `from` to `to` along the track (forward, else backward), both included: with
// `steps`, a route of exactly that many moves (which fork lane a move took), else the shortest.
export function trackPath(layout, from, to, steps = null) {
  if (from === to) return [from];
  for (const key of ["next", "prev"]) {
    const routes = [];
    const walk = (route) => {
      if (route.length > 16 || routes.length > 8) return;
      const here = route[route.length - 1];
      if (here === to && route.length > 1) { routes.push(route); return; }
      for (const n of layout.spaces[here][key]) if (!route.includes(n) || n === to) walk([...route, n]);
    };
    walk([from]);
    if (routes.length) {
      routes.sort((a, b) => a.length - b.length);
      return (steps !== null && routes.find((r) => r.length - 1 === steps)) || routes[0];
    }
  }
  return [from, to];
}

// Where the ships on one space stand, inside its circle (or square, rock, or Port Royal's
// harbour): a position, a scale and a font size (in board units) for each of `n` ships. A lone
// ship at scale 1 reaches 23 units from its anchor: at 1.12 it stays inside a circle of 28.5.
// Two or more share the space as round pawns (`r`: the radius), the largest equal discs that fit
// side by side in its circle: 2 in a row, 3 in a triangle, 4 in a square, 5 in a ring, 6 in a
// ring, a 7th in the middle. Nothing overlaps: each pawn's letters show whole.
const PAWN = { 2: 0.5, 3: 1 / (1 + 2 / Math.sqrt(3)), 4: 1 / (1 + Math.SQRT2), 5: 1 / (1 + 1 / Math.sin(Math.PI / 5)), 6: 1 / 3, 7: 1 / 3 };

function spots(space, n) {
  const { x, y } = space;
  if (space.shape === "harbour") {
    const one = n <= 3, per = one ? n : 3, s = one ? 0.95 : 0.72, dx = one ? 40 : 33;
    return Array.from({ length: n }, (_, i) => {
      const row = Math.floor(i / per), col = i % per, inRow = Math.min(per, n - row * per);
      return { x: x + (col - (inRow - 1) / 2) * dx, y: y + (one ? 17 : 2 + row * 26), s, font: 15 };
    });
  }
  // a port's square holds a circle of 28, a rock's outline one of 27
  const R = space.shape === "square" ? 28 : space.shape === "rock" ? 27 : Math.min(space.w, space.h) / 2;
  if (n === 1) return [{ x, y: y + R / 30, s: (1.12 * R) / 30, font: 16 }];
  // the pawn's outline stays inside too (a rock's outline runs within 25 between its corners)
  const m = Math.min(n, 7), inner = (space.shape === "rock" ? 25 : R) - 1.2;
  const r = inner * PAWN[m], d = inner - r;
  const ring = m === 7 ? 6 : m;
  const start = { 2: 180, 3: 210, 4: 225 }[m] ?? -90 - 180 / ring;
  const at = Array.from({ length: ring }, (_, i) => {
    const a = ((start + (i * 360) / ring) * Math.PI) / 180;
    return { x: x + d * Math.cos(a), y: y + d * Math.sin(a) };
  });
  if (m === 7) at.push({ x, y });
  const font = m <= 2 ? 16 : m <= 4 ? 15 : 12;
  return Array.from({ length: n }, (_, i) => ({ ...at[Math.min(i, at.length - 1)], s: 1, r, font, pawn: true }));
}

// What each ship on a space shows: its letters (shipLetters); on a crowded space one letter while
// that tells the ships there apart, else both.
function shipLabels(letters, crowded) {
  if (!crowded) return letters;
  const one = letters.map((t) => [...t][0]);
  return one.map((t, i) => (one.filter((u) => u === t).length > 1 ? letters[i] : t));
}

// --- pieces -----------------------------------------------------------------------------------

// A ship, seen from the side, bow to the right: a hull (a darker shade), a mast with a pennant,
// a jib and a billowing square sail that carries the captain's initials. About 41 × 35 at scale 1,
// round its anchor.
function shade(hex, k) {
  const c = hex.replace("#", "");
  return "#" + [0, 2, 4].map((i) => Math.round(parseInt(c.slice(i, i + 2), 16) * k).toString(16).padStart(2, "0")).join("");
}

function shipShape(colour, label, ghost, fontPx) {
  const hull = ghost ? colour : shade(colour, 0.62);
  const g = el("g", { class: "board-ship-shape" + (ghost ? " ghost" : "") });
  g.appendChild(el("path", { class: "board-ship-hull", fill: hull,
    d: "M-20,4 L-13,4 L-13,7 L21,7 Q17,13 11,16 L-11,16 Q-18,13 -20,7 Z" }));
  g.appendChild(el("path", { class: "board-ship-mast", d: "M0,7 V-19" }));
  g.appendChild(el("path", { class: "board-ship-jib", fill: colour, d: "M2,-16 L20,5 L3,5 Z" }));
  g.appendChild(el("path", { class: "board-ship-pennant", fill: colour, d: "M0,-19 L-10,-16.5 L0,-14 Z" }));
  g.appendChild(el("path", { class: "board-ship-sail", fill: colour,
    d: "M-15,-13 Q0,-10 15,-13 Q18,-3.5 15,6 Q0,3 -15,6 Q-18,-3.5 -15,-13 Z" }));
  if (label) {
    g.appendChild(el("text", { class: "board-ship-initials", x: 0, y: -3, fill: inkOn(colour),
      "font-size": fontPx }, label));
  }
  return g;
}

// A ship on a crowded space: a round pawn of its colour (the Ghost Ship's black, outlined in
// white), with its letters.
function pawnShape(colour, label, ghost, r, fontPx) {
  const g = el("g", { class: "board-ship-shape board-pawn" + (ghost ? " ghost" : "") });
  g.appendChild(el("circle", { class: "board-ship-sail board-pawn-disc", r: r1(r), fill: colour }));
  g.appendChild(el("text", { class: "board-ship-initials", x: 0, y: 0.5, fill: inkOn(colour), "font-size": fontPx }, label));
  return g;
}

function foodIcon(x, y) {
  const g = el("g", { class: "board-icon food", transform: `translate(${r1(x)},${r1(y)})` });
  g.appendChild(el("path", { class: "board-food-bone", d: "M2,2 L7,7 M6,9 A2.2,2.2 0 1 1 9,6" }));
  g.appendChild(el("ellipse", { class: "board-food-meat", cx: -1.5, cy: -1.5, rx: 7, ry: 5.2,
    transform: "rotate(45)" }));
  return g;
}

function coinIcon(x, y) {
  const g = el("g", { class: ["board-icon", "coin"].join(" "), transform: `translate(${r1(x)},${r1(y)})` });
  g.appendChild(el("circle", { class: "board-coin", r: 8 }));
  g.appendChild(el("circle", { class: "board-coin-rim", r: 5 }));
  return g;
}

function skull(x, y) {
  const g = el("g", { class: "board-skull", transform: `translate(${r1(x)},${r1(y)})` });
  g.appendChild(el("path", { class: "board-skull-bone", d: "M-13,9 L13,-3 M-13,-3 L13,9" }));
  g.appendChild(el("path", { class: "board-skull-head",
    d: "M-9,0 A9,9 0 1 1 9,0 L7,4 L7,8 L-7,8 L-7,4 Z" }));
  g.appendChild(el("circle", { class: "board-skull-eye", cx: -3.6, cy: -0.5, r: 2.6 }));
  g.appendChild(el("circle", { class: "board-skull-eye", cx: 3.6, cy: -0.5, r: 2.6 }));
  g.appendChild(el("path", { class: "board-skull-eye", d: "M0,3 L-1.4,5.4 L1.4,5.4 Z" }));
  return g;
}

function chest(x, y) {
  const g = el("g", { class: "board-chest", transform: `translate(${r1(x)},${r1(y)})` });
  g.appendChild(el("path", { class: "board-chest-lid", d: "M-10,-3 Q-10,-10 0,-10 Q10,-10 10,-3 Z" }));
  g.appendChild(el("rect", { class: "board-chest-box", x: -10, y: -3, width: 20, height: 11, rx: 1.5 }));
  g.appendChild(el("rect", { class: "board-chest-lock", x: -2, y: -5, width: 4, height: 6 }));
  return g;
}

// A rock's outline round (x, y): irregular, the same for a space every time.
function rockPath(id, x, y, r) {
  const pts = [];
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * 2 * Math.PI + 0.3;
    const k = 0.9 + 0.1 * Math.sin(id * 3.1 + i * 2.3);
    pts.push([x + r * k * Math.cos(a), y + r * k * Math.sin(a)]);
  }
  return "M" + pts.map((p) => `${r1(p[0])},${r1(p[1])}`).join("L") + "Z";
}

// --- descriptions -------------------------------------------------------------------------------

function costText(s) {
  if (s.shape === "circle") return t("costs {cost} food", { cost: s.cost });
  if (s.shape === "square") return n("costs {n} doubloon", "costs {n} doubloons", s.cost);
  return t("costs nothing");
}

function scoreText(layout, s) {
  if (s.shape === "harbour") return t("a ship that finishes here scores {score}", { score: layout.finish_score ?? 15 });
  if (s.score !== null && s.score !== undefined) return t("scores {score} at the end", { score: s.score });
  return t("scores {score} at the end (before the red line)", { score: signed(layout.no_score ?? -5) });
}

function describeSpace(layout, s, ships, names, tokens, hint) {
  const kind = { harbour: t("Port Royal, start and finish"), circle: t("Sea"), square: t("Port"), rock: t("Pirate lair") }[s.shape];
  const lane = s.lane === "outer" ? t("fork {fork} outer lane", { fork: s.fork }) : s.lane === "inner" ? t("fork {fork} inner channel", { fork: s.fork }) : "";
  const what = lane ? [kind, lane].join(", ") : kind;
  const parts = [s.shape === "harbour" ? kind : t("Space {space}: {kind}", { space: s.id, kind: what })];
  if (s.shape !== "harbour") parts.push(costText(s));
  if (s.shape === "rock") parts.push(tokens.has(s.id) ? t("a treasure token lies here") : t("no treasure token left"));
  parts.push(scoreText(layout, s));
  const here = ships.map((sh) => names[sh.ship] ?? t("ship {k}", { k: sh.ship + 1 })).join(", ");
  parts.push(ships.length ? t("here: {ships}", { ships: here }) : t("no ship here"));
  if (hint) parts.push(hint);
  return parts.join("; ") + ".";
}

// --- the static layers: sea, islands, track, printed marks ----------------------------------------

function drawStatic(svg, layout) {
  const W = layout.width, H = layout.height;
  const defs = el("defs");
  const sea = el("radialGradient", { id: "board-sea-grad", cx: "50%", cy: "45%", r: "70%" });
  sea.appendChild(el("stop", { offset: "0%", "stop-color": "#2b86b5" }));
  sea.appendChild(el("stop", { offset: "100%", "stop-color": "#15557e" }));
  defs.appendChild(sea);
  const land = el("radialGradient", { id: "board-land-grad", cx: "50%", cy: "45%", r: "60%" });
  land.appendChild(el("stop", { offset: "0%", "stop-color": "#8fc26b" }));
  land.appendChild(el("stop", { offset: "100%", "stop-color": "#6fa653" }));
  defs.appendChild(land);
  const waves = el("pattern", { id: "board-waves", width: 60, height: 34, patternUnits: "userSpaceOnUse" });
  waves.appendChild(el("path", { class: "board-wave", d: "M4,10 q6,-5 12,0 t12,0 M34,27 q6,-5 12,0 t12,0" }));
  defs.appendChild(waves);
  svg.appendChild(defs);

  const base = el("g", { class: "board-static", "aria-hidden": "true" });
  base.appendChild(el("rect", { class: "board-sea", width: W, height: H, fill: "url(#board-sea-grad)" }));
  base.appendChild(el("rect", { class: "board-sea-waves", width: W, height: H, fill: "url(#board-waves)" }));
  for (const isl of layout.islands) base.appendChild(el("path", { class: "board-shallows", d: isl.path }));
  for (const isl of layout.islands) base.appendChild(el("path", { class: "board-beach", d: isl.path }));
  for (const isl of layout.islands) {
    base.appendChild(el("path", { class: `board-land ${isl.kind}`, d: isl.path, fill: "url(#board-land-grad)" }));
  }
  drawScenery(base, layout);
  // the track: a pale ribbon under the spaces, showing how they link and where lanes part
  const track = el("g", { class: "board-track" });
  for (const s of layout.spaces) {
    for (const n of s.next) {
      const t = layout.spaces[n];
      track.appendChild(el("line", { class: "board-link", x1: s.x, y1: s.y, x2: t.x, y2: t.y }));
    }
  }
  base.appendChild(track);
  svg.appendChild(base);

  // the printed marks: red line and its −5, the scores, Port Royal's 15
  const marks = el("g", { class: "board-marks" });
  const red = layout.red_line;
  if (red) {
    const line = el("g", { class: "board-red-line", role: "img",
      "aria-label": t("The red line: a ship that has not crossed it at the end scores −5") });
    line.appendChild(el("title", {}, t("The red line: a ship still before it at the end scores −5")));
    line.appendChild(el("path", { class: "board-red-line-halo", d: red.path }));
    line.appendChild(el("path", { class: "board-red-line-stroke", d: red.path }));
    const [lx, ly] = red.label_at;
    line.appendChild(el("circle", { class: "board-minus5", cx: lx, cy: ly, r: 21 }));
    line.appendChild(el("text", { class: "board-minus5-text", x: lx, y: ly + 0.5 }, "−5"));
    marks.appendChild(line);
  }
  for (const s of layout.spaces) {
    if (!s.score_at) continue;
    const [bx, by] = s.score_at;
    const g = el("g", { class: "board-score", "data-score-for": s.id, "aria-hidden": "true" });
    g.appendChild(el("circle", { class: "board-score-disc", cx: bx, cy: by, r: layout.badge_r ?? 16 }));
    g.appendChild(el("text", { class: "board-score-text", x: bx, y: by + 0.5 }, String(s.score)));
    marks.appendChild(g);
  }
  svg.appendChild(marks);
}

function drawScenery(g, layout) {
  const [cx, cy] = layout.center;
  // the Blue Mountains, a few hills, a river, and palms on the outer islands
  const peaks = [[-210, -28, 46], [-165, -52, 58], [-118, -30, 44], [150, -40, 52], [196, -20, 40], [232, -48, 48]];
  for (const [dx, dy, h] of peaks) {
    const x = cx + dx, y = cy + dy;
    g.appendChild(el("path", { class: "board-mountain", d: `M${x - h * 0.9},${y + h * 0.45} L${x},${y - h * 0.55} L${x + h * 0.9},${y + h * 0.45} Z` }));
    g.appendChild(el("path", { class: "board-mountain-light", d: `M${x},${y - h * 0.55} L${x - h * 0.25},${y + h * 0.45} L${x - h * 0.9},${y + h * 0.45} Z` }));
  }
  for (const [dx, dy] of [[-150, 90], [-95, 120], [175, 95], [120, 130], [215, 60], [-215, 60]]) {
    for (const [ox, oy, r] of [[0, 0, 13], [14, 5, 10], [-12, 6, 9]]) {
      g.appendChild(el("circle", { class: "board-tree", cx: cx + dx + ox, cy: cy + dy + oy, r }));
    }
  }
  g.appendChild(el("path", { class: "board-river", d: `M${cx - 165},${cy - 10} q30,40 10,80 t40,75` }));
  for (const isl of layout.islands) {
    if (isl.kind !== "outer") continue;
    const [x, y] = isl.center;
    for (const [ox, oy] of [[-14, 4], [12, -6]]) palm(g, x + ox, y + oy);
    g.appendChild(el("text", { class: "board-island-name", x, y: y + 30 }, isl.name));
  }
  const title = layout.title_at;
  if (title) g.appendChild(el("text", { class: "board-title", x: title[0], y: title[1] }, "JAMAICA"));
  if (layout.compass) compass(g, ...layout.compass);
  const pr = layout.port_royal;
  if (pr) {  // the town's houses behind the harbour, on the headland
    for (const [ox, oy] of [[-8, -58], [14, -66], [36, -57]]) {
      g.appendChild(el("path", { class: "board-house", d: `M${pr.x + ox - 8},${pr.y + oy + 8} v-9 l8,-7 l8,7 v9 Z` }));
    }
  }
}

function palm(g, x, y) {
  g.appendChild(el("path", { class: "board-palm-trunk", d: `M${x},${y + 14} q3,-8 1,-18` }));
  for (const d of ["q-8,-6 -14,2", "q8,-7 14,1", "q-2,-9 -9,-10", "q4,-9 10,-9"]) {
    g.appendChild(el("path", { class: "board-palm-leaf", d: `M${x + 1},${y - 4} ${d}` }));
  }
}

function compass(g, x, y, r) {
  const c = el("g", { class: "board-compass", transform: `translate(${x},${y})` });
  c.appendChild(el("circle", { class: "board-compass-ring", r: r * 0.62 }));
  const k = r * 0.16;
  c.appendChild(el("path", { class: "board-compass-star", d: `M0,${-r} L${k},${-k} L${r},0 L${k},${k} L0,${r} L${-k},${k} L${-r},0 L${-k},${-k} Z` }));
  c.appendChild(el("path", { class: "board-compass-north", d: `M0,${-r} L${k},${-k} L0,0 L${-k},${-k} Z` }));
  c.appendChild(el("text", { class: "board-compass-n", x: 0, y: -r - 12 }, "N"));
  g.appendChild(c);
}

// --- one space ---------------------------------------------------------------------------------------

function drawSpace(layout, s, ctx) {
  const { tokens, targets, hints, here, names, onPick } = ctx;
  const isTarget = targets.has(s.id);
  const hint = hints[s.id] ?? hints[String(s.id)] ?? null;
  const g = el("g", { id: `space-${s.id}`, class: `${["space", "board-space"].join(" ")} ${s.shape === "harbour" ? "pr" : { circle: "sea", square: "port", rock: "lair" }[s.shape]}`,
    "data-space": s.id });
  const label = describeSpace(layout, s, here, names, tokens, hint);
  g.appendChild(el("title", {}, label));
  if (isTarget) {  // a destination: clickable and focusable when there is an onPick, else only shown
    const ring = s.shape === "harbour"
      ? el("rect", { class: "board-target-ring", x: s.x - s.w / 2 - 7, y: s.y - s.h / 2 - 7, width: s.w + 14, height: s.h + 14, rx: 16 })
      : el("circle", { class: "board-target-ring", cx: s.x, cy: s.y, r: s.w / 2 + 7 });
    g.appendChild(ring);
  }
  if (isTarget && onPick) {
    g.classList.add("target");
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", t("Move here: {space}", { space: label }));
    const pick = () => onPick(s.id);
    g.addEventListener("click", pick);
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") { ev.preventDefault(); pick(); }
    });
  } else {
    if (isTarget) g.classList.add("preview");
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", isTarget ? t("A possible destination: {space}", { space: label }) : label);
  }
  const { x, y } = s;
  // the printed numbers and icons: a layer of their own, above the last moves' trails
  const m = el("g", { class: "board-space-marks", "data-marks-for": s.id, "aria-hidden": "true" });
  if (s.shape === "harbour") {
    g.appendChild(el("rect", { class: "board-space-shape board-harbour", x: x - s.w / 2, y: y - s.h / 2, width: s.w, height: s.h, rx: s.rx ?? 12 }));
    g.appendChild(el("path", { class: "board-quay", d: `M${x - s.w / 2 + 8},${y - s.h / 2 + 33} H${x + s.w / 2 - 8}` }));
    m.appendChild(el("text", { class: "board-pr-name", x: x + 12, y: y - s.h / 2 + 18 }, t("Port Royal")));
    const bx = x - s.w / 2 + 14, by = y - s.h / 2 - 6;
    m.appendChild(el("path", { class: "board-pr-star", d: starPath(bx, by, 21, 13.5) }));
    m.appendChild(el("text", { class: "board-pr-score", x: bx, y: by + 1 }, String(layout.finish_score ?? 15)));
  } else if (s.shape === "circle") {
    g.appendChild(el("circle", { class: "board-space-shape board-sea-space", cx: x, cy: y, r: s.r }));
    g.appendChild(el("path", { class: "board-sea-space-wave", d: `M${x - 17},${y + 19} q4,-3 8.5,0 t8.5,0 t8.5,0 t8.5,0` }));
    m.appendChild(el("text", { class: "board-space-id", x, y: y - 15 }, String(s.id)));
    m.appendChild(el("text", { class: "board-cost", x: x - 6, y: y + 5 }, String(s.cost)));
    m.appendChild(foodIcon(x + 11, y + 4));
  } else if (s.shape === "square") {
    const h = s.w / 2, c = s.rx ?? 15;
    g.appendChild(el("rect", { class: "board-space-shape board-port-space", x: x - h, y: y - h, width: 2 * h, height: 2 * h, rx: c }));
    g.appendChild(el("path", { class: "board-port-roof", d: `M${x - h},${y - h + c} a${c},${c} 0 0 1 ${c},${-c} h${2 * h - 2 * c} a${c},${c} 0 0 1 ${c},${c} v5 h${-2 * h} Z` }));
    m.appendChild(el("text", { class: "board-space-id on-roof", x, y: y - h + 10 }, String(s.id)));
    m.appendChild(el("text", { class: "board-cost on-port", x: x - 7, y: y + 9 }, String(s.cost)));
    m.appendChild(coinIcon(x + 11, y + 8));
  } else {
    g.appendChild(el("path", { class: "board-space-shape board-rock", d: rockPath(s.id, x, y, s.w / 2) }));
    g.appendChild(el("path", { class: "board-rock-light", d: `M${x - 20},${y - 10} q8,-14 24,-16` }));
    m.appendChild(el("text", { class: "board-space-id on-rock", x, y: y - 15 }, String(s.id)));
    m.appendChild(skull(x, y + 6));
    if (tokens.has(s.id)) {
      const t = chest(x + 16, y + 15);
      t.setAttribute("data-token", s.id);
      t.classList.add("board-token");
      m.appendChild(t);
    }
  }
  return [g, m];
}

function starPath(x, y, R, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, k = i % 2 ? r : R;
    pts.push(`${r1(x + k * Math.cos(a))},${r1(y + k * Math.sin(a))}`);
  }
  return "M" + pts.join("L") + "Z";
}

// --- drawBoard ---------------------------------------------------------------------------------------

function boardSvg(target, layout) {
  let svg = target;
  if (!(target instanceof SVGSVGElement)) {
    svg = target.querySelector(":scope > svg.board");
    if (!svg) { svg = el("svg"); target.replaceChildren(svg); }
  }
  if (svg.__boardLayout !== layout) {
    svg.replaceChildren();
    svg.setAttribute("viewBox", layout.viewBox || `0 0 ${layout.width} ${layout.height}`);
    // (preserveAspectRatio: its default, xMidYMid meet)
    svg.classList.add("board");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-roledescription", "board");
    drawStatic(svg, layout);
    for (const name of ["spaces", "trails", "labels", "ships", "legend", "hints"]) {
      svg.appendChild(el("g", { class: `board-${name}`, "data-layer": name }));
    }
    svg.__boardLayout = layout;
  }
  return svg;
}

export function drawBoard(target, layout, view, names = [], options = {}) {
  const svg = boardSvg(target, layout);
  const layer = (name) => svg.querySelector(`:scope > [data-layer="${name}"]`);
  const ships = view.ships || [];
  const tokens = new Set(view.lair_tokens || []);
  const targets = new Set((options.targets || []).map(Number));
  const hints = options.hints || {};
  const focused = document.activeElement && svg.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-space") : null;
  const nameOf = (k) => names[k] ?? ships[k]?.name ?? t("Ship {k}", { k: k + 1 });
  const allNames = ships.map((sh) => nameOf(sh.ship));
  const lettersOf = new Map(shipLetters(allNames).map((letters, i) => [ships[i].ship, letters]));
  const onSpace = (name, space) => (space === 0 ? t("{name} on Port Royal", { name }) : t("{name} on space {space}", { name, space }));
  svg.setAttribute("aria-label", t("The board: {ships}", { ships: ships.map((sh) => onSpace(nameOf(sh.ship), sh.space)).join(", ") }));

  const byspace = new Map();
  for (const sh of ships) {
    if (!byspace.has(sh.space)) byspace.set(sh.space, []);
    byspace.get(sh.space).push(sh);
  }
  const spaces = layer("spaces"), labels = layer("labels");
  spaces.replaceChildren();
  labels.replaceChildren();
  // targets last, so their rings are drawn over their neighbours
  const order = [...layout.spaces].sort((a, b) => targets.has(a.id) - targets.has(b.id));
  for (const s of order) {
    const [shape, printed] = drawSpace(layout, s, { tokens, targets, hints, here: byspace.get(s.id) || [], names: allNames, onPick: options.onPick });
    spaces.appendChild(shape);
    labels.appendChild(printed);
  }

  drawTrails(layer("trails"), layout, ships, options.lastMoves || {});

  const shipLayer = layer("ships");
  shipLayer.replaceChildren();
  for (const [space, here] of byspace) {
    const s = layout.spaces[space];
    if (!s) continue;
    const at = spots(s, here.length);
    const letters = shipLabels(here.map((sh) => lettersOf.get(sh.ship)), s.shape !== "harbour" && here.length >= 2);
    here.forEach((sh, i) => {
      const colour = shipColor(sh.ship, sh.ghost);
      const { x, y, s: k, font, r, pawn } = at[i];
      const g = el("g", { class: "ship board-ship" + (sh.ghost ? " ghost" : "") + (pawn ? " pawn" : ""), "data-ship": sh.ship, "data-space": space,
        "data-x": r1(x), "data-y": r1(y), "data-s": r1(k * 100) / 100, transform: `translate(${r1(x)},${r1(y)}) scale(${r1(k * 100) / 100})` });
      const who = `${nameOf(sh.ship)} (${colourName(sh.ship, sh.ghost)}, ${lettersOf.get(sh.ship)})`;
      g.appendChild(el("title", {}, space === 0 ? t("{ship}, in Port Royal", { ship: who }) : t("{ship}, on space {space}", { ship: who, space })));
      g.appendChild(pawn ? pawnShape(colour, letters[i], sh.ghost, r, font)
        : shipShape(colour, letters[i], sh.ghost, r1(font / (r1(k * 100) / 100))));
      if (targets.has(space) && options.onPick) {  // a ship on a destination: a click picks it too
        g.classList.add("on-target");
        g.addEventListener("click", () => options.onPick(space));
      }
      shipLayer.appendChild(g);
    });
  }

  drawHints(layer("hints"), layout, targets, hints);
  drawLegend(layer("legend"), layout, ships, nameOf, view.captain, lettersOf);
  svg.__board = { layout, view };

  if (focused !== null) {
    const again = svg.querySelector(`.board-space.target[data-space="${focused}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  return svg;
}

function drawTrails(layer, layout, ships, lastMoves) {
  layer.replaceChildren();
  for (const [key, given] of Object.entries(lastMoves)) {
    // [from, …, to], or {from, to} (with a `path` if known)
    const move = Array.isArray(given) ? given : given && (given.path || [given.from, given.to]);
    if (!Array.isArray(move) || move.length < 2 || move.some((m) => !(m in layout.spaces))) continue;
    const ship = Number(key);
    const sh = ships.find((x) => x.ship === ship);
    const path = move.length > 2 ? move.map(Number) : trackPath(layout, Number(move[0]), Number(move[1]));
    if (path.length < 2 || path[0] === path[path.length - 1]) continue;
    const pts = path.map((id) => [layout.spaces[id].x, layout.spaces[id].y]);
    // start and end at the edges of the first and last spaces, so both stay readable
    const trim = (a, b, d) => {
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      return [a[0] + ((b[0] - a[0]) * d) / len, a[1] + ((b[1] - a[1]) * d) / len];
    };
    const first = layout.spaces[path[0]], last = layout.spaces[path[path.length - 1]];
    pts[0] = trim(pts[0], pts[1], Math.min(first.w, first.h) / 2 - 4);
    pts[pts.length - 1] = trim(pts[pts.length - 1], pts[pts.length - 2], Math.min(last.w, last.h) / 2 + 2);
    const d = "M" + pts.map((p) => `${r1(p[0])},${r1(p[1])}`).join("L");
    const colour = shipColor(ship, sh ? sh.ghost : false);
    const g = el("g", { class: "board-trail", "data-ship": ship, "data-path": path.join(" "), "aria-hidden": "true" });
    g.appendChild(el("path", { class: "board-trail-halo", d }));
    g.appendChild(el("path", { class: "board-trail-line", d, stroke: colour }));
    const [ex, ey] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
    const a = Math.atan2(ey - py, ex - px);
    const head = (k, off) => `${r1(ex + k * Math.cos(a + off))},${r1(ey + k * Math.sin(a + off))}`;
    g.appendChild(el("path", { class: "board-trail-head", fill: colour,
      d: `M${r1(ex)},${r1(ey)} L${head(-13, 0.45)} L${head(-13, -0.45)} Z` }));
    layer.appendChild(g);
  }
}

// Each hint in a label beside its space, on whichever side covers least of the other spaces,
// the other hints and the board's edge.
function drawHints(layer, layout, targets, hints) {
  layer.replaceChildren();
  const placed = [];
  const overlap = (a, b) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x))
    * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const boxes = layout.spaces.map((q) => ({ id: q.id, x: q.x - q.w / 2, y: q.y - q.h / 2, w: q.w, h: q.h }));
  for (const id of targets) {
    const text = hints[id] ?? hints[String(id)];
    if (!text) continue;
    const s = layout.spaces[id];
    const g = el("g", { class: "board-hint", "data-hint-for": id, "aria-hidden": "true" });
    layer.appendChild(g);
    const label = el("text", { class: "board-hint-text" });
    g.appendChild(label);
    fitText(label, String(text), layout.width / 2);
    const w = Math.min(layout.width / 2, textWidth(label, [...String(text)].length * 8.6)) + 18, h = 26;
    const [ox, oy] = s.outward || [0, -1];
    let best = null;
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4, dx = Math.cos(a), dy = Math.sin(a);
      const cx = s.x + dx * (s.w / 2 + w / 2 + 4), cy = s.y + dy * (s.h / 2 + h / 2 + 4);
      const box = { x: cx - w / 2, y: cy - h / 2, w, h };
      let cost = boxes.reduce((sum, q) => sum + (q.id === id ? 0 : overlap(box, q)), 0);
      cost += placed.reduce((sum, q) => sum + 4 * overlap(box, q), 0);
      const inside = overlap(box, { x: 2, y: 2, w: layout.width - 4, h: layout.height - 4 });
      cost += 8 * (w * h - inside) - 30 * (dx * ox + dy * oy);
      if (!best || cost < best.cost) best = { ...box, cost };
    }
    best.x = Math.max(4, Math.min(layout.width - w - 4, best.x));
    best.y = Math.max(4, Math.min(layout.height - h - 4, best.y));
    placed.push(best);
    const bx = best.x + w / 2, by = best.y + h / 2, len = Math.hypot(bx - s.x, by - s.y) || 1;
    const edge = Math.min(s.w, s.h) / 2 + 3;
    g.insertBefore(el("path", { class: "board-hint-leader",
      d: `M${r1(s.x + ((bx - s.x) * edge) / len)},${r1(s.y + ((by - s.y) * edge) / len)} L${r1(bx)},${r1(by)}` }), label);
    g.insertBefore(el("rect", { class: "board-hint-box", x: r1(best.x), y: r1(best.y), width: r1(w), height: h, rx: 8 }), label);
    label.setAttribute("x", r1(bx));
    label.setAttribute("y", r1(by + 0.5));
  }
}

// Shorten a drawn text element with an ellipsis until it is at most `width` wide.
function fitText(t, text, width) {
  t.textContent = text;
  if (!t.isConnected || typeof t.getComputedTextLength !== "function") return;
  let chars = [...text];
  while (chars.length > 1 && t.getComputedTextLength() > width) {
    chars = chars.slice(0, -1);
    t.textContent = chars.join("").trimEnd() + "…";
  }
}

function textWidth(t, fallback) {
  const w = t.isConnected && typeof t.getComputedTextLength === "function" ? t.getComputedTextLength() : 0;
  return w > 0 ? w : fallback;
}

function drawLegend(layer, layout, ships, nameOf, captain, lettersOf) {
  layer.replaceChildren();
  const L = layout.legend;
  if (!L || !ships.length) return;
  const h = 12 + ships.length * L.row + 6;
  const g = el("g", { class: "board-legend-box", role: "list", "aria-label": t("Ships and their colours") });
  layer.appendChild(g);
  g.appendChild(el("rect", { class: "board-legend-paper", x: L.x, y: L.y, width: L.w, height: h, rx: 10 }));
  ships.forEach((sh, i) => {
    const y = L.y + 12 + i * L.row + L.row / 2;
    const row = el("g", { class: "board-legend-row", role: "listitem", "data-ship": sh.ship });
    g.appendChild(row);
    const colour = shipColor(sh.ship, sh.ghost);
    const token = el("g", { transform: `translate(${L.x + 26},${y})` });  // its colour and letters
    token.appendChild(pawnShape(colour, lettersOf.get(sh.ship) ?? "", sh.ghost, 13, 15));
    row.appendChild(token);
    const full = nameOf(sh.ship);
    const text = el("text", { class: "board-legend-name", x: L.x + 48, y: y + 0.5 });
    row.appendChild(text);
    const room = L.w - 48 - 10;
    if (sh.ship === captain) {
      const mark = el("tspan", { class: "board-legend-captain" }, " " + t("(captain)"));
      text.appendChild(mark);
      const markWidth = textWidth(mark, 84);
      fitText(text, full, room - markWidth);  // (this takes the mark out)
      text.appendChild(mark);
    } else {
      fitText(text, full, room);
    }
    const said = { name: full, colour: colourName(sh.ship, sh.ghost), letters: lettersOf.get(sh.ship) };
    row.appendChild(el("title", {}, sh.ship === captain ? t("{name}: {colour} ship, {letters}, the captain", said) : t("{name}: {colour} ship, {letters}", said)));
  });
}

// --- moveShip ---------------------------------------------------------------------------------------

const reduceMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion:reduce)").matches;

// Glide `ship`'s token along `path` (a list of spaces; two spaces are filled in along the track),
// space by space, ending where drawBoard put it. Call it after drawBoard drew the ship on its new
// space. Resolves when the ship has arrived (at once with reduced motion, or if the board is
// redrawn meanwhile). options: { stepMs: 260 }.
export function moveShip(svg, ship, path, options = {}) {
  const board = svg.__board || (svg.querySelector && svg.querySelector("svg.board")?.__board);
  if (!(svg instanceof SVGSVGElement)) svg = svg.querySelector("svg.board");
  const token = svg && svg.querySelector(`.board-ship[data-ship="${ship}"]`);
  if (!board || !token || !path || path.length < 1) return Promise.resolve();
  const layout = board.layout;
  const route = path.length === 2 ? trackPath(layout, path[0], path[1]) : path.map(Number);
  const end = { x: Number(token.dataset.x), y: Number(token.dataset.y), s: Number(token.dataset.s) };
  const pts = route.map((id) => ({ x: layout.spaces[id].x, y: layout.spaces[id].y, s: Math.max(end.s, 0.8) }));
  if (Number(token.dataset.space) === route[route.length - 1]) pts[pts.length - 1] = end;
  const place = (p) => token.setAttribute("transform", `translate(${r1(p.x)},${r1(p.y)}) scale(${r1(p.s * 100) / 100})`);
  if (reduceMotion() || pts.length < 2) { place(pts[pts.length - 1]); return Promise.resolve(); }
  const stepMs = options.stepMs ?? 260;
  const run = (token.__moveRun = (token.__moveRun || 0) + 1);
  token.parentNode.appendChild(token);  // above the other ships while it sails
  token.classList.add("moving");
  return new Promise((resolve) => {
    const t0 = performance.now();
    const frame = (now) => {
      if (!token.isConnected || token.__moveRun !== run) { resolve(); return; }
      const t = Math.max(0, now - t0) / stepMs;
      const i = Math.min(Math.floor(t), pts.length - 1);
      if (i >= pts.length - 1) {
        place(pts[pts.length - 1]);
        token.classList.remove("moving");
        resolve();
        return;
      }
      const f = t - i, e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
      const a = pts[i], b = pts[i + 1];
      const lift = Math.sin(Math.PI * f) * 0.08;
      place({ x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e, s: a.s + (b.s - a.s) * e + lift });
      requestAnimationFrame(frame);
    };
    place(pts[0]);
    requestAnimationFrame(frame);
  });
}

// Call out something that happens on a space (a battle, a shortage, a treasure, a load): a
// label beside it and a pulse round it, for `ms`, then gone. kind: "battle", "shortage",
// "treasure" or "info" (its colour). It survives no redraw (drawBoard clears it). Resolves when
// it has faded.
export function flashSpace(svg, space, text, options = {}) {
  if (!(svg instanceof SVGSVGElement)) svg = svg.querySelector("svg.board");
  const board = svg && svg.__board;
  const s = board && board.layout.spaces[space];
  const layer = svg && svg.querySelector(':scope > [data-layer="hints"]');
  if (!s || !layer) return Promise.resolve();
  const kind = ["battle", "shortage", "treasure"].includes(options.kind) ? options.kind : "info";
  const ms = options.ms ?? 1600;
  const g = el("g", { class: `board-flash ${kind}`, "data-flash-for": space, "aria-hidden": "true" });
  g.appendChild(s.shape === "harbour"
    ? el("rect", { class: "board-flash-ring", x: s.x - s.w / 2 - 6, y: s.y - s.h / 2 - 6, width: s.w + 12, height: s.h + 12, rx: 16 })
    : el("circle", { class: "board-flash-ring", cx: s.x, cy: s.y, r: s.w / 2 + 6 }));
  layer.appendChild(g);
  if (text) {
    const label = el("text", { class: "board-flash-text" });
    g.appendChild(label);
    fitText(label, String(text), board.layout.width / 2);
    const w = textWidth(label, [...String(text)].length * 9) + 20, h = 30;
    const above = s.y - s.h / 2 - h - 8 > 4;
    const x = Math.max(4, Math.min(board.layout.width - w - 4, s.x - w / 2));
    const y = above ? s.y - s.h / 2 - h - 8 : s.y + s.h / 2 + 8;
    g.insertBefore(el("rect", { class: "board-flash-box", x: r1(x), y: r1(y), width: r1(w), height: h, rx: 9 }), label);
    label.setAttribute("x", r1(x + w / 2));
    label.setAttribute("y", r1(y + h / 2 + 0.5));
  }
  g.style.setProperty("--board-flash-ms", `${ms}ms`);  // CSSOM, which the policy allows
  return new Promise((resolve) => setTimeout(() => { g.remove(); resolve(); }, ms));
}
