// Quick switcher (Ctrl/Cmd+O): fuzzy over paths and titles (GET /api/tree-search, the search_paths tool).
import * as api from "./api/index.js";
import { el, clear, icon, debounce } from "./dom.js";
import { t } from "./i18n.js";
import { noteHref, go } from "./router.js";

export class QuickSwitcher {
  constructor(getVault) {
    this.getVault = getVault;
    this.hits = [];
    this.active = 0;
    this.ctrl = null;
    this.input = el("input.switcher-input", {
      type: "text", role: "combobox", "aria-expanded": "true", "aria-controls": "switcher-list",
      "aria-autocomplete": "list", autocomplete: "off", spellcheck: "false",
    });
    this.list = el("ul.switcher-list", { id: "switcher-list", role: "listbox" });
    this.hint = el("p.switcher-hint.muted");
    this.title = el("h2.visually-hidden", { id: "switcher-title" });
    this.dialog = el("dialog.switcher", { "aria-labelledby": "switcher-title" }, this.title, this.input, this.list, this.hint);
    document.body.append(this.dialog);
    this.search = debounce(() => this.query(), 25); // short: in-flight queries are aborted anyway
    this.input.addEventListener("input", () => this.search());
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.close(); });
    this.relabel();
  }

  relabel() {
    this.title.textContent = t("switcher.title");
    this.input.setAttribute("aria-label", t("switcher.title"));
    this.input.placeholder = t("switcher.placeholder");
    this.list.setAttribute("aria-label", t("switcher.title"));
    this.hint.textContent = t("switcher.hint");
  }

  open() {
    if (this.dialog.open) return;
    this.input.value = "";
    clear(this.list);
    this.hits = [];
    this.dialog.showModal();
    this.input.focus();
  }

  close() { this.dialog.close(); }

  async query() {
    const q = this.input.value.trim();
    this.ctrl?.abort();
    if (!q) { clear(this.list); this.hits = []; return; }
    const ctrl = (this.ctrl = new AbortController());
    let data;
    try {
      data = await api.treeSearch({ q, vault: this.getVault(), limit: 20 }, { signal: ctrl.signal });
    } catch { return; }
    if (ctrl !== this.ctrl) return;
    this.hits = data.hits;
    this.active = 0;
    this.draw();
  }

  draw() {
    if (!this.hits.length) { clear(this.list, el("li.switcher-empty", { role: "option", "aria-disabled": "true" }, t("switcher.none"))); return; }
    clear(this.list, this.hits.map((h, i) => {
      const li = el("li.switcher-item", { role: "option", id: `sw-${i}`, "aria-selected": String(i === this.active) },
        icon(/\.md$/i.test(h.path) ? "note" : "file"),
        el("span.sw-title", h.title || h.path.split("/").pop()),
        el("span.sw-path.muted", h.path));
      li.addEventListener("mousedown", (e) => { e.preventDefault(); this.choose(i); });
      return li;
    }));
    this.input.setAttribute("aria-activedescendant", `sw-${this.active}`);
    this.list.children[this.active]?.scrollIntoView({ block: "nearest" });
  }

  choose(i) {
    const h = this.hits[i];
    if (!h) return;
    this.close();
    go(noteHref(h.vault, h.path));
  }

  onKey(e) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!this.hits.length) return;
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : -1) + this.hits.length) % this.hits.length;
      this.draw();
      e.preventDefault();
    } else if (e.key === "Enter") {
      e.preventDefault();
      this.choose(this.active);
    }
  }
}
