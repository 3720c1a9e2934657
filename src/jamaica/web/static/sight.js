// On a phone the question and the hand are pinned at the bottom of the screen, over the page
// (style.css, #dock): a new question would often be asked over the very thing it is about — a
// move's spaces, the dice to order, the holds to pay from. `bringIntoSight` scrolls that thing
// into the room between the "Your turn" banner (pinned at the top) and the question, by as little
// as it takes, and only if it is not all there already. On a laptop the question stands beside
// the board: nothing moves.

// What each kind of question is about: the board, the dice, your own ship's card, or every ship.
const ABOUT = {
  card: "#board", move: "#board", attack: "#board",
  dice_order: "#dice",
  load: ".shipcard.mine", pay: ".shipcard.mine",
  spoils: "#ships",
};

const reduceMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion:reduce)").matches;

/** Scroll what a question of `kind` is about into sight above the pinned question. */
export function bringIntoSight(kind) {
  const dock = document.getElementById("dock");
  const selector = ABOUT[kind];
  if (!dock || !selector || getComputedStyle(dock).position !== "fixed") return;
  const target = document.querySelector(selector);
  if (!target) return;
  const r = target.getBoundingClientRect();
  const banner = document.getElementById("banner");
  const top = (banner && !banner.hidden ? banner.offsetHeight : 0) + 4; // the banner sticks there
  const bottom = dock.getBoundingClientRect().top - 4;
  if (r.height === 0 || (r.top >= top && r.bottom <= bottom)) return;
  // down until its bottom clears the question, but never its top under the banner; or up
  const by = r.top < top ? r.top - top : Math.min(r.bottom - bottom, r.top - top);
  window.scrollBy({ top: by, behavior: reduceMotion() ? "auto" : "smooth" });
}
