// The ladder of an edition: the best players with enough rated games, and the bots' measured
// ratings on the same scale.
import { loadWords, n, t } from "/static/i18n.js";
import { levelName, profileLink, ratingBadge, row } from "/static/ratings.js";

const $ = (id) => document.getElementById(id);

async function show(edition) {
  for (const b of document.querySelectorAll("[data-edition]")) b.setAttribute("aria-pressed", String(b.dataset.edition === edition));
  const r = await fetch(`/api/ladder?edition=${encodeURIComponent(edition)}`);
  const d = await r.json();
  if (!r.ok) { $("ladder-note").textContent = d.error; return; }
  $("ladder-note").textContent = n("Players with at least {n} rated game, by their shown rating (a “?” marks a provisional one).",
    "Players with at least {n} rated games, by their shown rating (a “?” marks a provisional one).", d.min_games);
  $("ladder").replaceChildren(row(["#", t("Player"), t("Rating"), t("Games")], true),
    ...(d.players.length ? d.players.map((p) => row([p.rank, profileLink(p.id, p.name), ratingBadge(p), p.games]))
      : [row(["", t("Nobody yet"), "", ""])]));
  $("bots").replaceChildren(row([t("Bot"), t("Rating"), t("Games measured")], true),
    ...d.bots.map((b) => row([levelName(b.bot), ratingBadge(b), b.games])));
}

for (const b of document.querySelectorAll("[data-edition]")) b.addEventListener("click", () => show(b.dataset.edition));
loadWords().then(() => show("2021"));
