// editor/aiactions.js: the AI toolbar's actions, what an answer makes of the selection, the word diff.
import { test } from "node:test";
import assert from "node:assert/strict";

const a = await import("../../../frontend/src/editor/aiactions.js");

const join = (parts, ops) => parts.filter((p) => ops.includes(p.op)).map((p) => p.text).join("");

test("16 actions, three of them with a field, and where each answer goes", () => {
  assert.equal(a.ACTIONS.length, 16);
  assert.deepEqual(a.ACTIONS.filter((x) => x.needs).map((x) => [x.id, x.needs]),
    [["translate", "target_lang"], ["tone", "tone"], ["custom", "instruction"]]);
  assert.equal(a.actionById("continue").placement, "after");
  assert.equal(a.actionById("improve").placement, "replace");
  assert.equal(a.actionById("nope"), null);
});

test("compose: replace, continue on the same line or after a line end, a title before", () => {
  assert.equal(a.compose("old", "new text\n", "replace"), "new text");
  assert.equal(a.compose("It was late", "and dark.", "after"), "It was late and dark.");
  assert.equal(a.compose("It was late ", "and dark.", "after"), "It was late and dark.");
  assert.equal(a.compose("Line one\n", "Line two", "after"), "Line one\nLine two");
  assert.equal(a.compose("Body text", "A Title", "before"), "A Title\n\nBody text");
});

test("wordDiff: both sides rebuild from the parts, the changed words alone marked", () => {
  const before = "Teh budget for the buoy is smal.";
  const after = "The budget for the buoy is small.";
  const parts = a.wordDiff(before, after);
  assert.equal(join(parts, ["eq", "del"]), before);
  assert.equal(join(parts, ["eq", "ins"]), after);
  assert.deepEqual(parts.filter((p) => p.op !== "eq").map((p) => [p.op, p.text]),
    [["del", "Teh"], ["ins", "The"], ["del", "smal"], ["ins", "small"]]);
  assert.deepEqual(a.wordDiff("same", "same"), [{ op: "eq", text: "same" }]);
  assert.deepEqual(a.wordDiff("", "new"), [{ op: "ins", text: "new" }]);
});

test("wordDiff of two long, different texts stays fast and exact", () => {
  const before = Array.from({ length: 4000 }, (_, i) => `w${i}`).join(" ");
  const after = Array.from({ length: 4000 }, (_, i) => `v${i}`).join(" ");
  const started = Date.now();
  const parts = a.wordDiff(before, after);
  assert.ok(Date.now() - started < 1000);
  assert.equal(join(parts, ["eq", "del"]), before);
  assert.equal(join(parts, ["eq", "ins"]), after);
});
