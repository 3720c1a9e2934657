// The panels around the board: the dice, the battle (built from its events, for everyone at the
// table), and the ships with their holds (where loads, payments and shortages show).
import { el } from "/static/common.js";
import { shipColour } from "/static/boardview.js";
import { dieFace, icon } from "/static/icons.js";
import { FACES, HOLD_WORDS, POWER_WORDS, RESOURCES, amount } from "/static/words.js";

// --- the dice ------------------------------------------------------------------------------------
export class DicePanel {
  constructor(box) {
    this.box = box;
    this.state = null; // what shows: {roll, morning, evening}
  }

  /** The dice of the view (the round's state), unless they show already. */
  show(view, names) {
    const d = view.dice;
    const s = this.state;
    if (s && s.roll.join() === d.roll.join() && s.morning === d.morning && s.evening === d.evening) return;
    if (d.morning) this.placed(view.captain, d.morning, d.evening, names, false, d.roll);
    else if (d.roll.length) this.rolled(d.roll[0], d.roll[1], false);
    else {
      this.state = { roll: [], morning: 0, evening: 0 };
      const text = view.round >= 1 ? `Round ${view.round}: the Captain rolls the dice.` : "The first round has not begun.";
      this.box.replaceChildren(el("span", { class: "dice-wait" }, text));
    }
  }

  rolled(a, b, animate) {
    this.state = { roll: [a, b], morning: 0, evening: 0 };
    const pair = el("div", { class: "dice-pair" });
    pair.append(dieFace(a, 40, "die" + (animate ? " rolling" : "")), dieFace(b, 40, "die" + (animate ? " rolling" : "")));
    this.box.replaceChildren(pair, el("span", { class: "dice-note" }, `The Captain rolls ${a} and ${b}.`));
  }

  placed(captain, morning, evening, names, animate, roll = null) {
    const was = this.state && this.state.roll.length ? this.state.roll : [morning, evening];
    this.state = { roll: roll || was, morning, evening };
    const slot = (time, n, label) => {
      const s = el("div", { class: `dice-slot ${time}` + (animate ? " settle" : "") });
      s.append(icon(time === "morning" ? "sun" : "moon", 20), dieFace(n, 40), el("span", {}, `${label} ${n}`));
      return s;
    };
    const note = captain === null || captain === undefined ? "" : `Captain: ${names[captain]}`;
    this.box.replaceChildren(slot("morning", morning, "Morning"), slot("evening", evening, "Evening"),
      el("span", { class: "dice-note" }, note));
  }
}

// --- the battle ----------------------------------------------------------------------------------
const BATTLE_EVENTS = new Set(["battle", "powder", "die", "sabre", "win", "tie", "take", "steal_power",
  "steal_blind", "steal_seen", "give", "give_seen", "overboard", "nothing"]);

export class BattlePanel {
  constructor(box) {
    this.box = box;
    this.fight = null; // {attacker, defender, space, sides: {ship: {powder, die, power}}, lines, over}
    this.after = 0; // events seen since the battle ended
  }

  /** Follow an event; returns whether it belonged to a battle. */
  event(ev, names, view) {
    const a = ev.args;
    if (!BATTLE_EVENTS.has(ev.kind)) {
      if (this.fight && this.fight.over && ++this.after > 1) this.close();
      return false;
    }
    if (!Array.isArray(a)) return true;
    if (ev.kind === "battle") {
      this.fight = { attacker: a[0], defender: a[1], space: a[2], sides: {}, lines: [], over: false, beth: {} };
      for (const k of [a[0], a[1]]) {
        this.fight.sides[k] = { powder: null, die: null, power: null };
        this.fight.beth[k] = Boolean(view && view.ships[k] && view.ships[k].powers.includes("beth"));
      }
      this.after = 0;
    } else if (!this.fight) {
      return true;
    } else if (ev.kind === "powder" && this.fight.sides[a[0]]) {
      this.fight.sides[a[0]].powder = a[1];
    } else if (ev.kind === "die" && this.fight.sides[a[0]]) {
      Object.assign(this.fight.sides[a[0]], { die: a[1], power: a[2] });
    } else if (ev.kind === "sabre") {
      this.fight.lines.push(`${names[a[0]]} uses Saran's Sabre: ${names[a[1]]} rolls again.`);
    } else if (ev.kind === "win") {
      this.fight.over = true;
      this.fight.winner = a[0];
    } else if (ev.kind === "tie") {
      this.fight.over = true;
      this.fight.winner = null;
      this.fight.lines.push("A tie: nothing happens.");
    } else {
      this.fight.lines.push(spoils(ev, names));
    }
    this.render(names);
    return true;
  }

  /** A battle in progress in the view (e.g. on a reload mid-battle), if no event showed it. */
  fromView(view, names) {
    const b = view.battle;
    if (!b) {
      if (this.fight && !this.fight.over) this.close();
      return;
    }
    if (this.fight && this.fight.attacker === b.attacker && this.fight.defender === b.defender && !this.fight.over) return;
    const side = (powder, die) => ({ powder: powder > 0 ? powder : null, die: die >= 0 ? die : null, power: null });
    this.fight = { attacker: b.attacker, defender: b.defender, space: view.ships[b.attacker].space,
      sides: { [b.attacker]: side(b.attacker_powder, b.attacker_die), [b.defender]: side(b.defender_powder, b.defender_die) },
      lines: [], over: false, beth: {} };
    this.render(names);
  }

  close() {
    this.fight = null;
    this.box.hidden = true;
    this.box.replaceChildren();
  }

  render(names) {
    const f = this.fight;
    this.box.hidden = false;
    const head = el("div", { class: "battle-head" });
    head.append(icon("swords", 22), el("b", {}, `Battle on space ${f.space}`));
    const row = el("div", { class: "battle-row" });
    for (const [k, role] of [[f.attacker, "attacks"], [f.defender, "defends"]]) {
      const s = f.sides[k] || {};
      const side = el("div", { class: "battle-side" + (f.over && f.winner === k ? " winner" : "") + (f.over && f.winner !== k && f.winner !== null ? " loser" : "") });
      const name = el("div", { class: "battle-name" });
      const chip = el("span", { class: "chip" });
      chip.style.backgroundColor = shipColour(k, names[k] === "the Ghost Ship");
      name.append(chip, document.createTextNode(`${names[k]} ${role}`));
      side.appendChild(name);
      const die = el("div", { class: "battle-die" + (s.die === null ? " waiting" : "") }, s.die === null ? "?" : FACES[s.die]);
      side.appendChild(die);
      const parts = [];
      if (s.powder !== null) parts.push(`${s.powder} gunpowder`);
      if (f.beth[k]) parts.push("Lady Beth +2");
      if (s.power !== null && s.die !== 5) parts.push(`firepower ${s.power}`);
      if (s.die === 5) parts.push("the star wins");
      side.appendChild(el("div", { class: "battle-detail" }, parts.join(" · ") || (s.die === null ? "…" : "")));
      if (f.over && f.winner === k) side.appendChild(el("div", { class: "battle-result" }, "Wins!"));
      row.appendChild(side);
    }
    const lines = el("div", { class: "battle-lines" });
    for (const l of f.lines) lines.appendChild(el("div", {}, l));
    this.box.replaceChildren(head, row, lines);
  }
}

function spoils(ev, names) {
  const a = ev.args;
  const n = (i) => names[a[i]];
  switch (ev.kind) {
    case "take": return `${n(0)} takes ${amount(a[3], a[2])} from ${n(1)}.`;
    case "steal_power": return `${n(0)} steals ${POWER_WORDS[["map", "sabre", "beth", "hold6"][a[2]]] || "a treasure"} from ${n(1)}.`;
    case "steal_blind": return `${n(0)} steals a face-down treasure from ${n(1)}.`;
    case "give": return `${n(0)} gives ${n(1)} a cursed treasure.`;
    case "nothing": return `${n(0)} takes nothing.`;
    default: return ev.text;
  }
}

// --- the ships -----------------------------------------------------------------------------------
export function drawShips(container, view, names, seat) {
  const list = el("div", { class: "ships" });
  for (const ship of view.ships) {
    const card = el("div", { class: "shipcard" + (ship.ship === seat ? " mine" : ""), "data-ship": ship.ship });
    card.style.borderLeftColor = shipColour(ship.ship, ship.ghost);
    const head = el("div", { class: "ship-head" });
    const chip = el("span", { class: "chip" });
    chip.style.backgroundColor = shipColour(ship.ship, ship.ghost);
    head.append(chip, el("span", { class: "name" }, names[ship.ship] + (ship.ship === seat ? " (you)" : "")));
    if (ship.ship === view.captain) {
      const cap = el("span", { class: "badge captain", title: "the Captain this round" });
      cap.append(icon("anchor", 14), document.createTextNode("Captain"));
      head.appendChild(cap);
    }
    card.appendChild(head);
    card.appendChild(holdsRow(ship.holds));
    let where = ship.finished ? "Finished!" : ship.space === 0 ? "Port Royal" : `Space ${ship.space}`;
    if (!ship.finished) where += ` · ${ship.moves_left} to go`;
    if (ship.lap < 0) where += " · behind the start";
    const extras = [where];
    if (ship.powers.length) extras.push(ship.powers.map((p) => POWER_WORDS[p] || p).join(", "));
    if (ship.face_down) extras.push(`${ship.face_down} treasure${ship.face_down > 1 ? "s" : ""}` + (ship.face_down_known.length ? ` (${ship.face_down_known.join(", ")})` : ""));
    if (!ship.ghost) extras.push(`${ship.hand_size} card${ship.hand_size === 1 ? "" : "s"}` + (ship.has_chosen ? ", chosen" : ""));
    const line = el("div", { class: "ship-where" }, extras.join(" · "));
    line.title = extras.join(" · ");
    card.appendChild(line);
    card.appendChild(el("div", { class: "flash", "aria-hidden": "true" }));
    list.appendChild(card);
  }
  container.replaceChildren(list);
}

export function holdsRow(holds) {
  const row = el("div", { class: "holds" });
  holds.forEach((h, i) => {
    const word = HOLD_WORDS[h.type] || h.type;
    const chip = el("span", { class: `hold ${h.count ? h.type : "empty"}`, "data-hold": i,
      title: h.count ? `hold ${i + 1}: ${amount(h.count, word)}` : `hold ${i + 1}: empty` });
    if (h.count) chip.append(icon(h.type, 14), el("span", {}, String(h.count)));
    else chip.appendChild(el("span", { class: "sr-only" }, "empty"));
    chip.setAttribute("aria-label", h.count ? amount(h.count, word) : "empty hold");
    row.appendChild(chip);
  });
  return row;
}

/** A short badge on a ship's card: what it just loaded, paid or lost. */
export function flashShip(container, ship, text, kind) {
  const card = container.querySelector(`.shipcard[data-ship="${ship}"]`);
  if (!card) return;
  const f = card.querySelector(".flash");
  f.textContent = text;
  f.className = `flash show ${kind}`;
  card.classList.remove("pulse");
  void card.offsetWidth; // restart the animation
  card.classList.add("pulse");
}

/** The badge text for an event that changes holds, or null. */
export function holdChange(ev) {
  const a = ev.args;
  if (!Array.isArray(a)) return null;
  switch (ev.kind) {
    case "load": return [a[0], `+${amount(a[2], a[1])}`, "gain"];
    case "pay": return [a[0], `−${amount(a[2], a[1])}`, "loss"];
    case "dump": return [a[0], `emptied ${amount(a[2], a[1])}`, "loss"];
    case "shortage": return [a[0], `Shortage of ${RESOURCES[a[1]]}!`, "alarm"];
    case "take": return [a[0], `+${amount(a[3], a[2])}`, "gain"];
    case "power": return [a[0], "treasure!", "gain"];
    case "face_down": return [a[0], "treasure!", "gain"];
    default: return null;
  }
}


// --- the end -------------------------------------------------------------------------------------
export function scoreTable(view, names, seat = null) {
  const t = el("table", { class: "scores", id: "scores" });
  t.appendChild(el("caption", { class: "sr-only" }, "Final scores"));
  const head = el("tr");
  for (const h of ["Ship", "Place", "Doubloons", "Treasures", "Total"]) head.appendChild(el("th", { scope: "col" }, h));
  t.appendChild(head);
  const order = view.scores.map((sc, k) => [sc, k]).sort((x, y) => y[0].total - x[0].total);
  for (const [sc, k] of order) {
    const row = el("tr", { class: (view.winners.includes(k) ? "winner" : "") + (k === seat ? " mine" : "") });
    const who = el("th", { scope: "row" });
    const chip = el("span", { class: "chip", "aria-hidden": "true" });
    chip.style.backgroundColor = shipColour(k, view.ships[k] && view.ships[k].ghost);
    who.append(chip, document.createTextNode(names[k] + (view.winners.includes(k) ? " ★ winner" : "")));
    row.appendChild(who);
    for (const v of [sc.position, sc.doubloons, sc.treasures, sc.total]) row.appendChild(el("td", {}, String(v)));
    t.appendChild(row);
  }
  return t;
}
