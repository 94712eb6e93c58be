// The properties view at the top of a note (Obsidian's, obsidian-app.md §3.1 propertiesInDocument and §3.7
// types.json): typed fields (text, list as chips, number, checkbox, date, datetime) over the frontmatter, a
// property can be added, renamed and removed. Each change is saved at once, like Obsidian, through the app's
// save path (save-source.js: conflict check, never a silent overwrite); only the frontmatter is rewritten and
// YAML the view does not edit is kept as written (yaml-edit.js). Invalid frontmatter is shown as its source with
// the parser's message, never rewritten; "source" mode shows the YAML as text, "hidden" shows nothing.
import * as api from "../api/index.js";
import { el, clear, icon } from "../dom.js";
import { editSource } from "./save-source.js";
// yaml-edit.js (and its YAML library, ~35 KB gzipped) is loaded on the first edit, not with every note
const loadYaml = () => import("./yaml-edit.js");
import { splitFrontmatter } from "./frontmatter.js";
import { propertyType, asWidgetValue, fromWidgetValue, editAs, badNumber } from "./prop-types.js";

/**
 * The properties element for `note` ({vault, path, version, frontmatter, frontmatter_error}) or null.
 * cfg: vaultConfig(vault); ui: {t, dialog, onError, reload, writable, readOnlyView() -> element|null (the
 * app's read-only panel)}.
 */
export function propertiesView(note, cfg, ui) {
  const mode = cfg?.app?.properties_in_document || "visible";
  if (mode === "hidden") return null;
  if (mode === "source" || note.frontmatter_error) return sourceView(note, ui, note.frontmatter_error);
  if (!ui.writable) return ui.readOnlyView();
  return new PropertiesEditor(note, cfg?.property_types || {}, ui).root;
}

function sourceView(note, ui, error) {
  const code = el("code", ui.t("app.loading"));
  const box = el("details.properties.properties-source", { open: true },
    el("summary", ui.t("note.properties")),
    error ? el("p.notice", { role: "note" }, ui.t("render.yamlInvalid", { error })) : null,
    el("pre.properties-yaml", code));
  api.fileSource(note.vault, note.path, { quiet: true })
    .then((src) => {
      const { yaml } = splitFrontmatter(src.content.replace(/\r\n/g, "\n"));
      if (yaml == null && !error) box.remove();
      else code.textContent = yaml ?? "";
    })
    .catch((err) => { code.textContent = err.message; });
  return box;
}

class PropertiesEditor {
  constructor(note, declared, ui) {
    this.note = note;
    this.declared = declared;
    this.ui = ui;
    this.props = { ...(note.frontmatter || {}) };
    this.queue = Promise.resolve();
    this.rows = el("div.prop-rows");
    const t = ui.t;
    this.add = el("button.button.prop-add", { type: "button", id: "add-property" }, t("render.addProperty"));
    this.add.addEventListener("click", () => this.addRow());
    this.root = el("details.properties.properties-editor", { open: true },
      el("summary", t("note.properties")), this.rows, this.add);
    // a note without properties shows no empty box (as in Obsidian): "Add file property" (Mod+;) opens it
    this.root.hidden = !Object.keys(this.props).length;
    this.fill();
  }

  fill(focus = null) {
    clear(this.rows, Object.keys(this.props).map((key) => this.row(key)));
    if (focus) this.rows.querySelector(focus)?.focus();
  }

  /** Saves one edit (queued: one save at a time, each on the version the last left). */
  commit(edit, focus = null) {
    this.queue = this.queue.then(async () => {
      this.root.setAttribute("aria-busy", "true");
      try {
        const { applyPropertyEdit, readProperties } = await loadYaml();
        const r = await editSource(this.note, (src) => applyPropertyEdit(src, edit), this.ui);
        if (r.status === "saved") {
          this.note.version = r.version;
          this.props = readProperties(r.source) || this.props;
          this.note.frontmatter = this.props;
        } else if (r.status === "reload") { this.ui.reload(); return; }
      } catch (err) {
        this.ui.onError(err);
      } finally {
        this.root.removeAttribute("aria-busy");
      }
      this.fill(focus);
    });
    return this.queue;
  }

  row(key) {
    const t = this.ui.t;
    const value = this.props[key];
    const type = propertyType(key, value, this.declared);
    const sel = (role) => `[data-key="${CSS.escape(key)}"][data-role="${role}"]`;
    const name = el("input.prop-key", { type: "text", value: key, "aria-label": t("render.propertyName"), dataset: { key, role: "key" }, spellcheck: "false" });
    name.addEventListener("change", () => {
      const to = name.value.trim();
      if (!to || to === key) { name.value = key; return; }
      this.commit({ op: "rename", key, to }, `[data-key="${CSS.escape(to)}"][data-role="key"]`);
    });
    const remove = el("button.icon-btn.prop-remove", { type: "button", "aria-label": t("render.removeProperty", { key }), title: t("render.removeProperty", { key }), dataset: { key, role: "remove" } }, icon("x"));
    remove.addEventListener("click", () => this.commit({ op: "remove", key }, "#add-property"));
    return el("div.prop-row", { dataset: { type } }, name, this.widget(key, type, value, sel), remove);
  }

  widget(key, declaredType, value, sel) {
    const t = this.ui.t;
    const type = editAs(declaredType, value); // a value its type's input cannot show is edited as text
    const label = t("render.propertyValue", { key });
    const save = (raw, role = "value") => this.commit({ op: "set", key, value: fromWidgetValue(type, raw) }, sel(role));
    if (type === "object") return el("code.prop-object", JSON.stringify(value));
    if (type === "list") return this.chips(key, asWidgetValue(type, value), label, save);
    const input = el("input.prop-input", {
      type: { number: "number", checkbox: "checkbox", date: "date", datetime: "datetime-local" }[type] || "text",
      "aria-label": label, dataset: { key, role: "value" }, step: type === "number" ? "any" : null,
    });
    const v = asWidgetValue(type, value);
    if (type === "checkbox") input.checked = v; else input.value = v;
    input.addEventListener("input", () => input.setCustomValidity(""));
    input.addEventListener("change", () => {
      if (type === "number" && (input.validity.badInput || badNumber(input.value))) {
        // refused with a message: the file keeps its value (an empty field would wipe it)
        input.setCustomValidity(t("render.badNumber"));
        input.reportValidity();
        return;
      }
      save(type === "checkbox" ? input.checked : input.value);
    });
    return input;
  }

  chips(key, items, label, save) {
    const t = this.ui.t;
    const input = el("input.prop-chip-input", { type: "text", "aria-label": label, dataset: { key, role: "value" }, placeholder: t("render.addValue") });
    const addValue = () => {
      const v = input.value.trim();
      if (v) save([...items, v]);
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === ",") { e.preventDefault(); addValue(); }
    });
    input.addEventListener("change", addValue);
    return el("div.prop-chips", items.map((item, i) => {
      const drop = el("button.prop-chip-remove", { type: "button", "aria-label": t("render.removeValue", { value: item }) }, "\u00d7");
      drop.addEventListener("click", () => save(items.filter((_, j) => j !== i)));
      return el("span.prop-chip", el("span", item), drop);
    }), input);
  }

  /** A new row: its name typed first; the property exists (empty) once named. */
  addRow() {
    const t = this.ui.t;
    const name = el("input.prop-key", { type: "text", "aria-label": t("render.propertyName"), placeholder: t("render.propertyName"), spellcheck: "false" });
    let done = false; // Enter, Esc and blur may all end the same row
    const cancel = () => {
      done = true;
      row.remove();
      if (Object.keys(this.props).length) { this.add.focus(); return; }
      this.root.hidden = true;
      this.root.closest("article")?.querySelector("h1")?.focus(); // focus leaves the hidden box for the note
    };
    const commit = () => {
      if (done) return;
      const key = name.value.trim();
      if (!key) { cancel(); return; }
      if (key in this.props) { name.setCustomValidity(t("render.propertyExists", { key })); name.reportValidity(); return; }
      done = true;
      this.commit({ op: "set", key, value: null }, `[data-key="${CSS.escape(key)}"][data-role="value"]`);
    };
    name.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); commit(); }
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancel(); }
    });
    name.addEventListener("input", () => name.setCustomValidity(""));
    name.addEventListener("blur", () => { if (name.isConnected) commit(); });
    const row = el("div.prop-row.prop-new", name);
    this.root.hidden = false;
    this.root.open = true;
    this.rows.append(row);
    name.focus();
  }
}
