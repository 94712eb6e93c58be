// Tags page (GET /api/tags): the vault's tags as a nested tree like Obsidian's tag pane -- `#a/b/c` under `a` and
// `a/b`, each with its note count (a note counted once per level: the server's counts, tagtree/nest.js),
// collapsible, keyboard-navigable (role=tree, tagtree/aria-tree.js); a tag opens its search.
import * as api from "./api/index.js";
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import { searchHref } from "./router.js";
import { nestTags } from "./tagtree/nest.js";
import { treeItem, wireTree, setExpanded } from "./tagtree/aria-tree.js";

const notes = (n) => (n === 1 ? t("tags.notes.one") : t("tags.notes", { n }));

export async function showTags(main, vault) {
  document.title = `${t("tags.title")} - ${t("app.name")}`;
  const tree = el("ul.tt-tree.tag-tree", { role: "tree", id: "tag-tree", "aria-label": t("tags.tree", { vault }) });
  const status = el("p.search-status", { role: "status" }, t("app.loading"));
  const all = (open) => () => tree.querySelectorAll("[aria-expanded]").forEach((li) => setExpanded(li, open));
  const tools = el("div.tt-tools",
    el("button.button", { type: "button", id: "tags-expand", onclick: all(true) }, t("tags.expandAll")),
    el("button.button", { type: "button", id: "tags-collapse", onclick: all(false) }, t("tags.collapseAll")));
  clear(main, el("section.search-view", { "aria-labelledby": "tags-title" },
    el("h1.note-title", { id: "tags-title", tabindex: "-1" }, t("tags.title")), status, tools, tree));
  const flat = [];
  let offset = 0;
  let total;
  do {
    const data = await api.tags({ vault, limit: 1000, offset });
    total = data.total;
    flat.push(...data.tags);
    offset = data.next_offset;
  } while (offset != null && offset < 20000);
  const item = (node, level) => treeItem({
    label: node.name, count: node.count, level, href: searchHref(`#${node.tag}`, vault),
    aria: `${node.name}, ${notes(node.count)}`,
    children: node.children.length ? node.children.map((c) => item(c, level + 1)) : null,
  });
  tree.replaceChildren(...nestTags(flat).map((n) => item(n, 1)));
  wireTree(tree);
  tools.hidden = !tree.querySelector("[aria-expanded]");
  status.textContent = total ? t("tags.count", { n: total }) : t("tags.none");
}
