// The rules as one page, in the reader's language: the screens of the table's help, one after the
// other (the words follow RULES.md).
import { el } from "/static/common.js";
import { SCREENS, paragraphs } from "/static/help.js";
import { loadWords, t } from "/static/i18n.js";

async function boot() {
  await loadWords();
  const main = document.getElementById("rules");
  main.replaceChildren(...SCREENS.map(([title, paras], i) => {
    const section = el("section", { class: "panel rules-screen", "aria-labelledby": `rules-${i}` });
    section.append(el("h2", { id: `rules-${i}` }, t(title)), ...paragraphs(paras));
    return section;
  }));
}

boot();
