// A small modal confirmation (native <dialog>: focus trapped, Esc cancels). Resolves true / false.
import { el } from "./dom.js";
import { t } from "./i18n.js";

export function confirmDialog({ title, message, ok }) {
  return new Promise((resolve) => {
    const yes = el("button.button.primary", { type: "button" }, ok);
    const no = el("button.button", { type: "button" }, t("dialog.cancel"));
    const dialog = el("dialog.confirm", { "aria-labelledby": "confirm-title", "aria-describedby": "confirm-msg" },
      el("h2", { id: "confirm-title" }, title),
      el("p", { id: "confirm-msg" }, message),
      el("div.dialog-actions", no, yes));
    const done = (value) => { dialog.close(); dialog.remove(); resolve(value); };
    yes.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    yes.focus();
  });
}

/** A modal with several choices (`choices`: `[{value, label, primary}]`); resolves the chosen value, or null
 * when dismissed (Esc). Used by the editor's conflict dialog (keep mine / take theirs / merge). */
export function choiceDialog({ title, message, choices }) {
  return new Promise((resolve) => {
    const buttons = choices.map((c) => el(c.primary ? "button.button.primary" : "button.button", { type: "button", "data-value": c.value }, c.label));
    const dialog = el("dialog.confirm", { "aria-labelledby": "choice-title", "aria-describedby": "choice-msg" },
      el("h2", { id: "choice-title" }, title),
      el("p", { id: "choice-msg" }, message),
      el("div.dialog-actions", el("button.button", { type: "button", "data-value": "" }, t("dialog.cancel")), ...buttons));
    const done = (value) => { dialog.close(); dialog.remove(); resolve(value || null); };
    for (const b of dialog.querySelectorAll("button")) b.addEventListener("click", () => done(b.dataset.value));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(null); });
    document.body.append(dialog);
    dialog.showModal();
    (buttons.find((b) => b.classList.contains("primary")) || buttons[0]).focus();
  });
}
