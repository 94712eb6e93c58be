// Small modals on the native <dialog> (focus trapped, Esc cancels, focus given back on close). A dialog
// belongs to the page it was opened on: navigating away (hashchange) dismisses it as Esc would, so a
// question about one note never outlives it.
import { el } from "./dom.js";
import { t } from "./i18n.js";

const open = new Set(); // the dismiss functions of the dialogs on screen
window.addEventListener("hashchange", () => { for (const dismiss of [...open]) dismiss(); });

/** Shows `dialog` modally; returns `done(value)`, which closes it, gives focus back and calls `resolve`.
 * Esc and navigation resolve `dismissed`. */
function modal(dialog, resolve, dismissed) {
  const back = document.activeElement;
  let finished = false;
  const done = (value) => {
    if (finished) return;
    finished = true;
    open.delete(dismiss);
    dialog.close();
    dialog.remove();
    if (back?.isConnected && document.activeElement === document.body) back.focus();
    resolve(value);
  };
  const dismiss = () => done(dismissed);
  dialog.addEventListener("cancel", (e) => { e.preventDefault(); if (!dialog.dataset.busy) dismiss(); });
  open.add(dismiss);
  document.body.append(dialog);
  dialog.showModal();
  return done;
}

let ids = 0;

export function confirmDialog({ title, message, ok, danger = false }) {
  return new Promise((resolve) => {
    const id = `confirm-${++ids}`;
    const yes = el(danger ? "button.button.primary.danger" : "button.button.primary", { type: "button" }, ok);
    const no = el("button.button", { type: "button" }, t("dialog.cancel"));
    const dialog = el("dialog.confirm", { "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-msg` },
      el("h2", { id: `${id}-title` }, title),
      el("p", { id: `${id}-msg` }, message),
      el("div.dialog-actions", no, yes));
    const done = modal(dialog, resolve, false);
    yes.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    yes.focus();
  });
}

/** A modal with several choices (`choices`: `[{value, label, primary}]`); resolves the chosen value, or null
 * when dismissed (Esc). Used by the editor's conflict dialog (keep mine / take theirs / merge). */
export function choiceDialog({ title, message, choices }) {
  return new Promise((resolve) => {
    const id = `choice-${++ids}`;
    const buttons = choices.map((c) => el(c.primary ? "button.button.primary" : "button.button", { type: "button", "data-value": c.value }, c.label));
    const dialog = el("dialog.confirm", { "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-msg` },
      el("h2", { id: `${id}-title` }, title),
      el("p", { id: `${id}-msg` }, message),
      el("div.dialog-actions", el("button.button", { type: "button", "data-value": "" }, t("dialog.cancel")), ...buttons));
    const done = modal(dialog, (v) => resolve(v || null), null);
    for (const b of dialog.querySelectorAll("button")) b.addEventListener("click", () => done(b.dataset.value));
    (buttons.find((b) => b.classList.contains("primary")) || buttons[0]).focus();
  });
}

/**
 * A modal form: `fields` (nodes) between the message and the buttons. OK (or Enter) calls `submit()`,
 * which returns `{error}` to keep the dialog open with that message (role="alert"), or the value to resolve
 * with; it may be async (the buttons wait). Resolves null when cancelled. `focus`: the node focused first.
 */
export function formDialog({ title, message, fields = [], ok, danger = false, submit, focus, wide = false }) {
  return new Promise((resolve) => {
    const id = `form-${++ids}`;
    const error = el("p.dialog-error", { id: `${id}-err`, role: "alert", hidden: true });
    const yes = el(danger ? "button.button.primary.danger" : "button.button.primary", { type: "submit" }, ok);
    const no = el("button.button", { type: "button" }, t("dialog.cancel"));
    const form = el("form", { method: "dialog", novalidate: true },
      el("h2", { id: `${id}-title` }, title),
      message ? el("p", { id: `${id}-msg` }, message) : null,
      fields, error,
      el("div.dialog-actions", no, yes));
    const dialog = el(wide ? "dialog.confirm.wide" : "dialog.confirm", {
      "aria-labelledby": `${id}-title`, "aria-describedby": message ? `${id}-msg` : null,
    }, form);
    const done = modal(dialog, resolve, null);
    no.addEventListener("click", () => done(null));
    const showError = (text) => {
      error.textContent = text || "";
      error.hidden = !text;
      for (const input of form.querySelectorAll("input")) {
        if (text) { input.setAttribute("aria-invalid", "true"); input.setAttribute("aria-errormessage", error.id); }
        else { input.removeAttribute("aria-invalid"); input.removeAttribute("aria-errormessage"); }
      }
    };
    form.addEventListener("input", () => showError(null));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (dialog.dataset.busy) return;
      dialog.dataset.busy = "1";
      yes.disabled = true;
      dialog.setAttribute("aria-busy", "true");
      let result;
      try {
        result = await submit();
      } catch (err) {
        result = { error: err?.message || String(err) };
      } finally {
        delete dialog.dataset.busy;
        yes.disabled = false;
        dialog.removeAttribute("aria-busy");
      }
      if (result && typeof result === "object" && "error" in result) {
        showError(result.error);
        (form.querySelector("input") || yes).focus();
      } else {
        done(result ?? true);
      }
    });
    (focus || form.querySelector("input") || yes).focus();
  });
}

/** A one-line text question (`label`, pre-filled `value`, the part `select` = [start, end] selected);
 * `submit(text)` as in formDialog. */
export function promptDialog({ title, message, label, value = "", select, ok, danger, submit }) {
  const id = `prompt-${++ids}`;
  const input = el("input.dialog-input", { id, type: "text", value, autocomplete: "off", spellcheck: "false" });
  const fields = el("div.dialog-field", el("label", { for: id }, label), input);
  const shown = formDialog({ title, message, fields, ok, danger, submit: () => submit(input.value), focus: input });
  input.setSelectionRange(...(select || [0, value.length]));
  return shown;
}
