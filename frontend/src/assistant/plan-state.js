// The plan box's pure rules (plan.js is its view): what a person's click makes of the plan. No DOM: covered by
// `node --test` (tests/web/js/assistant-plan.test.mjs).

/** The statuses, in the order a step goes through them. */
export const STATUSES = ["pending", "in_progress", "completed"];

/** The box's icon of a status. */
export const PLAN_ICON = { pending: "○", in_progress: "◐", completed: "●" };

/** The plan's steps as the server takes them ({step, status}), whatever else the shown rows hold. */
const clean = (steps) => steps.map((s) => ({ step: s.step, status: s.status }));

/**
 * The steps after the person ticks step `i`: a completed step goes back to pending, any other is completed
 * (the step in progress included).
 */
export function toggled(steps, i) {
  return clean(steps).map((s, k) => (k === i ? { ...s, status: s.status === "completed" ? "pending" : "completed" } : s));
}

/** The steps with step `i` in progress and the one that was (if another) back to pending: at most one. */
export function started(steps, i) {
  return clean(steps).map((s, k) => {
    if (k === i) return { ...s, status: "in_progress" };
    return s.status === "in_progress" ? { ...s, status: "pending" } : s;
  });
}

/** The steps with step `i`'s text replaced (blank: the step is removed). */
export function renamed(steps, i, text) {
  const value = text.replace(/\s+/g, " ").trim();
  const out = clean(steps);
  if (!value) return out.filter((_, k) => k !== i);
  return out.map((s, k) => (k === i ? { ...s, step: value } : s));
}

/** The steps with step `i` moved by `by` (-1 up, +1 down); unchanged at either end. */
export function moved(steps, i, by) {
  const out = clean(steps);
  const j = i + by;
  if (j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** "2/5" : completed steps over all. */
export function progress(steps) {
  return `${steps.filter((s) => s.status === "completed").length}/${steps.length}`;
}
