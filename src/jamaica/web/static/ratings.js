// Ratings as every page shows them: the shown number (mu − 3σ on a chess-like scale), marked
// provisional ("1290?") until the player has enough rated games; the bots' measured ratings.
import { el } from "/static/common.js";

export const EDITION_NAMES = { "2021": "2021 edition", classic: "classic (2007)" };

/** "1290" or "1290?" (provisional), with the games behind it in the title. */
export function ratingText(r) {
  if (!r || typeof r.display !== "number") return "";
  return `${r.display}${r.provisional ? "?" : ""}`;
}

export function ratingTitle(r) {
  if (!r) return "";
  const games = `${r.games} rated game${r.games === 1 ? "" : "s"}`;
  return r.provisional ? `provisional: ${games} so far` : games;
}

/** A small badge: the rating, provisional or not. */
export function ratingBadge(r) {
  const b = el("span", { class: `rating${r && r.provisional ? " provisional" : ""}`, title: ratingTitle(r) }, ratingText(r));
  return b;
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
