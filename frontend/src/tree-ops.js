// The tree's writes (issue 11 item 2): New note / New folder above the tree; on each item a context menu
// (right-click, its "⋯" button, Shift+F10 or the context-menu key) with Rename, Move to…, Delete; drag and
// drop onto a folder (or the pane: the vault root) to move. Each asks first in a dialog, then runs one REST
// write (the tool layer's create_file, create_directory, rename_file, rename_directory, move_path,
// delete_file, delete_directory). Rename and move say how many links the server rewrote; the open note
// follows its file to its new path. Nothing is offered in a read-only vault.
import * as api from "./api/index.js";
import { el, clear, icon } from "./dom.js";
import { t } from "./i18n.js";
import { noteHref, viewHref, parseRoute, go } from "./router.js";
import { formDialog, promptDialog } from "./dialog.js";
import { draftsOf, moveDrafts, dropDraftsOf } from "./drafts.js";
import { toast } from "./toast.js";
import { forbiddenChars } from "./nav/create.js";

const DRAG_TYPE = "application/x-obsigate-path";
const parentOf = (p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
const baseName = (p) => p.slice(p.lastIndexOf("/") + 1);
const isNote = (p) => /\.md$/i.test(p);
/** The path `p` has after `from` became `to` (a file, or a folder and everything in it); `to` null: deleted. */
const relocate = (from, to) => (p) => (p === from ? to : p.startsWith(`${from}/`) ? (to == null ? null : to + p.slice(from.length)) : p);
const inside = (p, dir) => p === dir || p.startsWith(`${dir}/`);

/** Why `name` cannot name a file or folder (null when it can); the server has the last word (e.g. exists). */
function badName(name) {
  const n = name.trim();
  if (!n) return t("tree.errEmpty");
  if (/[/\\]/.test(n)) return t("tree.errSlash");
  if (n === "." || n === "..") return t("tree.errDots");
  if (n.startsWith(".")) return t("tree.errHidden");
  const chars = forbiddenChars(n); // Obsidian's rule: they break links, or file names on some systems
  if (chars) return t("tree.errChars", { chars });
  return null;
}

/** A server refusal as the person reads it: the known codes translated, the others as the server says. */
function refusal(err, name) {
  const known = {
    exists: t("tree.errExists", { name }),
    unsafe_name: t("tree.errUnsafe"),
    path_outside_vault: t("tree.errPath"),
    not_a_directory: t("tree.errNotFolder"),
    hidden_entries: t("tree.errHiddenEntries"),
  };
  return { error: known[err?.code] || err?.message || String(err) };
}

export class TreeOps {
  constructor(tree, { actions = null, writable = () => false, changed = () => {} } = {}) {
    this.tree = tree;
    this.bar = actions;
    this.writable = writable;
    this.changed = changed;
    this.menu = null;
    this.dragging = null; // the li being dragged
    this.hover = null; // {li, timer}: a folder opened after a moment under a drag
    const root = tree.root;
    root.addEventListener("contextmenu", (e) => this.onContextMenu(e));
    root.addEventListener("dragstart", (e) => this.onDragStart(e));
    root.addEventListener("dragend", () => this.endDrag());
    // The whole pane is a drop zone: outside a folder is the vault root.
    const zone = root.parentElement || root;
    zone.addEventListener("dragover", (e) => this.onDragOver(e));
    zone.addEventListener("dragleave", (e) => { if (!zone.contains(e.relatedTarget)) this.mark(null); });
    zone.addEventListener("drop", (e) => this.onDrop(e));
    window.addEventListener("hashchange", () => this.closeMenu());
    if (this.bar) {
      this.newNoteBtn = el("button.icon-btn", { type: "button", id: "new-note", "data-i18n-label": "tree.newNote", "aria-label": t("tree.newNote"), title: t("tree.newNote") }, icon("filePlus"));
      this.newFolderBtn = el("button.icon-btn", { type: "button", id: "new-folder", "data-i18n-label": "tree.newFolder", "aria-label": t("tree.newFolder"), title: t("tree.newFolder") }, icon("folderPlus"));
      this.newNoteBtn.addEventListener("click", () => this.newNote(this.tree.targetDir()));
      this.newFolderBtn.addEventListener("click", () => this.newFolder(this.tree.targetDir()));
      this.hint = el("p.visually-hidden", { id: "tree-hint", "data-i18n": "tree.hint" }, t("tree.hint"));
      clear(this.bar, this.newNoteBtn, this.newFolderBtn, this.hint);
      this.bar.hidden = true;
    }
  }

  get vault() { return this.tree.vault; }
  can() { return Boolean(this.vault && this.writable(this.vault)); }

  setVault() {
    this.closeMenu();
    const can = this.can();
    if (this.bar) this.bar.hidden = !can;
    if (can && this.bar) this.tree.root.setAttribute("aria-describedby", "tree-hint");
    else this.tree.root.removeAttribute("aria-describedby");
  }

  relabel() {
    for (const li of this.tree.root.querySelectorAll('[role="treeitem"]')) {
      const btn = li.querySelector(":scope > .tree-row > .tree-menu-btn");
      if (btn) btn.setAttribute("aria-label", t("tree.actionsFor", { name: li.dataset.name }));
    }
  }

  /** A new item: its "⋯" button and dragging, when the vault may be written. */
  decorate(li, row) {
    if (!this.can()) return;
    row.draggable = true;
    const label = t("tree.actionsFor", { name: li.dataset.name });
    // Not a tab stop (a tree has one): the keyboard opens the same menu with Shift+F10 or the menu key.
    const btn = el("button.tree-menu-btn", { type: "button", tabindex: "-1", "aria-haspopup": "menu", "aria-label": label, title: label }, icon("dots"));
    btn.addEventListener("click", (e) => {
      e.stopPropagation();
      const r = btn.getBoundingClientRect();
      this.openMenu(li, { x: r.left, y: r.bottom + 2 });
    });
    row.append(btn);
  }

  // ---- context menu ------------------------------------------------------------------------------

  onContextMenu(e) {
    const li = e.target.closest('[role="treeitem"]');
    if (!li || !this.can()) return; // read-only: the browser's own menu
    e.preventDefault();
    const keyboard = e.clientX === 0 && e.clientY === 0;
    this.openMenu(li, keyboard ? null : { x: e.clientX, y: e.clientY });
  }

  /** The item's actions as a menu at `at` ({x, y}; default: under the item), focus on its first entry. */
  openMenu(li, at = null) {
    if (!this.can()) return;
    this.closeMenu();
    const path = li.dataset.path;
    const dir = li.dataset.type === "dir";
    const entries = [
      dir && ["new-note", "filePlus", t("tree.newNote"), () => this.newNote(path)],
      dir && ["new-folder", "folderPlus", t("tree.newFolder"), () => this.newFolder(path)],
      ["rename", "pencil", t("tree.rename"), () => this.rename(li)],
      ["move", "move", t("tree.moveTo"), () => this.move(li)],
      ["delete", "trash", t("tree.delete"), () => this.remove(li)],
    ].filter(Boolean);
    const items = entries.map(([action, ic, label, run]) => {
      const b = el(`button.tree-menu-item.menu-${action}`, { type: "button", role: "menuitem", tabindex: "-1", dataset: { action } }, icon(ic), el("span", label));
      b.addEventListener("click", () => { this.closeMenu(li); run(); });
      return b;
    });
    const menu = el("div.tree-menu", { role: "menu", id: "tree-menu", "aria-label": t("tree.actionsFor", { name: li.dataset.name }) }, items);
    menu.addEventListener("keydown", (e) => {
      const i = items.indexOf(document.activeElement);
      const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 }[e.key];
      if (to != null) items[(to + items.length) % items.length].focus();
      else if (e.key === "Escape" || e.key === "Tab") this.closeMenu(li);
      else return;
      e.preventDefault();
    });
    menu.addEventListener("focusout", (e) => { if (this.menu === menu && !menu.contains(e.relatedTarget)) this.closeMenu(); });
    document.body.append(menu);
    const row = li.querySelector(".tree-row").getBoundingClientRect();
    const { x, y } = at || { x: row.left + 24, y: row.bottom };
    const { width, height } = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(4, Math.min(x, innerWidth - width - 4))}px`;
    menu.style.top = `${y + height > innerHeight - 4 ? Math.max(4, y - height) : y}px`;
    this.menu = menu;
    this.outside = (e) => { if (!menu.contains(e.target)) this.closeMenu(); };
    document.addEventListener("pointerdown", this.outside, true);
    items[0].focus();
  }

  /** Closes the menu; `back`: the item that gets the focus again (the menu was left from the keyboard). */
  closeMenu(back = null) {
    if (!this.menu) return;
    const menu = this.menu;
    this.menu = null;
    document.removeEventListener("pointerdown", this.outside, true);
    menu.remove();
    if (back?.isConnected) back.focus();
  }

  // ---- the operations --------------------------------------------------------------------------------

  where(dir) { return dir ? t("tree.inFolder", { dir }) : t("tree.inRoot"); }

  async newNote(dir) {
    const vault = this.vault;
    const done = await promptDialog({
      title: t("tree.newNote"), message: this.where(dir), label: t("tree.noteName"), value: t("tree.untitled"), ok: t("tree.create"),
      submit: async (text) => {
        const bad = badName(text);
        if (bad) return { error: bad };
        const name = text.trim();
        const path = (dir ? `${dir}/` : "") + (isNote(name) ? name : `${name}.md`);
        try {
          await api.createFile(vault, { path, content: `# ${name.replace(/\.md$/i, "")}\n` }, { quiet: true });
        } catch (err) { return refusal(err, name); }
        return path;
      },
    });
    if (!done) return;
    await this.tree.refresh();
    go(noteHref(vault, done));
  }

  async newFolder(dir) {
    const vault = this.vault;
    const done = await promptDialog({
      title: t("tree.newFolder"), message: this.where(dir), label: t("tree.folderName"), value: "", ok: t("tree.create"),
      submit: async (text) => {
        const bad = badName(text);
        if (bad) return { error: bad };
        const path = (dir ? `${dir}/` : "") + text.trim();
        try {
          await api.createDirectory(vault, path, { quiet: true });
        } catch (err) { return refusal(err, text.trim()); }
        return path;
      },
    });
    if (!done) return;
    await this.tree.refresh();
    await this.tree.focusPath(done); // the next "New note" goes into it
  }

  async rename(li) {
    const vault = this.vault;
    const path = li.dataset.path;
    const dir = li.dataset.type === "dir";
    const name = baseName(path);
    const shown = !dir && isNote(name) ? name.slice(0, -3) : name; // a note is renamed without ".md" (kept)
    const dot = shown.lastIndexOf(".");
    const result = await promptDialog({
      title: dir ? t("tree.renameFolder", { name }) : t("tree.renameFile", { name }),
      message: t("tree.renameHelp"), label: t("tree.newName"), value: shown, select: [0, !dir && dot > 0 ? dot : shown.length], ok: t("tree.rename"),
      submit: async (text) => {
        const bad = badName(text);
        if (bad) return { error: bad };
        if (text.trim() === shown) return { error: t("tree.errSame") };
        try {
          return await (dir ? api.renameDirectory : api.renameFile)(vault, { path, new_name: text.trim() }, { quiet: true });
        } catch (err) { return refusal(err, text.trim()); }
      },
    });
    if (result) await this.relocated(vault, path, result, (to) => t("tree.renamed", { name, to: baseName(to) }));
  }

  /** Move `li` into `dest` (drag and drop: asks to confirm), or into a folder picked in a dialog. */
  async move(li, dest = null) {
    const vault = this.vault;
    const path = li.dataset.path;
    const name = baseName(path);
    const run = async (to) => {
      try {
        return await api.move(vault, { source_path: path, destination_dir: to }, { quiet: true });
      } catch (err) { return refusal(err, name); }
    };
    let result;
    if (dest != null) {
      result = await formDialog({
        title: t("tree.moveTitle", { name }), message: t("tree.moveAsk", { path, dir: dest || t("tree.root") }),
        ok: t("tree.move"), submit: () => run(dest),
      });
    } else {
      const picker = this.folderPicker(path, li.dataset.type === "dir");
      result = await formDialog({
        title: t("tree.moveTitle", { name }), message: t("tree.moveHelp", { path }), fields: picker.node, ok: t("tree.move"), wide: true,
        focus: picker.input, submit: () => (picker.value() == null ? { error: t("tree.errPick") } : run(picker.value())),
      });
    }
    if (result) await this.relocated(vault, path, result, (to) => t("tree.movedTo", { name, dir: parentOf(to) || t("tree.root") }));
  }

  /** After a rename or a move: the count of rewritten links told, the tree shown again, the open note at its
   * new path, the moved item revealed. */
  async relocated(vault, from, result, say) {
    const change = (result.changes || []).find((c) => c.action === "move");
    const to = change?.to || from;
    const drafts = to !== from ? moveDrafts(vault, from, to) : 0; // unsaved editor text follows its file
    const n = result.details?.links_total ?? 0;
    const notes = Object.keys(result.details?.links_updated || {}).length;
    const links = n === 0 ? t("tree.linksNone") : n === 1 ? t("tree.linksOne") : t("tree.linksMany", { n, notes });
    toast(say(to), { kind: "info", detail: drafts ? `${links} ${t("tree.draftsMoved")}` : links, timeout: 12000 });
    await this.settle(vault, relocate(from, to), to);
  }

  async remove(li) {
    const vault = this.vault;
    const path = li.dataset.path;
    const dir = li.dataset.type === "dir";
    const name = baseName(path);
    let message;
    if (dir) {
      const n = Number(li.dataset.files || 0);
      message = n ? t("tree.deleteFolderAsk", { path, n }) : t("tree.deleteEmptyAsk", { path });
    } else {
      message = t("tree.deleteFileAsk", { path });
      const linked = await api.backlinks(vault, { path, limit: 1 }, { quiet: true }).catch(() => null);
      if (linked?.total) message += ` ${t("tree.deleteLinked", { n: linked.total })}`;
    }
    const drafts = draftsOf(vault, path);
    if (drafts) message += ` ${t("tree.deleteDrafts", { n: drafts })}`;
    const done = await formDialog({
      title: dir ? t("tree.deleteFolder", { name }) : t("tree.deleteFile", { name }), message, ok: t("tree.delete"), danger: true,
      submit: async () => {
        try {
          await (dir ? api.deleteDirectory : api.deleteFile)(vault, path, { quiet: true });
        } catch (err) { return refusal(err, name); }
        return true;
      },
    });
    if (!done) return;
    dropDraftsOf(vault, path);
    toast(t("tree.deleted", { path }), { kind: "info", detail: t("tree.deletedHint") });
    await this.settle(vault, relocate(path, null), null);
  }

  /** The tree reloaded after a write that moved (`moved(path)` → new path) or deleted (→ null) files; the
   * open note follows its file (the hash replaced, as a redirect), or the open view shows the vault again. */
  async settle(vault, moved, focus) {
    const r = parseRoute();
    const mine = r.path && (r.vault || vault) === vault;
    const now = mine ? moved(r.path) : r.path;
    await this.tree.refresh(moved);
    if (now === r.path) this.changed();
    else if (r.view === "note") go(noteHref(vault, now, now ? r.heading : null), { replace: true });
    else go(viewHref(r.view, { ...Object.fromEntries(r.params), p: now }), { replace: true });
    if (focus) await this.tree.focusPath(focus);
    else this.tree.root.querySelector('[tabindex="0"]')?.focus();
  }

  /** A filterable list of the vault's folders (every folder holding a file, and those the tree shows) but
   * `path`'s own (and itself, for a folder). */
  folderPicker(path, isDir) {
    const id = `pick-${Date.now()}`;
    const input = el("input.dialog-input", {
      id: `${id}-q`, type: "search", role: "combobox", "aria-expanded": "true", "aria-controls": `${id}-list`,
      "aria-autocomplete": "list", autocomplete: "off", spellcheck: "false", placeholder: t("tree.filterFolders"),
    });
    const list = el("ul.folder-list", { id: `${id}-list`, role: "listbox", "aria-label": t("tree.folders") }, el("li.muted", t("app.loading")));
    let folders = [];
    let shown = [];
    let active = -1;
    const pick = (i) => {
      active = i;
      list.querySelectorAll('[role="option"]').forEach((o, j) => o.setAttribute("aria-selected", String(j === i)));
      const node = list.children[i];
      if (node) { input.setAttribute("aria-activedescendant", node.id); node.scrollIntoView({ block: "nearest" }); }
      else input.removeAttribute("aria-activedescendant");
    };
    const draw = () => {
      const q = input.value.trim().toLowerCase();
      shown = folders.filter((f) => !q || (f || t("tree.root")).toLowerCase().includes(q));
      clear(list, shown.length ? shown.map((f, i) => {
        const o = el("li.folder-option", { role: "option", id: `${id}-${i}`, "aria-selected": "false", dataset: { path: f } },
          icon("folder"), el("span", f || t("tree.root")));
        o.addEventListener("click", () => pick(i));
        o.addEventListener("dblclick", () => { pick(i); input.form?.requestSubmit(); });
        return o;
      }) : el("li.muted", t("tree.noFolders")));
      pick(shown.length ? 0 : -1);
    };
    input.addEventListener("input", draw);
    input.addEventListener("keydown", (e) => {
      const to = { ArrowDown: active + 1, ArrowUp: active - 1 }[e.key];
      if (to == null || !shown.length) return;
      e.preventDefault();
      pick(Math.max(0, Math.min(shown.length - 1, to)));
    });
    this.folders().then((all) => {
      const from = parentOf(path);
      folders = all.filter((f) => f !== from && !(isDir && inside(f, path)));
      draw();
    }).catch((e) => clear(list, el("li.muted", e.message)));
    const node = el("div.dialog-field", el("label", { for: input.id }, t("tree.destination")), input, list);
    return { node, input, value: () => (active >= 0 ? shown[active] : null) };
  }

  /** Every folder of the vault that holds a file (from list_all_files, paged), plus the folders the tree
   * has shown (empty ones too); "" is the root. */
  async folders() {
    const vault = this.vault;
    const dirs = new Set([""]);
    let offset = 0;
    for (let i = 0; i < 20 && offset != null; i++) {
      const page = await api.vaultFiles(vault, { limit: 5000, offset });
      for (const f of page.files) for (let p = parentOf(f.path); p && !dirs.has(p); p = parentOf(p)) dirs.add(p);
      offset = page.next_offset;
    }
    for (const [p, li] of this.tree.nodes) if (li.dataset.type === "dir") dirs.add(p);
    return [...dirs].sort((a, b) => a.localeCompare(b));
  }

  // ---- drag and drop -----------------------------------------------------------------------------------

  onDragStart(e) {
    const li = e.target.closest?.('[role="treeitem"]');
    if (!li || !this.can()) return;
    this.closeMenu();
    this.dragging = li;
    e.dataTransfer.setData(DRAG_TYPE, li.dataset.path);
    e.dataTransfer.setData("text/plain", li.dataset.path);
    e.dataTransfer.effectAllowed = "move";
    li.classList.add("dragging");
  }

  /** The folder a drop at `target` moves into ("" the root), or null where the dragged item cannot go. */
  dropDir(target) {
    const src = this.dragging?.dataset.path;
    if (src == null) return null;
    const li = this.tree.itemAt(target); // a file, a folder, or the group of an open folder
    const dir = !li ? "" : li.dataset.type === "dir" ? li.dataset.path : parentOf(li.dataset.path);
    if (dir === parentOf(src) || inside(dir, src)) return null;
    return dir;
  }

  onDragOver(e) {
    if (!this.dragging) return;
    const dir = this.dropDir(e.target);
    if (dir == null) { this.mark(null); return; }
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    this.mark(dir);
  }

  /** Highlights the folder under a drag ("" the whole tree; null nothing); a closed one opens after 0.7 s. */
  mark(dir) {
    const li = dir ? this.tree.nodes.get(dir) : null;
    if (this.hover?.dir === dir) return;
    clearTimeout(this.hover?.timer);
    this.tree.root.querySelectorAll(".drop-target").forEach((n) => n.classList.remove("drop-target"));
    this.tree.root.classList.toggle("drop-root", dir === "");
    li?.classList.add("drop-target");
    this.hover = dir == null ? null : {
      dir,
      timer: li && li.getAttribute("aria-expanded") === "false" ? setTimeout(() => this.tree.expand(li, true), 700) : null,
    };
  }

  onDrop(e) {
    if (!this.dragging) return;
    const dir = this.dropDir(e.target);
    const li = this.dragging;
    this.endDrag();
    if (dir == null) return;
    e.preventDefault();
    this.move(li, dir);
  }

  endDrag() {
    this.dragging?.classList.remove("dragging");
    this.dragging = null;
    this.mark(null);
  }
}
