// The seats strip of a table: each seat's name and colour, whether its player is connected, a bot
// playing for an absent player, an open seat; how many watch. Names go through textContent.
import { el } from "/static/common.js";
import { shipColour } from "/static/boardview.js";
import { n, t } from "/static/i18n.js";
import { levelName } from "/static/ratings.js";

/** The strip's items for a `seats` message (docs/lobby.md); `mySeat` is marked "you". */
export function seatItems(msg, mySeat) {
  const items = [];
  (msg.seats || []).forEach((s, k) => {
    const item = el("span", { class: `seat-item kind-${s.kind || "player"}${k === mySeat ? " mine" : ""}`, "data-seat": String(k) });
    const chip = el("span", { class: "chip", "aria-hidden": "true" });
    chip.style.backgroundColor = shipColour(k, false);
    item.appendChild(chip);
    if (s.kind === "open") {
      item.appendChild(el("span", { class: "seat-name muted" }, t("open seat")));
      items.push(item);
      return;
    }
    item.appendChild(el("span", { class: "seat-name" }, s.name));
    if (s.kind !== "bot") {
      const on = Boolean(s.connected);
      const state = on ? t("connected") : t("not connected");
      item.appendChild(el("span", { class: `dot ${on ? "on" : "off"}`, title: state, "aria-hidden": "true" }));
      item.appendChild(el("span", { class: "sr-only" }, state));
    }
    if (k === mySeat) item.appendChild(el("span", { class: "seat-tag you" }, t("you")));
    if (s.kind === "bot") item.appendChild(el("span", { class: "seat-tag" }, botWords(s.bot)));
    else if (s.kind === "reserved") item.appendChild(el("span", { class: "seat-tag" }, t("not here yet")));
    if (s.replaced) item.appendChild(el("span", { class: "seat-tag warn" }, t("bot plays")));
    items.push(item);
  });
  items.push(el("span", { class: "watchers", id: "watchers" }, n("{n} watching", "{n} watching", Number(msg.watchers) || 0)));
  return items;
}

/** A bot's level in words ("greedy:3" → "greedy bot"): the lobby's names of the levels. */
export function botWords(bot) {
  return t("{level} bot", { level: levelName(String(bot || "bot").split(":")[0]) });
}

/** Seats nobody holds yet: open, or kept for a player who has not come. */
export function openSeats(msg) {
  return msg ? (msg.seats || []).filter((s) => s.kind === "open" || s.kind === "reserved").length : 0;
}
