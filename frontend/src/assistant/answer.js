// The assistant's answers as the app renders notes: markdown through markdown.js and DOMPurify (no script, no
// event handler attribute survives), [[wikilinks]] and relative links turned into links that open the note.

import * as api from "../api/index.js";
import { t } from "../i18n.js";
import { noteHref, searchHref } from "../router.js";

/** A link target as a vault path: a name without an extension is a note (`Buoy` -> `Buoy.md`). */
export function answerTarget(target) {
  if (!target) return null;
  const path = target.replace(/^\/+/, "");
  return /\.[a-z0-9]+$/i.test(path) ? path : `${path}.md`;
}

/**
 * `render(markdown) -> Node` for the assistant panel, once markdown.js is loaded; `vault()` is the vault the
 * links point into (the app's current one).
 */
export async function answerRenderer(vault) {
  const md = await import("../markdown.js");
  return (text) => {
    const v = vault();
    const env = {
      vault: v, path: "", t, resolve: answerTarget,
      rawUrl: (p) => api.rawUrl(v, p),
      noteUrl: (p, heading) => noteHref(v, p, heading),
      tagUrl: (tag) => searchHref(`#${tag}`, v),
    };
    const box = document.createElement("div");
    box.className = "answer-text";
    box.innerHTML = md.renderMarkdown(text || "", env); // DOMPurify'd
    return box;
  };
}
