// A small modal list to pick one item from, filtered as you type (the template picker): a native <dialog>
// (focus trapped, Esc closes, focus given back), a combobox over a listbox, arrows + Enter.
import { el, clear, icon } from "../dom.js";
import { t } from "../i18n.js";
import { fuzzyMatch } from "./fuzzy.js";
import { highlighted } from "./palette.js";

let ids = 0;

/**
 * Ask the person to pick one of `items` ([{label, detail?, value}]); resolves the chosen `value`, or null
 * when dismissed (Esc, a click outside, navigation).
 */
export function pickDialog({ title, placeholder, items, empty }) {
  return new Promise((resolve) => {
    const id = `pick-${++ids}`;
    const back = document.activeElement;
    let rows = [];
    let active = 0;
    let result = null;
    const input = el("input.pal-input", {
      type: "text", role: "combobox", "aria-expanded": "true", "aria-controls": `${id}-list`, "aria-autocomplete": "list",
      autocomplete: "off", spellcheck: "false", "aria-label": title, placeholder,
    });
    const list = el("ul.pal-list", { id: `${id}-list`, role: "listbox", "aria-label": title });
    const dialog = el("dialog.nav-modal.picker", { "aria-labelledby": `${id}-title` },
      el("h2.visually-hidden", { id: `${id}-title` }, title), input, list, el("p.pal-hint.muted", t("nav.picker.hint")));
    const draw = () => {
      const q = input.value;
      rows = items.map((it) => ({ it, m: fuzzyMatch(q, it.label) })).filter((r) => r.m).sort((a, b) => (q.trim() ? b.m.score - a.m.score : 0));
      if (active >= rows.length) active = 0;
      if (!rows.length) { clear(list, el("li.pal-empty", { role: "option", "aria-disabled": "true", "aria-selected": "false" }, empty)); input.removeAttribute("aria-activedescendant"); return; }
      clear(list, rows.map(({ it, m }, i) => {
        const li = el("li.pal-item.pal-note", { role: "option", id: `${id}-${i}`, "aria-selected": String(i === active) },
          icon("note"), el("span.pal-name", highlighted(it.label, m.ranges)), it.detail ? el("span.pal-detail.muted", it.detail) : null);
        li.addEventListener("mousedown", (e) => { e.preventDefault(); finish(it.value); });
        return li;
      }));
      input.setAttribute("aria-activedescendant", `${id}-${active}`);
      list.children[active]?.scrollIntoView({ block: "nearest" });
    };
    const finish = (value) => { result = value; dialog.close(); };
    const onHash = () => dialog.close();
    input.addEventListener("input", () => { active = 0; draw(); });
    input.addEventListener("keydown", (e) => {
      if ((e.key === "ArrowDown" || e.key === "ArrowUp") && rows.length) {
        active = (active + (e.key === "ArrowDown" ? 1 : -1) + rows.length) % rows.length;
        draw();
        e.preventDefault();
      } else if (e.key === "Enter") {
        e.preventDefault();
        if (rows[active]) finish(rows[active].it.value);
      }
    });
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
    dialog.addEventListener("close", () => {
      window.removeEventListener("hashchange", onHash);
      dialog.remove();
      if (back?.isConnected) back.focus();
      resolve(result);
    }, { once: true });
    window.addEventListener("hashchange", onHash);
    document.body.append(dialog);
    draw();
    dialog.showModal();
    input.focus();
  });
}
