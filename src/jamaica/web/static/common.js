// Shared drawing for the table and the replay pages. Text from the server always goes through
// textContent, never innerHTML: names and log lines can't inject markup.
import { t } from "/static/i18n.js";

export const COLOURS = ["#d7263d", "#1b6ef5", "#1f9d3a", "#e6b400", "#a03fd1", "#13a5b5", "#222"];
const SVG = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

export function initials(name) {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]).join("").toUpperCase() || "?";
}

// The board: the island, the track with its forks, costs, lair tokens, the red −5 line, the score
// numbers, and the ships. `targets` are spaces to highlight; `onPick(space)` when one is clicked.
export function drawBoard(container, layout, view, names, targets = [], onPick = null) {
  const root = svg("svg", { viewBox: `0 0 ${layout.width} ${layout.height}`, role: "img",
    "aria-label": t("the board") });
  const [cx, cy] = layout.center;
  root.appendChild(svg("ellipse", { cx, cy, rx: 250, ry: 150, fill: "#4f8a3b", stroke: "#e8d9a8", "stroke-width": 10 }));
  root.appendChild(svg("text", { x: cx, y: cy, "text-anchor": "middle", "font-size": 34, fill: "#e8f5d0", "font-weight": "bold" }, "JAMAICA"));
  const byId = layout.spaces;
  for (const s of byId) for (const n of s.next) {
    const t = byId[n];
    if (n === 0 && s.id !== 49) continue;
    root.appendChild(svg("line", { x1: s.x, y1: s.y, x2: t.x, y2: t.y, class: "link" }));
  }
  const tokens = new Set(view.lair_tokens);
  const targetSet = new Set(targets);
  for (const s of byId) {
    const g = svg("g", { "data-space": s.id });
    const kind = ["sea", "port", "lair"].includes(s.type) ? s.type : "pr"; // else Port Royal
    const shape = kind === "port"
      ? svg("rect", { x: s.x - 19, y: s.y - 19, width: 38, height: 38, rx: 6 })
      : svg("circle", { cx: s.x, cy: s.y, r: kind === "pr" ? 30 : 20 });
    shape.setAttribute("class", `space ${kind}${targetSet.has(s.id) ? " target" : ""}`);
    shape.setAttribute("id", `space-${s.id}`);
    if (targetSet.has(s.id) && onPick) shape.addEventListener("click", () => onPick(s.id));
    g.appendChild(shape);
    g.appendChild(svg("text", { x: s.x, y: s.y - 7, class: "space-label" }, kind === "pr" ? t("Port Royal") : String(s.id)));
    const cost = kind === "sea" ? t("{cost} food", { cost: s.cost }) : kind === "port" ? t("{cost} gold", { cost: s.cost }) : kind === "lair" ? "☠" : "";
    g.appendChild(svg("text", { x: s.x, y: s.y + 8, class: "space-label cost" }, cost));
    if (kind === "lair" && tokens.has(s.id)) {
      g.appendChild(svg("circle", { cx: s.x + 15, cy: s.y - 15, r: 6, class: "token" }));
    }
    if (s.score !== null) {
      const dx = (s.x - cx) * 0.12, dy = (s.y - cy) * 0.12;
      g.appendChild(svg("text", { x: s.x + dx, y: s.y + dy + 4, class: "score" }, `+${s.score}`));
    }
    root.appendChild(g);
  }
  const [rx, ry] = layout.red_line_at;
  root.appendChild(svg("line", { x1: rx + 24, y1: ry - 30, x2: rx + 24, y2: ry + 30, stroke: "#ff1a1a", "stroke-width": 5 }));
  root.appendChild(svg("text", { x: rx + 40, y: ry - 32, fill: "#ff6b6b", "font-weight": "bold", "font-size": 16 }, "−5"));
  const perSpace = {};
  for (const ship of view.ships) {
    const s = byId[ship.space];
    const k = (perSpace[ship.space] = (perSpace[ship.space] || 0) + 1) - 1;
    const x = s.x - 14 + (k % 3) * 14, y = s.y + 24 + Math.floor(k / 3) * 14;
    const colour = COLOURS[Math.min(ship.ship, 6)];
    root.appendChild(svg("circle", { cx: x, cy: y, r: 9, fill: colour, class: "ship", "data-ship": ship.ship }));
    root.appendChild(svg("text", { x, y, class: "ship-label" }, initials(names[ship.ship])));
  }
  container.replaceChildren(root);
}
