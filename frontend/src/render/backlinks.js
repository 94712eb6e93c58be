// Backlink contexts rendered as Obsidian shows them (issue 19): the linking line as markdown with live links.
// The line's links other than to this note are not resolved by the server; they carry their target
// (data-lookup) and are looked up by name when clicked (the quick switcher's search), then opened.
import * as api from "../api/index.js";
import { noteHref, searchHref, go } from "../router.js";

/**
 * The context line `line` (markdown) as sanitised inline HTML, its links to the open note `path` resolved.
 * mdmod: markdown.js; base: the note view's env (t, rawUrl, noteUrl, tagUrl…).
 */
export function contextHtml(mdmod, line, base, path) {
  const name = path.replace(/\.md$/i, "").toLowerCase();
  const self = (target) => {
    const tgt = target.replace(/\.md$/i, "").toLowerCase();
    return tgt === name || name.endsWith(`/${tgt}`) || name.split("/").pop() === tgt ? path : null;
  };
  return mdmod.renderInline(line, { ...base, resolve: (target) => self(target), lookup: true });
}

/** Clicks on the contexts' unresolved-by-us links (data-lookup) inside `root` find the note and open it. */
export function lookupLinks(root, vault) {
  root.addEventListener("click", async (e) => {
    const a = e.target.closest("a[data-lookup]");
    if (!a || !root.contains(a)) return;
    e.preventDefault();
    const target = a.dataset.lookup;
    const base = target.split("/").pop().replace(/\.md$/i, "").toLowerCase();
    const { hits } = await api.treeSearch({ vault: vault(), q: base, limit: 20 }, { quiet: true }).catch(() => ({ hits: [] }));
    const want = target.replace(/\.md$/i, "").toLowerCase();
    const hit = hits.find((h) => h.path.replace(/\.md$/i, "").toLowerCase() === want)
      || hits.find((h) => h.path.replace(/\.md$/i, "").toLowerCase().endsWith(`/${want}`))
      || hits.find((h) => h.path.split("/").pop().replace(/\.md$/i, "").toLowerCase() === base);
    go(hit ? noteHref(vault(), hit.path, a.dataset.subpath || null) : searchHref(target, vault()));
  });
}
