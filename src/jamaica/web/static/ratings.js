// Ratings as every page shows them: the shown number (mu − 3σ on a chess-like scale), marked
// provisional ("1290?") until the player has enough rated games; the bots' measured ratings.
import { el } from "/static/common.js";
import { n, t } from "/static/i18n.js";

/** An edition's name in the reader's language. */
export function editionName(edition) {
  return edition === "classic" ? t("classic (2007)") : t("{edition} edition", { edition });
}

/** "1290" or "1290?" (provisional), with the games behind it in the title. */
export function ratingText(r) {
  if (!r || typeof r.display !== "number") return "";
  return `${r.display}${r.provisional ? "?" : ""}`;
}

export function ratingTitle(r) {
  if (!r) return "";
  return r.provisional ? n("provisional: {n} rated game so far", "provisional: {n} rated games so far", r.games)
    : n("{n} rated game", "{n} rated games", r.games);
}

/** A small badge: the rating, provisional or not. */
export function ratingBadge(r) {
  const b = el("span", { class: `rating${r && r.provisional ? " provisional" : ""}`, title: ratingTitle(r) }, ratingText(r));
  return b;
}

/** A bot level's name in the reader's language (the level's code when we have no word for it). */
export function levelName(level) {
  const names = { easy: t("easy"), medium: t("medium"), hard: t("hard"), master: t("master"), random: t("random"), greedy: t("greedy"), rules: t("rules") };
  return names[level] || level;
}

/** A table row of cells (text, or elements); `head`: header cells. */
export function row(cells, head = false) {
  const tr = el("tr");
  for (const c of cells) {
    const cell = el(head ? "th" : "td");
    if (c instanceof Node) cell.appendChild(c); else cell.textContent = String(c);
    tr.appendChild(cell);
  }
  return tr;
}

/** A player's name linking to their profile. */
export function profileLink(id, name) {
  return el("a", { href: `/player/${encodeURIComponent(id)}`, class: "plink" }, name);
}

let bots = null;
/** The bots' measured ratings by edition: {edition: {level: rating}} (fetched once). */
export async function botRatings() {
  if (bots) return bots;
  try {
    const r = await fetch("/api/ratings/bots");
    const d = r.ok ? await r.json() : {};
    bots = {};
    for (const [edition, list] of Object.entries(d)) bots[edition] = Object.fromEntries(list.map((b) => [b.bot, b]));
  } catch {
    bots = {};
  }
  return bots;
}
