// The ladder of an edition: the best players with enough rated games, and the bots' measured
// ratings on the same scale.
import { el } from "/static/common.js";
import { profileLink, ratingBadge } from "/static/ratings.js";

const $ = (id) => document.getElementById(id);

function row(cells, head = false) {
  const tr = el("tr");
  for (const c of cells) {
    const cell = el(head ? "th" : "td");
    if (c instanceof Node) cell.appendChild(c); else cell.textContent = String(c);
    tr.appendChild(cell);
  }
  return tr;
}

async function show(edition) {
  for (const b of document.querySelectorAll("[data-edition]")) b.setAttribute("aria-pressed", String(b.dataset.edition === edition));
  const r = await fetch(`/api/ladder?edition=${encodeURIComponent(edition)}`);
  const d = await r.json();
  if (!r.ok) { $("ladder-note").textContent = d.error; return; }
  $("ladder-note").textContent = `Players with at least ${d.min_games} rated game${d.min_games === 1 ? "" : "s"}, by their shown rating (a "?" marks a provisional one).`;
  $("ladder").replaceChildren(row(["#", "Player", "Rating", "Games"], true),
    ...(d.players.length ? d.players.map((p) => row([p.rank, profileLink(p.id, p.name), ratingBadge(p), p.games]))
      : [row(["", "Nobody yet", "", ""])]));
  $("bots").replaceChildren(row(["Bot", "Rating", "Games measured"], true),
    ...d.bots.map((b) => row([b.bot, ratingBadge(b), b.games])));
}

for (const b of document.querySelectorAll("[data-edition]")) b.addEventListener("click", () => show(b.dataset.edition));
show("2021");
