// editor/linktext.js: the link text Obsidian generates for each `newLinkFormat` (shared/reference/obsidian.md §7).
import { test } from "node:test";
import assert from "node:assert/strict";

const { linkIndex, linkPath, linkMarkup, encodeDestination } = await import("../../../frontend/src/editor/linktext.js");

const vault = linkIndex([
  "Home.md", "Projects/Plan.md", "Projects/Sub/Deep.md", "Archive/Plan.md", "Note.md", "Daily/Note.md",
  "Attachments/pic one.png", "Solo/Only here.md",
]);

test("shortest: the bare name when unique, the full path when the name is shared", () => {
  assert.equal(linkPath("Solo/Only here.md", "Home.md", vault), "Only here");
  assert.equal(linkPath("Projects/Plan.md", "Home.md", vault), "Projects/Plan");
  assert.equal(linkPath("Archive/Plan.md", "Projects/Plan.md", vault), "Archive/Plan");
});

test("shortest: a root-level file keeps its bare name, its namesakes in folders get their path", () => {
  assert.equal(linkPath("Note.md", "Daily/Note.md", vault), "Note");
  assert.equal(linkPath("Daily/Note.md", "Home.md", vault), "Daily/Note");
});

test("attachments keep their extension; notes keep .md only in markdown links", () => {
  assert.equal(linkPath("Attachments/pic one.png", "Home.md", vault), "pic one.png");
  assert.equal(linkPath("Solo/Only here.md", "Home.md", vault, { markdown: true }), "Only here.md");
});

test("relative: a ../ chain from the source's folder, a bare name in the same folder", () => {
  const rel = { format: "relative" };
  assert.equal(linkPath("Projects/Sub/Deep.md", "Archive/Plan.md", vault, rel), "../Projects/Sub/Deep");
  assert.equal(linkPath("Projects/Plan.md", "Projects/Sub/Deep.md", vault, rel), "../Plan");
  assert.equal(linkPath("Projects/Sub/Deep.md", "Projects/Plan.md", vault, rel), "Sub/Deep");
  assert.equal(linkPath("Home.md", "Projects/Sub/Deep.md", vault, rel), "../../Home");
  assert.equal(linkPath("Archive/Plan.md", "Archive/Other.md", vault, rel), "Plan");
  assert.equal(linkPath("Solo/Only here.md", "Home.md", vault, rel), "Solo/Only here");
});

test("absolute: the full vault path whatever the name", () => {
  assert.equal(linkPath("Solo/Only here.md", "Projects/Plan.md", vault, { format: "absolute" }), "Solo/Only here");
  assert.equal(linkPath("Home.md", "Projects/Plan.md", vault, { format: "absolute" }), "Home");
});

test("the whole link: wikilink, alias, embed, or a markdown link with an encoded destination", () => {
  assert.equal(linkMarkup("Projects/Plan.md", "Home.md", vault), "[[Projects/Plan]]");
  assert.equal(linkMarkup("Solo/Only here.md", "Home.md", vault, { alias: "it" }), "[[Only here|it]]");
  assert.equal(linkMarkup("Attachments/pic one.png", "Home.md", vault, { embed: true }), "![[pic one.png]]");
  assert.equal(linkMarkup("Solo/Only here.md", "Home.md", vault, { markdown: true }), "[Only here](Only%20here.md)");
  assert.equal(linkMarkup("Projects/Sub/Deep.md", "Archive/Plan.md", vault, { markdown: true, format: "relative" }),
    "[Deep](../Projects/Sub/Deep.md)");
  assert.equal(encodeDestination("a (b)/c d.md"), "a%20%28b%29/c%20d.md");
});
