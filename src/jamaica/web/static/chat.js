// A table's chat: the lines (plain text through textContent, never markup), new ones announced
// to screen readers, spectators' lines hidden on request (remembered here), a line of at most 300
// characters sent on Enter, and the server's refusals (a flood) shown under the field, the refused
// line put back in the field to send again.
import { el } from "/static/common.js";
import { fetchIn, t } from "/static/i18n.js";

export const MAX_CHAT = 300;
const HIDE_KEY = "jamaica.hideSpectators";
const store = (() => { try { return window.localStorage; } catch { return null; } })();

function clockTime(at) {
  if (typeof at !== "number") return "";
  const d = new Date(at * (at < 1e12 ? 1000 : 1)); // seconds (the server's) or milliseconds
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** One chat line: "12:04 Anne (watching): text". */
export function chatLine(m) {
  const p = el("p", { class: `chat-line${m.spectator ? " spectator" : ""}`, "data-seq": String(m.seq) });
  const time = clockTime(m.at);
  if (time) p.appendChild(el("span", { class: "chat-time" }, time));
  p.appendChild(el("b", { class: "chat-name" }, String(m.name || "?")));
  if (m.spectator) p.appendChild(el("span", { class: "chat-tag" }, t("watching")));
  p.appendChild(el("span", { class: "chat-text" }, String(m.text)));
  return p;
}

export class Chat {
  /** `box`: the panel (see table.html); `send(text)` returns false when the
   * text could not be sent (not connected). */
  constructor(box, send) {
    this.box = box;
    this.list = box.querySelector(".chat-list");
    this.live = box.querySelector(".chat-live");
    this.form = box.querySelector("form");
    this.input = box.querySelector("input[type=text]");
    this.note = box.querySelector(".chat-note");
    this.hide = box.querySelector(".chat-hide");
    this.send = send;
    this.seen = new Set();
    this.quietUntil = 0;
    this.sent = null; // the last line sent: put back in the field if the server refuses it
    this.input.maxLength = MAX_CHAT;
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.send(text.slice(0, MAX_CHAT))) {
        this.sent = text.slice(0, MAX_CHAT);
        this.input.value = "";
        this.say("");
      } else {
        this.say(t("Not connected: the message was not sent."), "error");
      }
    });
    if (this.hide) {
      const box = this.hide.querySelector("input");
      box.checked = Boolean(store && store.getItem(HIDE_KEY) === "on");
      this.list.classList.toggle("hide-spectators", box.checked);
      box.addEventListener("change", () => {
        if (store) store.setItem(HIDE_KEY, box.checked ? "on" : "off");
        this.list.classList.toggle("hide-spectators", box.checked);
        this.follow(true);
      });
    }
    this.canHide(false);
  }

  /** Only seated players may hide the spectators' lines. */
  canHide(yes) {
    if (!this.hide) return;
    this.hide.hidden = !yes;
    if (!yes) this.list.classList.remove("hide-spectators");
    else this.list.classList.toggle("hide-spectators", this.hide.querySelector("input").checked);
  }

  /** A (re)connection: the history the server sends next is not announced. */
  connected() {
    this.quietUntil = Date.now() + 2000;
  }

  receive(messages) {
    const atBottom = this.atBottom();
    const quiet = Date.now() < this.quietUntil;
    this.quietUntil = 0; // only the first batch after a connection is the history
    let fresh = [];
    for (const m of messages) {
      const key = m.seq === undefined ? `${m.at}|${m.name}|${m.text}` : String(m.seq);
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.list.appendChild(chatLine(m));
      fresh.push(m);
    }
    const empty = this.list.querySelector(".chat-empty");
    if (empty && this.list.querySelector(".chat-line")) empty.remove();
    if (!quiet && this.live) {
      const hidden = this.list.classList.contains("hide-spectators");
      fresh = fresh.filter((m) => !(hidden && m.spectator));
      if (fresh.length) this.live.textContent = fresh.map((m) => t("{name} says: {text}", { name: m.name, text: m.text })).join(". ");
    }
    this.follow(atBottom || quiet);
  }

  /** A word under the field: a refusal from the server ("error") or a hint; "" clears it. A
   * refusal puts the refused line back in the field (unless something new was typed there). */
  say(text, kind = "") {
    this.note.textContent = text;
    this.note.className = `chat-note ${kind}`;
    if (kind === "error" && this.sent !== null) {
      if (!this.input.value) this.input.value = this.sent;
      this.sent = null;
    }
  }

  atBottom() {
    const l = this.list;
    return l.scrollHeight - l.scrollTop - l.clientHeight < 30;
  }

  follow(yes) {
    if (yes) this.list.scrollTop = this.list.scrollHeight;
  }
}

/** The chat of a table, read only (the replay). */
export async function loadChat(tableId, list) {
  let messages = [];
  try {
    const r = await fetchIn(`/api/tables/${tableId}/chat`);
    if (r.ok) messages = (await r.json()).messages || [];
  } catch { /* no chat to show */ }
  list.replaceChildren(...messages.map(chatLine));
  if (!messages.length) list.appendChild(el("p", { class: ["muted", "chat-empty"].join(" ") }, t("Nobody wrote in the chat.")));
  return messages.length;
}
