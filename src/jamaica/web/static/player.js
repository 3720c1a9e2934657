// The player: a name and a secret key, kept by this browser in localStorage (`jamaica.player` =
// {"id", "name", "key"}) and sent in the X-Player-Key header, never in a URL's query. The key
// moves to another device in a link's fragment (`/#key=KEY`), which no browser sends to a server:
// the page that opens it stores the key and takes it out of the address at once.
import { fetchIn, t } from "/static/i18n.js";

const STORE_KEY = "jamaica.player";
const store = (() => { try { return window.localStorage; } catch { return null; } })();

/** The stored player, or null. */
export function loadPlayer() {
  try {
    const p = JSON.parse((store && store.getItem(STORE_KEY)) || "null");
    return p && typeof p.key === "string" && p.key ? p : null;
  } catch {
    return null;
  }
}

export function savePlayer(p) {
  if (store) store.setItem(STORE_KEY, JSON.stringify({ id: p.id, name: p.name, key: p.key }));
}

export function forgetPlayer() {
  if (store) store.removeItem(STORE_KEY);
}

/** A fetch of the server's JSON API with the player's key: {ok, status, data}. */
export async function api(path, { method = "GET", body = undefined, player = loadPlayer() } = {}) {
  const headers = {};
  if (player) headers["x-player-key"] = player.key;
  if (body !== undefined) headers["content-type"] = "application/json";
  let r;
  try {
    r = await fetchIn(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, data: { error: t("the server cannot be reached") } };
  }
  let data = null;
  try { data = await r.json(); } catch { data = {}; }
  if (!r.ok && !(data && data.error)) data = { ...(data || {}), error: t("the server answered {status}", { status: r.status }) };
  return { ok: r.ok, status: r.status, data };
}

/** A new player named `name`, stored here. */
export async function createPlayer(name) {
  const r = await api("/api/players", { method: "POST", body: { name }, player: null });
  if (r.ok) savePlayer(r.data);
  return r;
}

/** The link that carries this player's key to another device. */
export function deviceLink(p) {
  return `${location.origin}/#key=${encodeURIComponent(p.key)}`;
}

/** A key in the address's fragment (`#key=…`), taken out of the address at once (it lingers in no
 * history entry); checked with the server and stored. Returns the player, null without a key,
 * or {error} when the server does not know the key. Other fragment entries are kept. */
export async function adoptKeyFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has("key")) return null;
  const key = fragment.get("key").trim();
  fragment.delete("key");
  const rest = fragment.toString();
  history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  return adoptKey(key);
}

/** A key given by hand (pasted: the key itself or the whole link). */
export async function adoptKey(text) {
  const m = /[#&]key=([^&\s]+)/.exec(text);
  const key = m ? decodeURIComponent(m[1]) : text.trim();
  if (!key) return { error: t("no key given") };
  const r = await api("/api/me", { player: { key } });
  if (!r.ok) return { error: r.status === 401 ? t("this key belongs to no player on this server") : r.data.error };
  const p = { id: r.data.id, name: r.data.name, key };
  savePlayer(p);
  return p;
}
