// The board on the table and replay pages: board.js (the island) when it is there, else the
// older diagram of common.js. Also the path a move takes along the track, space by space.
import { COLOURS, drawBoard as drawDiagram } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
let island = null;
export const ready = import("/static/board.js").then((m) => {
  island = m;
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "/static/board.css";
  document.head.appendChild(css);
}, () => { island = null; });

/** A ship's colour: board.js decides when present; the Ghost Ship is black. */
export function shipColour(ship, ghost) {
  if (island && island.shipColor) return island.shipColor(ship, ghost);
  return ghost ? "#1b1b1b" : COLOURS[ship % 6];
}

/** The letters that tell each ship apart on the board (its initials): board.js decides. */
export function shipLetters(names) {
  if (island && island.shipLetters) return island.shipLetters(names);
  return names.map((n) => String(n).replace(/^the\s+/i, "").split(/\s+/).filter(Boolean)
    .slice(0, 2).map((w) => [...w][0]).join("").toUpperCase() || "?");
}

/** Black or white: whichever reads better on a ship's colour. */
export function inkOn(colour) {
  return island && island.inkOn ? island.inkOn(colour) : "#ffffff";
}

/** The spaces a ship passes, from one space to another, forward or backward (a breadth-first
 * search along the track's links: at a fork, the lane that leads there). */
export function trackPath(layout, from, to, forward) {
  if (from === to) return [from];
  const spaces = layout.spaces;
  const links = spaces.map(() => []);
  for (const s of spaces) {
    for (const n of s.next) {
      if (forward) links[s.id].push(n);
      else links[n].push(s.id);
    }
  }
  const prev = new Map([[from, null]]);
  const todo = [from];
  while (todo.length) {
    const at = todo.shift();
    if (at === to) break;
    for (const n of links[at]) if (!prev.has(n)) { prev.set(n, at); todo.push(n); }
  }
  if (!prev.has(to)) return [from, to];
  const path = [];
  for (let at = to; at !== null; at = prev.get(at)) path.push(at);
  return path.reverse();
}

export class BoardView {
  constructor(container, layout) {
    this.container = container;
    this.layout = layout;
    this.svg = null;
    this.last = null; // the last drawing's arguments, to redraw while a ship moves
    this.key = null;
    this.onPick = null;
    this.pick = (space) => { if (this.onPick) this.onPick(space); };
  }

  /** targets: spaces to ring (clickable with onPick); hints: {space: text} shown beside them;
   * lastMoves: {ship: [from, …, to]}. */
  draw(view, names, { targets = [], onPick = null, lastMoves = {}, hints = {} } = {}) {
    this.last = { view, names, targets, onPick, lastMoves, hints };
    // Redraw only when something drawn changed (a settled update often changes only holds).
    const key = JSON.stringify([view.ships.map((s) => [s.ship, s.space, s.ghost]), view.lair_tokens,
      view.captain, names, targets, hints, lastMoves, Boolean(onPick)]);
    this.onPick = onPick;
    if (key === this.key && this.svg && this.container.contains(this.svg)) return;
    this.key = key;
    const pick = onPick ? this.pick : null;
    if (island) {
      this.svg = island.drawBoard(this.container, this.layout, view, names, { targets, onPick: pick, lastMoves, hints });
    } else {
      drawDiagram(this.container, this.layout, view, names, targets, pick);
      this.svg = this.container.querySelector("svg");
      for (const m of Object.values(lastMoves || {})) {
        const shape = this.svg && this.svg.querySelector(`#space-${m[0]}`);
        if (shape && m.length > 1) shape.classList.add("last-from");
      }
    }
  }

  /** Where a ship is drawn now (after the moves shown so far). */
  spaceOf(ship) {
    const s = this.last && this.last.view.ships.find((x) => x.ship === ship);
    return s ? s.space : null;
  }

  /** Call out something happening on a space (board.js only): kind battle, shortage, treasure
   * or info. */
  flash(space, text, kind, ms) {
    if (!island || !island.flashSpace || !this.svg || space === null || ms <= 0) return;
    try {
      island.flashSpace(this.svg, space, text, { kind, ms });
    } catch (e) { /* a call-out is only decoration */ }
  }

  /** Put a ship on the last space of `path` and glide it there; resolves when it arrives. */
  move(ship, path, ms) {
    if (!this.last || path.length < 2) return Promise.resolve();
    const { view, names, targets, onPick, lastMoves, hints } = this.last;
    const place = (space) => ({ ...view, ships: view.ships.map((s) => (s.ship === ship ? { ...s, space } : s)) });
    if (island && island.moveShip) {
      this.draw(place(path[path.length - 1]), names, { targets, onPick, lastMoves, hints });
      const stepMs = Math.max(40, ms / (path.length - 1));
      try {
        return Promise.resolve(island.moveShip(this.svg, ship, path, { stepMs }));
      } catch (e) {
        return Promise.resolve();
      }
    }
    const step = Math.max(30, ms / (path.length - 1));
    return new Promise((resolve) => {
      let i = 1;
      const tick = () => {
        this.draw(place(path[i]), names, { targets, onPick, lastMoves, hints });
        i += 1;
        if (i < path.length) setTimeout(tick, step);
        else resolve();
      };
      tick();
    });
  }
}
