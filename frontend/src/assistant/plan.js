// The plan box of the assistant panel (issue 21 item 4): the open conversation's plan, live. It shows the plan
// the run sends (`plan` SSE events: each update_plan, and the plan as re-read before each model turn) and the
// one saved with a reopened conversation (GET /api/ai/conversations/{id}/plan). The person may edit it between
// steps: tick a step (completed ↔ pending), start one (the one in progress goes back to pending), rename it
// (a blank name removes it), move it up or down. Each edit is sent whole with the revision it was made on; a
// plan changed meanwhile (409 conflict) is read again and shown, with a line saying so. Its pure rules are
// plan-state.js. Server text only ever becomes text nodes.

import * as api from "../api/index.js";
import { h } from "./h.js";
import { PLAN_ICON, moved, progress, renamed, started, toggled } from "./plan-state.js";

const QUIET = { quiet: true, auth401: false };

/**
 * The plan box, placed above the conversation log `c.log` in the panel `c.section`.
 * deps: `t`, `conversationId()` (the open conversation, or null), `onError(err)`.
 * Returns `{show(plan), load(id), clear(), follow(action, id)}`: `show` a plan event's data (`{revision, status,
 * explanation, plan, edited_by}`), `load` the saved plan of conversation `id` (none: `clear`), `follow` the
 * panel's dispatched actions.
 */
export function planPart(c, { t, conversationId, onError }) {
  const title = h("span", { class: "plan-title" });
  const note = h("p", { class: "plan-note muted", role: "status", hidden: true });
  const list = h("ol", { class: "plan-steps" });
  const why = h("p", { class: "plan-why muted", hidden: true });
  const box = h("details", { class: "plan-box", open: true, hidden: true, "aria-label": t("assistant.plan.title") },
    h("summary", {}, title), why, list, note);
  c.section.insertBefore(box, c.log);
  let plan = null; // the plan shown: {revision, status, explanation, plan, edited_by}
  let saving = false;

  function show(data) {
    if (!data || !Array.isArray(data.plan) || !data.plan.length) { clear(); return; }
    plan = data;
    box.hidden = false;
    title.textContent = t("assistant.plan.heading", { done: progress(data.plan), revision: data.revision });
    why.hidden = !data.explanation;
    why.textContent = data.explanation || "";
    list.replaceChildren(...data.plan.map((s, i) => stepRow(s, i, data.plan.length)));
  }

  function stepRow(s, i, n) {
    const text = h("span", { class: "plan-text", title: t("assistant.plan.rename") }, s.step);
    const row = h("li", { class: `plan-step plan-${s.status}`, "data-status": s.status },
      h("button", { type: "button", class: "icon plan-tick", role: "checkbox", "aria-checked": String(s.status === "completed"),
        "aria-label": t(`assistant.plan.${s.status}`, { step: s.step }), title: t(`assistant.plan.${s.status}`, { step: s.step }),
        onclick: () => save(toggled(plan.plan, i)) }, PLAN_ICON[s.status]),
      text,
      h("span", { class: "plan-tools" },
        s.status === "in_progress" ? null : h("button", { type: "button", class: "icon", "aria-label": t("assistant.plan.start"),
          title: t("assistant.plan.start"), onclick: () => save(started(plan.plan, i)) }, "▶"),
        h("button", { type: "button", class: "icon", "aria-label": t("assistant.plan.up"), title: t("assistant.plan.up"),
          disabled: i === 0, onclick: () => save(moved(plan.plan, i, -1)) }, "↑"),
        h("button", { type: "button", class: "icon", "aria-label": t("assistant.plan.down"), title: t("assistant.plan.down"),
          disabled: i === n - 1, onclick: () => save(moved(plan.plan, i, 1)) }, "↓")));
    text.addEventListener("dblclick", () => rename(text, i));
    return row;
  }

  /** The step's text as a field: Enter or leaving it saves, Escape cancels. */
  function rename(text, i) {
    const input = h("input", { type: "text", class: "plan-input", value: plan.plan[i].step, maxlength: "500",
      "aria-label": t("assistant.plan.rename") });
    let done = false;
    const finish = (keep) => {
      if (done) return;
      done = true;
      if (keep && input.value !== plan.plan[i].step) save(renamed(plan.plan, i, input.value));
      else show(plan);
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); finish(true); }
      if (e.key === "Escape") finish(false);
    });
    input.addEventListener("blur", () => finish(true));
    text.replaceWith(input);
    input.focus();
    input.select();
  }

  async function save(steps) {
    const id = conversationId();
    if (!id || saving) return;
    saving = true;
    note.hidden = true;
    try {
      const body = { plan: steps, revision: plan.revision, explanation: plan.explanation || undefined };
      show(await api.editConversationPlan(id, body, QUIET));
    } catch (err) {
      if (err.code === "conflict") { say(t("assistant.plan.conflict")); await load(id); }
      else if (err.code === "invalid_argument") say(err.message);
      else onError(err);
    } finally {
      saving = false;
    }
  }

  function say(text) {
    note.textContent = text;
    note.hidden = false;
  }

  async function load(id) {
    if (!id) { clear(); return; }
    try {
      const data = await api.conversationPlan(id, QUIET);
      if (id === conversationId()) show(data.exists ? data : null);
    } catch (err) {
      if (err.code === "plan_unreadable") { box.hidden = false; say(err.message); list.replaceChildren(); }
      else if (err.status !== 404) onError(err);
    }
  }

  function clear() {
    plan = null;
    box.hidden = true;
    note.hidden = true;
    list.replaceChildren();
  }

  /** The panel's actions the box follows: a `plan` event shows its plan; a conversation opened loads its own. */
  function follow(action, id) {
    if (action.type === "event" && action.name === "plan") show(action.data);
    else if (action.type === "conversation") load(id);
  }

  return { show, load, clear, follow };
}
