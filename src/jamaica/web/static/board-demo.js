// The board's test bench: draws board.js for a view given in the fragment as JSON:
//   #{"view": {"ships": [{"ship": 0, "space": 12, "ghost": false}], "lair_tokens": [4]},
//     "names": ["Ann"], "targets": [13], "hints": {"13": "3 food"}, "lastMoves": {"0": [6, 12]},
//     "animate": {"ship": 0, "path": [6, 7, 8], "stepMs": 200}, "inert": false}
// ("inert": targets shown without an onPick, as where a card would lead; "flash": [{"space": 9,
// "text": "Battle!", "kind": "battle"}] called out with flashSpace)
import { drawBoard, flashSpace, moveShip } from "/static/board.js";

const DEMO = {
  view: {
    ships: [
      { ship: 0, space: 12, ghost: false }, { ship: 1, space: 41, ghost: false },
      { ship: 2, space: 41, ghost: false }, { ship: 3, space: 9, ghost: false },
      { ship: 4, space: 0, ghost: true },
    ],
    lair_tokens: [4, 9, 11, 22, 25, 33, 37, 44],
    captain: 1,
  },
  names: ["Anne Bonny", "Mary Read", "Jack Rackham", "Edward Teach", "the Ghost Ship"],
  targets: [13, 7],
  hints: { 13: "3 food", 7: "2 food · battle" },
  lastMoves: { 0: [6, 12], 1: [38, 41], 2: [39, 40, 41] },
};

const $ = (id) => document.getElementById(id);

function read() {
  const raw = location.hash.slice(1);
  if (!raw) return DEMO;
  try { return JSON.parse(decodeURIComponent(raw)); } catch { return DEMO; }
}

async function main() {
  const layout = await (await fetch("/api/board")).json();
  const spec = read();
  const picked = [];
  const draw = () => drawBoard($("board"), layout, spec.view, spec.names || [], {
    targets: spec.targets || [], hints: spec.hints || {}, lastMoves: spec.lastMoves || {},
    onPick: spec.inert ? null : (space) => {
      picked.push(space);
      $("picked").textContent = `picked ${picked.join(" ")}`;
      document.body.dataset.picked = picked.join(" ");
    },
  });
  draw();
  document.body.dataset.drawn = "yes";
  if (spec.redraw) draw();
  for (const f of spec.flash || []) flashSpace($("board"), f.space, f.text, { kind: f.kind, ms: f.ms ?? 60000 });
  if (spec.animate) {
    const a = spec.animate;
    $("animated").textContent = "sailing…";
    // where the ship is drawn at every frame, for the tests to follow its course
    const trace = [];
    let sailing = true;
    const token = () => document.querySelector(`.board-ship[data-ship="${a.ship}"]`);
    const watch = () => {
      if (!sailing) return;
      trace.push(token()?.getAttribute("transform"));
      requestAnimationFrame(watch);
    };
    const done = moveShip($("board"), a.ship, a.path, { stepMs: a.stepMs ?? 260 });
    watch();
    await done;
    sailing = false;
    $("animated").textContent = "arrived";
    $("animated").dataset.trace = JSON.stringify(trace);
    document.body.dataset.animated = "done";
  }
}

main();
