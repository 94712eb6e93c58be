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
