// Play again: at the end a seated player asks for a rematch (the same settings, seats rotated)
// and goes there; the others see the offer and accept (taking the seat kept for them) or decline.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { api, loadPlayer } from "/static/player.js";

export class Rematch {
  /** `parts`: {button, offer, note}; `announce(text)` reads a word out to screen readers. */
  constructor(tableId, parts, announce) {
    this.tableId = tableId;
    this.parts = parts;
    this.announce = announce;
    this.seat = null; // this page's seat at the finished table (null: a spectator)
    this.asked = false; // this page asked: it goes to the new table itself
    parts.button.addEventListener("click", () => this.ask());
  }

  /** The end: "Play again" for a seated player; an offer already made is shown. */
  async gameOver() {
    if (this.seat === null || !loadPlayer()) return;
    this.parts.button.hidden = false;
    const r = await api("/api/tables", { player: null });
    const t = r.ok && Array.isArray(r.data) ? r.data.find((x) => x.id === this.tableId) : null;
    if (t && t.rematch) this.offered(t.rematch, null);
  }

  async ask() {
    const b = this.parts.button;
    this.asked = true;
    b.disabled = true;
    const r = await api(`/api/tables/${this.tableId}/rematch`, { method: "POST", body: {} });
    if (!r.ok) {
      this.asked = false;
      b.disabled = false;
      this.parts.note.textContent = r.data.error;
      return;
    }
    this.join(r.data.id);
  }

  /** The server's `rematch` message (or a rematch found in the lobby's list). */
  async offered(newId, by) {
    if (this.asked) return;
    const box = this.parts.offer;
    const who = by ? t("{name} offers a rematch", { name: by }) : t("A rematch is offered");
    if (this.seat !== null && loadPlayer() && await this.seatedAt(newId)) {
      // this player sits there already (they asked for it): the way there, not an offer
      box.replaceChildren(el("span", {}, t("Your seat at the rematch is waiting:") + " "),
        el("a", { href: `/table/${newId}` }, t("go there")));
      this.parts.button.hidden = true;
      box.hidden = false;
      return;
    }
    if (this.seat === null || !loadPlayer()) {
      box.replaceChildren(el("span", {}, t("{offer}:", { offer: who }) + " "), el("a", { href: `/table/${newId}` }, t("watch it")));
    } else {
      const yes = el("button", { type: "button", id: "accept-rematch", class: "primary" }, t("Accept"));
      const no = el("button", { type: "button", id: "decline-rematch" }, t("Decline"));
      yes.addEventListener("click", () => this.join(newId));
      no.addEventListener("click", () => this.decline(newId));
      box.replaceChildren(el("span", { class: "offer-text" }, `${who} —`), yes, no);
      this.parts.button.hidden = true;
    }
    box.hidden = false;
    this.announce(`${who}.`);
  }

  /** Whether this player holds a seat (not one kept for them: that is an offer) at `newId`. */
  async seatedAt(newId) {
    const me = await api("/api/me");
    const t = me.ok ? (me.data.tables || []).find((x) => x.id === newId) : null;
    return Boolean(t && !t.pending);
  }

  async decline(newId) {
    const r = await api(`/api/tables/${newId}/decline`, { method: "POST", body: {} });
    this.parts.offer.hidden = true;
    this.parts.note.textContent = r.ok ? t("You declined the rematch.") : r.data.error;
  }

  /** Go to the rematch table, taking the seat kept there for this player first. */
  async join(newId) {
    const me = await api("/api/me");
    const t = me.ok ? (me.data.tables || []).find((x) => x.id === newId) : null;
    if (t && t.pending) {
      const r = await api(`/api/tables/${newId}/sit`, { method: "POST", body: { seat: t.seat } });
      if (!r.ok && r.status !== 409) { this.parts.note.textContent = r.data.error; return; }
    }
    location.assign(`/table/${newId}`);
  }
}
