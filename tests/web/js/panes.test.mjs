// panes/layout.js (tabs and split as data) and tagtree/nest.js (nested tags from the flat list).
import { test } from "node:test";
import assert from "node:assert/strict";

const L = await import("../../../frontend/src/panes/layout.js");
const { nestTags } = await import("../../../frontend/src/tagtree/nest.js");

const A = "#/v/n/A.md", B = "#/v/n/B.md", C = "#/v/n/C.md", HOME = "#/v/n";

test("navigate: same, another tab of the pane activated, the active tab moved, a new tab on request", () => {
  const l = L.emptyLayout(A);
  assert.equal(L.navigate(l, A), "same");
  assert.equal(L.navigate(l, B), "navigated");
  assert.deepEqual(l.panes[0], { tabs: [B], active: 0 });
  assert.equal(L.navigate(l, C, { newTab: true }), "opened");
  assert.deepEqual(l.panes[0], { tabs: [B, C], active: 1 });
  assert.equal(L.navigate(l, B), "activated"); // back after a tab switch: that tab again, nothing overwritten
  assert.deepEqual(l.panes[0], { tabs: [B, C], active: 0 });
  assert.equal(L.activeHash(l), B);
});

test("open after the active tab; close activates the right neighbour, else the left; the last tab becomes home", () => {
  const l = L.emptyLayout(A);
  L.openTab(l, B);
  L.openTab(l, C); // A B C, C active
  l.panes[0].active = 1;
  assert.deepEqual(L.closeTab(l, 0, 1, HOME), { hash: B, pane: 0, index: 1 });
  assert.deepEqual(l.panes[0], { tabs: [A, C], active: 1 }); // C, the right neighbour
  L.closeTab(l, 0, 1, HOME);
  assert.deepEqual(l.panes[0], { tabs: [A], active: 0 });
  L.closeTab(l, 0, 0, HOME);
  assert.deepEqual(l.panes[0], { tabs: [HOME], active: 0 });
});

test("closing a tab left of the active one keeps the same tab active", () => {
  const l = { panes: [{ tabs: [A, B, C], active: 2 }], focus: 0 };
  L.closeTab(l, 0, 0, HOME);
  assert.deepEqual(l.panes[0], { tabs: [B, C], active: 1 });
});

test("reopen puts the tab back where it was and activates it", () => {
  const l = { panes: [{ tabs: [A, B, C], active: 0 }], focus: 0 };
  const closed = L.closeTab(l, 0, 1, HOME);
  L.reopenTab(l, closed);
  assert.deepEqual(l.panes[0], { tabs: [A, B, C], active: 1 });
});

test("cycle wraps around; goto 1..8 and 9 = last; out of range is refused", () => {
  const l = { panes: [{ tabs: [A, B, C], active: 0 }], focus: 0 };
  L.cycleTab(l, -1);
  assert.equal(l.panes[0].active, 2);
  L.cycleTab(l, 1);
  assert.equal(l.panes[0].active, 0);
  assert.equal(L.gotoTab(l, 9), true);
  assert.equal(l.panes[0].active, 2);
  assert.equal(L.gotoTab(l, 2), true);
  assert.equal(l.panes[0].active, 1);
  assert.equal(L.gotoTab(l, 5), false);
  assert.equal(l.panes[0].active, 1);
});

test("split right copies the location into a focused second pane; a third is refused; closing its tab unsplits", () => {
  const l = L.emptyLayout(A);
  assert.equal(L.splitRight(l), true);
  assert.deepEqual(l, { panes: [{ tabs: [A], active: 0 }, { tabs: [A], active: 0 }], focus: 1 });
  assert.equal(L.splitRight(l), false);
  L.navigate(l, B);
  assert.deepEqual(l.panes[1].tabs, [B]);
  assert.deepEqual(l.panes[0].tabs, [A]); // the other pane keeps its note
  const closed = L.closeTab(l, 1, 0, HOME);
  assert.deepEqual(l, { panes: [{ tabs: [A], active: 0 }], focus: 0 });
  L.reopenTab(l, closed); // its pane is gone: back in the focused one
  assert.deepEqual(l.panes[0], { tabs: [B, A], active: 0 });
});

test("closing the first pane of a split moves the focus onto the one left", () => {
  const l = { panes: [{ tabs: [A], active: 0 }, { tabs: [B], active: 0 }], focus: 1 };
  L.closeTab(l, 0, 0, HOME);
  assert.deepEqual(l, { panes: [{ tabs: [B], active: 0 }], focus: 0 });
});

test("a pane keeps at most MAX_TABS tabs: the oldest goes", () => {
  const l = L.emptyLayout("#/v/n/0.md");
  for (let i = 1; i <= L.MAX_TABS; i++) L.openTab(l, `#/v/n/${i}.md`);
  assert.equal(l.panes[0].tabs.length, L.MAX_TABS);
  assert.equal(l.panes[0].tabs[0], "#/v/n/1.md");
  assert.equal(L.activeHash(l), `#/v/n/${L.MAX_TABS}.md`);
});

test("parseLayout accepts a stored layout, clamps it, and refuses junk", () => {
  assert.equal(L.parseLayout(null), null);
  assert.equal(L.parseLayout({ panes: "x" }), null);
  assert.equal(L.parseLayout({ panes: [{ tabs: ["javascript:alert(1)"] }] }), null);
  assert.deepEqual(
    L.parseLayout({ panes: [{ tabs: [A, 3, B], active: 7 }, { tabs: [] }, { tabs: [C], active: 0 }], focus: 5 }),
    { panes: [{ tabs: [A, B], active: 1 }, { tabs: [C], active: 0 }], focus: 0 });
});

test("nestTags: nested under each level, server counts kept, missing parents filled, sorted by name", () => {
  const tree = nestTags([
    { tag: "project/sensors", count: 2 }, { tag: "project", count: 3 }, { tag: "Zeta", count: 1 },
    { tag: "project/ops/night", count: 1 }, { tag: "alpha", count: 4 }, { tag: "project/item10", count: 1 }, { tag: "project/item9", count: 1 },
  ]);
  assert.deepEqual(tree.map((n) => n.name), ["alpha", "project", "Zeta"]);
  const project = tree[1];
  assert.equal(project.count, 3);
  assert.deepEqual(project.children.map((n) => [n.name, n.tag, n.count]),
    [["item9", "project/item9", 1], ["item10", "project/item10", 1], ["ops", "project/ops", 1], ["sensors", "project/sensors", 2]]);
  assert.deepEqual(project.children[2].children, [{ name: "night", tag: "project/ops/night", count: 1, children: [] }]);
});

test("nestTags: tags compare case-insensitively; empty segments ignored", () => {
  const tree = nestTags([{ tag: "Work/A", count: 1 }, { tag: "work", count: 2 }, { tag: "work//b", count: 1 }]);
  assert.equal(tree.length, 1);
  assert.equal(tree[0].count, 2);
  assert.deepEqual(tree[0].children.map((n) => n.name), ["A", "b"]);
});

test("relocate: moved files' tabs follow, deleted files' tabs close, a pane never empties", () => {
  const l = { panes: [{ tabs: [A, B, C], active: 2 }, { tabs: [B], active: 0 }], focus: 0 };
  const move = (h) => (h === A ? "#/v/n/Z.md" : h === B ? null : h);
  assert.equal(L.relocate(l, move), true);
  assert.deepEqual(l.panes[0], { tabs: ["#/v/n/Z.md", C], active: 1 });
  assert.deepEqual(l.panes[1], { tabs: [B], active: 0 }); // its only tab stays
  const m = { panes: [{ tabs: [A, B, C], active: 1 }], focus: 0 };
  L.relocate(m, (h) => (h === B ? null : h));
  assert.deepEqual(m.panes[0], { tabs: [A, C], active: 0 }); // the closed active tab's left neighbour
  assert.equal(L.relocate(m, (h) => h), false);
});

test("bookmarkTarget: a note at its heading or block, a search, the graph, only safe web links", async () => {
  const { bookmarkTarget } = await import("../../../frontend/src/bookmarks/bookmarks.js");
  assert.deepEqual(bookmarkTarget({ type: "file", path: "Projects/Plan.md", subpath: "#Budget" }, "n"),
    { href: "#/v/n/Projects/Plan.md?h=Budget", label: "Plan > Budget", icon: "note" });
  assert.equal(bookmarkTarget({ type: "file", path: "A b.md", subpath: "#^x1" }, "n").href, "#/v/n/A%20b.md?h=%5Ex1");
  assert.equal(bookmarkTarget({ type: "file", path: "A.md", title: "Mine" }, "n").label, "Mine");
  assert.equal(bookmarkTarget({ type: "search", query: "tag:#x" }, "n").href, "#/search?q=tag%3A%23x&v=n");
  assert.equal(bookmarkTarget({ type: "graph" }, "n").href, "#/graph?v=n");
  assert.equal(bookmarkTarget({ type: "url", url: "javascript:alert(1)" }, "n").href, null);
  assert.equal(bookmarkTarget({ type: "url", url: "https://obsidian.md" }, "n").href, "https://obsidian.md");
  assert.equal(bookmarkTarget({ type: "folder", path: "Projects" }, "n").folder, "Projects");
});
