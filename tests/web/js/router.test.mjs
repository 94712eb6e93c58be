// router.js: the hash routes the app reads and writes (no browser: hrefs in, route objects out).
import { test } from "node:test";
import assert from "node:assert/strict";

const { noteHref, searchHref, tagsHref, viewHref, parseRoute } = await import("../../../frontend/src/router.js");

test("a note's href encodes each path segment and round-trips", () => {
  const href = noteHref("my vault", "Projects/a b#1.md", "Plan & goals", "tide pool");
  assert.equal(href, "#/v/my%20vault/Projects/a%20b%231.md?h=Plan%20%26%20goals&f=tide%20pool");
  assert.deepEqual(parseRoute(href), { view: "note", vault: "my vault", path: "Projects/a b#1.md", heading: "Plan & goals", find: "tide pool" });
  assert.deepEqual(parseRoute(noteHref("notes", null)), { view: "note", vault: "notes", path: null, heading: null, find: null });
});

test("search keeps its filters and drops empty ones", () => {
  const href = searchHref("tide", "notes", { tag: "ocean", re: true, cs: false, inc: "" });
  assert.equal(href, "#/search?q=tide&v=notes&tag=ocean&re=1");
  const r = parseRoute(href);
  assert.equal(r.view, "search");
  assert.equal(r.q, "tide");
  assert.equal(r.vault, "notes");
  assert.equal(r.params.get("tag"), "ocean");
  // a route's own params as filters: its q and v are not copied twice
  assert.equal(searchHref("next", "notes", r.params), "#/search?q=next&v=notes&tag=ocean&re=1");
});

test("the lazy screens of views.js are routes; anything else is home", () => {
  for (const view of ["graph", "history", "trash", "settings"]) {
    const r = parseRoute(viewHref(view, { v: "notes", p: "a b.md", d: 2, x: "" }));
    assert.equal(r.view, view);
    assert.equal(r.vault, "notes");
    assert.equal(r.path, "a b.md");
  }
  assert.equal(viewHref("graph", { v: "n", p: null }), "#/graph?v=n");
  assert.deepEqual(parseRoute("#/tags?v=notes"), { view: "tags", vault: "notes" });
  assert.equal(tagsHref("my vault"), "#/tags?v=my%20vault");
  assert.equal(tagsHref(null), "#/tags");
  assert.deepEqual(parseRoute("#/nowhere"), { view: "home" });
  assert.deepEqual(parseRoute(""), { view: "home" });
  assert.equal(parseRoute("#/v/notes/bad%E0.md").path, "bad%E0.md"); // a broken escape stays as typed
});
