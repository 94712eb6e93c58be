// Hash routes (the server only has to serve one page; reload and back/forward work):
//   #/v/{vault}/{path}?h={heading}    a file of a vault (each path segment URI-encoded); &f={text}: scroll
//                                    to that text and mark it (opening a search hit at its match)
//   #/v/{vault}                       a vault's home
//   #/search?q=…&v={vault}            search results; its filters too (search.js FILTER_KEYS: &tag=…&re=1…)
//   #/tags?v={vault}                  the vault's tags
//   #/graph?v={vault}&p={path}&d={n}  the link graph: around a note (p) or the whole vault (no p)
//   #/history?v={vault}&p={path}      a file's backups (list, diff, restore)
//   #/trash?v={vault}                 deleted files and folders, with restore
//   #/settings?tab={name}             settings (everyone's preferences; the admin tabs: ai, users)
import { isView } from "./views.js";

const enc = (p) => p.split("/").map(encodeURIComponent).join("/");

export function noteHref(vault, path, heading, find) {
  const p = new URLSearchParams();
  if (heading) p.set("h", heading);
  if (find) p.set("f", find);
  const q = p.toString().replace(/\+/g, "%20");
  return `#/v/${encodeURIComponent(vault)}${path ? `/${enc(path)}` : ""}${q ? `?${q}` : ""}`;
}

/** searchHref(q, vault, filters): `filters` an object or the route's URLSearchParams (its q and v ignored). */
export function searchHref(q, vault, filters) {
  const p = new URLSearchParams({ q });
  if (vault) p.set("v", vault);
  const entries = filters instanceof URLSearchParams ? [...filters] : Object.entries(filters || {});
  for (const [k, v] of entries) if (k !== "q" && k !== "v" && v != null && v !== "" && v !== false) p.set(k, v === true ? "1" : String(v));
  return `#/search?${p}`;
}

export const tagsHref = (vault) => `#/tags${vault ? `?v=${encodeURIComponent(vault)}` : ""}`;

/** viewHref("graph", {v: vault, p: path, d: 2}) -> "#/graph?v=…&p=…&d=2" (empty values left out). */
export function viewHref(view, params = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && v !== "") p.set(k, String(v));
  const q = p.toString().replace(/\+/g, "%20");
  return `#/${view}${q ? `?${q}` : ""}`;
}

export function parseRoute(hash = location.hash) {
  const h = hash.replace(/^#/, "");
  const [pathPart, query = ""] = h.split("?", 2);
  const params = new URLSearchParams(query);
  const parts = pathPart.split("/").filter(Boolean).map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  if (parts[0] === "search") return { view: "search", q: params.get("q") || "", vault: params.get("v"), params };
  if (parts[0] === "tags") return { view: "tags", vault: params.get("v") };
  if (isView(parts[0])) return { view: parts[0], vault: params.get("v"), path: params.get("p"), params };
  if (parts[0] === "v" && parts[1]) {
    return { view: "note", vault: parts[1], path: parts.slice(2).join("/") || null, heading: params.get("h"), find: params.get("f") };
  }
  return { view: "home" };
}

export function go(href, { replace = false } = {}) {
  if (location.hash === href) return false;
  if (replace) history.replaceState(null, "", href);
  else location.hash = href;
  if (replace) window.dispatchEvent(new HashChangeEvent("hashchange"));
  return true;
}

/** A link to /v/… (the server serves it as the page too) becomes the matching hash route. */
export function adoptPathRoute() {
  if (location.pathname.startsWith("/v/")) {
    history.replaceState(null, "", `/#${location.pathname}${location.search}`);
  }
}
