// Plain words for the pages: card titles instead of internal names, capitals at the start of
// sentences, resource words, and which ships an event is about. Everything here is wording;
// no rule is decided in the browser.

export const ICON_WORDS = { food: "Food", gun: "Gunpowder", gold: "Doubloons", fwd: "Forward", back: "Backward" };
export const RESOURCES = ["nothing", "food", "gunpowder", "doubloons"]; // event args' resource codes
export const HOLD_WORDS = { food: "food", powder: "gunpowder", gold: "doubloons", "-": "empty" };
export const POWER_WORDS = { map: "Morgan's Map", sabre: "Saran's Sabre", beth: "Lady Beth", hold6: "6th Hold" };
export const FACES = ["2", "4", "6", "8", "10", "★"]; // combat die faces by event code
const CARD_RE = /\b(food|gun|gold|fwd|back)-(food|gun|gold|fwd|back)\b/g;

/** "fwd-gun" → "Forward / Gunpowder". */
export function cardTitle(name) {
  const [m, e] = name.split("-");
  return `${ICON_WORDS[m] || m} / ${ICON_WORDS[e] || e}`;
}

export function capitalize(text) {
  const i = text.search(/\S/);
  return i < 0 ? text : text.slice(0, i) + text[i].toUpperCase() + text.slice(i + 1);
}

/** A text from the server in plain words: card names as titles, a capital at the start. */
export function plain(text) {
  return capitalize(String(text).replace(CARD_RE, (_, m, e) => cardTitle(`${m}-${e}`)));
}

/** "1 food", "3 doubloons", "1 doubloon". */
export function amount(n, resource) {
  const word = typeof resource === "number" ? RESOURCES[resource] : HOLD_WORDS[resource] || resource;
  return `${n} ${n === 1 && word === "doubloons" ? "doubloon" : word}`;
}

// Events whose first argument is not a ship.
const NOT_SHIP = new Set(["start", "roll", "round", "game_end", "ghost_direction", "overboard"]);
// Events whose second argument is a ship too (the other side).
const TWO_SHIPS = new Set(["battle", "win", "tie", "sabre", "take", "steal_power", "steal_blind",
  "steal_seen", "give", "give_seen"]);

/** The ships an event is about (from its args; none when the server sent no args). */
export function shipsOf(ev) {
  const a = ev.args;
  if (!Array.isArray(a) || !a.length || NOT_SHIP.has(ev.kind)) return [];
  return TWO_SHIPS.has(ev.kind) && a.length > 1 ? [a[0], a[1]] : [a[0]];
}

/** Whether an event concerns this seat (its own ship, or a battle it fights). */
export function isMine(ev, seat, names) {
  if (seat === null || seat === undefined) return false;
  const ships = shipsOf(ev);
  if (ships.length) return ships.includes(seat);
  return Boolean(names && names[seat]) && String(ev.text).includes(names[seat]);
}

/** The prompt without the asker's own name in front ("Ann: choose…" → "Choose…"). */
export function promptWords(prompt, myName, plans = null) {
  let p = String(prompt);
  if (myName) {
    if (p.startsWith(`${myName}, Captain: `)) p = "You are the Captain: " + p.slice(myName.length + 11);
    else if (p.startsWith(`${myName}: `)) p = p.slice(myName.length + 2);
  }
  // A payment answered with a whole plan (every hold at once), in the banner as in the panel.
  if (Array.isArray(plans) && plans.length) p = p.replace(/ — take one from which hold\?$/, " — from which holds?");
  return plain(p);
}

/** Seconds as "1:05". */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const TREASURES = { ...POWER_WORDS, "-2": "a -2 cursed treasure", "-3": "a -3 cursed treasure", "-4": "a -4 cursed treasure" };

/** An action as the engine names it ("take 1", "play fwd-gun") in a player's words. */
export function actionWords(action, names = []) {
  const [verb, arg = ""] = String(action).trim().split(/\s+/, 2);
  const n = Number(arg);
  const hold = (h) => (h === 5 ? "the 6th Hold" : `hold ${h + 1}`);
  const space = (s) => (s === 0 ? "Port Royal" : `space ${s}`);
  switch (verb) {
    case "play": return cardTitle(arg);
    case "morning": return `${arg} in the morning`;
    case "move": return `to ${space(n)}`;
    case "load": return `load into ${hold(n)}`;
    case "pay": return `pay from ${hold(n)}`;
    case "take": return `take from ${hold(n)}`;
    case "powder": return `${arg} gunpowder`;
    case "attack": return names[n] ? `attack ${names[n]}` : "attack";
    case "reroll": return "roll again";
    case "accept": return "accept the roll";
    case "steal": return arg === "blind" ? "steal a face-down card" : `steal ${TREASURES[arg] || arg}`;
    case "give": return `give ${TREASURES[arg] || arg}`;
    case "nothing": return "take nothing";
    default: return plain(action);
  }
}

/** A note of the server in plain words: "For Ann, the greedy bot answered: take 1." names the
 * answer as the engine does; it is said as the player's buttons say it. */
export function noteWords(text, names = []) {
  const m = /^(For .+, the \S+ bot answered: )(.+)\.$/.exec(String(text));
  return m ? plain(`${m[1]}${actionWords(m[2], names)}.`) : plain(text);
}
