// The tabs and panes of the main area as plain data (no DOM): which locations are open, in which pane, which
// tab is active and which pane has the focus. panes.js draws it and keeps it in step with the URL; these pure
// functions are what it changes it with (unit-tested in tests/web/js/panes.test.mjs).
//
// A layout: {panes: [{tabs: [hash, ...], active: index}], focus: index}
//   hash   a location of the app ("#/v/notes/Ideas.md", "#/search?q=x"): a tab holds where it is, as the URL does
//   panes  one, or two side by side (a split: Obsidian's "Split right")
//   focus  the pane that receives navigation; the URL always shows its active tab

/** At most this many panes side by side (two: the main area of a laptop holds two notes readably). */
export const MAX_PANES = 2;
/** Tabs kept per pane (an old one is dropped when a new one would go over; a page with 200 tabs is of no use). */
export const MAX_TABS = 30;

/** A layout with one pane holding one tab at `hash`. */
export function emptyLayout(hash) {
  return { panes: [{ tabs: [hash], active: 0 }], focus: 0 };
}

/** A stored layout checked and clamped (any shape: JSON from localStorage), or null when it is not one. */
export function parseLayout(data) {
  if (!data || typeof data !== "object" || !Array.isArray(data.panes)) return null;
  const panes = data.panes
    .filter((p) => p && Array.isArray(p.tabs))
    .map((p) => {
      const tabs = p.tabs.filter((h) => typeof h === "string" && h.startsWith("#/")).slice(0, MAX_TABS);
      const active = Number.isInteger(p.active) ? Math.min(Math.max(p.active, 0), tabs.length - 1) : 0;
      return { tabs, active };
    })
    .filter((p) => p.tabs.length)
    .slice(0, MAX_PANES);
  if (!panes.length) return null;
  const focus = Number.isInteger(data.focus) && data.focus >= 0 && data.focus < panes.length ? data.focus : 0;
  return { panes, focus };
}

/** The focused pane's active location. */
export function activeHash(layout) {
  const p = layout.panes[layout.focus];
  return p.tabs[p.active];
}

/** The URL moved to `hash` (a link, back/forward, a typed address): the focused pane follows it. When its active
 * tab is there already nothing changes; when another of its tabs is there that tab becomes active (back after a
 * tab switch returns to the tab you were on); otherwise the active tab goes there -- or, with `newTab`, a new tab
 * opens there (a deep link opened on a page that already had tabs keeps them all).
 * Returns "same" | "activated" | "navigated" | "opened". */
export function navigate(layout, hash, { newTab = false } = {}) {
  const p = layout.panes[layout.focus];
  if (p.tabs[p.active] === hash) return "same";
  const i = p.tabs.indexOf(hash);
  if (i >= 0) { p.active = i; return "activated"; }
  if (newTab) { openTab(layout, hash); return "opened"; }
  p.tabs[p.active] = hash;
  return "navigated";
}

/** A new tab at `hash` right after the active one of pane `pane` (the focused one by default), made active. */
export function openTab(layout, hash, pane = layout.focus) {
  const p = layout.panes[pane];
  p.tabs.splice(p.active + 1, 0, hash);
  p.active += 1;
  if (p.tabs.length > MAX_TABS) { // the oldest tab other than the new one goes
    const drop = p.active === 0 ? 1 : 0;
    p.tabs.splice(drop, 1);
    if (drop < p.active) p.active -= 1;
  }
  layout.focus = pane;
}

/** Close tab `index` of pane `pane`. The tab on its right becomes active (Obsidian's and the browsers' way),
 * else the one on its left. A pane left with no tab goes (when another remains); the last tab of the last pane is
 * replaced by a new tab at `home`. Returns what was closed, {hash, pane, index}, for reopenTab. */
export function closeTab(layout, pane, index, home) {
  const p = layout.panes[pane];
  const [hash] = p.tabs.splice(index, 1);
  const closed = { hash, pane, index };
  if (!p.tabs.length) {
    if (layout.panes.length > 1) {
      layout.panes.splice(pane, 1);
      if (layout.focus >= layout.panes.length || layout.focus > pane) layout.focus = Math.max(0, layout.focus - 1);
      return closed;
    }
    p.tabs.push(home);
    p.active = 0;
    return closed;
  }
  if (index < p.active || p.active >= p.tabs.length) p.active -= 1;
  return closed;
}

/** Open again a tab that closeTab closed, at its place when its pane still exists (else in the focused pane). */
export function reopenTab(layout, closed) {
  const pane = closed.pane < layout.panes.length ? closed.pane : layout.focus;
  const p = layout.panes[pane];
  const index = Math.min(closed.index, p.tabs.length);
  p.tabs.splice(index, 0, closed.hash);
  p.active = index;
  layout.focus = pane;
}

/** The focused pane's next (delta 1) or previous (-1) tab becomes active, wrapping around. */
export function cycleTab(layout, delta) {
  const p = layout.panes[layout.focus];
  p.active = (p.active + delta + p.tabs.length) % p.tabs.length;
}

/** Tab `n` (1-based) of the focused pane becomes active; n = 9 is the last tab (Obsidian's Mod+9). Returns
 * whether there is such a tab. */
export function gotoTab(layout, n) {
  const p = layout.panes[layout.focus];
  const i = n === 9 ? p.tabs.length - 1 : n - 1;
  if (i < 0 || i >= p.tabs.length) return false;
  p.active = i;
  return true;
}

/** Split right: a new pane after the focused one showing the same location (Obsidian opens the same note in the
 * new split), focused. Returns false when there are MAX_PANES already. */
export function splitRight(layout) {
  if (layout.panes.length >= MAX_PANES) return false;
  layout.panes.splice(layout.focus + 1, 0, { tabs: [activeHash(layout)], active: 0 });
  layout.focus += 1;
  return true;
}

/** Files moved or deleted: `move(hash)` gives each tab's new location, or null for a tab whose file is gone
 * (that tab closes, as in Obsidian -- unless it is its pane's last: it stays, showing what the app shows for a
 * missing file). Returns whether anything changed. */
export function relocate(layout, move) {
  let changed = false;
  for (const p of layout.panes) {
    const keep = [];
    p.tabs.forEach((hash, i) => {
      const now = move(hash);
      if (now !== hash) changed = true;
      if (now !== null) keep.push([now, i]);
    });
    if (!keep.length) continue;
    const activeKept = keep.findIndex(([, i]) => i >= p.active);
    p.active = activeKept >= 0 && keep[activeKept][1] === p.active ? activeKept : Math.max(0, (activeKept < 0 ? keep.length : activeKept) - 1);
    p.tabs = keep.map(([h]) => h);
  }
  return changed;
}
