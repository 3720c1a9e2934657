// The rules at hand: a few short screens in a dialog, reachable from the table (the "Rules"
// button or the H key). The words follow RULES.md, in plain language.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { icon } from "/static/icons.js";

// Marks a message for the catalogs; it is translated when shown (`t`), once the page has its words.
const N_ = (message) => message;

// Each screen: a title and its paragraphs; a paragraph is a string or [icon, string].
export const SCREENS = [
  [N_("The race"), [
    N_("Jamaica is a race around the island. Every ship starts in Port Royal and sails clockwise; the first ship back in Port Royal ends the game at the end of that round. The richest ship wins, not the fastest."),
    N_("Each round: the Captain rolls two dice and chooses which one is the morning die and which the evening die. Then every player chooses one card from their hand, all at the same time and in secret."),
    N_("From the Captain clockwise, each player reveals their card and does its morning action with the morning die, then its evening action with the evening die. The Ghost Ship (if it sails) moves after everyone. Then everyone draws back up to 3 cards and the next player becomes the Captain."),
    ["anchor", N_("The anchor marks this round's Captain.")],
  ]],
  [N_("Cards and icons"), [
    N_("Every card has a morning icon (top) and an evening icon (bottom). The die of that time of day says how much:"),
    ["fwd", N_("Forward: move that many spaces clockwise. At a fork you choose the branch.")],
    ["back", N_("Backward: move that many spaces back.")],
    ["food", N_("Food: load that much food into an empty hold.")],
    ["gun", N_("Gunpowder: load that much gunpowder into an empty hold.")],
    ["gold", N_("Doubloons: load that many doubloons into an empty hold.")],
    N_("A ship has 5 holds; each holds one kind of thing. With no empty hold you must empty one holding something else. Played cards are shown to everyone."),
  ]],
  [N_("Costs and shortage"), [
    N_("Only the space where a move ends counts. A sea space costs food (the number on it), a port costs doubloons, a pirate lair is free and gives its treasure if the skull token is still there. Port Royal is free."),
    N_("Move onto a ship's space (not Port Royal) and you fight it first, then pay."),
    ["skull", N_("Shortage: if you can't pay the whole cost, you pay all you have of it. In the 2021 edition you then roll the shortage die and go back to the nearest port, sea space or lair it shows (or stay). In the classic edition you go back to the first space you can pay.")],
    N_("Hovering or focusing a card shows where it would take you, what that costs, and whether it means a shortage or a battle."),
  ]],
  [N_("Battles"), [
    ["swords", N_("The attacker may spend gunpowder, then rolls the combat die: firepower = die + gunpowder spent (+2 with Lady Beth). The defender does the same. The higher firepower wins; a tie does nothing.")],
    N_("The star on the die wins at once, whatever the other side has. Gunpowder spent is gone, win or lose."),
    N_("The winner chooses the spoils: the whole contents of one of the loser's holds, one of the loser's treasure cards, giving the loser a cursed treasure — or nothing."),
  ]],
  [N_("Treasures and powers"), [
    ["chest", N_("Landing on a lair whose token is still there gives you a treasure card. Treasures (+3, +5, +7) and cursed treasures (−2, −3, −4) stay face down: only you know them.")],
    N_("Powers are shown face up and work at once: Morgan's Map (hold 4 cards), Saran's Sabre (once per battle, make a die be rolled again), Lady Beth (+2 firepower), the 6th Hold (a sixth hold)."),
  ]],
  [N_("The Ghost Ship"), [
    N_("With 2 players (and as an option with 3 to 5) a black Ghost Ship sails too. After every player has acted it moves twice, with the morning die and then the evening die."),
    N_("If it is alone in the lead it moves backward, alone in last place forward; otherwise the Captain chooses. It never pays, keeps only doubloons and fights like anyone else (it has Lady Beth). It scores and can win."),
  ]],
  [N_("Scoring"), [
    N_("The game ends at the end of the round in which a ship gets back to Port Royal (a finished ship scores 15 for its place)."),
    N_("Score = the number printed beside your ship's space (from +2 past the red line up to +10; −5 on or before the red −5 space) + the doubloons in your holds + your treasures (cursed ones count against you)."),
    ["gold", N_("So doubloons are points: a fast ship with empty holds can lose to a slower rich one. The highest score wins; on a tie, the ship furthest along.")],
  ]],
];

/** A screen's paragraphs, in the reader's language. */
export function paragraphs(paras) {
  return paras.map((p) => {
    const para = el("p");
    if (Array.isArray(p)) para.append(icon(p[0], 22), document.createTextNode(` ${t(p[1])}`));
    else para.textContent = t(p);
    return para;
  });
}

export function setUpHelp(dialog, openers) {
  const tabs = el("div", { class: "help-tabs", role: "tablist", "aria-label": t("Rules") });
  const body = el("div", { class: "help-body", role: "tabpanel", tabindex: "0", id: "help-body" });
  const close = el("button", { type: "button", class: "help-close", id: "help-close" }, t("Close"));
  const head = el("div", { class: "help-head" });
  head.append(el("h2", { id: "help-title" }, t("How to play")), close);
  dialog.setAttribute("aria-labelledby", "help-title");
  const buttons = SCREENS.map(([title], i) => {
    const b = el("button", { type: "button", role: "tab", id: `help-tab-${i}`, "aria-controls": "help-body" }, t(title));
    b.addEventListener("click", () => show(i));
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); show((i + 1) % SCREENS.length, true); }
      if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); show((i + SCREENS.length - 1) % SCREENS.length, true); }
    });
    tabs.appendChild(b);
    return b;
  });
  function show(i, focus = false) {
    buttons.forEach((b, k) => {
      b.setAttribute("aria-selected", String(k === i));
      b.tabIndex = k === i ? 0 : -1;
    });
    if (focus) buttons[i].focus();
    const [title, paras] = SCREENS[i];
    body.setAttribute("aria-labelledby", `help-tab-${i}`);
    body.replaceChildren(el("h3", {}, t(title)), ...paragraphs(paras));
  }
  dialog.replaceChildren(head, tabs, body);
  show(0);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  const open = () => { if (!dialog.open) { dialog.showModal(); buttons.find((b) => b.tabIndex === 0).focus(); } };
  for (const o of openers) o.addEventListener("click", open);
  return open;
}
