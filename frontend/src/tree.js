// The vault's file tree: lazy folders (GET /api/browse/{vault}?path=), note counts, the open file
// highlighted and revealed, WAI-ARIA tree keyboard navigation (arrows, Home/End, Enter). The writes
// (new note or folder, rename, move, delete; context menu, drag and drop) are tree-ops.js.
import * as api from "./api/index.js";
import { el, clear, icon, $$ } from "./dom.js";
import { t } from "./i18n.js";
import { noteHref, go } from "./router.js";
import { TreeOps } from "./tree-ops.js";

const PAGE = 200;
let groups = 0; // numbers the folders' groups: ids unique in the page, for aria-owns

export class FileTree {
  /** `options`: `actions` (the toolbar above the tree), `writable(vault)`, `changed()` (the open view shows
   * the vault again after a write) — see TreeOps. */
  constructor(root, options = {}) {
    this.root = root; // <ul role="tree">
    this.vault = null;
    this.nodes = new Map(); // path -> li
    this.loaded = new Map(); // folder path -> Promise
    this.current = null;
    this.selected = null; // the item last picked (or the open file): where "New note" goes
    root.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("click", (e) => this.onClick(e));
    this.ops = new TreeOps(this, options);
  }

  /** Shows a vault's top folder; resolves once it is loaded (at once when it already is). */
  setVault(vault) {
    if (vault === this.vault && this.ready) return this.ready;
    this.vault = vault;
    this.nodes.clear();
    this.loaded.clear();
    this.current = null;
    this.selected = null;
    this.root.setAttribute("aria-label", t("tree.label", { vault }));
    clear(this.root);
    this.ops.setVault(vault);
    this.ready = this.load("", this.root, 1).catch((e) => { this.ready = null; throw e; });
    return this.ready;
  }

  /** Reloads the tree (after a write), keeping the open folders and the open file revealed. `moved(path)`:
   * where a path is now (null: deleted), when a write moved or deleted some. */
  async refresh(moved = (p) => p) {
    const open = [...this.root.querySelectorAll('[aria-expanded="true"]')].map((li) => moved(li.dataset.path)).filter((p) => p != null);
    const current = this.current && moved(this.current);
    const selected = this.selected && moved(this.selected);
    const vault = this.vault;
    this.ready = null;
    await this.setVault(vault);
    this.selected = selected;
    for (const dir of open) {
      const li = this.nodes.get(dir);
      if (li) await this.expand(li, true).catch(() => {});
    }
    await this.reveal(current);
  }

  relabel() {
    if (this.vault) this.root.setAttribute("aria-label", t("tree.label", { vault: this.vault }));
    this.ops.relabel();
  }

  load(path, group, level) {
    if (!this.loaded.has(path)) this.loaded.set(path, this.fetchInto(path, group, level, 0));
    return this.loaded.get(path);
  }

  async fetchInto(path, group, level, offset) {
    const vault = this.vault;
    let data;
    try {
      data = await api.browse(vault, { path, limit: PAGE, offset });
    } catch (e) {
      this.loaded.delete(path);
      throw e;
    }
    if (vault !== this.vault) return;
    group.querySelector(":scope > .tree-more")?.remove();
    if (!data.entries.length && offset === 0) group.append(el("li.tree-empty", { role: "none" }, t("tree.empty")));
    for (const entry of data.entries) group.append(...this.item(entry, level));
    if (data.next_offset != null) {
      const left = data.total - data.next_offset;
      const more = el("li.tree-more", { role: "none" },
        el("button.link-btn", { type: "button", onclick: () => this.fetchInto(path, group, level, data.next_offset) }, t("tree.more", { n: left })));
      group.append(more);
    }
    if (!this.root.querySelector('[tabindex="0"]')) this.root.querySelector('[role="treeitem"]')?.setAttribute("tabindex", "0");
  }

  /** The elements of one entry for its folder's list: [li] for a file, [li, li holding its group] for a folder. */
  item(entry, level) {
    const isDir = entry.type === "dir";
    // A folder shows its notes, or its files when it holds no note (attachments).
    const n = entry.notes || entry.files;
    const count = !isDir || !n ? null : t(`${entry.notes ? "tree.count" : "tree.files"}${n === 1 ? ".one" : ""}`, { n });
    const row = el("span.tree-row",
      isDir ? icon("chevron", "icon chevron") : el("span.chevron-space"),
      icon(isDir ? "folder" : entry.is_note ? "note" : /\.(png|jpe?g|gif|svg|webp)$/i.test(entry.name) ? "image" : "file"),
      el("span.tree-name", isDir || !entry.is_note ? entry.name : entry.name.replace(/\.md$/i, "")),
      // the space keeps the name and the number apart in the visible text the accessible name must contain
      ...(count ? [" ", el("span.tree-count", { title: count }, String(n))] : []));
    const li = el("li.tree-item", {
      role: "treeitem", tabindex: "-1", "aria-level": level,
      // Named explicitly: a folder's name computed from its content would include its children. The name
      // starts with the visible text ("Projects 2" -> "Projects 2 notes"), as speech control needs (WCAG 2.5.3).
      "aria-label": count ? `${entry.name} ${count}` : entry.name,
      dataset: { path: entry.path, type: entry.type, name: entry.name, files: entry.files ?? "" },
    }, row);
    this.ops.decorate(li, row);
    row.style.paddingLeft = `${(level - 1) * 14 + 6}px`; // CSP allows styles set from script
    this.nodes.set(entry.path, li);
    if (!isDir) return [li];
    // A folder's children sit next to its item, owned through aria-owns (the accessibility tree nests them as
    // WAI-ARIA's tree pattern wants) but outside it in the DOM: an item containing them would show their text,
    // which its name (its own row) does not contain (WCAG 2.5.3, axe's label-content-name-mismatch).
    const group = el("ul.tree-group", { role: "group", id: `tree-group-${++groups}`, hidden: true });
    li.setAttribute("aria-expanded", "false");
    li.setAttribute("aria-owns", group.id);
    return [li, el("li.tree-sub", { role: "none" }, group)];
  }

  async expand(li, open = true) {
    const group = document.getElementById(li.getAttribute("aria-owns"));
    li.setAttribute("aria-expanded", String(open));
    group.hidden = !open;
    if (open) await this.load(li.dataset.path, group, Number(li.getAttribute("aria-level")) + 1);
  }

  /** Shows the open file: ancestors expanded, the row marked and scrolled into view. */
  async reveal(path) {
    this.root.querySelector('[aria-current="page"]')?.removeAttribute("aria-current");
    $$('[aria-selected="true"]', this.root).forEach((n) => n.setAttribute("aria-selected", "false"));
    this.current = path;
    if (!path) return;
    const li = await this.locate(path);
    if (!li || this.current !== path) return;
    li.setAttribute("aria-current", "page");
    li.setAttribute("aria-selected", "true");
    this.focusable(li);
    li.querySelector(".tree-row").scrollIntoView({ block: "nearest" });
  }

  /** The item of `path` once its ancestors are expanded and loaded (null when it is not there). */
  async locate(path) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const li = this.nodes.get(dir);
      if (!li) return null;
      if (li.getAttribute("aria-expanded") !== "true") await this.expand(li, true);
      else await this.loaded.get(dir);
    }
    return this.nodes.get(path) || null;
  }

  /** Moves the keyboard focus to `path`'s item (after a write from the tree: the person goes on there). */
  async focusPath(path) {
    const li = path && await this.locate(path);
    if (!li) return;
    this.focusable(li);
    li.focus();
    li.querySelector(".tree-row").scrollIntoView({ block: "nearest" });
  }

  focusable(li) {
    this.root.querySelectorAll('[tabindex="0"]').forEach((n) => n.setAttribute("tabindex", "-1"));
    li.setAttribute("tabindex", "0");
    this.selected = li.dataset.path;
  }

  /** The folder a new note or folder goes into: the picked folder, the picked file's folder, or the root. */
  targetDir() {
    const li = this.selected && this.nodes.get(this.selected);
    if (!li) return "";
    const p = li.dataset.path;
    return li.dataset.type === "dir" ? p : p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
  }

  visible() {
    return $$('[role="treeitem"]', this.root).filter((li) => !li.closest("ul[hidden]"));
  }

  /** The item at `node` (an element of the tree): the item it is in, or the folder whose group it is in. */
  itemAt(node) {
    return node.closest?.('[role="treeitem"]') || ownerOf(node);
  }

  activate(li) {
    if (li.dataset.type === "dir") this.expand(li, li.getAttribute("aria-expanded") !== "true");
    else go(noteHref(this.vault, li.dataset.path));
  }

  onClick(e) {
    const li = e.target.closest('[role="treeitem"]');
    if (!li || !e.target.closest(".tree-row") || e.target.closest(".tree-menu-btn")) return;
    this.focusable(li);
    li.focus();
    this.activate(li);
  }

  onKey(e) {
    const li = e.target.closest('[role="treeitem"]');
    if (!li) return;
    const items = this.visible();
    const i = items.indexOf(li);
    const move = (n) => { if (n) { this.focusable(n); n.focus(); } };
    const isDir = li.dataset.type === "dir";
    const open = li.getAttribute("aria-expanded") === "true";
    switch (e.key) {
      case "ArrowDown": move(items[i + 1]); break;
      case "ArrowUp": move(items[i - 1]); break;
      case "Home": move(items[0]); break;
      case "End": move(items[items.length - 1]); break;
      case "ArrowRight":
        if (isDir && !open) this.expand(li, true);
        else if (isDir) move(items[i + 1]);
        break;
      case "ArrowLeft":
        if (isDir && open) this.expand(li, false);
        else move(ownerOf(li));
        break;
      case "Enter": case " ":
        if (e.ctrlKey || e.metaKey || e.altKey) return; // Mod+Enter: open in a new tab (a command, panes/commands.js)
        this.activate(li); break;
      case "ContextMenu": this.ops.openMenu(li); break;
      case "F10": if (e.shiftKey) { this.ops.openMenu(li); break; } return;
      default: return;
    }
    e.preventDefault();
  }
}

/** The folder item owning the group `node` is in, or is (null at the top level). */
function ownerOf(node) {
  const group = node.closest?.('[role="group"]');
  return group ? document.querySelector(`[aria-owns="${group.id}"]`) : null;
}
