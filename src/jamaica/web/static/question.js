// The question and the hand: buttons in plain words, cards that show where they would take the
// ship (on hover or focus), a payment as one choice, move options with what the space costs.
import { el } from "/static/common.js";
import { icon } from "/static/icons.js";
import { ICON_WORDS, cardTitle, plain, promptWords } from "/static/words.js";

/** A card of the hand: its morning and evening icons in words; a button when it can be played. */
export function cardFace(name, { button = false, preview = null } = {}) {
  const [m, e] = name.split("-");
  const card = el(button ? "button" : "div", { class: "card" + (button ? " clickable" : ""), "data-card": name });
  if (button) {
    card.setAttribute("type", "button");
    card.setAttribute("data-action", `play ${name}`);
  }
  for (const [time, ic] of [["morning", m], ["evening", e]]) {
    const row = el("span", { class: `card-row ${time}` });
    row.append(icon(time === "morning" ? "sun" : "moon", 16, "icon time"), icon(ic, 20), el("span", {}, ICON_WORDS[ic]));
    card.appendChild(row);
  }
  card.setAttribute("aria-label", `${cardTitle(name)}: morning ${ICON_WORDS[m].toLowerCase()}, evening ${ICON_WORDS[e].toLowerCase()}`);
  if (preview) {
    const sum = el("span", { class: "card-summary" }, plain(preview.summary));
    const warn = warnings(preview);
    if (warn.length) sum.appendChild(el("span", { class: "warn" }, " · " + warn.join(", ")));
    card.appendChild(sum);
    card.setAttribute("aria-label", `${cardTitle(name)}: ${plain(preview.summary)}${warn.length ? ", " + warn.join(", ") : ""}`);
  }
  return card;
}

function warnings(preview) {
  const dests = preview.steps.flatMap((s) => s.destinations || []);
  const out = [];
  if (dests.length && dests.every((d) => d.shortage)) out.push("shortage");
  else if (dests.some((d) => d.shortage)) out.push("shortage possible");
  if (dests.some((d) => d.battle)) out.push("battle");
  return out;
}

function where(space) { return space === 0 ? "Port Royal" : `space ${space}`; }

/** The preview of one card in words, as elements. */
function previewBox(preview) {
  const box = el("div", { class: "preview-card" });
  box.appendChild(el("b", {}, `${preview.title || cardTitle(preview.action.split(" ")[1])}`));
  for (const step of preview.steps) {
    const row = el("div", { class: "preview-step" });
    row.append(icon(step.time === "morning" ? "sun" : "moon", 16), el("span", { class: "when" }, step.time === "morning" ? "Morning: " : "Evening: "));
    if (step.what === "move") {
      row.appendChild(document.createTextNode(`${plain(step.words || "Move " + step.die)} → `));
      const dests = step.destinations || [];
      dests.forEach((d, i) => {
        const span = el("span", { class: "dest" + (d.shortage ? " short" : "") + (d.battle ? " fight" : "") });
        let text = `${where(d.space)} (${d.cost}`;
        if (d.battle) text += ", battle";
        if (d.shortage) text += ", shortage!";
        span.textContent = text + ")";
        row.appendChild(span);
        if (i < dests.length - 1) row.appendChild(document.createTextNode(" or "));
      });
      if (!dests.length) row.appendChild(document.createTextNode("nowhere"));
    } else {
      row.appendChild(document.createTextNode(plain(step.words || `Load ${step.amount} ${step.resource}`)));
    }
    box.appendChild(row);
  }
  return box;
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
      this.hint(null, false);
      return false;
    }
    const key = `${u.turn}|${q.kind}|${q.early}|${q.options.map((o) => o.action).join(",")}`;
    if (key === this.key) return false;
    this.key = key;
    this.question = { ...q, turn: u.turn };
    Object.assign(this.box.dataset, { turn: String(u.turn), kind: q.kind, early: String(Boolean(q.early)) });
    this.box.hidden = false;
    let prompt = promptWords(q.prompt, ctx.names[ctx.seat]);
    if (q.kind === "pay" && Array.isArray(q.plans) && q.plans.length) {
      prompt = prompt.replace(/ still to pay — take one from which hold\?$/, " to pay: from which holds?");
    }
    this.prompt.textContent = prompt;
    this.note.textContent = "";
    this.note.className = "qnote";
    this.preview.replaceChildren();
    this.hint(null, false);
    const opts = this.options;
    opts.replaceChildren();
    if (q.kind === "card") this.cards(q, ctx);
    else if (q.kind === "pay" && Array.isArray(q.plans) && q.plans.length) this.plans(q);
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
    const m = /^(\d) in the morning$/.exec(o.label);
    const roll = ctx.view.dice.roll;
    if (q.kind === "dice_order" && m && roll.length === 2) {
      const morning = Number(m[1]);
      const evening = roll[0] === morning ? roll[1] : roll[0];
      return `Morning ${morning}, evening ${evening}`;
    }
    return plain(o.label);
  }

  cards(q, ctx) {
    const previews = new Map((q.preview || []).map((p) => [p.action, p]));
    const hint = el("p", { class: "qhint" }, "Point at a card (or focus it with Tab) to see where it takes your ship.");
    this.preview.appendChild(hint);
    for (const o of q.options) {
      const name = o.action.split(" ")[1];
      const p = previews.get(o.action) || null;
      const card = cardFace(name, { button: true, preview: p });
      card.addEventListener("click", () => this.act([o.action]));
      const show = () => {
        if (!p) return;
        this.preview.replaceChildren(previewBox(p));
        this.hint(p.steps.flatMap((s) => (s.destinations || []).map((d) => ({ ...d, time: s.time }))));
      };
      card.addEventListener("mouseenter", show);
      card.addEventListener("focus", show);
      card.addEventListener("mouseleave", () => { this.preview.replaceChildren(hint); this.hint(null); });
      this.options.appendChild(card);
    }
    this.handPanel.hidden = true;
  }

  plans(q) {
    for (const plan of q.plans) this.options.appendChild(this.button(plan.actions, plain(plan.label)));
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
      const info = [m.have === null ? m.cost : `${m.cost}, you have ${m.have}`];
      if (m.shortage) info.push("shortage!");
      if (m.battle) info.push(`${there.join(" and ")} ${there.length > 1 ? "are" : "is"} there: battle`);
      this.moveHints[m.space] = m.cost + (m.shortage ? " · shortage!" : "") + (m.battle ? " · battle" : "");
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
      this.hand.appendChild(el("p", { class: "qhint hand-note" }, "You chose the marked card (secret until revealed). Click another card to change your mind."));
      for (const c of cards) {
        const card = cardFace(c, { button: true });
        card.classList.toggle("chosen", c === early);
        card.classList.remove("clickable");
        if (c === early) {
          card.setAttribute("aria-pressed", "true");
          card.appendChild(el("span", { class: "chosen-tag" }, "Chosen"));
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
      wrap.append(el("span", { class: "chosen-label" }, "Your card this round:"), c);
      this.hand.appendChild(wrap);
    }
    if (!cards.length && !chosen) this.hand.appendChild(el("span", { class: "muted" }, "No cards in hand."));
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
    const b = this.options.querySelector("button:not([disabled])");
    if (b) b.focus({ preventScroll: false });
  }
}
