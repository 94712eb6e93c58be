// Errors and notices for the person: a stack of dismissable messages (role="alert"), never silent.
import { el, icon } from "./dom.js";
import { t } from "./i18n.js";

let box = null;
function region() {
  if (!box) {
    box = el("div.toasts", { "aria-live": "assertive" });
    document.body.append(box);
  }
  return box;
}

export function toast(message, { kind = "error", detail = null, timeout = 9000 } = {}) {
  const close = el("button.icon-btn", { type: "button", "aria-label": t("error.dismiss"), title: t("error.dismiss") }, icon("x"));
  const node = el(`div.toast.toast-${kind}`, { role: kind === "error" ? "alert" : "status" },
    icon(kind === "error" ? "alert" : "note"),
    el("div.toast-body", el("div.toast-msg", message), detail ? el("div.toast-detail", detail) : null),
    close);
  const remove = () => node.remove();
  close.addEventListener("click", remove);
  region().append(node);
  if (timeout) setTimeout(remove, timeout);
  // Same message shown twice in a row: keep one.
  const all = [...region().children];
  if (all.length > 1 && all[all.length - 2].textContent === node.textContent) all[all.length - 2].remove();
  return node;
}

export function showError(err) {
  if (err?.name === "AbortError") return;
  let message = err?.message || String(err);
  if (err?.status === 429) {
    message = err.retryAfter != null ? t("error.rateLimited", { s: err.retryAfter }) : message;
  }
  const code = err?.code && err.code !== "network" ? `${err.code}` : null;
  const detail = [code, err?.status === 429 ? err?.message : null, err?.hint].filter(Boolean).join(" — ") || null;
  toast(message, { kind: "error", detail, timeout: err?.status === 429 ? 0 : 12000 });
}
