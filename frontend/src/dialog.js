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
