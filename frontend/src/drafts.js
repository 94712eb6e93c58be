// Unsaved editor drafts in this browser (frontend/src/editor/editor.js writes them), one key each:
// "obsigate:draft:{user}:{vault}:{path}". Kept per user (a shared browser never hands one person's unsaved
// text to another) and deleted at sign-out (main.js asks first: `draftCount`, `dropAllDrafts`).
const PREFIX = "obsigate:draft:";
const draftKey = (user, vault, path) => `${PREFIX}${user}:${vault}:${path}`;

/** `user`'s local draft of `vault`/`path`: `{content, base, at}` (base: the version it was edited from) or null. */
export function readDraft(user, vault, path) {
  try {
    return JSON.parse(localStorage.getItem(draftKey(user, vault, path)) || "null");
  } catch {
    return null;
  }
}

export function writeDraft(user, vault, path, content, base) {
  localStorage.setItem(draftKey(user, vault, path), JSON.stringify({ content, base, at: Date.now() }));
}

export function dropDraft(user, vault, path) {
  localStorage.removeItem(draftKey(user, vault, path));
}

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
