import { test } from "node:test";
import assert from "node:assert/strict";
import { nextFocus, errorParts } from "../../../frontend/src/search/keys.js";

test("Down from the box enters the list; other keys in the box are not ours", () => {
  assert.equal(nextFocus(-1, "ArrowDown", 3), 0);
  assert.equal(nextFocus(-1, "ArrowUp", 3), null);
  assert.equal(nextFocus(-1, "ArrowDown", 0), null); // no hits: the box keeps the key
});

test("Up/Down move hit to hit, stop at the last, Up on the first and Esc go back to the box", () => {
  assert.equal(nextFocus(0, "ArrowDown", 3), 1);
  assert.equal(nextFocus(2, "ArrowDown", 3), 2);
  assert.equal(nextFocus(1, "ArrowUp", 3), 0);
  assert.equal(nextFocus(0, "ArrowUp", 3), -1);
  assert.equal(nextFocus(1, "Escape", 3), -1);
  assert.equal(nextFocus(1, "End", 3), 2);
  assert.equal(nextFocus(2, "Home", 3), 0);
  assert.equal(nextFocus(1, "Enter", 3), null); // the link opens itself
});

test("errorParts cuts the query around the fault", () => {
  assert.deepEqual(errorParts("(a b", 0), ["", "(", "a b"]);
  assert.deepEqual(errorParts("a b)", 3), ["a b", ")", ""]);
  assert.deepEqual(errorParts("ab", 2), ["ab", " ", ""]);
  assert.deepEqual(errorParts("ab", 99), ["ab", " ", ""]);
});
