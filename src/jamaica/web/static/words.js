// Plain words for the pages: card titles instead of internal names, capitals at the start of
// sentences, resource words, and which ships an event is about. Everything here is wording;
// no rule is decided in the browser. The words are English message ids (marked N_), said in the
// reader's language (t) when shown: the tables are made before the page has loaded its catalog.
import { fmt, n, t } from "/static/i18n.js";

const N_ = (s) => s; // marks a message for the catalogs; t() translates it when shown

export const ICON_WORDS = { food: N_("Food"), gun: N_("Gunpowder"), gold: N_("Doubloons"), fwd: N_("Forward"), back: N_("Backward") };
export const RESOURCES = ["nothing", "food", "gunpowder", "doubloons"]; // event args' resource codes
export const HOLD_WORDS = { food: "food", powder: "gunpowder", gold: "doubloons", "-": "empty" };
export const POWER_WORDS = { map: N_("Morgan's Map"), sabre: N_("Saran's Sabre"), beth: N_("Lady Beth"), hold6: N_("6th Hold") };
export const FACES = ["2", "4", "6", "8", "10", "★"]; // combat die faces by event code
const CARD_RE = /\b(food|gun|gold|fwd|back)-(food|gun|gold|fwd|back)\b/g;

/** An icon of a card in words ("fwd" → "Forward"), in the reader's language. */
export function iconWord(ic) {
  return ICON_WORDS[ic] ? t(ICON_WORDS[ic]) : ic;
}

/** A power (a treasure shown face up) in words. */
export function powerWord(p) {
  return POWER_WORDS[p] ? t(POWER_WORDS[p]) : p;
}

/** "fwd-gun" → "Forward / Gunpowder". */
export function cardTitle(name) {
  const [m, e] = name.split("-");
  return t("{morning} / {evening}", { morning: iconWord(m), evening: iconWord(e) });
}

export function capitalize(text) {
  const i = text.search(/\S/);
  return i < 0 ? text : text.slice(0, i) + text[i].toUpperCase() + text.slice(i + 1);
}

/** A text from the server in plain words: card names as titles, a capital at the start. */
export function plain(text) {
  return capitalize(String(text).replace(CARD_RE, (_, m, e) => cardTitle(`${m}-${e}`)));
}

/** The Ghost Ship's name (its English default from the server) in the reader's language. */
export function ghostName(names, ghost) {
  if (ghost >= 0 && names[ghost] === N_("the Ghost Ship")) names[ghost] = t("the Ghost Ship");
  return names;
}

/** Names joined with "and" ("Ann and Bob", "Ann and Bob and Cy"), in the reader's language. */
export function andWords(names) {
  return names.join(" " + t("and") + " ");
}

/** A shortage called out: "Shortage of food!" (the event's resource code, 1 to 3). */
export function shortageWords(resource) {
  switch (RESOURCES[resource]) {
    case "food": return t("Shortage of food!");
    case "gunpowder": return t("Shortage of gunpowder!");
    case "doubloons": return t("Shortage of doubloons!");
    default: return t("Shortage!");
  }
}

/** "1 food", "3 doubloons", "1 doubloon". */
export function amount(count, resource) {
  const word = typeof resource === "number" ? RESOURCES[resource] : HOLD_WORDS[resource] || resource;
  switch (word) {
    case "food": return n("{n} food", "{n} food", count);
    case "gunpowder": return n("{n} gunpowder", "{n} gunpowder", count);
    case "doubloons": return n("{n} doubloon", "{n} doubloons", count);
    default: return fmt(count);
  }
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
    // the server's words, in English or in French ("Ann, Capitaine : …", a narrow space before the colon)
    const name = myName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const captain = new RegExp(`^${name}, (?:Captain|Capitaine)[\u202f\u00a0 ]?: `).exec(p);
    const asked = new RegExp(`^${name}[\u202f\u00a0 ]?: `).exec(p);
    if (captain) p = t("You are the Captain: {question}", { question: p.slice(captain[0].length) });
    else if (asked) p = p.slice(asked[0].length);
  }
  // A payment answered with a whole plan (every hold at once), in the banner as in the panel.
  if (Array.isArray(plans) && plans.length) p = p.replace(/ — (?:take one from which hold\?|en prendre une? dans quelle cale[\u202f\u00a0 ]?\?)$/, t(" — from which holds?"));
  return plain(p);
}

/** Seconds as "1:05". */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const TREASURES = { ...POWER_WORDS, "-2": N_("a −2 cursed treasure"), "-3": N_("a −3 cursed treasure"), "-4": N_("a −4 cursed treasure") };
const treasure = (key) => (TREASURES[key] ? t(TREASURES[key]) : key);

/** An action as the engine names it ("take 1", "play fwd-gun") in a player's words. */
export function actionWords(action, names = []) {
  const [verb, arg = ""] = String(action).trim().split(/\s+/, 2);
  const k = Number(arg);
  const hold = (h) => (h === 5 ? t("the 6th Hold") : t("hold {k}", { k: h + 1 }));
  switch (verb) {
    case "play": return cardTitle(arg);
    case "morning": return t("{die} in the morning", { die: arg });
    case "move": return k === 0 ? t("to Port Royal") : t("to space {space}", { space: k });
    case "load": return t("load into {hold}", { hold: hold(k) });
    case "pay": return t("pay from {hold}", { hold: hold(k) });
    case "take": return t("take from {hold}", { hold: hold(k) });
    case "powder": return n("{n} gunpowder", "{n} gunpowder", k);
    case "attack": return names[k] ? t("attack {name}", { name: names[k] }) : t("attack");
    case "reroll": return t("roll again");
    case "accept": return t("accept the roll");
    case "steal": return arg === "blind" ? t("steal a face-down card") : t("steal {treasure}", { treasure: treasure(arg) });
    case "give": return t("give {treasure}", { treasure: treasure(arg) });
    case "nothing": return t("take nothing");
    default: return plain(action);
  }
}

/** A note of the server in plain words: "For Ann, the greedy bot answered: take 1." names the
 * answer as the engine does; it is said as the player's buttons say it. */
export function noteWords(text, names = []) {
  const m = /^(For .+, the \S+ bot answered: )(.+)\.$/.exec(String(text));
  return m ? plain(`${m[1]}${actionWords(m[2], names)}.`) : plain(text);
}
