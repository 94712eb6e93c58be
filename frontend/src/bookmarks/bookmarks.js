// The vault's bookmarks (Obsidian's .obsidian/bookmarks.json, read by the server: vaultConfig(vault).bookmarks) as
// a section of the left pane above the file tree: groups collapsible, each bookmark opening what it points to --
// a note (at its heading or block when it has a subpath), a folder (revealed in the tree), a search (run), the
// graph, a web page (a new browser tab). Read-only: bookmarks are added and removed in Obsidian.
// Item shapes: obsidian-app.md §3.4; the server's checks: domain/obsidian_config.py _bookmarks.
import { el, icon } from "../dom.js";
import { t } from "../i18n.js";
import { noteHref, searchHref, viewHref } from "../router.js";
import { vaultConfig } from "../vault-config.js";
import { treeItem, wireTree } from "../tagtree/aria-tree.js";

const KEY = "obsigate.bookmarks"; // "closed": the section folded
const SAFE_URL = /^(https?:|mailto:)/i;

/** What a bookmark item opens: {href, label, icon, external} (href null: nothing this app can open). */
export function bookmarkTarget(item, vault) {
  const base = (p) => p.split("/").pop().replace(/\.md$/i, "");
  switch (item.type) {
    case "file": {
      const sub = (item.subpath || "").replace(/^#/, "");
      return { href: noteHref(vault, item.path, sub || null), label: item.title || base(item.path) + (sub ? ` > ${sub}` : ""), icon: "note" };
    }
    case "folder": return { href: null, label: item.title || base(item.path), icon: "folder", folder: item.path };
    case "search": return { href: searchHref(item.query || "", vault), label: item.title || t("bookmarks.search", { q: item.query || "" }), icon: "search" };
    case "graph": return { href: viewHref("graph", { v: vault }), label: item.title || t("bookmarks.graph"), icon: "graph" };
    case "url": return { href: SAFE_URL.test(item.url || "") ? item.url : null, label: item.title || item.url || "", icon: "link", external: true };
    default: return { href: null, label: item.title || "", icon: "folder" };
  }
}

export class Bookmarks {
  /** `tree`: the FileTree (a folder bookmark reveals its folder there). */
  constructor(tree) {
    this.tree = tree;
    this.vault = null;
    this.list = el("ul.tt-tree.bookmark-tree", { role: "tree", id: "bookmarks" });
    this.toggle = el("button.pane-heading.bm-toggle", { type: "button", id: "bookmarks-toggle", "aria-controls": "bookmarks" },
      icon("chevron", "icon tt-chevron"), el("span", { "data-i18n": "bookmarks.title" }, t("bookmarks.title")));
    this.root = el("section.bookmarks", { "aria-labelledby": "bookmarks-toggle" }, this.toggle, this.list);
    this.toggle.addEventListener("click", () => this.setOpen(this.list.hidden));
    this.setOpen(store("get") !== "closed", false);
    wireTree(this.list, { activate: (li) => this.activate(li) });
  }

  setOpen(open, remember = true) {
    this.list.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (remember) store("set", open ? "open" : "closed");
  }

  /** Show `vault`'s bookmarks (the section stays, with a hint, when it has none). */
  async setVault(vault) {
    if (vault === this.vault) return;
    this.vault = vault;
    const { bookmarks = [] } = await vaultConfig(vault);
    if (vault !== this.vault) return;
    this.list.setAttribute("aria-label", t("bookmarks.label", { vault }));
    const item = (b, level) => {
      if (b.type === "group") {
        const title = b.title || "";
        return treeItem({ label: title, level, iconName: "folder", aria: t("bookmarks.group", { title }),
          children: (b.items || []).map((c) => item(c, level + 1)) });
      }
      const target = bookmarkTarget(b, vault);
      const li = treeItem({ label: target.label, level, href: target.href, iconName: target.icon, external: target.external });
      if (target.folder) li.dataset.folder = target.folder;
      return li;
    };
    const items = bookmarks.map((b) => item(b, 1));
    this.list.replaceChildren(...(items.length ? items : [el("li.tt-empty.muted", { role: "none" }, t("bookmarks.none"))]));
    this.list.title = t("bookmarks.readOnly");
    wireTree(this.list, { activate: (li) => this.activate(li) });
  }

  /** A folder bookmark: the tree opens at that folder and takes the focus. */
  async activate(li) {
    const path = li.dataset.folder;
    if (!path) return;
    const node = await this.tree.locate(path).catch(() => null);
    if (!node) return;
    if (node.getAttribute("aria-expanded") === "false") await this.tree.expand(node, true);
    this.tree.focusable(node);
    node.focus();
  }

  /** "Show bookmarks": the left pane opened (its menu button, as a person would), the section unfolded, the focus
   * on its first bookmark. */
  reveal() {
    const pane = this.root.closest(".left-pane");
    if (pane && getComputedStyle(pane).display === "none") document.getElementById("tree-btn")?.click();
    this.setOpen(true);
    (this.list.querySelector('[role="treeitem"][tabindex="0"]') || this.toggle).focus();
  }

  relabel() { this.vault = null; }
}

function store(op, v) {
  try { return op === "get" ? localStorage.getItem(KEY) : localStorage.setItem(KEY, v); } catch { return null; }
}
