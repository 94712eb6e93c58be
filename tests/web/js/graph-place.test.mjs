// graph/place.js: where the vault graph's nodes start (the tab's stored layout first, new nodes beside a placed
// neighbour, the rest seeded), and whether the stored layout is this graph's (then no layout runs).
import { test } from "node:test";
import assert from "node:assert/strict";

const { placeVault, parseSaved, seeded } = await import("../../../frontend/src/graph/place.js");

const model = { labels: ["A", "B", "Someday"], paths: ["A.md", "B.md", null], edges: Uint32Array.from([0, 1, 1, 2]), version: "v2" };

test("a stored layout of this version places every node and settles", () => {
  const saved = { own: `v2\n${JSON.stringify(["A.md", "B.md", "?Someday"])}\n[1,2,3,4,5,6]` };
  const p = placeVault(model, saved);
  assert.deepEqual([...p.xy], [1, 2, 3, 4, 5, 6]);
  assert.equal(p.settled, true);
  assert.equal(p.known, 3);
  assert.equal(placeVault({ ...model, version: "v3" }, saved).settled, false); // the vault changed since
});

test("new nodes start beside a placed neighbour; without any layout, a seeded scatter", () => {
  const p = placeVault(model, { own: `v1\n${JSON.stringify(["A.md"])}\n[100,100]` });
  assert.equal(p.known, 1);
  assert.ok(Math.abs(p.xy[2] - 100) <= 10 && Math.abs(p.xy[3] - 100) <= 10); // B beside A
  const fresh = placeVault(model, null);
  assert.deepEqual(fresh, placeVault(model, { own: "not a layout" })); // a broken store is no store
  assert.equal(fresh.known, 0);
  assert.deepEqual(seeded("x"), seeded("x"));
  assert.equal(parseSaved(""), null);
});
