// The question and the hand: buttons in plain words, cards that show where they would take the
// ship (on hover or focus), a payment as one choice, move options with what the space costs.
import { el } from "/static/common.js";
import { icon } from "/static/icons.js";
import { holdsRow } from "/static/panels.js";
import { n, t } from "/static/i18n.js";
import { HOLD_WORDS, amount, andWords, cardTitle, iconWord, plain, promptWords } from "/static/words.js";

/** A card of the hand: its morning and evening icons in words; a button when it can be played.
 * Its accessible name is its visible text (with "Morning:" and "Evening:" for screen readers,
 * and the preview's summary, which a phone hides from the eye only). */
export function cardFace(name, { button = false, preview = null } = {}) {
  const [m, e] = name.split("-");
  const card = el(button ? "button" : "div", { class: "card" + (button ? " clickable" : ""), "data-card": name });
  if (button) {
    card.setAttribute("type", "button");
    card.setAttribute("data-action", `play ${name}`);
  }
  for (const [time, ic] of [["morning", m], ["evening", e]]) {
    const row = el("span", { class: `card-row ${time}` });
    row.append(icon(time === "morning" ? "sun" : "moon", 16, "icon time"), icon(ic, 20),
      el("span", { class: "sr-only" }, (time === "morning" ? t("Morning:") : t("Evening:")) + " "), el("span", {}, iconWord(ic)));
    card.appendChild(row);
  }
  if (preview) {
    const sum = el("span", { class: "card-summary" }, plain(preview.summary));
    const warn = warnings(preview);
    if (warn.length) sum.appendChild(el("span", { class: "warn" }, " · " + warn.join(", ")));
    card.appendChild(sum);
  }
  return card;
}

function warnings(preview) {
  const dests = preview.steps.flatMap((s) => s.destinations || []);
  const out = [];
  if (dests.length && dests.every((d) => d.shortage)) out.push(t("shortage"));
  else if (dests.some((d) => d.shortage)) out.push(t("shortage possible"));
  if (dests.some((d) => d.battle)) out.push(t("battle"));
  return out;
}

function where(space) { return space === 0 ? t("Port Royal") : t("space {space}", { space }); }

/** The preview of one card in words, as elements. */
function previewBox(preview) {
  const box = el("div", { class: "preview-card" });
  box.appendChild(el("b", {}, `${preview.title || cardTitle(preview.action.split(" ")[1])}`));
  for (const step of preview.steps) {
    const row = el("div", { class: "preview-step" });
    row.append(icon(step.time === "morning" ? "sun" : "moon", 16), el("span", { class: "when" }, (step.time === "morning" ? t("Morning:") : t("Evening:")) + " "));
    if (step.what === "move") {
      row.appendChild(document.createTextNode(plain(step.words || t("Move {die}", { die: step.die })) + " → "));
      const dests = step.destinations || [];
      dests.forEach((d, i) => {
        const span = el("span", { class: "dest" + (d.shortage ? " short" : "") + (d.battle ? " fight" : "") });
        // An evening that depends on where the morning left the ship says after which ("after 39").
        const details = [d.cost, d.battle ? t("battle") : "", d.shortage ? t("shortage!") : ""].filter(Boolean).join(", ");
        const text = t("{place} ({details})", { place: where(d.space), details });
        span.textContent = d.after && d.after.length && d.after_words ? t("{after}: {where}", { after: d.after_words, where: text }) : text;
        row.appendChild(span);
        if (i < dests.length - 1) row.appendChild(document.createTextNode(" " + t("or") + " "));
      });
      if (!dests.length) row.appendChild(document.createTextNode(t("nowhere")));
    } else {
      row.appendChild(document.createTextNode(plain(step.words || t("Load {amount} {resource}", { amount: step.amount, resource: step.resource }))));
    }
    box.appendChild(row);
  }
  return box;
}

/** The holds after a payment plan: what it takes from each hold in all, the rest the engine takes
 * itself included — its `taken` ([[hold, count]]) when the server sends it, else read from its
 * words ("Pay food: 2 from hold 1 and 1 from the 6th Hold", or in French "2 de la cale 1 et 1 de
 * la 6e Cale"); null if they do not say it. */
export function holdsAfter(holds, label, taken = null) {
  const left = holds.map((h) => ({ ...h }));
  let any = false;
  const parts = Array.isArray(taken) ? taken.map(([h, k]) => [null, String(k), h === 5 ? null : String(h + 1)])
    : String(label).matchAll(/(\d+) (?:from|de|dans) (?:(?:hold|la cale) (\d)|(?:the 6th Hold|la 6e [Cc]ale))/gi);
  for (const m of parts) {
    const i = m[2] ? Number(m[2]) - 1 : 5;
    if (!left[i] || left[i].count < Number(m[1])) return null;
    left[i].count -= Number(m[1]);
    any = true;
  }
  return any ? left : null;
}

function holdsWords(holds) {
  const full = holds.filter((h) => h.count > 0).map((h) => amount(h.count, HOLD_WORDS[h.type] || h.type));
  const empty = holds.length - full.length;
  if (empty) full.push(n("{n} empty hold", "{n} empty holds", empty));
  return full.join(", ");
}

export class QuestionPanel {
  /** els: {box, prompt, note, options, preview, hand, handPanel}; act(actions) answers;
   * hint(destinations|null) highlights spaces on the board. */
  constructor(els, act, hint, change = null) {
    Object.assign(this, els);
    this.act = act;
    this.hint = hint;
    this.change = change; // change(card): choose another card after an early choice
    this.key = null;
    this.question = null;
    this.moveHints = {};
  }

  /** Show the question of an update (or none); returns whether it is a new one. */
  show(u, ctx) {
    const q = u.question;
    this.drawHand(u, ctx);
    if (!q) {
      this.key = null;
      this.question = null;
      this.box.hidden = true;
      this.box.classList.remove("busy");
      this.hint(null, false);
      return false;
    }
    const key = `${u.turn}|${q.kind}|${q.early}|${q.options.map((o) => o.action).join(",")}`;
    if (key === this.key) return false;
    this.key = key;
    this.armed = null; // the card a first tap has shown (cards)
    this.question = { ...q, turn: u.turn };
    this.box.classList.remove("busy"); // a new question: nothing of it is being sent yet
    // a card's preview may scroll (a phone gives it a fixed height): then the keyboard reaches it
    if (q.kind === "card") this.preview.setAttribute("tabindex", "0");
    else this.preview.removeAttribute("tabindex");
    Object.assign(this.box.dataset, { turn: String(u.turn), kind: q.kind, early: String(Boolean(q.early)) });
    this.box.hidden = false;
    this.prompt.textContent = promptWords(q.prompt, ctx.names[ctx.seat], q.kind === "pay" ? q.plans : null);
    this.note.textContent = "";
    this.note.className = "qnote";
    this.preview.replaceChildren();
    this.hint(null, false);
    const opts = this.options;
    opts.replaceChildren();
    if (q.kind === "card") this.cards(q, ctx);
    else if (q.kind === "pay" && Array.isArray(q.plans) && q.plans.length) this.plans(q, ctx);
    else if (q.kind === "move") this.moves(q, ctx);
    else this.buttons(q, ctx);
    opts.querySelectorAll("button").forEach((b, i) => { if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1)); });
    return true;
  }

  buttons(q, ctx) {
    for (const o of q.options) this.options.appendChild(this.button(o.action, this.label(o, q, ctx)));
  }

  button(actions, label, extra = null) {
    const b = el("button", { type: "button", class: "option", "data-action": Array.isArray(actions) ? actions.join(";") : actions });
    b.appendChild(el("span", { class: "option-label" }, label));
    if (extra) b.appendChild(el("span", { class: "option-extra" }, extra));
    b.addEventListener("click", () => this.act(Array.isArray(actions) ? actions : [actions]));
    return b;
  }

  label(o, q, ctx) {
    const m = /^morning (\d)$/.exec(o.action); // "morning 4": the 4 in the morning
    const roll = ctx.view.dice.roll;
    if (q.kind === "dice_order" && m && roll.length === 2) {
      const morning = Number(m[1]);
      const evening = roll[0] === morning ? roll[1] : roll[0];
      return t("Morning {morning}, evening {evening}", { morning, evening });
    }
    return plain(o.label);
  }

  cards(q, ctx) {
    const previews = new Map((q.preview || []).map((p) => [p.action, p]));
    const hint = el("p", { class: "qhint" }, t("Point at a card (or focus it with Tab) to see where it takes your ship."));
    this.preview.appendChild(hint);
    for (const o of q.options) {
      const name = o.action.split(" ")[1];
      const p = previews.get(o.action) || null;
      const card = cardFace(name, { button: true, preview: p });
      const show = () => {
        if (!p) return;
        const box = previewBox(p);
        if (this.armed === o.action) box.firstChild.after(el("span", { class: "qtap" }, ` — ${t("tap again to play")}`));
        this.preview.replaceChildren(box);
        this.hint(p.steps.flatMap((s) => (s.destinations || []).map((d) => ({ ...d, time: s.time }))));
      };
      // A finger cannot point at a card without tapping it: its first tap on a card shows where
      // the card takes the ship, a second tap on the same card plays it. A mouse or a key plays
      // a card at once (they can point, or focus, first).
      card.addEventListener("click", (e) => {
        if (e.pointerType === "touch" && this.armed !== o.action && p) {
          this.armed = o.action;
          for (const c of this.options.querySelectorAll(".card")) c.classList.toggle("armed", c === card);
          show();
          return;
        }
        this.act([o.action]);
      });
      card.addEventListener("mouseenter", show);
      card.addEventListener("focus", show);
      card.addEventListener("mouseleave", () => {
        // (a finger's tap elsewhere leaves the card too: it is no longer ready to play)
        if (this.armed === o.action) { this.armed = null; card.classList.remove("armed"); }
        this.preview.replaceChildren(hint);
        this.hint(null);
      });
      this.options.appendChild(card);
    }
    this.handPanel.hidden = true;
  }

  /** A payment as whole plans (the rules' pay_plans). Plans that leave the ship the same holds
   * (the same amounts, whichever holds they are in: nothing in the rules tells two holds apart)
   * are one choice, said by its plainest way (the fewest holds); each says what it takes, and
   * shows the holds it leaves. */
  plans(q, ctx) {
    const ship = ctx.seat === null ? null : ctx.view.ships[ctx.seat];
    const groups = new Map();
    for (const plan of q.plans) {
      const left = ship ? holdsAfter(ship.holds, plan.label, plan.taken) : null;
      const key = left ? left.filter((h) => h.count > 0).map((h) => `${h.type} ${h.count}`).sort().join(",") : plan.label;
      const same = groups.get(key);
      if (!same) groups.set(key, { plan, left, others: 0 });
      else { // one button: the way that takes from the fewest holds says it
        same.others += 1;
        if (plan.taken.length < same.plan.taken.length) Object.assign(same, { plan, left });
      }
    }
    // those that empty more holds first (an empty hold takes any cargo), else in the rules' order
    const filled = (g) => (g.left ? g.left.filter((h) => h.count > 0).length : 0);
    for (const { plan, left, others } of [...groups.values()].sort((x, y) => filled(x) - filled(y))) {
      // "Pay food: 2 from hold 1" is said "Take 2 from hold 1" (what comes after the colon)
      const what = /^[^:]*?[\u202f\u00a0]?: (.+)$/.exec(plain(plan.label));
      const b = this.button(plan.actions, what ? t("Take {what}", { what: what[1] }) : plain(plan.label));
      if (left) {
        const after = el("span", { class: "option-extra plan-left" }, t("Leaves") + " ");
        const row = holdsRow(left);
        row.setAttribute("aria-hidden", "true");
        after.append(row, el("span", { class: ["sr-only", "plan-words"].join(" ") }, holdsWords(left)));
        if (others) after.appendChild(el("span", { class: "plan-same" }, t("(or the same from other holds)")));
        b.appendChild(after);
      }
      this.options.appendChild(b);
    }
  }

  /** Move options with what each destination means, as the rules say it (q.moves: the space,
   * its cost in words, a shortage, a battle and with whom, the finish). */
  moves(q, ctx) {
    this.moveHints = {};
    q.options.forEach((o, i) => {
      const m = (q.moves || [])[i];
      if (!m) {
        this.options.appendChild(this.button(o.action, plain(o.label)));
        return;
      }
      const there = m.ships_there.map((k) => ctx.names[k]);
      const info = [m.have === null ? m.cost : t("{cost}, you have {have}", { cost: m.cost, have: m.have })];
      if (m.shortage) info.push(t("shortage!"));
      if (m.battle) info.push(n("{names} is there: battle", "{names} are there: battle", there.length, { names: andWords(there) }));
      this.moveHints[m.space] = [m.cost, m.shortage ? t("shortage!") : "", m.battle ? t("battle") : ""].filter(Boolean).join(" · ");
      this.options.appendChild(this.button(o.action, plain(o.label), info.join(" · ")));
    });
  }

  /** The hand when it is not being chosen from (and the card chosen early, if any). */
  drawHand(u, ctx) {
    const view = u.view;
    const choosing = u.question && u.question.kind === "card";
    this.handPanel.hidden = ctx.seat === null || choosing;
    if (ctx.seat === null) return;
    const cards = [...(view.hand || [])];
    this.hand.replaceChildren();
    const early = !view.chosen && !u.question && u.early_choice ? u.early_choice : null;
    if (early && this.change) {
      // chosen before the engine asked: still secret, and it may be changed until then
      this.hand.appendChild(el("p", { class: ["qhint", "hand-note"].join(" ") }, t("You chose the marked card (secret until revealed). Click another card to change your mind.")));
      for (const c of cards) {
        const card = cardFace(c, { button: true });
        card.classList.toggle("chosen", c === early);
        card.classList.remove("clickable");
        if (c === early) {
          card.setAttribute("aria-pressed", "true");
          card.appendChild(el("span", { class: "chosen-tag" }, t("Chosen")));
        }
        else card.addEventListener("click", () => this.change(c));
        this.hand.appendChild(card);
      }
      return;
    }
    for (const c of cards) this.hand.appendChild(cardFace(c));
    const chosen = view.chosen || null;
    if (chosen) {
      const c = cardFace(chosen);
      c.classList.add("chosen");
      const wrap = el("div", { class: "chosen-wrap" });
      wrap.append(el("span", { class: "chosen-label" }, t("Your card this round:")), c);
      this.hand.appendChild(wrap);
    }
    if (!cards.length && !chosen) this.hand.appendChild(el("span", { class: "muted" }, t("No cards in hand.")));
  }

  /** A line under the prompt: sending, waiting for the connection, or why it was refused. */
  say(text, kind = "") {
    this.note.textContent = text;
    this.note.className = "qnote" + (kind ? ` ${kind}` : "");
  }

  setBusy(busy) {
    this.options.querySelectorAll("button").forEach((b) => { b.disabled = busy; });
    this.box.classList.toggle("busy", busy);
  }

  focusFirst() {
    // Without a pointer that can hover (a finger), a focused card would show its way as if it
    // had been chosen: the question itself takes the focus (a screen reader reads it).
    if (typeof matchMedia === "function" && matchMedia("(hover:none)").matches) {
      this.box.focus({ preventScroll: true });
      return;
    }
    const b = this.options.querySelector("button:not([disabled])");
    if (b) b.focus({ preventScroll: false });
  }
}
