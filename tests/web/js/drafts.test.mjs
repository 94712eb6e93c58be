// drafts.js: unsaved editor text per user, vault and path in the browser's storage (setup.mjs gives a memory one).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

const d = await import("../../../frontend/src/drafts.js");

beforeEach(() => localStorage.clear());

test("a draft is kept per user and read back with its base version", () => {
  d.writeDraft("alice", "notes", "a.md", "mine", "v1");
  assert.equal(d.readDraft("alice", "notes", "a.md").content, "mine");
  assert.equal(d.readDraft("alice", "notes", "a.md").base, "v1");
  assert.equal(d.readDraft("bob", "notes", "a.md"), null); // a shared browser never hands it to another person
  localStorage.setItem("obsigate:draft:alice:notes:broken.md", "{not json");
  assert.equal(d.readDraft("alice", "notes", "broken.md"), null);
  d.dropDraft("alice", "notes", "a.md");
  assert.equal(d.readDraft("alice", "notes", "a.md"), null);
});

test("a folder's drafts are counted, moved with it and dropped with it; other keys are left alone", () => {
  d.writeDraft("alice", "notes", "P/a.md", "1", "v");
  d.writeDraft("bob", "notes", "P/sub/b.md", "2", "v");
  d.writeDraft("alice", "notes", "Px/c.md", "3", "v"); // a sibling whose name starts the same
  d.writeDraft("alice", "other", "P/a.md", "4", "v");
  localStorage.setItem("obsigate.theme", "dark");
  assert.equal(d.draftCount(), 4);
  assert.equal(d.draftsOf("notes", "P"), 2);
  assert.equal(d.draftsOf("notes", "P/a.md"), 1);
  assert.equal(d.moveDrafts("notes", "P", "Q/P"), 2);
  assert.equal(d.readDraft("alice", "notes", "Q/P/a.md").content, "1");
  assert.equal(d.readDraft("bob", "notes", "Q/P/sub/b.md").content, "2");
  assert.equal(d.readDraft("alice", "notes", "Px/c.md").content, "3");
  d.dropDraftsOf("notes", "Q");
  assert.equal(d.draftCount(), 2);
  d.dropAllDrafts();
  assert.equal(d.draftCount(), 0);
  assert.equal(localStorage.getItem("obsigate.theme"), "dark");
});
