// graph/query.js: the graph's group and search queries (Obsidian's graph groups: the first matching group wins).
import { test } from "node:test";
import assert from "node:assert/strict";

const q = await import("../../../frontend/src/graph/query.js");

const tags = { project: new Set(["Work/Plan.md", "Ideas.md"]), home: new Set(["Home.md"]) };
const tagged = (tag) => tags[tag] ?? null;

test("terms: operators, quotes, negation, case folded", () => {
  assert.deepEqual(q.parseQuery('tag:#Project path:Work/ -file:"Old Plan" dune'), [
    { kind: "tag", value: "project", not: false },
    { kind: "path", value: "work/", not: false },
    { kind: "file", value: "old plan", not: true },
    { kind: "any", value: "dune", not: false },
  ]);
  assert.deepEqual(q.parseQuery("  "), []);
  assert.deepEqual(q.tagsOf(q.parseQuery("tag:a tag:#a tag:b x")), ["a", "b"]);
});

test("every term must match; tag terms use the tagged sets; unresolved links match by name only", () => {
  const m = (query, path, label) => q.matches(q.parseQuery(query), path, label, tagged);
  assert.ok(m("tag:#project", "Work/Plan.md", "Plan"));
  assert.ok(!m("tag:#project", "Home.md", "Home"));
  assert.ok(m("path:Work", "Work/Plan.md", "Plan"));
  assert.ok(m("file:plan", "Work/Plan.md", "Plan") && !m("file:work", "Work/Plan.md", "Plan"));
  assert.ok(m("tag:project -path:work", "Ideas.md", "Ideas") && !m("tag:project -path:work", "Work/Plan.md", "Plan"));
  assert.ok(m("someday", null, "Someday") && !m("tag:project", null, "Someday"));
  assert.ok(!m("", "Home.md", "Home")); // an empty query matches nothing (an empty group colours nothing)
  assert.ok(!q.matches(q.parseQuery("tag:x"), "Home.md", "Home", () => null)); // tags not known yet
});

test("groups: the first matching group wins; 0 for none", () => {
  const groups = [{ query: "tag:#home", color: "#ff0000" }, { query: "path:work", color: "#00ff00" }, { query: "plan", color: "#0000ff" }];
  const paths = ["Home.md", "Work/Plan.md", "Plan B.md", "Other.md", null];
  const labels = ["Home", "Plan", "Plan B", "Other", "Plan C"];
  assert.deepEqual([...q.assignGroups(groups, paths, labels, tagged)], [1, 2, 3, 0, 3]);
});

test("groups are kept per vault; bad entries dropped", () => {
  const data = new Map();
  const storage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, v) };
  q.writeGroups(storage, "notes", [{ query: "tag:#a", color: "#112233" }]);
  assert.deepEqual(q.readGroups(storage, "notes"), [{ query: "tag:#a", color: "#112233" }]);
  assert.deepEqual(q.readGroups(storage, "other"), []);
  data.set("obsigate.graph.groups:bad", '[{"query": 1, "color": "#112233"}, {"query": "x", "color": "red"}, null, {"query": "y", "color": "#AABBCC", "extra": 1}]');
  assert.deepEqual(q.readGroups(storage, "bad"), [{ query: "y", color: "#AABBCC" }]);
  data.set("obsigate.graph.groups:broken", "{");
  assert.deepEqual(q.readGroups(storage, "broken"), []);
});

test("a /regex/ term matches the path; a broken one is an error said once, matching nothing", () => {
  const terms = q.parseQuery("/^work\\/p/ -/secret/");
  assert.deepEqual(terms.map((x) => [x.kind, x.value, x.not]), [["regex", "^work\\/p", false], ["regex", "secret", true]]);
  assert.equal(q.queryError(terms), null);
  assert.ok(q.matches(terms, "Work/Plan.md", null, tagged));
  assert.ok(!q.matches(terms, "Ideas.md", null, tagged));
  const bad = q.parseQuery("/(/");
  assert.equal(q.queryError(bad).regex, "/(/");
  assert.match(q.queryError(bad).error, /./);
  assert.ok(!q.matches(bad, "(.md", null, tagged));
  assert.deepEqual(q.parseQuery("a/b").map((x) => x.kind), ["any"]); // a path is not a regex
});
