// On a phone the question and the hand are pinned at the bottom of the screen, over the page
// (style.css, #dock): a new question would often be asked over the very thing it is about — a
// move's spaces, the dice to order, the holds to pay from. `bringIntoSight` scrolls that thing
// into the room between the "Your turn" banner (pinned at the top) and the question, by as little
// as it takes, and only if it is not all there already. On a laptop the question stands beside
// the board: nothing moves.
//
// The page may still be laying out when a question comes (the first one comes as the page
// loads, before the board is drawn): while the question is asked, it looks again whenever the
// table or the pinned panel changes size — until the reader scrolls by hand.

// What each kind of question is about: the board, the dice, your own ship's card, or every ship.
const ABOUT = {
  card: "#board", move: "#board", attack: "#board",
  dice_order: "#dice",
  load: ".shipcard.mine", pay: ".shipcard.mine",
  spoils: "#ships",
};

const reduceMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion:reduce)").matches;
let asked = null; // the kind of the question on screen, while its sight is kept
let watching = false;

/** Scroll what a question of `kind` is about into sight above the pinned question (null: no
 * question any more). */
export function bringIntoSight(kind) {
  asked = ABOUT[kind] ? kind : null;
  if (!watching) watch();
  look();
}

function watch() {
  watching = true;
  const sized = new ResizeObserver(() => { if (asked) look(); });
  for (const id of ["dock", "board", "ships"]) {
    const e = document.getElementById(id);
    if (e) sized.observe(e);
  }
  const stage = document.querySelector(".stage");
  if (stage) sized.observe(stage);
  const mine = () => { asked = null; }; // the reader scrolls: the page follows them, not the question
  addEventListener("wheel", mine, { passive: true });
  addEventListener("touchmove", mine, { passive: true });
  addEventListener("keydown", (e) => { if (["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown", " "].includes(e.key)) mine(); });
}

function look() {
  const dock = document.getElementById("dock");
  if (!asked || !dock || getComputedStyle(dock).position !== "fixed") return;
  const target = document.querySelector(ABOUT[asked]);
  if (!target) return;
  // the page's room under its content for the pinned panel, now (the resize observer of
  // table.js sets it after the next layout: too late to scroll as far as needed)
  document.documentElement.style.setProperty("--dock-h", `${dock.offsetHeight}px`);
  const r = target.getBoundingClientRect();
  const banner = document.getElementById("banner");
  const shown = banner && !banner.hidden;
  // the banner where it is now, and where it sticks once the page has scrolled (a ship's flash
  // stands 14 px above its card: room for most of it too)
  const now = (shown ? banner.getBoundingClientRect().bottom : 0) + 16;
  const top = (shown ? banner.offsetHeight : 0) + 16;
  const bottom = dock.getBoundingClientRect().top - 4;
  if (r.height === 0 || (r.top >= now && r.bottom <= bottom)) return;
  // down until its bottom clears the question, but never its top under the banner; or up
  const by = r.top < now ? r.top - now : Math.min(r.bottom - bottom, r.top - top);
  window.scrollBy({ top: by, behavior: reduceMotion() ? "auto" : "smooth" });
}
