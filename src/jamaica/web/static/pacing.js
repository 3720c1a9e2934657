// The event queue: updates from the server play out one event at a time, at a pace a person can
// follow, then the update's state (board, holds, question) is shown. "Skip to now" plays the rest
// at once. The server always sends the present: the queue only decides when it is shown.

// How long each kind of event stays on screen at normal speed (ms); a move adds time per space.
const BASE = {
  start: 0, draw: 0, draw_seen: 120, hand_full: 100, reshuffle: 400, chose: 250, chose_seen: 300,
  round: 900, captain: 700, roll: 1200, dice: 1000, reveal: 900, move: 500, fallback: 500,
  finish: 1600, ignored: 600, pay: 700, load: 700, dump: 700, load_ignored: 700,
  shortage: 1400, shortage_die: 1300, power: 1100, face_down: 900, face_down_seen: 700,
  no_treasure: 800, battle: 1400, powder: 900, die: 1300, sabre: 1200, win: 1500, tie: 1500,
  take: 1100, steal_power: 1100, steal_blind: 1100, steal_seen: 800, give: 1100, give_seen: 800,
  overboard: 900, nothing: 900, ghost_direction: 700, game_end: 1600,
};
export const PER_SPACE = 160;
export const SPEEDS = [["1.6", "Slow"], ["1", "Normal"], ["0.5", "Fast"], ["0", "Instant"]];

export function baseDuration(ev, spaces = 0) {
  const base = BASE[ev.kind] ?? 600;
  return ev.kind === "move" || ev.kind === "fallback" ? base + PER_SPACE * Math.max(1, spaces) : base;
}

export class Pacer {
  /**
   * play(ev, update, animate) shows one event and returns how long it wants (ms at speed 1);
   * settle(update) shows an update's state; onChange(left) after every step (left: events queued).
   */
  constructor({ play, settle, onChange }) {
    this.play = play;
    this.settle = settle;
    this.onChange = onChange || (() => {});
    this.queue = [];
    this.factor = 1;
    this.running = false;
    this.wake = null;
    this.soon = null;
  }

  get left() { return this.queue.filter((i) => i.ev).length; }

  /** Queue an update's events, then its state. With `now`, show all of it at once. */
  push(update, now = false) {
    for (const ev of update.events || []) this.queue.push({ ev, update });
    this.queue.push({ update });
    if (now) this.skip();
    else if (this.factor === 0) this.skipSoon();
    else this.run();
    this.onChange(this.left);
  }

  /** At once, but once for a burst of updates (a bot's turn comes as several). */
  skipSoon() {
    if (this.soon) return;
    this.soon = setTimeout(() => { this.soon = null; this.skip(); }, 25);
  }

  /** Forget what is queued (a reconnection brings the present again). */
  clear() {
    this.queue = [];
    if (this.wake) this.wake();
    this.onChange(0);
  }

  /** Show everything queued at once: every event without animation, then the last state. */
  skip() {
    if (this.soon) { clearTimeout(this.soon); this.soon = null; }
    let last = null;
    const items = this.queue;
    this.queue = [];
    for (const item of items) {
      if (item.ev) this.play(item.ev, item.update, false);
      else last = item.update;
    }
    if (last) this.settle(last);
    if (this.wake) this.wake();
    this.onChange(0);
  }

  /** Whether an update waiting in the queue asks this page a question (then hurry). */
  questionWaiting() {
    return this.queue.some((i) => !i.ev && i.update.question);
  }

  /** The speed now: faster while a question for this page waits behind the queue. */
  effective() {
    return this.factor * (this.questionWaiting() ? 0.3 : 1);
  }

  async run() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const item = this.queue.shift();
        if (!item.ev) {
          this.settle(item.update);
          this.onChange(this.left);
          continue;
        }
        const ms = this.play(item.ev, item.update, true) * this.effective();
        this.onChange(this.left);
        if (ms > 0) await new Promise((resolve) => {
          const t = setTimeout(() => { this.wake = null; resolve(); }, ms);
          this.wake = () => { clearTimeout(t); this.wake = null; resolve(); };
        });
      }
    } finally {
      this.running = false;
    }
  }
}
