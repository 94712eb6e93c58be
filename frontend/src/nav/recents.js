// The notes this browser opened last, per vault (localStorage "obsigate.recent.<vault>", most recent first):
// what the quick switcher shows before anything is typed (obsidian-app.md §6.1). Recorded from the route, so
// every way of opening a note counts (tree, link, search, switcher, back/forward).
import { parseRoute } from "../router.js";

const MAX = 50;
const key = (vault) => `obsigate.recent.${vault}`;

/** The paths of `vault` opened last, most recent first. */
export function recentNotes(vault) {
  if (!vault) return [];
  try {
    const v = JSON.parse(localStorage.getItem(key(vault)) || "[]");
    return Array.isArray(v) ? v.filter((p) => typeof p === "string") : [];
  } catch { return []; }
}

/** Put `path` first in `vault`'s recent notes. */
export function rememberNote(vault, path) {
  if (!vault || !path) return;
  const list = [path, ...recentNotes(vault).filter((p) => p !== path)].slice(0, MAX);
  try { localStorage.setItem(key(vault), JSON.stringify(list)); } catch { /* storage off */ }
}

/** Drop `path` (a note that no longer exists) from `vault`'s recent notes. */
export function forgetNote(vault, path) {
  try { localStorage.setItem(key(vault), JSON.stringify(recentNotes(vault).filter((p) => p !== path))); } catch { /* storage off */ }
}

/** Record each note route as it is shown (called once by the switcher's module). */
export function trackRecents() {
  const record = () => { const r = parseRoute(); if (r.view === "note" && r.vault && r.path) rememberNote(r.vault, r.path); };
  window.addEventListener("hashchange", record);
  record();
}
