// The event queue: updates from the server play out one event at a time, at a pace a person can
// follow, then the update's state (board, holds, question) is shown. The server always sends the
// present, and the page stays close to it: every update is shown in full at most CATCH_UP ms
// after it came (QUESTION_CATCH_UP when it asks this page a question). Events play at the chosen
// speed while that keeps every update on time, faster when it does not, and when even FASTEST
// would not, the oldest updates are shown at once (without animation) until the rest can be.
// "Skip to now" shows everything at once. Notes (a time-out, a bot taking a seat, a player back)
// are queued with the events, so they come in the log where they happened.

// How long each kind of event stays on screen at normal speed (ms); a move adds time per space.
const BASE = {
  start: 0, draw: 0, draw_seen: 120, hand_full: 100, reshuffle: 400, chose: 250, chose_seen: 0,
  round: 900, captain: 700, roll: 1200, dice: 1000, reveal: 900, move: 500, fallback: 500,
  finish: 1600, ignored: 600, pay: 700, load: 700, dump: 700, load_ignored: 700,
  shortage: 1400, shortage_die: 1300, power: 1100, face_down: 900, face_down_seen: 700,
  no_treasure: 800, battle: 1400, powder: 900, die: 1300, sabre: 1200, win: 1500, tie: 1500,
  take: 1100, steal_power: 1100, steal_blind: 1100, steal_seen: 800, give: 1100, give_seen: 800,
  overboard: 900, nothing: 900, ghost_direction: 700, game_end: 1600,
};
export const PER_SPACE = 160;
export const NOTE_MS = 1200; // a note (time ran out, a bot plays for…, … is back)
const N_ = (s) => s; // marks a message for the catalogs; the page translates it when shown (t)
export const SPEEDS = [["1.6", N_("Slow")], ["1", N_("Normal")], ["0.5", N_("Fast")], ["0", N_("Instant")]];
// The bound: an update is shown in full at most this long after it came (ms)…
export const CATCH_UP = 5000;
// …and sooner when it asks this page a question: its clock runs on the server (on a timed table,
// at most a share of the time to answer).
export const QUESTION_CATCH_UP = 2000;
export const QUESTION_SHARE = 0.15;
// The queue plans to be done this much before each bound, for late timers and busy machines.
const MARGIN = 300;
// The shortest an event may be shown, as a share of its length at the chosen speed: when keeping
// up would need less, the oldest updates are shown at once instead.
export const FASTEST = 0.15;

export function baseDuration(ev, spaces = 0) {
  const base = BASE[ev.kind] ?? 600;
  return ev.kind === "move" || ev.kind === "fallback" ? base + PER_SPACE * Math.max(1, spaces) : base;
}

/** How long after it came an update must be shown in full (ms). */
export function catchUp(update) {
  const q = update.question;
  if (!q) return CATCH_UP;
  const clock = typeof q.deadline === "number" && !q.early ? q.deadline * 1000 * QUESTION_SHARE : Infinity;
  return Math.min(QUESTION_CATCH_UP, clock);
}

/** Where an update's notes go among its events: `notes_at` (how many of the update's events
 * come before each note) when the server sends it; else before the events (a note of a live
 * update — time ran out, a seat taken or given back — comes with what follows it), or after
 * them for the history sent on (re)connecting. */
export function notePlaces(update, history = false) {
  const notes = Array.isArray(update.notes) ? update.notes : [];
  const n = Array.isArray(update.events) ? update.events.length : 0;
  const at = update.notes_at;
  if (Array.isArray(at) && at.length === notes.length) {
    return at.map((k) => Math.max(0, Math.min(n, Number(k) || 0)));
  }
  return notes.map(() => (history ? n : 0));
}

export class Pacer {
  /**
   * play(ev, update, animate) shows one event; note(text, update, animate) one note;
   * settle(update, newest) shows an update's state (`newest`: the last update received);
   * cost(ev) how long an event wants (ms at speed 1; baseDuration by default);
   * onChange(left) after every step (left: events and notes queued).
   */
  constructor({ play, note, settle, cost, onChange, now }) {
    this.play = play;
    this.noteFn = note || (() => {});
    this.settle = settle;
    this.cost = cost || ((ev) => baseDuration(ev));
    this.onChange = onChange || (() => {});
    this.now = now || (() => performance.now());
    this.queue = [];
    this.factor = 1;
    this.scale = 1; // how much faster than the chosen speed the queue plays now (1: not faster)
    this.running = false;
    this.wake = null;
    this.sleep = null; // the wait under way: {end, ms, timer, resolve}
    this.soon = null;
    this.newest = null; // the last update received
    this.jumps = 0; // how often the page jumped ahead (shown at once to stay on time)
    this.count = 0; // updates received
  }

  get left() { return this.queue.filter((i) => !i.settle).length; }

  /** Queue an update's events and notes, then its state. With `now`, show all of it at once. */
  push(update, now = false) {
    const span = catchUp(update);
    update.due = this.now() + Math.max(span - MARGIN, span / 2);
    update.seq = ++this.count; // updates received so far, this one included
    this.newest = update;
    const events = Array.isArray(update.events) ? update.events : [];
    const notes = Array.isArray(update.notes) ? update.notes : [];
    const places = notePlaces(update, now);
    const notesAt = (i) => notes.forEach((text, k) => {
      if (places[k] === i) this.queue.push({ note: String(text), update, ms: NOTE_MS });
    });
    events.forEach((ev, i) => {
      notesAt(i);
      this.queue.push({ ev, update, ms: this.cost(ev) });
    });
    notesAt(events.length);
    this.queue.push({ settle: true, update, ms: 0 });
    if (now) this.skip();
    else if (this.factor === 0) this.skipSoon();
    else {
      this.hurry();
      this.run();
    }
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

  /** Show one queued item (an event or a note); animate: as part of the paced show. A failure
   * is reported, never allowed to stop the queue (the page would stay in the past). */
  show(item, animate) {
    try {
      if (item.ev) this.play(item.ev, item.update, animate);
      else this.noteFn(item.note, item.update, animate);
    } catch (e) {
      console.error("pacing.show", item.ev || item.note, e); // (for developers: not translated)
    }
  }

  /** Show an update's state (see show). */
  settleNow(update) {
    try {
      this.settle(update, this.newest);
    } catch (e) {
      console.error("pacing.settle", e);
    }
  }

  /** Show the first `count` queued items at once: every event and note without animation, then
   * the last of their updates' states. */
  flush(count) {
    if (this.soon) { clearTimeout(this.soon); this.soon = null; }
    const items = this.queue.splice(0, count);
    let last = null;
    for (const item of items) {
      if (item.settle) last = item.update;
      else this.show(item, false);
    }
    if (last) this.settleNow(last);
  }

  /** Show everything queued at once. */
  skip() {
    this.flush(this.queue.length);
    if (this.wake) this.wake();
    this.onChange(0);
  }

  /**
   * The pace that shows every queued update by its due time: {scale, cut}. scale: the share of
   * its length at the chosen speed each event gets (1 at most); cut: how many items to show at
   * once first (0 unless keeping up needs events shorter than FASTEST).
   */
  plan() {
    const now = this.now();
    const f = this.factor;
    let scale = 1, cost = 0;
    const prefix = []; // the queue's cost up to each item, at the chosen speed
    for (const item of this.queue) {
      cost += item.ms * f;
      prefix.push(cost);
      if (item.settle && cost > 0) scale = Math.min(scale, (item.update.due - now) / cost);
    }
    if (scale >= FASTEST) return { scale, cut: 0 };
    // Cut after the first update (j) such that each later update k fits at FASTEST:
    // prefix[k] - prefix[j] <= (due_k - now) * FASTEST, i.e. prefix[j] >= need(j), the largest
    // prefix[k] - (due_k - now) * FASTEST of the updates after j.
    let need = -Infinity, cut = this.queue.length;
    const needs = new Array(this.queue.length);
    for (let i = this.queue.length - 1; i >= 0; i--) {
      needs[i] = need;
      const item = this.queue[i];
      if (item.settle) need = Math.max(need, prefix[i] - (item.update.due - now) * FASTEST);
    }
    for (let i = 0; i < this.queue.length; i++) {
      if (this.queue[i].settle && prefix[i] >= needs[i]) { cut = i + 1; break; }
    }
    let rest = 1, base = cut ? prefix[cut - 1] : 0;
    for (let i = cut; i < this.queue.length; i++) {
      const item = this.queue[i];
      const c = prefix[i] - base;
      if (item.settle && c > 0) rest = Math.min(rest, (item.update.due - now) / c);
    }
    return { scale: Math.max(FASTEST, Math.min(1, rest)), cut };
  }

  /** A new update may need a faster pace: shorten the wait under way to match (or end it, when
   * the page must jump ahead). */
  hurry() {
    const z = this.sleep;
    if (!z || this.factor === 0) return;
    const { scale, cut } = this.plan();
    if (cut > 0) { this.wake(); return; }
    if (scale >= this.scale) return;
    const left = Math.max(0, z.end - this.now()) * (scale / this.scale);
    this.scale = scale;
    clearTimeout(z.timer);
    z.end = this.now() + left;
    z.timer = setTimeout(z.resolve, left);
  }

  /** The speed now: the chosen one, faster while the page catches up. */
  effective() {
    return this.factor * this.scale;
  }

  async run() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        if (this.factor === 0) { this.skip(); break; }
        const { scale, cut } = this.plan();
        this.scale = scale;
        if (cut > 0) {
          this.jumps += 1;
          this.flush(cut);
          this.onChange(this.left);
          continue;
        }
        const item = this.queue.shift();
        if (item.settle) {
          this.settleNow(item.update);
          this.onChange(this.left);
          continue;
        }
        this.show(item, true);
        this.onChange(this.left);
        const ms = item.ms * this.effective();
        if (ms > 0) await new Promise((resolve) => {
          const done = () => { this.wake = null; this.sleep = null; resolve(); };
          this.sleep = { end: this.now() + ms, timer: setTimeout(done, ms), resolve: done };
          this.wake = () => { clearTimeout(this.sleep && this.sleep.timer); done(); };
        });
      }
    } finally {
      this.running = false;
      this.scale = 1;
    }
  }
}
