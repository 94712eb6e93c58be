// The command palette (Mod+P, Obsidian's `command-palette:open`, obsidian-app.md §6.2) over every command of
// commands/registry.js, and the keyboard shortcuts sheet (every command by section with its hotkeys).
// Both are native <dialog>s: focus stays inside, Esc closes, focus goes back where it was.
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";
import { listCommands, runCommand, formatHotkey } from "../commands/registry.js";
import { rankCommands, pieces } from "./fuzzy.js";

const RECENT_KEY = "obsigate.recentCommands";
const RECENT_MAX = 20;

/** The ids of the commands run from the palette, most recent first (kept in localStorage). */
export function recentCommands() {
  try { const v = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); return Array.isArray(v) ? v.filter((x) => typeof x === "string") : []; } catch { return []; }
}

function remember(id) {
  const list = [id, ...recentCommands().filter((x) => x !== id)].slice(0, RECENT_MAX);
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list)); } catch { /* storage off */ }
}

/** The text with its matched ranges in <mark>s (DOM nodes, never HTML strings). */
export function highlighted(text, ranges) {
  return pieces(text, ranges).map((p) => (p.hit ? el("mark.fz-hit", p.text) : p.text));
}

/** A command's hotkeys as <kbd>s ("Ctrl+P" or "⌘P"). */
export function hotkeyNodes(hotkeys) {
  return (hotkeys || []).map((k) => el("kbd.nav-kbd", formatHotkey(k)));
}

/** Open `dialog` modally and give focus back to what had it when it closes (Esc, a choice, a click outside). */
function showModal(dialog) {
  const back = document.activeElement;
  dialog.addEventListener("close", () => { if (back?.isConnected && (document.activeElement === document.body || dialog.contains(document.activeElement))) back.focus(); }, { once: true });
  dialog.showModal();
}

export class CommandPalette {
  constructor() {
    this.rows = [];
    this.active = 0;
    this.input = el("input.pal-input", {
      type: "text", role: "combobox", "aria-expanded": "true", "aria-controls": "palette-list",
      "aria-autocomplete": "list", autocomplete: "off", spellcheck: "false",
    });
    this.list = el("ul.pal-list", { id: "palette-list", role: "listbox" });
    this.hint = el("p.pal-hint.muted");
    this.title = el("h2.visually-hidden", { id: "palette-title" });
    this.dialog = el("dialog.nav-modal.palette", { "aria-labelledby": "palette-title" }, this.title, this.input, this.list, this.hint);
    document.body.append(this.dialog);
    this.input.addEventListener("input", () => { this.active = 0; this.draw(); });
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
    this.relabel();
  }

  relabel() {
    this.title.textContent = t("nav.palette.title");
    this.input.setAttribute("aria-label", t("nav.palette.title"));
    this.input.placeholder = t("nav.palette.placeholder");
    this.list.setAttribute("aria-label", t("nav.palette.title"));
    this.hint.textContent = t("nav.palette.hint");
  }

  open() {
    if (this.dialog.open) return;
    this.input.value = "";
    this.active = 0;
    this.draw();
    showModal(this.dialog);
    this.input.focus();
  }

  close() { if (this.dialog.open) this.dialog.close(); }

  draw() {
    const cmds = listCommands().filter((c) => c.id !== "command-palette:open").map((c) => ({ id: c.id, label: c.name(), hotkeys: c.hotkeys }));
    this.rows = rankCommands(this.input.value, cmds, recentCommands());
    if (this.active >= this.rows.length) this.active = 0;
    if (!this.rows.length) {
      clear(this.list, el("li.pal-empty", { role: "option", "aria-disabled": "true", "aria-selected": "false" }, t("nav.palette.none")));
      this.input.removeAttribute("aria-activedescendant");
      return;
    }
    clear(this.list, this.rows.map(({ cmd, ranges }, i) => {
      const li = el("li.pal-item", { role: "option", id: `pal-${i}`, "aria-selected": String(i === this.active), "data-command": cmd.id },
        el("span.pal-name", highlighted(cmd.label, ranges)),
        el("span.pal-keys", hotkeyNodes(cmd.hotkeys)));
      li.addEventListener("mousedown", (e) => { e.preventDefault(); this.choose(i); });
      return li;
    }));
    this.input.setAttribute("aria-activedescendant", `pal-${this.active}`);
    this.list.children[this.active]?.scrollIntoView({ block: "nearest" });
  }

  choose(i) {
    const row = this.rows[i];
    if (!row) return;
    this.close();
    remember(row.cmd.id);
    runCommand(row.cmd.id);
  }

  onKey(e) {
    const n = this.rows.length;
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && n) {
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : -1) + n) % n;
      this.draw();
      e.preventDefault();
    } else if ((e.key === "Home" || e.key === "End") && n && e.ctrlKey) {
      this.active = e.key === "Home" ? 0 : n - 1;
      this.draw();
      e.preventDefault();
    } else if (e.key === "Enter") {
      e.preventDefault();
      this.choose(this.active);
    }
  }
}

const SECTION_ORDER = ["navigation", "files", "editing", "view", "general"];

/** The keyboard shortcuts sheet: every command that applies now, by section, with its hotkeys. */
export function showShortcuts() {
  const id = "shortcuts-title";
  const bySection = new Map();
  for (const c of listCommands()) {
    const s = c.section || "general";
    if (!bySection.has(s)) bySection.set(s, []);
    bySection.get(s).push(c);
  }
  const order = [...bySection.keys()].sort((a, b) => ((SECTION_ORDER.indexOf(a) + 1) || 99) - ((SECTION_ORDER.indexOf(b) + 1) || 99));
  const close = el("button.button", { type: "button", id: "shortcuts-close" }, t("nav.sheet.close"));
  const sections = order.map((s) => {
    const hid = `shortcuts-${s}`;
    const label = t(`nav.section.${s}`) === `nav.section.${s}` ? s : t(`nav.section.${s}`);
    return el("section.sheet-section", { "aria-labelledby": hid },
      el("h3", { id: hid }, label),
      el("table.sheet-table",
        el("tbody", bySection.get(s).map((c) => el("tr", { "data-command": c.id },
          el("th", { scope: "row" }, c.name()),
          el("td", c.hotkeys.length ? hotkeyNodes(c.hotkeys) : el("span.muted", t("nav.sheet.noKey"))))))));
  });
  const dialog = el("dialog.confirm.wide.shortcuts", { "aria-labelledby": id },
    el("h2", { id }, t("nav.sheet.title")),
    el("p.muted", t("nav.sheet.intro", { palette: formatHotkey("Mod+P") })),
    el("div.sheet-body", { tabindex: "0", role: "region", "aria-label": t("nav.sheet.title") }, sections),
    el("div.dialog-actions", close));
  document.body.append(dialog);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove(), { once: true });
  window.addEventListener("hashchange", () => { if (dialog.open) dialog.close(); }, { once: true });
  showModal(dialog);
  close.focus();
  return dialog;
}
