// The plan box's rules (assistant/plan-state.js): a person's tick, start, rename and move, each keeping at most
// one step in progress and sending only {step, status}; and its words in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";

const { toggled, started, renamed, moved, progress } = await import("../../../frontend/src/assistant/plan-state.js");
const { default: en } = await import("../../../frontend/src/i18n/plan.en.json");
const { default: fr } = await import("../../../frontend/src/i18n/plan.fr.json");

const PLAN = [
  { step: "Read", status: "completed" },
  { step: "Draft", status: "in_progress", extra: "shown only" },
  { step: "Link", status: "pending" },
];

test("ticking completes a step, or puts a completed one back to do", () => {
  assert.deepEqual(toggled(PLAN, 1).map((s) => s.status), ["completed", "completed", "pending"]);
  assert.deepEqual(toggled(PLAN, 0).map((s) => s.status), ["pending", "in_progress", "pending"]);
  assert.ok(toggled(PLAN, 2).every((s) => Object.keys(s).join() === "step,status"));
});

test("starting a step leaves at most one in progress", () => {
  const out = started(PLAN, 2);
  assert.deepEqual(out.map((s) => s.status), ["completed", "pending", "in_progress"]);
  assert.equal(out.filter((s) => s.status === "in_progress").length, 1);
});

test("renaming trims and joins spaces; a blank name removes the step", () => {
  assert.equal(renamed(PLAN, 2, "  Link it\n from Home ")[2].step, "Link it from Home");
  assert.deepEqual(renamed(PLAN, 0, "   ").map((s) => s.step), ["Draft", "Link"]);
});

test("moving swaps with a neighbour, never past an end", () => {
  assert.deepEqual(moved(PLAN, 2, -1).map((s) => s.step), ["Read", "Link", "Draft"]);
  assert.deepEqual(moved(PLAN, 0, -1).map((s) => s.step), ["Read", "Draft", "Link"]);
  assert.deepEqual(moved(PLAN, 2, 1).map((s) => s.step), ["Read", "Draft", "Link"]);
  assert.equal(progress(PLAN), "1/3");
});

test("the box's words exist in both languages", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fr).sort());
  assert.ok(Object.values(fr).every((v) => v && !Object.values(en).includes(v) || v.startsWith("Plan")));
});
