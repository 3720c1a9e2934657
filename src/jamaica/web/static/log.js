// The log in plain words: player colours, a separator per round, your own events marked, the
// server's notes (time ran out, a bot plays a seat, a player is back), one line per fact, the
// newest line announced to screen readers, and a summary of what happened since your last turn.
import { el } from "/static/common.js";
import { shipColour } from "/static/boardview.js";
import { t } from "/static/i18n.js";
import { RESOURCES, amount, isMine, plain, shipsOf } from "/static/words.js";

const QUIET = new Set(["draw", "start"]); // a hidden draw says nothing a player needs
// An event that says again, with what only this seat may see, what the line before said:
// it takes that line's place ("Ann chooses a card." becomes "Ann chooses Food / Gunpowder.").
const SAYS_AGAIN = { chose_seen: "chose" };

export class Log {
  constructor(box, live) {
    this.box = box;
    this.live = live;
    this.names = [];
    this.seat = null;
    this.ghost = -1;
    this.entries = [];
    this.last = null;
    this.stick = true; // follow the newest line unless the reader scrolled up
    // Only the reader's own scrolling (wheel, touch, keys, the scroll bar) stops the log from
    // following the newest line; scrolling back to the bottom makes it follow again.
    this.userAt = -Infinity; // no reader action yet (0 read as one in the first 1.5 s of the page)
    const user = () => { this.userAt = performance.now(); };
    for (const type of ["wheel", "touchmove", "keydown", "pointerdown"]) box.addEventListener(type, user, { passive: true });
    box.addEventListener("scroll", () => {
      if (performance.now() - this.userAt < 1500) this.stick = this.atBottom();
    });
    new ResizeObserver(() => { if (this.stick) this.toBottom(); }).observe(box);
  }

  reset(names, seat, ghost) {
    this.names = names;
    this.seat = seat;
    this.ghost = ghost;
    this.entries = [];
    this.last = null; // the newest event's line: {kind, ship, p}
    this.box.replaceChildren();
  }

  /** Add an event; `announce` also reads it out (aria-live) — not for a rebuilt history. */
  add(ev, announce) {
    const mine = isMine(ev, this.seat, this.names);
    this.entries.push({ ev, mine });
    if (QUIET.has(ev.kind)) return;
    const text = plain(ev.text);
    let p;
    if (ev.kind === "round") {
      p = el("p", { class: "round-sep" });
      // "Round 3", in the reader's language whatever the server's words
      const round = Array.isArray(ev.args) && Number.isInteger(ev.args[0]) ? ev.args[0] : null;
      p.appendChild(el("span", {}, round === null ? text.replace(/ begins\.$/, "") : t("Round {round}", { round })));
    } else {
      p = el("p", { class: `ev ev-${ev.kind}` + (mine ? " mine" : "") });
      const ships = shipsOf(ev);
      const chip = el("span", { class: "chip", "aria-hidden": "true" });
      if (ships.length) chip.style.backgroundColor = shipColour(ships[0], ships[0] === this.ghost);
      else chip.classList.add("none");
      p.appendChild(chip);
      this.words(p, text);
      if (mine) p.appendChild(el("span", { class: "sr-only" }, " (" + t("you") + ")"));
    }
    const ship = shipsOf(ev)[0];
    const before = this.last;
    if (before && SAYS_AGAIN[ev.kind] === before.kind && before.ship === ship && before.p.parentNode === this.box) {
      before.p.replaceWith(p);
    } else this.box.appendChild(p);
    this.last = { kind: ev.kind, ship, p };
    if (this.stick) this.scrollSoon();
    if (announce && this.live) this.live.textContent = text;
  }

  /** A line that is not an event: a note of the server (its player's colour, when it names
   * one: the first named), or the page's own (a refused answer, the connection). */
  note(text, announce = true) {
    this.last = null;
    const words = plain(text);
    const ship = this.named(words);
    const p = el("p", { class: "note" + (ship !== null && ship === this.seat ? " mine" : "") });
    const chip = el("span", { class: "chip", "aria-hidden": "true" });
    if (ship !== null) chip.style.backgroundColor = shipColour(ship, ship === this.ghost);
    else chip.classList.add("none");
    p.appendChild(chip);
    this.words(p, words);
    if (ship !== null && ship === this.seat) p.appendChild(el("span", { class: "sr-only" }, " (" + t("you") + ")"));
    this.box.appendChild(p);
    if (this.stick) this.scrollSoon();
    if (announce && this.live) this.live.textContent = words;
  }

  /** The seat whose name comes first in a text, or null. */
  named(text) {
    let best = null, at = Infinity;
    this.names.forEach((name, k) => {
      if (!name) return;
      const i = text.indexOf(name);
      if (i >= 0 && (i < at || (i === at && name.length > this.names[best].length))) { best = k; at = i; }
    });
    return best;
  }

  atBottom() {
    const b = this.box;
    return b.scrollHeight - b.scrollTop - b.clientHeight < 40;
  }

  /** Follow the newest line once per frame, not once per line (each read of the height lays
   * the page out). */
  scrollSoon() {
    if (this.soon) return;
    this.soon = requestAnimationFrame(() => {
      this.soon = null;
      if (this.stick) this.toBottom();
    });
  }

  toBottom() {
    this.box.scrollTop = this.box.scrollHeight;
    this.stick = true;
  }

  /** The text with the ships' names in bold (as text nodes: names are never markup). */
  words(p, text) {
    const names = [...new Set(this.names)].filter(Boolean).sort((a, b) => b.length - a.length);
    if (!names.length) { p.appendChild(document.createTextNode(text)); return; }
    const esc = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${esc.join("|")})(?![\\p{L}\\p{N}])`, "giu");
    let at = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > at) p.appendChild(document.createTextNode(text.slice(at, m.index)));
      p.appendChild(el("b", {}, m[0]));
      at = m.index + m[0].length;
    }
    if (at < text.length) p.appendChild(document.createTextNode(text.slice(at)));
  }

  /** Index just after this seat's last turn (its last revealed card), or null. */
  lastTurn() {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.ev.kind === "reveal" && e.mine) return i + 1;
    }
    return null;
  }

  /** What the others did since this seat's last turn, a line per ship. */
  summary() {
    const from = this.lastTurn();
    if (from === null) return [];
    const per = new Map(); // ship -> [{words, move}]
    const say = (ship, words, move = false) => {
      if (!per.has(ship)) per.set(ship, []);
      const list = per.get(ship);
      if (move) {  // where a ship is now: said once, at its last place
        const i = list.findIndex((w) => w.move);
        if (i >= 0) list.splice(i, 1);
      }
      if (!list.length || list[list.length - 1].words !== words) list.push({ words, move });
    };
    const n = (k) => this.names[k];
    const you = (k) => k === this.seat;
    for (const { ev } of this.entries.slice(from)) {
      const a = ev.args;
      const ships = shipsOf(ev);
      if (!Array.isArray(a) || !ships.length || ships[0] === this.seat) continue; // the others'
      const who = ships[0];
      switch (ev.kind) {
        case "move": case "fallback":
          say(who, a[2] === 0 ? t("now on Port Royal") : t("now on space {space}", { space: a[2] }), true);
          break;
        case "shortage": say(who, shortWords(a[1])); break;
        // (said otherwise when the other side is the reader: French puts "you" before the verb)
        case "battle": say(who, you(a[1]) ? t("attacked you") : t("attacked {other}", { other: n(a[1]) })); break;
        case "win": say(who, you(a[1]) ? t("beat you") : t("beat {other}", { other: n(a[1]) })); break;
        case "tie": say(who, you(a[1]) ? t("tied with you") : t("tied with {other}", { other: n(a[1]) })); break;
        case "take": {
          const took = amount(a[3], a[2]);
          say(who, you(a[1]) ? t("took {amount} from you", { amount: took }) : t("took {amount} from {other}", { amount: took, other: n(a[1]) }));
          break;
        }
        case "steal_power": case "steal_blind":
          say(who, you(a[1]) ? t("stole a treasure from you") : t("stole a treasure from {other}", { other: n(a[1]) }));
          break;
        case "give": say(who, you(a[1]) ? t("gave you a cursed treasure") : t("gave {other} a cursed treasure", { other: n(a[1]) })); break;
        case "power": case "face_down": say(who, t("found a treasure")); break;
        case "finish": say(who, t("reached Port Royal: the last round!")); break;
        default: break;
      }
    }
    return [...per.entries()].filter(([k]) => k !== this.seat)
      .map(([ship, list]) => ({ ship, text: list.map((w) => w.words).join(", ") }));
  }
}

/** "ran short of food", by the event's resource code. */
function shortWords(resource) {
  switch (RESOURCES[resource]) {
    case "food": return t("ran short of food");
    case "gunpowder": return t("ran short of gunpowder");
    case "doubloons": return t("ran short of doubloons");
    default: return t("ran short");
  }
}

/** The summary as a list, or nothing. */
export function summaryList(lines, names, ghost) {
  if (!lines.length) return null;
  const ul = el("ul", { class: "since" });
  for (const { ship, text } of lines) {
    const li = el("li");
    const chip = el("span", { class: "chip", "aria-hidden": "true" });
    chip.style.backgroundColor = shipColour(ship, ship === ghost);
    li.append(chip, el("b", {}, names[ship]), document.createTextNode(" " + text + "."));
    ul.appendChild(li);
  }
  return ul;
}
