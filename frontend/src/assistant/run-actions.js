// Two small parts of the assistant panel (issue 18 item 8, docs/assistant.md "Approvals, undo and limits"):
// "Undo this run" under a finished run that changed the vault, and the warning before a request that would
// fill more than its share of the model's context, with "Send anyway". Server text goes in as text nodes only.

import * as api from "../api/index.js";
import { h } from "./h.js";

const QUIET = { quiet: true, auth401: false };

/** The paths an undo report names (to refresh the tree and the open note). */
export function undonePaths(report) {
  return (report?.restored || []).map((r) => r.path);
}

/**
 * The "Undo this run" bar for run `runId`. `onWrite(paths)` refreshes what the undo changed; `onError(err)`
 * shows an unexpected failure. A conflict (files changed since the run) asks before forcing; a second undo says so.
 */
export function undoBar(runId, { t, onWrite, onError }) {
  const button = h("button", { type: "button", class: "undo-run" }, t("assistant.undo.run"));
  const status = h("span", { class: "muted", role: "status" });
  const bar = h("div", { class: "run-actions confirm-card" }, button, " ", status);

  async function undo(force) {
    button.disabled = true;
    try {
      const report = await api.undoRun(runId, { force }, QUIET);
      const n = report.restored.length;
      status.textContent = t("assistant.undo.done", { n }) + (report.conflicts.length || report.skipped.length
        ? ` ${t("assistant.undo.partial", { n: report.conflicts.length + report.skipped.length })}` : "");
      button.remove();
      onWrite?.(undonePaths(report));
    } catch (err) {
      if (err.code === "conflict" && !force) {
        status.textContent = `${err.message} `;
        const anyway = h("button", { type: "button", class: "danger" }, t("assistant.undo.force"));
        anyway.addEventListener("click", () => { anyway.remove(); undo(true); });
        status.append(anyway);
        button.remove();
      } else if (err.code === "run_undone") {
        status.textContent = err.message;
        button.remove();
      } else {
        button.disabled = false;
        onError(err);
      }
    }
  }
  button.addEventListener("click", () => undo(false));
  return bar;
}

/**
 * The warning of a `context_too_large` refusal (`err.details`: estimated_tokens, context_window, share),
 * with "Send anyway" (`onSend()` sends the same request accepting it) and "Cancel".
 */
export function largeContextCard(err, { t, onSend }) {
  const d = err.details || {};
  const send = h("button", { type: "button", class: "primary" }, t("assistant.context.send_anyway"));
  const cancel = h("button", { type: "button" }, t("assistant.context.cancel"));
  const card = h("div", { class: "confirm-card context-warning", role: "alert" },
    h("h3", {}, t("assistant.context.title")),
    h("p", {}, t("assistant.context.body", {
      tokens: d.estimated_tokens ?? "?", window: d.context_window ?? "?", share: Math.round((d.share ?? 0) * 100),
    })),
    h("div", { class: "actions" }, send, cancel));
  const close = () => { send.disabled = cancel.disabled = true; };
  send.addEventListener("click", () => { close(); onSend(); });
  cancel.addEventListener("click", () => { close(); card.classList.add("rejected"); });
  return card;
}

/**
 * `api.ask` with this module's two additions, in the message's footer (`hooks.footer()`): a `context_too_large`
 * refusal shows the warning (Send anyway: `hooks.resend()`) instead of failing, and a finished run that changed
 * the vault (an ok step that is not a read, the server's risk) gets "Undo this run".
 * hooks: {t, onWrite, onError, footer, resend}. Other failures are thrown as `api.ask` throws them.
 */
export async function askWithActions(agent, body, onEvent, opts, hooks) {
  let done = null;
  let wrote = false;
  try {
    await api.ask(agent, body, (name, data) => {
      if (name === "done") done = data;
      if (name === "tool" && data.status === "ok" && data.risk !== "read") wrote = true;
      onEvent(name, data);
    }, opts);
  } catch (err) {
    if (err.code !== "context_too_large") throw err;
    hooks.footer().append(largeContextCard(err, { t: hooks.t, onSend: hooks.resend }));
    return;
  }
  if (wrote && done?.run_id && done.stopped !== "awaiting_confirmation") hooks.footer().append(undoBar(done.run_id, hooks));
}
