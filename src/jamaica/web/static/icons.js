// Small SVG icons drawn here (no icon font, no emoji: every browser shows them the same).
// icon(name) returns an <svg> element, aria-hidden: the words beside it say what it means.
const NS = "http://www.w3.org/2000/svg";

function node(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Each icon: a list of [tag, attributes] on a 24×24 grid.
const SHAPES = {
  food: [ // a round loaf
    ["ellipse", { cx: 12, cy: 14, rx: 9, ry: 6.5, fill: "#c98a3d", stroke: "#5c3a10", "stroke-width": 1.5 }],
    ["path", { d: "M7 12.5l2-3M11 12l2-3.2M15 12.5l2-3", stroke: "#5c3a10", "stroke-width": 1.5, fill: "none", "stroke-linecap": "round" }],
  ],
  gun: [ // a powder keg with a fuse
    ["rect", { x: 5, y: 8, width: 14, height: 13, rx: 3, fill: "#3b3b3b", stroke: "#111", "stroke-width": 1.2 }],
    ["path", { d: "M5 12h14M5 17h14", stroke: "#9a9a9a", "stroke-width": 1.2 }],
    ["path", { d: "M12 8c0-3 3-3 4-5", stroke: "#7a5a2a", "stroke-width": 1.5, fill: "none" }],
    ["circle", { cx: 16.5, cy: 3, r: 2, fill: "#ff7a00" }],
  ],
  gold: [ // a doubloon
    ["circle", { cx: 12, cy: 12, r: 9, fill: "#f2c230", stroke: "#8a6400", "stroke-width": 1.6 }],
    ["circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#8a6400", "stroke-width": 1.2 }],
  ],
  fwd: [ // forward: clockwise, onwards
    ["path", { d: "M3 12h14M12 6l6 6-6 6", stroke: "#1c6b2a", "stroke-width": 3, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  back: [
    ["path", { d: "M21 12H7M12 6l-6 6 6 6", stroke: "#a3202a", "stroke-width": 3, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  sun: [
    ["circle", { cx: 12, cy: 12, r: 5, fill: "#f5b400", stroke: "#8a5a00" }],
    ["path", { d: "M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1", stroke: "#8a5a00", "stroke-width": 1.8, "stroke-linecap": "round" }],
  ],
  moon: [
    ["path", { d: "M15 3a9 9 0 1 0 6 15A7.5 7.5 0 0 1 15 3z", fill: "#4a5bd1", stroke: "#1f2a7a" }],
  ],
  swords: [
    ["path", { d: "M4 4l12 12M20 4L8 16", stroke: "#333", "stroke-width": 2.4, "stroke-linecap": "round" }],
    ["path", { d: "M14 18l4-4M6 14l4 4M17 17l3 3M7 17l-3 3", stroke: "#8a5a00", "stroke-width": 2.4, "stroke-linecap": "round" }],
  ],
  skull: [
    ["path", { d: "M12 3c-5 0-8 3-8 7 0 2.5 1.2 4 3 5v3h10v-3c1.8-1 3-2.5 3-5 0-4-3-7-8-7z", fill: "#eee", stroke: "#222", "stroke-width": 1.4 }],
    ["circle", { cx: 9, cy: 10.5, r: 2, fill: "#222" }], ["circle", { cx: 15, cy: 10.5, r: 2, fill: "#222" }],
    ["path", { d: "M10 18v3M12 18v3M14 18v3", stroke: "#222", "stroke-width": 1.2 }],
  ],
  anchor: [
    ["circle", { cx: 12, cy: 4.5, r: 2.2, fill: "none", stroke: "#1d3b57", "stroke-width": 1.8 }],
    ["path", { d: "M12 7v14M7 11h10M4 15c1 4 4 6 8 6s7-2 8-6", stroke: "#1d3b57", "stroke-width": 1.8, fill: "none", "stroke-linecap": "round" }],
  ],
  chest: [
    ["rect", { x: 3, y: 9, width: 18, height: 11, rx: 1.5, fill: "#9b5d23", stroke: "#4a2a0a", "stroke-width": 1.3 }],
    ["path", { d: "M3 9c0-4 4-5 9-5s9 1 9 5", fill: "#b9722e", stroke: "#4a2a0a", "stroke-width": 1.3 }],
    ["rect", { x: 10.5, y: 11, width: 3, height: 4, fill: "#f2c230", stroke: "#4a2a0a" }],
  ],
  card: [
    ["rect", { x: 5, y: 3, width: 14, height: 18, rx: 2, fill: "#fffaf0", stroke: "#5b4a21", "stroke-width": 1.5 }],
  ],
  first: [["path", { d: "M5 5v14M19 5L9 12l10 7z", stroke: "currentColor", fill: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }]],
  last: [["path", { d: "M19 5v14M5 5l10 7-10 7z", stroke: "currentColor", fill: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }]],
  prev: [["path", { d: "M17 5L7 12l10 7z", fill: "currentColor", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }]],
  next: [["path", { d: "M7 5l10 7-10 7z", fill: "currentColor", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }]],
  prevround: [["path", { d: "M12 5L3 12l9 7zM21 5l-9 7 9 7z", fill: "currentColor" }]],
  nextround: [["path", { d: "M12 5l9 7-9 7zM3 5l9 7-9 7z", fill: "currentColor" }]],
  play: [["path", { d: "M7 4l13 8-13 8z", fill: "currentColor" }]],
  pause: [["path", { d: "M6 4h4v16H6zM14 4h4v16h-4z", fill: "currentColor" }]],
  sound: [["path", { d: "M4 9h4l5-4v14l-5-4H4zM16 8c1.5 1 1.5 7 0 8M18.5 5.5c3 2.5 3 10.5 0 13", stroke: "currentColor", fill: "none", "stroke-width": 1.8, "stroke-linejoin": "round" }]],
  mute: [["path", { d: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6", stroke: "currentColor", fill: "none", "stroke-width": 1.8, "stroke-linejoin": "round" }]],
};
SHAPES.powder = SHAPES.gun;
SHAPES.doubloons = SHAPES.gold;
SHAPES.gunpowder = SHAPES.gun;

export function icon(name, size = 18, cls = "icon") {
  const s = node("svg", { viewBox: "0 0 24 24", width: size, height: size, class: cls, "aria-hidden": "true", focusable: "false" });
  for (const [tag, attrs] of SHAPES[name] || []) s.appendChild(node(tag, attrs));
  return s;
}

/** An action die (1–6) as a die face with pips. */
export function dieFace(n, size = 40, cls = "die") {
  const s = node("svg", { viewBox: "0 0 24 24", width: size, height: size, class: cls, "aria-hidden": "true", focusable: "false" });
  s.appendChild(node("rect", { x: 1, y: 1, width: 22, height: 22, rx: 4, class: "die-body" }));
  const at = { 1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]],
    4: [[7, 7], [17, 7], [7, 17], [17, 17]], 5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
    6: [[7, 6], [17, 6], [7, 12], [17, 12], [7, 18], [17, 18]] }[n] || [];
  for (const [x, y] of at) s.appendChild(node("circle", { cx: x, cy: y, r: 2.1, class: "die-pip" }));
  return s;
}
