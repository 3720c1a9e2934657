// Step through any game as a spectator sees it.
import { drawBattle, drawBoard, drawShips, el, scoreTable } from "/static/common.js";

const tableId = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
let layout = null, step = 0, steps = 0;

async function show(n) {
  const r = await fetch(`/api/tables/${tableId}/replay?step=${n}`);
  const d = await r.json();
  if (d.error) { $("where").textContent = d.error; return; }
  step = d.step; steps = d.steps;
  $("where").textContent = ` step ${step} of ${steps} — round ${d.view.round} `;
  drawBoard($("board"), layout, d.view, d.names);
  drawShips($("ships"), d.view, d.names);
  drawBattle($("battle"), d.view, d.names);
  $("log").replaceChildren(...d.events.slice(-150).map((t) => el("p", {}, t)));
  $("log").scrollTop = $("log").scrollHeight;
  const fin = $("final");
  fin.hidden = !d.view.game_over;
  fin.replaceChildren(...(d.view.game_over ? [scoreTable(d.view, d.names)] : []));
}

$("first").onclick = () => show(0);
$("prev").onclick = () => show(Math.max(0, step - 1));
$("next").onclick = () => show(Math.min(steps, step + 1));
$("last").onclick = () => show(steps);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(Math.min(steps, step + 1));
  if (e.key === "ArrowLeft") show(Math.max(0, step - 1));
});
fetch("/api/board").then((r) => r.json()).then((b) => { layout = b; show(0); });
