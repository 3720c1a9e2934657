// Words in the reader's language (issue 26). The page asks the server for its catalog
// (`/i18n/catalog.json`: the browser's Accept-Language, or the language chosen here and kept in
// localStorage); `t("English text", {name: …})` and `n("one", "many", count)` translate, a
// message the catalog lacks stays English. Numbers go through Intl (a French thousands separator
// is a narrow no-break space). Marked HTML (`data-t`, `data-t-attr`) is translated by
// `translatePage`; the messages are extracted by `jamaica i18n extract`.
const KEY = "jamaica.lang";
export const LANGUAGES = { en: "English", fr: "Français" };
let lang = "en";
let messages = {};

// French contracts "à le" and "de le" (and plurals) before a name that carries its article:
// "au Vaisseau fantôme", not "à le Vaisseau fantôme"; only before a capital ("prêt à le charger"
// keeps its pronoun) — as rules.phrases.contract.
const JOINED = { àle: "au", dele: "du", àles: "aux", deles: "des" };
const contract = (s) => s.replace(/ (à|de) (les?) (?=[A-ZÀ-Ý])/g, (m, p, a) => ` ${JOINED[p + a]} `);

// French elides "de" before a vowel ("d’Ann", not "de Ann"): only where a template's "de" meets
// a value filled in, never inside a value (a name "Maria de Oliveira" stays) — as
// rules.phrases.elide.
const VOWEL = /^[AEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouyàâæéèêëîïôœùûü]/;

function fill(text, values) {
  if (!values) return text;
  const out = text.replace(/(\bde )?\{(\w+)\}/g, (m, de, k) => {
    if (!(k in values)) return m;
    const v = String(values[k]);
    return de ? (VOWEL.test(v) ? "d’" : de) + v : v;
  });
  return contract(out);
}

export function t(id, values = null) {
  const s = messages[id];
  return fill(typeof s === "string" && s ? s : id, values);
}

export function n(one, many, count, values = null) {
  const forms = messages[one];
  let text;
  if (Array.isArray(forms) && forms.length >= 2 && forms.every(Boolean)) {
    text = forms[new Intl.PluralRules(lang).select(count) === "one" ? 0 : 1];
  } else {
    text = count === 1 ? one : many;
  }
  return fill(text, { n: fmt(count), ...(values || {}) });
}

// a number as it is printed: "−5" with a minus sign, never a hyphen ("+3" stays as it is)
export const signed = (v) => String(v).replace(/^-/, "−");

export function fmt(x) {  // a number in the reader's language, negative with a minus sign ("−5")
  return signed(new Intl.NumberFormat(lang).format(x));
}

export function currentLang() {
  return lang;
}

/** A fetch that asks the server to answer in the reader's language (`Accept-Language`): the
 * replay's events and the server's error messages come in it. */
export function fetchIn(url, options = {}) {
  const headers = new Headers(options.headers || {});
  headers.set("accept-language", lang);
  return fetch(url, { ...options, headers });
}

/** The date of an epoch time, in the reader's language. */
export function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
}

/** Translate the marked parts of the page (their English text is kept to translate again). */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) {
    if (node.dataset.tId === undefined) node.dataset.tId = node.textContent.trim().replace(/\s+/g, " ");
    node.textContent = t(node.dataset.tId);
  }
  for (const node of root.querySelectorAll("[data-t-attr]")) {
    for (const attr of node.dataset.tAttr.split(/\s+/).filter(Boolean)) {
      const key = `tOrig${attr.replace(/(^|-)(\w)/g, (m, a, c) => c.toUpperCase())}`;
      if (node.dataset[key] === undefined) node.dataset[key] = node.getAttribute(attr) || "";
      node.setAttribute(attr, t(node.dataset[key]));
    }
  }
}

/** A language chooser in the page's header: the choice is kept in this browser. */
function chooser() {
  const header = document.querySelector("header");
  if (!header || document.getElementById("lang")) return;
  const label = document.createElement("label");
  label.className = "lang";
  const words = document.createElement("span");
  words.className = "sr-only";
  words.textContent = t("Language");
  const select = document.createElement("select");
  select.id = "lang";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    select.appendChild(option);
  }
  select.value = lang;
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    location.reload();
  });
  label.append(words, select);
  header.appendChild(label);
}

/** Load the catalog, translate the page, add the chooser. Call once, before drawing. */
export async function loadWords() {
  let chosen = null;
  try { chosen = localStorage.getItem(KEY); } catch { chosen = null; }
  try {
    const r = await fetch(`/i18n/catalog.json${chosen ? `?lang=${encodeURIComponent(chosen)}` : ""}`);
    if (r.ok) {
      const d = await r.json();
      lang = d.lang;
      messages = d.messages || {};
    }
  } catch {
    // No catalog: English.
  }
  document.documentElement.lang = lang;
  translatePage();
  chooser();
}
