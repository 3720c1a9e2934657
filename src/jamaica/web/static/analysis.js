// The post-game analysis on the replay page (issue 28): a player who held a seat asks master to
// judge their decisions — the seat's token comes in the address's fragment (#seat=0&token=…, as
// the table's link carries it; never in a query string) and goes in the request's body, or the
// player's key (player.js) finds the seat they held. The server works it out in the background:
// this panel shows its progress, then the summary, the marked decisions (?! ? ??) as a list whose
// items jump the replay to that step — bringing the board back into view where the panel sits
// below it (a phone) — and master's view of the decision shown at each step.
import { el } from "/static/common.js";
import { fetchIn, fmt, n, t } from "/static/i18n.js";
import { loadPlayer } from "/static/player.js";

const RANK = { "": 0, inaccuracy: 1, mistake: 2, blunder: 3 };
// The tables whose analysis this browser asked for: coming back (a reload, Back, another day),
// the page shows it again by itself — the stored one, or the progress of the one being worked
// out — instead of a bare button. Only these: an analysis costs master tens of seconds, so none
// is started for a reader who never asked.
const ASKED = "jamaica.analysed";
const ASKED_MOST = 50;

function asked() {
  try {
    const list = JSON.parse(localStorage.getItem(ASKED) || "[]");
    return Array.isArray(list) ? list.filter((x) => typeof x === "string") : [];
  } catch {
    return []; // storage refused or spoilt: as if nothing was asked
  }
}

function remember(tableId) {
  const list = [tableId, ...asked().filter((x) => x !== tableId)].slice(0, ASKED_MOST);
  try { localStorage.setItem(ASKED, JSON.stringify(list)); } catch { /* storage refused */ }
}
const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The seat and token of the address's fragment (an old link's query moves there at once). */
function seatFromAddress() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const params = fragment.has("token") ? fragment : query;
  const seat = params.has("seat") ? Number(params.get("seat")) : null;
  const token = params.get("token");
  if (params === query && query.has("token")) {
    history.replaceState(null, "", location.pathname + `#seat=${seat}&token=${encodeURIComponent(token || "")}`);
  }
  return Number.isInteger(seat) && token ? { seat, token } : null;
}

/** Where the panel sits below the board (one column: a phone), bring the replay back into view —
 * its controls and the board if they fit the screen, else the board's top — so that the reader
 * sees the step they chose; smoothly, unless they prefer less motion. Side by side (a wider
 * screen), or with the board in view already, nothing moves. */
function showBoard(panel) {
  const board = document.getElementById("board");
  if (!board) return;
  const b = board.getBoundingClientRect();
  if (b.height === 0 || (b.top >= 0 && b.bottom <= innerHeight)) return;
  if (panel.getBoundingClientRect().top < b.bottom) return; // beside the board, not below it
  const controls = document.querySelector(".replay-controls");
  const top = controls ? (controls.closest(".panel") || controls).getBoundingClientRect().top : b.top;
  const from = b.bottom - top + 8 <= innerHeight ? top : b.top;
  const still = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion:reduce)").matches;
  window.scrollTo({ top: Math.max(0, scrollY + from - 8), behavior: still ? "auto" : "smooth" });
}

const percent = (v) => t("{value}%", { value: fmt(Math.round(v * 100)) });
// A loss in whole points of win chance, as the server rounded it (the marks follow those very
// points: "−10 pts" is never an inaccuracy heads-up).
const points = (pts) => n("−{n} pt", "−{n} pts", pts);

export class Analysis {
  /** `box`: the panel's body; `jump(step)`: show that step of the replay; `changed()`: the
   * marks are known (redraw the chart and the rounds). */
  constructor(tableId, box, jump, changed) {
    this.tableId = tableId;
    this.box = box;
    this.jump = jump;
    this.changed = changed;
    this.seat = seatFromAddress();
    this.player = loadPlayer();
    this.data = null; // the server's answer once done
    this.step = 0;
    this.everything = false; // the list shows every decision, not only the marked ones
    this.timer = null;
    this.over = true; // the game is over (the replay page says so once it knows)
    this.intro();
  }

  /** Whether the game is over: before, there is nothing to analyse yet (no button). */
  gameOver(over) {
    if (over === this.over) return;
    this.over = over;
    if (!this.data) this.intro();
  }

  /** Per round, the worst mark of the player's decisions in it: round -> {mark, symbol}. */
  roundMarks() {
    const out = new Map();
    for (const v of this.data ? this.data.analysis.verdicts : []) {
      if (!v.mark) continue;
      const was = out.get(v.round);
      if (!was || RANK[v.mark] > RANK[was.mark]) out.set(v.round, { mark: v.mark, symbol: v.symbol });
    }
    return out;
  }

  intro() {
    const box = this.box;
    box.replaceChildren();
    if (!this.seat && !this.player) {
      box.append(el("p", { class: "muted" }, t("Only a player who held a seat can see the analysis of their decisions: open this replay from your table's link.")));
      return;
    }
    box.append(el("p", { class: "muted" }, t("Master, the bot that searches deepest, values every answer you could have given at each of your decisions, from what you could see then. Only you can see your analysis.")));
    if (!this.over) {
      box.append(el("p", { class: "muted", id: "analysis-later" }, t("The analysis of your decisions opens when the game is over.")));
      return;
    }
    const go = el("button", { type: "button", class: "primary", id: "analyse" }, t("Analyse my decisions"));
    go.addEventListener("click", () => this.ask());
    box.append(go, el("p", { class: "analysis-status", id: "analysis-status", role: "status" }));
    if (!this.resumed && asked().includes(this.tableId)) { // asked before: shown again at once
      this.resumed = true;
      this.ask();
    }
  }

  status(text, error = false) {
    const s = this.box.querySelector("#analysis-status");
    if (!s) return;
    s.textContent = text;
    s.classList.toggle("error", error);
  }

  async ask() {
    clearTimeout(this.timer);
    const go = this.box.querySelector("#analyse");
    if (go) go.disabled = true;
    const headers = { "content-type": "application/json" };
    if (this.player) headers["x-player-key"] = this.player.key;
    remember(this.tableId);
    let r, d;
    try {
      r = await fetchIn(`/api/tables/${this.tableId}/analysis`, { method: "POST", headers, body: JSON.stringify(this.seat || {}) });
      d = await r.json();
    } catch {
      this.status(t("the server cannot be reached"), true);
      if (go) go.disabled = false;
      return;
    }
    if (r.status === 202) {
      this.progress(d.done, d.total, d.ahead || 0);
      const wait = Math.min(10, Number(r.headers.get("Retry-After")) || 2);
      this.timer = setTimeout(() => this.ask(), wait * 1000);
      return;
    }
    const later = Number(r.headers.get("Retry-After"));
    if (r.status === 503 && later > 0) { // the queue is full (or the worker restarts): ask again
      const until = Date.now() + Math.min(60, later) * 1000;
      const tick = () => { // the seconds left, counted down, then the same request again
        const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
        if (left === 0) { this.ask(); return; }
        this.status(d.reason === "crowded"
          ? t("The other analyses of yours come first: this one will be asked for again in {seconds} s.", { seconds: fmt(left) })
          : t("Master is busy with other players' games: it will try again in {seconds} s.", { seconds: fmt(left) }));
        this.timer = setTimeout(tick, Math.min(1000, until - Date.now()));
      };
      tick();
      return;
    }
    if (!r.ok) {
      this.status(d.error || t("the server answered {status}", { status: r.status }), true);
      if (go) go.disabled = false;
      return;
    }
    this.data = d;
    this.draw();
    this.changed();
  }

  progress(done, total, ahead = 0) {
    const s = this.box.querySelector("#analysis-status");
    if (!s) return;
    s.classList.remove("error");
    s.replaceChildren(el("span", {}, total
      ? t("Master is analysing your decisions: {done} of {total}", { done: fmt(done), total: fmt(total) })
      : ahead > 0
        ? n("Master analyses {n} other game first…", "Master analyses {n} other games first…", ahead)
        : t("Master is analysing your decisions…")));
    const bar = el("progress", { max: String(Math.max(1, total)), value: String(done), "aria-hidden": "true" });
    s.append(bar);
  }

  draw() {
    const a = this.data.analysis;
    const box = this.box;
    box.replaceChildren();
    const name = this.data.names[this.data.seat];
    box.append(el("h3", { class: "analysis-who" }, t("{name}'s decisions, judged by master", { name })));
    const counts = el("div", { class: "analysis-counts" });
    for (const [mark, one, many] of [["inaccuracy", "{n} inaccuracy", "{n} inaccuracies"], ["mistake", "{n} mistake", "{n} mistakes"], ["blunder", "{n} blunder", "{n} blunders"]]) {
      const c = el("span", { class: "count", "data-mark": mark });
      c.append(el("b", { "aria-hidden": "true" }, SYMBOL[mark]), document.createTextNode(" " + n(one, many, a.counts[mark])));
      counts.append(c);
    }
    const [i, m, b] = ["inaccuracy", "mistake", "blunder"].map((k) => fmt((a.thresholds || {})[k] || 0));
    box.append(counts, el("p", { class: "analysis-legend" }, n(
      "With {n} player, losing {inaccuracy} points of win chance or more is an inaccuracy, {mistake} a mistake, {blunder} a blunder.",
      "With {n} players, losing {inaccuracy} points of win chance or more is an inaccuracy, {mistake} a mistake, {blunder} a blunder.",
      a.players || 2, { inaccuracy: i, mistake: m, blunder: b })));
    if (a.course) box.append(el("p", { class: "analysis-summary" }, a.course));
    box.append(el("p", { class: "analysis-summary" }, a.lost_most || a.summary));
    if (a.worst !== null) {
      const worst = el("button", { type: "button", class: "link-button" }, t("Go to where you lost most"));
      worst.addEventListener("click", () => this.choose(a.worst));
      box.append(worst);
    }
    const marked = a.verdicts.filter((v) => v.mark);
    const toggle = el("label", { class: "analysis-toggle" });
    const check = el("input", { type: "checkbox" });
    check.checked = this.everything || !marked.length;
    check.addEventListener("change", () => { this.everything = check.checked; this.draw(); this.at(this.step); });
    toggle.append(check, document.createTextNode(" " + t("Every decision ({count})", { count: fmt(a.verdicts.length) })));
    box.append(toggle);
    const shown = check.checked ? a.verdicts : marked;
    const list = el("ol", { class: "verdicts", "aria-label": t("Your decisions") });
    for (const v of shown) {
      const item = el("li");
      const b = el("button", { type: "button", class: "verdict", "data-mark": v.mark, "data-step": String(v.step) });
      const chosen = v.options.find((o) => o.action === v.chosen);
      const best = v.options[0];
      const what = el("span", { class: "v-what" });  // the question's kind, muted, then the answer
      if (v.kind !== "pay" && v.kind !== "load") what.append(el("span", { class: "v-kind" }, t("{kind}: ", { kind: v.kind_words }))); // "Pay food: …", "load 1 food into…" say it
      what.append(document.createTextNode(chosen ? chosen.label : ""));
      b.append(el("span", { class: "v-round" }, t("R{round}", { round: v.round })),
        el("span", { class: "v-symbol", "aria-hidden": "true" }, v.symbol || "·"),
        what,
        el("span", { class: "v-loss" }, v.points > 0 ? points(v.points) : ""));
      if (v.mark) b.append(el("span", { class: "sr-only" }, ` (${v.mark_words})`)); // the symbol, said
      b.title = v.mark ? t("master: {best}", { best: best.label }) : v.text;
      b.addEventListener("click", () => this.choose(v.step));
      item.append(b);
      list.append(item);
    }
    if (!shown.length) list.append(el("li", { class: "muted" }, t("Nothing marked: master found no clear mistake.")));
    box.append(list, el("div", { class: "verdict-detail", id: "verdict-detail", "aria-live": "polite" }));
    this.at(this.step);
  }

  /** The reader chose a decision: the replay jumps there, and the board comes into view. */
  choose(step) {
    this.jump(step);
    showBoard(this.box.closest(".panel") || this.box);
  }

  /** The replay shows `step`: master's view of the decision taken there, if it is the player's. */
  at(step) {
    this.step = step;
    const detail = this.box.querySelector("#verdict-detail");
    if (!detail || !this.data) return;
    for (const b of this.box.querySelectorAll("button.verdict")) b.setAttribute("aria-current", String(Number(b.dataset.step) === step));
    const v = this.data.analysis.verdicts.find((x) => x.step === step);
    detail.replaceChildren();
    if (!v) {
      detail.append(el("p", { class: "muted" }, t("Step to one of your decisions, or pick one above, to see master's view of it.")));
      return;
    }
    const head = el("p", { class: "verdict-text", "data-mark": v.mark });
    if (v.symbol) head.append(el("b", { "aria-hidden": "true" }, v.symbol + " "));
    head.append(document.createTextNode(v.text));
    detail.append(head);
    const table = el("table", { class: "options-table" });
    const top = el("tr");
    top.append(el("th", { scope: "col" }, t("Answer")), el("th", { scope: "col" }, t("Chance to win, by master")));
    const thead = el("thead");
    thead.append(top);
    table.append(thead);
    const body = el("tbody");
    v.options.forEach((o, i) => {
      const best = i === 0 && !v.even; // all equal as shown (a decided game): no choice of master's
      const row = el("tr", { class: [o.action === v.chosen ? "chosen" : "", best ? "best" : ""].join(" ").trim() });
      const label = el("td");
      label.append(document.createTextNode(o.label));
      if (best) label.append(el("span", { class: "best-tag" }, t("master's choice")));
      if (o.action === v.chosen) label.append(el("span", { class: "chosen-tag" }, t("your answer")));
      const value = el("td", { class: "value" });
      const bar = el("span", { class: "bar", "aria-hidden": "true" });
      const fill = el("span", { class: "fill" });
      fill.style.width = `${Math.round(o.value * 100)}%`; // CSSOM: allowed by the page's CSP
      bar.append(fill);
      value.append(el("span", { class: "num" }, percent(o.value)), bar);
      row.append(label, value);
      body.append(row);
    });
    table.append(body);
    detail.append(table);
  }
}
