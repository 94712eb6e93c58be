// Unsaved editor drafts in this browser (frontend/src/editor/editor.js writes them; keys "obsigate:draft:…").
const PREFIX = "obsigate:draft:";

function keys() {
  try {
    return Object.keys(localStorage).filter((k) => k.startsWith(PREFIX));
  } catch {
    return [];
  }
}

/** How many unsaved drafts this browser holds. */
export const draftCount = () => keys().length;

/** Delete every draft (sign-out: the next person on this browser must not get them). */
export function dropAllDrafts() {
  for (const k of keys()) localStorage.removeItem(k);
}

/** The draft keys (any user of this browser) of `path` in `vault`, or of every file under it (a folder). */
function keysOf(vault, path) {
  const file = `:${vault}:${path}`;
  const under = `:${vault}:${path}/`;
  return keys().filter((k) => k.endsWith(file) || k.includes(under));
}

/** How many unsaved drafts `path` (a file, or a folder's files) has in `vault`. */
export const draftsOf = (vault, path) => keysOf(vault, path).length;

/** Drafts follow a renamed or moved file or folder (`from` → `to`); returns how many moved. */
export function moveDrafts(vault, from, to) {
  const moved = keysOf(vault, from);
  for (const k of moved) {
    const at = k.lastIndexOf(`:${vault}:${from}`);
    const next = `${k.slice(0, at)}:${vault}:${to}${k.slice(at + vault.length + from.length + 2)}`;
    try { localStorage.setItem(next, localStorage.getItem(k)); localStorage.removeItem(k); } catch { /* storage off */ }
  }
  return moved.length;
}

/** Drop the drafts of a deleted file or folder (the person was warned in the delete dialog). */
export function dropDraftsOf(vault, path) {
  for (const k of keysOf(vault, path)) localStorage.removeItem(k);
}
