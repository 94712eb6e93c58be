// Quick switcher (Mod+O, Obsidian's `switcher:open`, obsidian-app.md §6.1): the recent notes (and the vault's
// bookmarks) before anything is typed; then the vault's paths, titles and aliases (GET /api/tree-search, the
// search_paths tool) ranked exact name > prefix > word start > fuzzy (nav/fuzzy.js rankNotes), with a
// "Create <name>" row when no note has that name: Enter on it, or Shift+Enter at any time, creates the note
// where the vault's settings put new notes (nav/create.js).
import * as api from "./api/index.js";
import { el, clear, icon, debounce } from "./dom.js";
import { t } from "./i18n.js";
import { noteHref, go, parseRoute } from "./router.js";
import { showError } from "./toast.js";
import { rankNotes, baseName, TIER } from "./nav/fuzzy.js";
import { highlighted } from "./nav/palette.js";
import { recentNotes, trackRecents } from "./nav/recents.js";
import { newNotePathIn, createNote, forbiddenChars } from "./nav/create.js";
import { vaultConfig } from "./vault-config.js";

const SHOWN = 20;
const FETCHED = 60; // the server's best, re-ranked here (aliases, exact-first)

/** The bookmarked files of a vault's .obsidian/bookmarks.json, groups flattened, in their order. */
function bookmarkedFiles(items, out = []) {
  for (const b of items || []) {
    if (b?.type === "file" && typeof b.path === "string" && !b.subpath) out.push(b.path);
    else if (b?.type === "group") bookmarkedFiles(b.items, out);
  }
  return out;
}

export class QuickSwitcher {
  /** `getVault()`: the open vault; `options.created()`: called after a note was created (the tree reloads). */
  constructor(getVault, { created = () => {} } = {}) {
    this.getVault = getVault;
    this.created = created;
    this.rows = []; // [{path, label, alias, ranges, kind: "recent"|"bookmark"|"hit"|"create"}]
    this.active = 0;
    this.ctrl = null;
    this.seq = 0;
    this.input = el("input.switcher-input", {
      type: "text", role: "combobox", "aria-expanded": "true", "aria-controls": "switcher-list",
      "aria-autocomplete": "list", autocomplete: "off", spellcheck: "false",
    });
    this.list = el("ul.switcher-list", { id: "switcher-list", role: "listbox" });
    this.hint = el("p.switcher-hint.muted");
    this.title = el("h2.visually-hidden", { id: "switcher-title" });
    this.dialog = el("dialog.switcher", { "aria-labelledby": "switcher-title" }, this.title, this.input, this.list, this.hint);
    document.body.append(this.dialog);
    this.search = debounce(() => this.query(), 10); // short: in-flight queries are aborted anyway
    this.input.addEventListener("input", () => { if (this.input.value.trim()) this.search(); else this.showRecent(); });
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.close(); });
    this.dialog.addEventListener("close", () => { this.ctrl?.abort(); if (this.back?.isConnected && (document.activeElement === document.body || this.dialog.contains(document.activeElement))) this.back.focus(); });
    trackRecents();
    this.relabel();
  }

  relabel() {
    this.title.textContent = t("switcher.title");
    this.input.setAttribute("aria-label", t("switcher.title"));
    this.input.placeholder = t("switcher.placeholder");
    this.list.setAttribute("aria-label", t("switcher.title"));
    this.hint.textContent = t("nav.switcher.hint");
  }

  open() {
    if (this.dialog.open) return;
    this.back = document.activeElement;
    this.input.value = "";
    this.dialog.showModal();
    this.input.focus();
    this.showRecent();
  }

  close() { if (this.dialog.open) this.dialog.close(); }

  /** Empty input: the recent notes (the open one first, so Down+Enter goes back to the previous one), then
   * the bookmarks not among them. */
  async showRecent() {
    const vault = this.getVault();
    const seq = ++this.seq;
    const recent = recentNotes(vault).map((path) => ({ path, label: baseName(path), ranges: [], kind: "recent" }));
    this.rows = recent;
    this.shownFor = "";
    this.list.dataset.query = "";
    this.active = recent.length > 1 ? 1 : 0;
    this.draw();
    const cfg = await vaultConfig(vault);
    if (seq !== this.seq || this.input.value.trim()) return;
    const seen = new Set(recent.map((r) => r.path));
    const marks = bookmarkedFiles(cfg.bookmarks).filter((p) => !seen.has(p)).map((path) => ({ path, label: baseName(path), ranges: [], kind: "bookmark" }));
    if (!marks.length) return;
    this.rows = [...recent, ...marks];
    this.draw();
  }

  async query() {
    const q = this.input.value.trim();
    const vault = this.getVault();
    this.ctrl?.abort();
    if (!q) return;
    const seq = ++this.seq;
    const ctrl = (this.ctrl = new AbortController());
    let data;
    try {
      data = await api.treeSearch({ q, vault, limit: FETCHED }, { signal: ctrl.signal, quiet: true });
    } catch { data = { hits: [] }; }
    if (seq !== this.seq || !this.dialog.open) return;
    const ranked = rankNotes(q, data.hits.filter((h) => h.vault === vault || !vault)).slice(0, SHOWN);
    this.rows = ranked.map((r) => ({ path: r.item.path, label: r.label, alias: r.alias, ranges: r.ranges, kind: "hit" }));
    const exact = ranked.some((r) => r.tier === TIER.EXACT);
    if (!exact && vault) this.rows.push({ path: null, label: q, ranges: [], kind: "create", bad: forbiddenChars(q) });
    this.active = 0;
    this.shownFor = q;
    this.list.dataset.query = q; // which query the rows answer (tests and bench/ui.py wait on it)
    this.draw();
  }

  draw() {
    if (!this.rows.length) {
      const empty = this.input.value.trim() ? t("switcher.none") : t("nav.switcher.noRecent");
      clear(this.list, el("li.switcher-empty", { role: "option", "aria-disabled": "true", "aria-selected": "false" }, empty));
      this.input.removeAttribute("aria-activedescendant");
      return;
    }
    clear(this.list, this.rows.map((r, i) => {
      const attrs = { role: "option", id: `sw-${i}`, "aria-selected": String(i === this.active), "data-kind": r.kind, "data-path": r.path || "" };
      const li = r.kind === "create" && r.bad // a name that would break links: said on the row, not created
        ? el("li.switcher-item.sw-create.is-invalid", { ...attrs, "aria-disabled": "true" }, icon("filePlus"),
          el("span.sw-title", t("nav.switcher.cannotCreate", { name: r.label })),
          el("span.sw-path.sw-invalid", t("nav.switcher.badChars", { chars: r.bad })))
        : r.kind === "create"
        ? el("li.switcher-item.sw-create", attrs, icon("filePlus"), el("span.sw-title", t("nav.switcher.create", { name: r.label })),
          el("span.sw-path.muted", t("nav.switcher.createHint")))
        : el("li.switcher-item", attrs,
          icon(r.alias ? "link" : /\.md$/i.test(r.path) ? "note" : "file"),
          el("span.sw-title", highlighted(r.label, r.ranges), r.kind === "bookmark" ? el("span.sw-badge", t("nav.switcher.bookmark")) : null),
          el("span.sw-path.muted", r.path));
      li.addEventListener("mousedown", (e) => { e.preventDefault(); this.choose(i); });
      return li;
    }));
    this.input.setAttribute("aria-activedescendant", `sw-${this.active}`);
    this.list.children[this.active]?.scrollIntoView({ block: "nearest" });
  }

  choose(i) {
    const r = this.rows[i];
    if (!r) return;
    if (r.kind === "create") { this.create(r.label); return; }
    this.close();
    go(noteHref(this.getVault(), r.path));
  }

  /** Create the note typed as `name` (Shift+Enter, or the Create row) and open it. */
  async create(name) {
    const vault = this.getVault();
    const current = parseRoute().view === "note" ? parseRoute().path : null;
    const bad = forbiddenChars(name);
    if (bad) { this.hint.textContent = t("nav.switcher.badChars", { chars: bad }); return; }
    const path = await newNotePathIn(vault, name, current);
    if (!path) { this.hint.textContent = t("nav.switcher.badName"); return; }
    try {
      await createNote(vault, path, "");
    } catch (err) {
      if (err?.code !== "exists") { showError(err); return; }
    }
    this.close();
    this.created();
    go(noteHref(vault, path));
  }

  onKey(e) {
    const n = this.rows.length;
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && n) {
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : -1) + n) % n;
      this.draw();
      e.preventDefault();
    } else if (e.key === "Enter") {
      e.preventDefault();
      const q = this.input.value.trim();
      if (e.shiftKey && q) { this.create(q); return; }
      // typed faster than the answer came: the rows shown are for an older query, so wait for this one
      if (q && this.shownFor !== q) { this.query().then(() => { if (this.shownFor === q) this.choose(this.active); }); return; }
      this.choose(this.active);
    }
  }
}
