// The lobby: create a table, list the open ones.
import { el } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const PIRATES = ["Anne Bonny", "Mary Read", "John Rackham", "Olivier Levasseur", "Samuel Bellamy", "Edward Drummond"];
const KINDS = [["human", "human"], ["random", "bot: random"], ["greedy", "bot: greedy"], ["ismcts:seconds=0.5", "bot: ismcts"]];

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((r) => [r.querySelector("input").value, r.querySelector("select").value]);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = el("div", { class: "seat" });
    const name = el("input", { maxlength: 24, id: `name${i}` });
    name.value = old[i] ? old[i][0] : PIRATES[i];
    const kind = el("select", { id: `kind${i}` });
    for (const [v, label] of KINDS) kind.appendChild(el("option", { value: v }, label));
    kind.value = old[i] ? old[i][1] : i === 0 ? "human" : "greedy";
    row.append(el("span", {}, `Seat ${i + 1} `), name, kind);
    box.appendChild(row);
  }
}

async function listTables() {
  const r = await fetch("/api/tables");
  const tables = await r.json();
  const box = $("tables");
  box.replaceChildren();
  if (!tables.length) box.appendChild(el("p", { class: "muted" }, "No tables yet."));
  for (const t of tables) {
    const p = el("p");
    if (t.available === false) {  // set aside: the server could not rebuild it
      p.appendChild(el("span", { class: "muted" }, `table ${t.id}: unavailable`));
      box.appendChild(p);
      continue;
    }
    const who = t.seats.map((s) => `${s.name}${s.bot ? " (" + s.bot.split(":")[0] + ")" : ""}`).join(", ");
    p.appendChild(el("b", {}, `${t.players} players, ${t.edition}${t.ghost ? ", Ghost Ship" : ""}`));
    p.appendChild(document.createTextNode(` — ${who} — ${t.finished ? "finished" : "round " + t.round} `));
    p.appendChild(el("a", { href: `/table/${t.id}` }, "watch"));
    p.appendChild(document.createTextNode(" · "));
    p.appendChild(el("a", { href: `/replay/${t.id}` }, "replay"));
    box.appendChild(p);
  }
}

$("players").addEventListener("change", seatRows);
$("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("error").textContent = "";
  const n = Number($("players").value);
  const seats = [];
  for (let i = 0; i < n; i++) {
    const kind = $(`kind${i}`).value;
    seats.push({ name: $(`name${i}`).value, bot: kind === "human" ? null : kind });
  }
  const ghost = { auto: null, on: true, off: false }[$("ghost").value];
  const limit = $("limit").value ? Number($("limit").value) : null;
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ players: n, edition: $("edition").value, ghost_ship: ghost, seats, seconds_per_decision: limit }) });
  const d = await r.json();
  if (!r.ok) { $("error").textContent = d.error; return; }
  const links = $("links");
  links.replaceChildren();
  for (const s of d.seats) {
    const li = el("li");
    li.appendChild(el("b", {}, `${s.name}: `));
    if (s.url) li.appendChild(el("a", { href: s.url, class: "seat-link", "data-seat": s.seat }, s.url));
    else li.appendChild(document.createTextNode(`played by the ${s.bot.split(":")[0]} bot`));
    links.appendChild(li);
  }
  const li = el("li");
  li.appendChild(el("b", {}, "Spectators: "));
  li.appendChild(el("a", { href: d.spectator_url, id: "spectator-link" }, d.spectator_url));
  links.appendChild(li);
  $("created").hidden = false;
  listTables();
});

seatRows();
listTables();
setInterval(listTables, 5000);
