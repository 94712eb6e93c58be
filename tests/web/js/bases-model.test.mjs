// bases/model.js: cell text, the column sort of a base view (empty cells last both ways), card images.
import { test } from "node:test";
import assert from "node:assert/strict";

const { cellText, sortRows, cardImage, compareCells } = await import("../../../frontend/src/bases/model.js");

const link = (text, path = null) => ({ $: "link", path, text });
const row = (...cells) => ({ path: cells.map(cellText).join("|"), cells });

test("cell text of every kind", () => {
  assert.equal(cellText([link("Dune", "Dune.md"), "x", 3]), "Dune, x, 3");
  assert.equal(cellText({ $: "date", v: "2024-01-05" }), "2024-01-05");
  assert.equal(cellText({ $: "object", v: { a: 1 } }), '{"a":1}');
  assert.equal(cellText(null), "");
  assert.equal(cellText(false), "false");
});

test("numbers, dates and text sort by their kind; empty cells stay last in both directions", () => {
  const rows = [row(10, "b"), row(null, "c"), row(9, "A"), row({ $: "error", v: "x" }, "d"), row(100, "a2")];
  assert.deepEqual(sortRows(rows, 0, 1).map((r) => r.cells[0]), [9, 10, 100, null, { $: "error", v: "x" }]);
  assert.deepEqual(sortRows(rows, 0, -1).map((r) => r.cells[0]), [100, 10, 9, null, { $: "error", v: "x" }]);
  assert.deepEqual(sortRows(rows, 1, 1).map((r) => r.cells[1]), ["A", "a2", "b", "c", "d"]);
  assert.ok(compareCells({ $: "date", v: "2023-12-31" }, { $: "date", v: "2024-01-01" }) < 0);
  assert.ok(compareCells(link("Note 2"), link("Note 10")) < 0); // natural order
});

test("card images: vault images, colours, never a remote URL", () => {
  assert.deepEqual(cardImage("./cover.png"), { path: "cover.png" });
  assert.deepEqual(cardImage("#ff8800"), { colour: "#ff8800" });
  assert.equal(cardImage("https://example.com/a.png"), null);
  assert.deepEqual(cardImage(link("cover", "Attachments/cover.jpg")), { path: "Attachments/cover.jpg" });
  assert.deepEqual(cardImage([link("a", "a.webp")]), { path: "a.webp" });
  assert.equal(cardImage(link("Note", "Note.md")), null);
});

test("the chosen view is kept per base file (and block), forgotten on null", async () => {
  const { readChosenView, writeChosenView } = await import("../../../frontend/src/bases/model.js");
  const m = new Map();
  const storage = { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v), removeItem: (k) => m.delete(k) };
  assert.equal(readChosenView(storage, "notes", "Books.base"), null);
  writeChosenView(storage, "notes", "Books.base", null, "Shelf");
  writeChosenView(storage, "notes", "Home.md", 0, "Cards");
  assert.equal(readChosenView(storage, "notes", "Books.base"), "Shelf");
  assert.equal(readChosenView(storage, "other", "Books.base"), null);
  assert.equal(readChosenView(storage, "notes", "Home.md", 0), "Cards");
  assert.equal(readChosenView(storage, "notes", "Home.md", 1), null);
  writeChosenView(storage, "notes", "Books.base", null, null);
  assert.equal(readChosenView(storage, "notes", "Books.base"), null);
  assert.equal(readChosenView(undefined, "notes", "Books.base"), null); // no storage
});
