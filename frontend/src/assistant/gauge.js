// The context gauge of the assistant panel (issue 21 item 5): how full the open conversation's context window
// is, as % and tokens, coloured and with a notice the person sees at 70, 85 and 95 %. Fed by the server's
// figures only (docs/assistant.md "Context gauge"): the `context` SSE event after each provider call, and
// GET /api/ai/conversations/{id}/context when a conversation opens and when a request ends (the answer just
// added is then counted too). Its details (the breakdown, per-model totals) are in the bar's tooltip and a
// disclosure. The pure parts (formatting, which notice) are exported for `node --test`.

import * as api from "../api/index.js";
import { h } from "./h.js";

const QUIET = { quiet: true, auth401: false };
/** The breakdown's parts, in the order the server sends them. */
export const PARTS = ["system_prompt", "tool_definitions", "context_files", "history", "tool_results", "reserved"];

/** A token count for people: 950, 13.7k, 1.05M. */
export function tokens(n) {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, "")}M`;
}

/** The gauge's line: "42 % · 13.7k / 32.8k tokens" (`t`: the catalog). */
export function gaugeLine(report, t) {
  return t("gauge.line", { percent: report.percent, used: tokens(report.total), window: tokens(report.window) });
}

/** The notice's catalog key at a warning level, or null when there is nothing to say. */
export function noticeKey(level) {
  return { warn70: "gauge.warn70", warn85: "gauge.warn85", warn95: "gauge.warn95" }[level] || null;
}

/**
 * The gauge in the panel's input slot `c.inputSlot`. deps: `t`. Returns `{show(report), load(id), clear(),
 * follow(action, id)}`: `show` draws a report (the SSE event's or the REST answer's), `load` asks the server for
 * conversation `id`'s (null: `clear`; a failure leaves the gauge as it was: it is a read), `clear` hides it,
 * `follow` takes the panel's actions.
 */
export function gaugePart(c, { t }) {
  const fill = h("span", { class: "gauge-fill" });
  const bar = h("span", { class: "gauge-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-label": t("gauge.label") }, fill);
  const line = h("span", { class: "gauge-line" });
  const source = h("span", { class: "gauge-source muted" });
  const parts = h("ul", { class: "gauge-parts" });
  const more = h("details", { class: "gauge-more" }, h("summary", {}, t("gauge.details")), parts);
  const notice = h("p", { class: "gauge-notice", role: "status", hidden: true });
  const box = h("div", { class: "context-gauge", hidden: true }, h("div", { class: "gauge-row" }, bar, line, source, more), notice);
  c.inputSlot.prepend(box);
  let asked = 0; // the latest load: an older answer arriving late is dropped

  function show(report) {
    if (!report || report.source === "none" || !report.window) return clear();
    box.hidden = false;
    box.dataset.level = report.level;
    const width = Math.min(100, Math.max(0, report.percent));
    fill.style.width = `${width}%`;
    bar.setAttribute("aria-valuenow", String(width));
    bar.setAttribute("aria-valuetext", gaugeLine(report, t));
    line.textContent = gaugeLine(report, t);
    source.textContent = t(report.source === "provider" ? "gauge.provider" : "gauge.estimate");
    const rows = PARTS.map((k) => h("li", {}, h("span", {}, t(`gauge.part.${k}`)), h("span", { class: "gauge-n" }, tokens(report.breakdown?.[k] || 0))));
    for (const m of report.totals || []) {
      rows.push(h("li", { class: "gauge-model" }, h("span", {}, m.model),
        h("span", { class: "gauge-n" }, t("gauge.totals", { calls: m.calls, prompt: tokens(m.prompt_tokens), completion: tokens(m.completion_tokens), cached: tokens(m.cached_tokens) }))));
    }
    parts.replaceChildren(...rows);
    bar.title = PARTS.map((k) => `${t(`gauge.part.${k}`)}: ${tokens(report.breakdown?.[k] || 0)}`).join("\n");
    const key = noticeKey(report.level);
    notice.hidden = !key;
    notice.textContent = key ? t(key, { percent: Math.round(report.percent) }) : "";
  }

  function clear() {
    asked++;
    box.hidden = true;
    notice.hidden = true;
  }

  async function load(id) {
    if (!id) return clear();
    const mine = ++asked;
    try {
      const report = await api.conversationContext(id, QUIET);
      if (mine === asked) show(report);
    } catch { /* a read: the gauge stays as it was */ }
  }

  /** The panel's actions (state.js): a `context` event is shown, a request's end asks for conversation `id`'s. */
  function follow(action, id) {
    if (action.type === "event" && action.name === "context") show(action.data);
    else if (action.type === "end") load(id);
  }

  return { show, load, clear, follow };
}
