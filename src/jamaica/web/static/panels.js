// The panels around the board: the dice, the battle (built from its events, for everyone at the
// table), and the ships with their holds (where loads, payments and shortages show).
import { el } from "/static/common.js";
import { shipColour } from "/static/boardview.js";
import { dieFace, icon } from "/static/icons.js";
import { n, signed, t } from "/static/i18n.js";
import { FACES, HOLD_WORDS, POWER_WORDS, amount, andWords, powerWord, shortageWords } from "/static/words.js";

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
    // before the roll, the round too: a replay's jump from one round's start to another's
    // (or from the setup's) must not keep the words of the first
    const same = s && s.roll.join() === d.roll.join() && s.morning === d.morning && s.evening === d.evening;
    if (same && (d.roll.length || s.round === view.round)) return;
    if (d.morning) this.placed(view.captain, d.morning, d.evening, names, false, d.roll);
    else if (d.roll.length) this.rolled(d.roll[0], d.roll[1], false);
    else {
      this.state = { roll: [], morning: 0, evening: 0, round: view.round };
      const text = view.round >= 1 ? t("Round {round}: the Captain rolls the dice.", { round: view.round }) : t("The first round has not begun.");
      this.box.replaceChildren(el("span", { class: "dice-wait" }, text));
    }
  }

  rolled(a, b, animate) {
    this.state = { roll: [a, b], morning: 0, evening: 0 };
    const pair = el("div", { class: "dice-pair" });
    pair.append(dieFace(a, 40, "die" + (animate ? " rolling" : "")), dieFace(b, 40, "die" + (animate ? " rolling" : "")));
    this.box.replaceChildren(pair, el("span", { class: "dice-note" }, t("The Captain rolls {a} and {b}.", { a, b })));
  }

  placed(captain, morning, evening, names, animate, roll = null) {
    const was = this.state && this.state.roll.length ? this.state.roll : [morning, evening];
    this.state = { roll: roll || was, morning, evening };
    const slot = (time, die, label) => {
      const s = el("div", { class: `dice-slot ${time}` + (animate ? " settle" : "") });
      s.append(icon(time === "morning" ? "sun" : "moon", 20), dieFace(die, 40), el("span", {}, label));
      return s;
    };
    const note = captain === null || captain === undefined ? "" : t("Captain: {name}", { name: names[captain] });
    this.box.replaceChildren(slot("morning", morning, t("Morning {die}", { die: morning })),
      slot("evening", evening, t("Evening {die}", { die: evening })),
      el("span", { class: "dice-note" }, note));
  }
}

// --- the battle ----------------------------------------------------------------------------------
const BATTLE_EVENTS = new Set(["battle", "powder", "die", "sabre", "win", "tie", "take", "steal_power",
  "steal_blind", "steal_seen", "give", "give_seen", "overboard", "nothing"]);

// the questions a battle asks (its winner's spoils among them): the panel stays for these
const BATTLE_QUESTIONS = new Set(["powder", "sabre", "spoils"]);

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
      this.fight = { attacker: a[0], defender: a[1], space: a[2], sides: {}, lines: [], over: false, beth: {}, ghost: {} };
      for (const k of [a[0], a[1]]) {
        this.fight.sides[k] = { powder: null, die: null, power: null };
        this.fight.beth[k] = Boolean(view && view.ships[k] && view.ships[k].powers.includes("beth"));
        this.fight.ghost[k] = Boolean(view && view.ships[k] && view.ships[k].ghost);
      }
      this.after = 0;
    } else if (!this.fight) {
      return true;
    } else if (ev.kind === "powder" && this.fight.sides[a[0]]) {
      this.fight.sides[a[0]].powder = a[1];
    } else if (ev.kind === "die" && this.fight.sides[a[0]]) {
      Object.assign(this.fight.sides[a[0]], { die: a[1], power: a[2] });
    } else if (ev.kind === "sabre") {
      this.fight.lines.push(t("{ship} uses Saran's Sabre: {other} rolls again.", { ship: names[a[0]], other: names[a[1]] }));
    } else if (ev.kind === "win") {
      this.fight.over = true;
      this.fight.winner = a[0];
    } else if (ev.kind === "tie") {
      this.fight.over = true;
      this.fight.winner = null;
      this.fight.lines.push(t("A tie: nothing happens."));
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
      lines: [], over: false, beth: {},
      ghost: { [b.attacker]: Boolean(view.ships[b.attacker].ghost), [b.defender]: Boolean(view.ships[b.defender] && view.ships[b.defender].ghost) } };
    this.render(names);
  }

  /** A question of the reader's own that is not the battle's: a battle over gives the board
   * back (the panel covers its middle, and on a phone all of it above the question). */
  asked(kind) {
    if (this.fight && this.fight.over && !BATTLE_QUESTIONS.has(kind)) this.close();
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
    head.append(icon("swords", 22), el("b", {}, t("Battle on space {space}", { space: f.space })));
    if (f.over) { // over: the reader may give the board (on a phone, the log) back at once
      const shut = el("button", { type: "button", class: "battle-close", "aria-label": t("Close the battle") }, "×");
      shut.addEventListener("click", () => this.close());
      head.appendChild(shut);
    }
    const row = el("div", { class: "battle-row" });
    for (const [k, role] of [[f.attacker, t("{name} attacks", { name: names[f.attacker] })], [f.defender, t("{name} defends", { name: names[f.defender] })]]) {
      const s = f.sides[k] || {};
      const side = el("div", { class: "battle-side" + (f.over && f.winner === k ? " winner" : "") + (f.over && f.winner !== k && f.winner !== null ? " loser" : "") });
      const name = el("div", { class: "battle-name" });
      const chip = el("span", { class: "chip" });
      chip.style.backgroundColor = shipColour(k, Boolean(f.ghost && f.ghost[k]));
      name.append(chip, document.createTextNode(role));
      side.appendChild(name);
      // a side that never rolled (the attacker's star wins at once) waits no more once it is over
      const rolling = s.die === null && !f.over;
      const die = el("div", { class: "battle-die" + (s.die === null ? " waiting" : "") }, rolling ? "?" : s.die === null ? "–" : FACES[s.die]);
      side.appendChild(die);
      const parts = [];
      if (s.powder !== null) parts.push(amount(s.powder, "gunpowder"));
      if (f.beth[k]) parts.push(t("Lady Beth +2"));
      if (s.power !== null && s.die !== 5) parts.push(t("firepower {power}", { power: s.power }));
      if (s.die === 5) parts.push(t("the star wins"));
      // each part whole on its line ("firepower" never without its number)
      const detail = el("div", { class: "battle-detail" }, parts.length ? null : rolling ? "…" : "");
      parts.forEach((p, i) => detail.append(...(i ? [" · "] : []), el("span", { class: "nowrap" }, p)));
      side.appendChild(detail);
      if (f.over && f.winner === k) side.appendChild(el("div", { class: "battle-result" }, t("Wins!")));
      row.appendChild(side);
    }
    const lines = el("div", { class: "battle-lines" });
    for (const l of f.lines) lines.appendChild(el("div", {}, l));
    this.box.replaceChildren(head, row, lines);
  }
}

function spoils(ev, names) {
  const a = ev.args;
  const ship = names[a[0]], other = names[a[1]];
  switch (ev.kind) {
    case "take": return t("{ship} takes {amount} from {other}.", { ship, other, amount: amount(a[3], a[2]) });
    case "steal_power": {
      const power = ["map", "sabre", "beth", "hold6"][a[2]];
      return t("{ship} steals {treasure} from {other}.", { ship, other, treasure: power ? powerWord(power) : t("a treasure") });
    }
    case "steal_blind": return t("{ship} steals a face-down treasure from {other}.", { ship, other });
    case "give": return t("{ship} gives {other} a cursed treasure.", { ship, other });
    case "nothing": return t("{ship} takes nothing.", { ship });
    default: return ev.text;
  }
}

// --- the ships -----------------------------------------------------------------------------------
const FLASH_MS = 1800; // a flash's animation (style.css)

export function drawShips(container, view, names, seat) {
  // a flash still running goes on where it stands: the next update redraws the cards, and a
  // review saw a quarter of them cut short
  const running = new Map();
  for (const f of container.querySelectorAll(".flash.show")) {
    const age = performance.now() - Number(f.dataset.at || 0);
    const card = f.closest(".shipcard");
    if (card && age < FLASH_MS) running.set(card.dataset.ship, { f, age });
  }
  const list = el("div", { class: "ships" });
  for (const ship of view.ships) {
    const card = el("div", { class: "shipcard" + (ship.ship === seat ? " mine" : ""), "data-ship": ship.ship });
    card.style.borderLeftColor = shipColour(ship.ship, ship.ghost);
    const head = el("div", { class: "ship-head" });
    const chip = el("span", { class: "chip" });
    chip.style.backgroundColor = shipColour(ship.ship, ship.ghost);
    head.append(chip, el("span", { class: "name" }, ship.ship === seat ? t("{name} (you)", { name: names[ship.ship] }) : names[ship.ship]));
    if (ship.ship === view.captain) {
      const cap = el("span", { class: ["badge", "captain"].join(" "), title: t("the Captain this round") });
      cap.append(icon("anchor", 14), document.createTextNode(t("Captain")));
      head.appendChild(cap);
    }
    card.appendChild(head);
    card.appendChild(holdsRow(ship.holds));
    // where the ship is: a part of its own, which the page moves on as the ship sails (table.js)
    const place = ship.finished ? t("Finished!") : placeWords(ship.space);
    const extras = [];
    if (!ship.finished) extras.push(n("{n} to go", "{n} to go", ship.moves_left));
    if (ship.lap < 0) extras.push(t("behind the start"));
    if (ship.powers.length) extras.push(ship.powers.map(powerWord).join(", "));
    if (ship.face_down) {
      // the face-down treasures this reader knows: a value (+3, −2) or a power card ("6th Hold")
      const word = (k) => (POWER_WORDS[k] ? powerWord(k) : signed(k));
      const known = ship.face_down_known.length ? ` (${ship.face_down_known.map(word).join(", ")})` : "";
      extras.push(n("{n} treasure", "{n} treasures", ship.face_down) + known);
    }
    if (!ship.ghost) {
      const cards = n("{n} card", "{n} cards", ship.hand_size);
      extras.push(ship.has_chosen ? t("{cards}, chosen", { cards }) : cards);
    }
    const line = el("div", { class: "ship-where" });
    line.append(el("span", { class: "ship-place" }, place), document.createTextNode(extras.map((x) => ` · ${x}`).join("")));
    line.title = [place, ...extras].join(" · ");
    card.appendChild(line);
    const flash = el("div", { class: "flash", "aria-hidden": "true" });
    const was = running.get(String(ship.ship));
    if (was) {
      flash.textContent = was.f.textContent;
      flash.className = was.f.className;
      flash.dataset.at = was.f.dataset.at;
      flash.style.animationDelay = `-${Math.round(was.age)}ms`;
    }
    card.appendChild(flash);
    list.appendChild(card);
  }
  container.replaceChildren(list);
}

/** A space in words: "Space 12", or Port Royal. */
export function placeWords(space) {
  return space === 0 ? t("Port Royal") : t("Space {space}", { space });
}

export function holdsRow(holds) {
  const row = el("div", { class: "holds" });
  holds.forEach((h, i) => {
    const word = HOLD_WORDS[h.type] || h.type;
    const chip = el("span", { class: `hold ${h.count ? h.type : "empty"}`, "data-hold": i,
      title: h.count ? t("hold {k}: {amount}", { k: i + 1, amount: amount(h.count, word) }) : t("hold {k}: empty", { k: i + 1 }) });
    if (h.count) chip.append(icon(h.type, 14), el("span", {}, String(h.count)));
    else chip.appendChild(el("span", { class: "sr-only" }, t("empty")));
    chip.setAttribute("aria-label", h.count ? amount(h.count, word) : t("empty hold"));
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
  f.className = "flash";
  void f.offsetWidth; // restart the animation (the same kind twice running, too)
  f.className = `flash show ${kind}`;
  f.dataset.at = String(performance.now()); // drawShips carries it over while it runs
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
    case "dump": return [a[0], t("emptied {amount}", { amount: amount(a[2], a[1]) }), "loss"];
    case "shortage": return [a[0], shortageWords(a[1]), "alarm"];
    case "take": return [a[0], `+${amount(a[3], a[2])}`, "gain"];
    case "power": return [a[0], t("treasure!"), "gain"];
    case "face_down": return [a[0], t("treasure!"), "gain"];
    default: return null;
  }
}


// --- the end -------------------------------------------------------------------------------------
/** "The race is over. Winner: Ann" (the table and the replay). */
export function winnerWords(view, names) {
  const winners = andWords(view.winners.map((w) => names[w]));
  return n("The race is over. Winner: {names}", "The race is over. Winners: {names}", view.winners.length, { names: winners });
}

export function scoreTable(view, names, seat = null) {
  const table = el("table", { class: "scores", id: "scores" });
  table.appendChild(el("caption", { class: "sr-only" }, t("Final scores")));
  const head = el("tr");
  for (const h of [t("Ship"), t("Place"), t("Doubloons"), t("Treasures"), t("Total")]) head.appendChild(el("th", { scope: "col" }, h));
  table.appendChild(head);
  const order = view.scores.map((sc, k) => [sc, k]).sort((x, y) => y[0].total - x[0].total);
  for (const [sc, k] of order) {
    const row = el("tr", { class: (view.winners.includes(k) ? "winner" : "") + (k === seat ? " mine" : "") });
    const who = el("th", { scope: "row" });
    const chip = el("span", { class: "chip", "aria-hidden": "true" });
    chip.style.backgroundColor = shipColour(k, view.ships[k] && view.ships[k].ghost);
    const said = view.winners.includes(k) ? t("{name} ★ winner", { name: names[k] }) : names[k];
    // the colour chip and the first word never part (a phone showed "●" alone on a line)
    const cut = said.indexOf(" ");
    const lead = el("span", { class: "nowrap" });
    lead.append(chip, document.createTextNode(cut < 0 ? said : said.slice(0, cut)));
    who.append(lead, document.createTextNode(cut < 0 ? "" : said.slice(cut)));
    row.appendChild(who);
    for (const v of [sc.position, sc.doubloons, sc.treasures, sc.total]) row.appendChild(el("td", {}, signed(v)));
    table.appendChild(row);
  }
  return table;
}
