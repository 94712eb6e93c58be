// render/*: the reading view's pure parts: %% comments removed outside code (with the line map tasks need),
// Obsidian task items and block ids as markdown-it plugins, ticking a task line, the frontmatter split and the
// typed property edits that keep the rest of the YAML as written.
import { test } from "node:test";
import assert from "node:assert/strict";

const { stripComments } = await import("../../../frontend/src/render/comments.js");
const { taskItems } = await import("../../../frontend/src/render/tasks-md.js");
const { blockIds } = await import("../../../frontend/src/render/blockids.js");
const { splitFrontmatter, joinFrontmatter } = await import("../../../frontend/src/render/frontmatter.js");
const { applyPropertyEdit, readProperties } = await import("../../../frontend/src/render/yaml-edit.js");
const { propertyType, asWidgetValue, fromWidgetValue } = await import("../../../frontend/src/render/prop-types.js");
const { toggleTaskLine } = await import("../../../frontend/src/render/tasks.js");
const { previewSource } = await import("../../../frontend/src/render/hover.js");
const { default: MarkdownIt } = await import("../../../frontend/node_modules/markdown-it/index.mjs");

test("%% comments: inline, block, unclosed; literal inside code; lines mapped back", () => {
  assert.equal(stripComments("a %%hidden%% b").text, "a  b");
  const block = stripComments("one\n%%\nsecret\n%%\n- [ ] task");
  assert.equal(block.text, "one\n\n- [ ] task");
  assert.deepEqual(block.lineMap, [0, 1, 4]);
  assert.equal(stripComments("```\n%% kept %%\n```\n`%%x%%` %%y%%").text, "```\n%% kept %%\n```\n`%%x%%` ");
  assert.equal(stripComments("text %%to the end\nstill hidden").text, "text ");
  assert.equal(stripComments("no comment").lineMap.length, 1);
});

test("task items: any status char kept as data-task, the source line on the box", () => {
  const md = new MarkdownIt().use(taskItems);
  const html = md.render("- [ ] open\n- [x] done\n- [/] half\n- [-] dropped\n- not a task\n- [ab] neither", { lineMap: [0, 1, 2, 7, 8, 9] });
  assert.match(html, /<ul class="contains-task-list">/);
  assert.match(html, /<li data-task="" class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled data-line="0">open/);
  assert.match(html, /<li data-task="x" class="task-list-item is-checked"><input [^>]* checked data-line="1">done/);
  assert.match(html, /<li data-task="\/" class="task-list-item is-checked">/);
  assert.match(html, /data-task="-"[^>]*><input [^>]*data-line="7">dropped/);
  assert.match(html, /<li>not a task<\/li>/);
  assert.match(html, /<li>\[ab\] neither<\/li>/);
});

test("block ids: trailing ^id hidden and kept as data-block-id; a lone ^id names the block before", () => {
  const md = new MarkdownIt().use(blockIds);
  assert.equal(md.render("Some text ^abc-1\n"), '<p data-block-id="abc-1">Some text</p>\n');
  const list = md.render("- one ^i1\n- two\n\n^list\n");
  assert.match(list, /<ul data-block-id="list">/);
  assert.match(list, /<li data-block-id="i1">one<\/li>/);
  assert.doesNotMatch(list, /\^/);
  assert.equal(md.render("x^2 is not an id\n"), "<p>x^2 is not an id</p>\n");
  assert.match(md.render("> quoted\n\n^q\n"), /<blockquote data-block-id="q">/);
});

test("ticking a task rewrites only its status, found by text when lines moved", () => {
  const src = "---\ntags: [a]\n---\n# T\n- [ ] one\n- [/] two";
  assert.equal(toggleTaskLine(src, 1, "- [ ] one", "x"), "---\ntags: [a]\n---\n# T\n- [x] one\n- [/] two");
  assert.equal(toggleTaskLine(src, 2, "- [/] two", " "), "---\ntags: [a]\n---\n# T\n- [ ] one\n- [ ] two");
  assert.equal(toggleTaskLine(`${src}`.replace("# T\n", "# T\nnew line\n"), 1, "- [ ] one", "x").includes("- [x] one"), true);
  assert.equal(toggleTaskLine(src, 1, "- [ ] gone", "x"), null);
  assert.equal(toggleTaskLine("> [!todo]\n> - [ ] in a callout", 1, "> - [ ] in a callout", "x"), "> [!todo]\n> - [x] in a callout");
});

test("frontmatter split as the server does it", () => {
  assert.deepEqual(splitFrontmatter("---\na: 1\n---\nbody\n"), { yaml: "a: 1", body: "body\n", bodyLine: 3 });
  assert.deepEqual(splitFrontmatter("no fm"), { yaml: null, body: "no fm", bodyLine: 0 });
  assert.equal(joinFrontmatter("", "b"), "b");
});

test("property edits keep comments, order and other keys; invalid YAML is never rewritten", () => {
  const src = "---\n# a comment\ntitle: Old  # why\nnested: {a: 1}\ntags:\n  - x\n---\nBody [[link]]\n";
  const set = applyPropertyEdit(src, { op: "set", key: "title", value: "New" });
  assert.match(set, /# a comment\ntitle: New/);
  assert.match(set, /nested: \{ a: 1 \}/);
  assert.ok(set.endsWith("---\nBody [[link]]\n"));
  const renamed = applyPropertyEdit(src, { op: "rename", key: "title", to: "name" });
  assert.match(renamed, /^---\n# a comment\nname: Old/);
  assert.equal(applyPropertyEdit(src, { op: "rename", key: "title", to: "tags" }), null);
  const removed = applyPropertyEdit(src, { op: "remove", key: "tags" });
  assert.doesNotMatch(removed, /tags/);
  assert.deepEqual(readProperties(applyPropertyEdit(src, { op: "set", key: "tags", value: ["x", "y"] })).tags, ["x", "y"]);
  assert.equal(applyPropertyEdit("---\na: [1\n---\nb", { op: "set", key: "a", value: 1 }), null);
  assert.equal(applyPropertyEdit("just body", { op: "set", key: "done", value: true }), "---\ndone: true\n---\njust body");
  assert.equal(applyPropertyEdit("---\na: 1\n---\nb", { op: "remove", key: "a" }), "b");
  assert.equal(readProperties("---\na: [1\n---\n"), null);
});

test("property types: types.json first, else inferred; widget values round-trip", () => {
  assert.equal(propertyType("rating", "3", { rating: "number" }), "number");
  assert.equal(propertyType("topics", "a", { topics: "multitext" }), "list");
  assert.equal(propertyType("tags", "a"), "list");
  assert.equal(propertyType("due", "2024-05-01"), "date");
  assert.equal(propertyType("at", "2024-05-01T10:30:00"), "datetime");
  assert.equal(propertyType("ok", false), "checkbox");
  assert.equal(propertyType("n", 2.5), "number");
  assert.equal(propertyType("meta", { a: 1 }), "object");
  assert.deepEqual(asWidgetValue("list", "one"), ["one"]);
  assert.equal(asWidgetValue("datetime", "2024-05-01 10:30:00"), "2024-05-01T10:30");
  assert.equal(fromWidgetValue("number", "4"), 4);
  assert.equal(fromWidgetValue("number", ""), null);
  assert.equal(fromWidgetValue("datetime", "2024-05-01T10:30"), "2024-05-01T10:30:00");
  assert.deepEqual(fromWidgetValue("list", [" a ", ""]), ["a"]);
});

test("a preview is the note's start, cut at a line, an open fence closed", () => {
  assert.equal(previewSource("short"), "short");
  const long = `${"line\n".repeat(10)}\`\`\`\n${"code\n".repeat(2000)}`;
  const cut = previewSource(long, 200);
  assert.ok(cut.length < 260);
  assert.match(cut, /```\n\n…$/);
});

test("line endings: a CRLF note saved as CRLF, its final-newline state kept (issue 19 fix 1)", async () => {
  const { eolOf, toLF, withEol, inShapeOf } = await import("../../../frontend/src/eol.js");
  assert.equal(eolOf("a\r\nb\r\nc"), "\r\n");
  assert.equal(eolOf("a\nb\n"), "\n");
  assert.equal(eolOf("one line"), "\n");
  assert.equal(withEol(toLF("a\r\nb\r\nc"), "\r\n"), "a\r\nb\r\nc");
  assert.equal(withEol("a\nb\n", "\n"), "a\nb\n");
  const crlf = "---\r\nnum: 3\r\n---\r\n- [ ] task\r\nend";
  const edited = toLF(crlf).replace("- [ ]", "- [x]");
  assert.equal(inShapeOf(crlf, edited), "---\r\nnum: 3\r\n---\r\n- [x] task\r\nend");
  assert.equal(inShapeOf("a\nb", "a\nc\n"), "a\nc"); // no final newline added
  assert.equal(inShapeOf("a\nb\n", "a\nc\n"), "a\nc\n");
  assert.equal(inShapeOf("", "---\nk: v\n---\n"), "---\nk: v\n---\n");
});

test("a value its widget cannot show is edited as text; an impossible number refused (issue 19 fix 2)", async () => {
  const { editAs, badNumber, isRealDate } = await import("../../../frontend/src/render/prop-types.js");
  assert.equal(isRealDate("2024-02-29"), true);
  assert.equal(isRealDate("2024-02-30"), false);
  assert.equal(propertyType("due", "2024-02-30"), "text"); // inferred: not a date
  assert.equal(editAs("date", "2024-02-30"), "text"); // declared a date in types.json: shown as its text
  assert.equal(editAs("datetime", "2024-13-01T10:00"), "text");
  assert.equal(editAs("date", "2024-05-01"), "date");
  assert.equal(editAs("date", null), "date");
  assert.equal(editAs("number", "lots"), "text");
  assert.equal(editAs("number", 3), "number");
  assert.equal(badNumber("1e400"), true);
  assert.equal(badNumber("abc"), true);
  assert.equal(badNumber("1e3"), false);
  assert.equal(badNumber(""), false);
});

test("the raw HTML loses <base>, <link> and <meta> before DOMPurify parses it (a CSP error each otherwise)", async () => {
  const { precleanHtml } = await import("../../../frontend/src/render/preclean.js");
  assert.equal(precleanHtml('<base href="https://evil.example/"><p>x</p>'), "<p>x</p>");
  assert.equal(precleanHtml('<LINK rel="stylesheet" href="//e.x/a.css"/><meta http-equiv="refresh" content="0">ok'), "ok");
  assert.equal(precleanHtml('<p onclick="x()" style="color:red">a<!-- c --></p><script>1</script>'), "<p>a</p>");
  assert.equal(precleanHtml("<baseline>keep</baseline> <metadata>"), "<baseline>keep</baseline> <metadata>");
});
