// `[[` (and `![[`) completion that writes the link Obsidian would write: the vault's `.obsidian/app.json`
// newLinkFormat (shortest / relative / absolute) and useMarkdownLinks, read through vault-config.js; the link
// text itself comes from linktext.js. Candidates come from the server's tree search (its ranking); whether a
// name is unique in the vault (for "shortest") from the list of every file, fetched once per vault and page.

import * as api from "../api/index.js";
import { vaultConfig } from "../vault-config.js";
import { linkIndex, linkMarkup } from "./linktext.js";

const indexes = new Map();
const MAX_PAGES = 20; // 20 x 5000 files: beyond that a vault's names are taken as not unique (full paths)

/** Every file path of `vault` as a linkIndex (a promise, cached; an empty index when the list fails). */
function vaultIndex(vault) {
  if (!indexes.has(vault)) {
    indexes.set(vault, (async () => {
      const paths = [];
      let offset = 0;
      for (let i = 0; i < MAX_PAGES && offset != null; i++) {
        const page = await api.vaultFiles(vault, { limit: 5000, offset }, { quiet: true });
        paths.push(...page.files.map((f) => f.path));
        offset = page.next_offset;
      }
      return linkIndex(paths);
    })().catch(() => { indexes.delete(vault); return linkIndex([]); }));
  }
  return indexes.get(vault);
}

/**
 * A CodeMirror completion source for the note `source` of `vault`: after `[[` (or `![[`), vault files matching
 * what follows; choosing one replaces `[[query]]` (the closing brackets too, if the editor paired them) by
 * the whole link in the vault's format, the cursor after it.
 */
export function linkCompletion(vault, source) {
  return async (context) => {
    const before = context.matchBefore(/!?\[\[[^\]|#\n]*/);
    if (!before) return null;
    const embed = before.text.startsWith("!");
    const start = before.from + (embed ? 3 : 2);
    const q = before.text.slice(embed ? 3 : 2);
    const [{ hits }, config, index] = await Promise.all([
      api.treeSearch({ vault, limit: 20, q: q || " " }, { quiet: true }).catch(() => ({ hits: [] })),
      vaultConfig(vault),
      vaultIndex(vault),
    ]);
    const format = { format: config.app?.new_link_format || "shortest", markdown: Boolean(config.app?.use_markdown_links), embed };
    const apply = (path) => (view, completion, from, to) => {
      const after = view.state.doc.sliceString(to, to + 2) === "]]" ? 2 : 0;
      const insert = linkMarkup(path, source, index, format);
      view.dispatch({
        changes: { from: before.from, to: to + after, insert },
        selection: { anchor: before.from + insert.length },
        userEvent: "input.complete",
      });
    };
    return {
      from: start,
      options: hits.map((hit) => ({ label: hit.path.replace(/\.md$/i, ""), detail: hit.title, type: "text", apply: apply(hit.path) })),
      validFor: /^[^\]|#\n]*$/,
    };
  };
}
