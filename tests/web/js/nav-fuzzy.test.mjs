// nav/fuzzy.js: the command palette's fuzzy match and the quick switcher's exact-first ranking (issue 19 item 3).
import { test } from "node:test";
import assert from "node:assert/strict";

const { fuzzyMatch, rankNotes, rankCommands, pieces, fold, TIER } = await import("../../../frontend/src/nav/fuzzy.js");

const paths = (query, items) => rankNotes(query, items).map((r) => r.item.path);

test("folding keeps one unit per unit, so highlight ranges index the original text", () => {
  assert.equal(fold("Été à Paris"), "ete a paris");
  assert.equal(fold("Été").length, "Été".length);
  const m = fuzzyMatch("ete", "Notes d'Été");
  assert.deepEqual(pieces("Notes d'Été", m.ranges).filter((p) => p.hit).map((p) => p.text), ["Été"]);
});

test("fuzzy: every word must match; word starts and contiguous letters score higher", () => {
  assert.equal(fuzzyMatch("xyz", "Open graph"), null);
  assert.equal(fuzzyMatch("gr zz", "Open graph"), null);
  assert.ok(fuzzyMatch("og", "Open graph").score > fuzzyMatch("og", "Toggle").score);
  assert.deepEqual(fuzzyMatch("opgr", "Open graph").ranges, [[0, 2], [5, 7]]);
  assert.ok(fuzzyMatch("graph", "Open graph").score > fuzzyMatch("graph", "Paragraphs").score);
  assert.deepEqual(fuzzyMatch("", "x"), { score: 0, ranges: [] });
});

test("switcher: exact name > prefix > word start > inside > fuzzy; shorter paths win ties", () => {
  const items = ["Planning/Old plans.md", "Projects/Plan.md", "Plan B.md", "Archive/Plan.md", "Explanation.md", "Pa-la-n.md", "A plan.md"]
    .map((path) => ({ path }));
  const ranked = rankNotes("plan", items);
  assert.deepEqual(ranked.map((r) => r.item.path),
    ["Archive/Plan.md", "Projects/Plan.md", "Plan B.md", "A plan.md", "Planning/Old plans.md", "Explanation.md", "Pa-la-n.md"]);
  assert.deepEqual(ranked.map((r) => r.tier), [TIER.EXACT, TIER.EXACT, TIER.PREFIX, TIER.WORD, TIER.WORD, TIER.INNER, TIER.FUZZY]);
});

test("switcher: an alias matches like a name and is shown as the label", () => {
  const items = [{ path: "People/Jean Dupont.md", aliases: ["JD", "Johnny"] }, { path: "Judo.md" }];
  const [top] = rankNotes("jd", items);
  assert.equal(top.item.path, "People/Jean Dupont.md");
  assert.equal(top.label, "JD");
  assert.equal(top.alias, "JD");
  assert.deepEqual(paths("johnny", items), ["People/Jean Dupont.md"]);
});

test("switcher: a query with a slash matches the path; folder letters are a last resort", () => {
  const items = [{ path: "Projects/Plan.md" }, { path: "Plan.md" }, { path: "Daily/2024-01-01.md" }];
  assert.deepEqual(paths("projects/pl", items), ["Projects/Plan.md"]);
  assert.deepEqual(paths("daily", items), ["Daily/2024-01-01.md"]);
  assert.deepEqual(paths("  ", items), []);
});

test("palette: recent commands first when empty; typing ranks by match, recent breaking near-ties", () => {
  const cmds = [
    { id: "a", label: "Open graph view" }, { id: "b", label: "Open settings" }, { id: "c", label: "Toggle theme" },
  ];
  assert.deepEqual(rankCommands("", cmds, ["c", "b"]).map((r) => r.cmd.id), ["c", "b", "a"]);
  assert.deepEqual(rankCommands("open", cmds, []).map((r) => r.cmd.id), ["b", "a"]); // shorter first
  assert.deepEqual(rankCommands("open", cmds, ["a"]).map((r) => r.cmd.id), ["a", "b"]);
  assert.deepEqual(rankCommands("theme", cmds, ["a"]).map((r) => r.cmd.id), ["c"]);
});

test("a new note's path: a typed folder is kept, else the vault's new_file_location decides", async () => {
  const { newNotePath } = await import("../../../frontend/src/nav/create.js");
  assert.equal(newNotePath("Idea", { new_file_location: "root" }, "Projects/Plan.md"), "Idea.md");
  assert.equal(newNotePath("Idea", { new_file_location: "current" }, "Projects/Plan.md"), "Projects/Idea.md");
  assert.equal(newNotePath("Idea", { new_file_location: "current" }, null), "Idea.md");
  assert.equal(newNotePath("Idea", { new_file_location: "folder", new_file_folder_path: "/Inbox/" }, null), "Inbox/Idea.md");
  assert.equal(newNotePath("Work/Idea", { new_file_location: "folder", new_file_folder_path: "Inbox" }, null), "Work/Idea.md");
  assert.equal(newNotePath("board.canvas", {}, null), "board.canvas");
  for (const bad of ["", "  ", ".hidden", "a/../b", "a/.x", "a//b"]) assert.equal(newNotePath(bad, {}, null), null, bad);
});

test("switcher: among prefix matches the shorter name wins before the shorter path", () => {
  const items = [{ path: "Lumclabriquin année.md" }, { path: "meetings/weekly/Lumclabriquin of.md" }, { path: "The 12.md" }, { path: "inbox/The 12.md" }];
  assert.deepEqual(paths("Lumclabriquin", items), ["meetings/weekly/Lumclabriquin of.md", "Lumclabriquin année.md"]);
  assert.deepEqual(paths("the 12", items), ["The 12.md", "inbox/The 12.md"]); // same name: the shorter path
});

test("a new note's name: the characters that break links or file names are named, once each", async () => {
  const { forbiddenChars } = await import("../../../frontend/src/nav/create.js");
  assert.equal(forbiddenChars("foo#bar"), "#");
  assert.equal(forbiddenChars("[[x]]"), "[ ]");
  assert.equal(forbiddenChars("a^b|c"), "^ |");
  assert.equal(forbiddenChars('a\\b:c*d"e<f>g?'), '\\ : * " < > ?');
  assert.equal(forbiddenChars("Projects/Brand new idea (2).md"), "");
});
