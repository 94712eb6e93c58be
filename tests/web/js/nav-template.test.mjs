// nav/template-text.js: template variables and frontmatter merge (obsidian-app.md §3.2, §3.3).
import { test } from "node:test";
import assert from "node:assert/strict";

const { fillTemplate, mergeFrontmatter, applyTemplate, splitFrontmatter } = await import("../../../frontend/src/nav/template-text.js");

const date = new Date(2024, 0, 5, 9, 3);

test("variables: title, date, time, with formats, any case, spaces inside the braces", () => {
  const tpl = "# {{title}}\n{{date}} {{time}} | {{ DATE : dddd }} {{time:HH[h]mm}} {{Title}} {{other}}";
  assert.equal(fillTemplate(tpl, { title: "Plan", date, dateFormat: "DD/MM/YYYY", timeFormat: "h:mm A" }),
    "# Plan\n05/01/2024 9:03 AM | Friday 09h03 Plan {{other}}");
  assert.equal(fillTemplate("{{date}}", { date, dateText: "2024-01-05" }), "2024-01-05"); // a daily note's name
});

test("frontmatter: missing keys added, lists unioned, the note's values kept", () => {
  const note = "title: Mine\ntags:\n  - a\n  - b";
  const tpl = "title: Theirs\ntags: [b, c]\ntype: daily\nlinks:\n  - x";
  assert.equal(mergeFrontmatter(note, tpl), "title: Mine\ntags:\n  - a\n  - b\n  - c\ntype: daily\nlinks:\n  - x");
  assert.equal(mergeFrontmatter(null, "a: 1"), "a: 1");
  assert.equal(mergeFrontmatter("a: 1", null), "a: 1");
  assert.equal(mergeFrontmatter("a: 1", "a: 2"), "a: 1");
});

test("apply: the body inserted at the offset (or the end), the frontmatter merged", () => {
  const note = "---\ntags: [x]\n---\nHello\nWorld\n";
  const tpl = "---\ntags: [y]\nstatus: new\n---\n## Log\n";
  const end = applyTemplate(note, tpl);
  assert.equal(end.text, "---\ntags:\n  - x\n  - y\nstatus: new\n---\nHello\nWorld\n## Log\n");
  assert.equal(end.text.slice(0, end.cursor).endsWith("## Log\n"), true);
  const mid = applyTemplate("Hello", "ABC", 2);
  assert.deepEqual(mid, { text: "HeABCllo", cursor: 5 });
  assert.deepEqual(splitFrontmatter("no front"), { front: null, body: "no front" });
  assert.equal(applyTemplate("", "---\na: 1\n---\nbody").text, "---\na: 1\n---\nbody");
});

// kepano's real vault (../shared/vaults, beside the repository; skipped when absent): its .obsidian settings,
// daily notes and every template.
import { existsSync, readFileSync, readdirSync } from "node:fs";

const KEPANO = new URL("../../../../shared/vaults/kepano-obsidian/", import.meta.url);
const { parseDate, formatDate } = await import("../../../frontend/src/nav/moment.js");

test("kepano-obsidian: its daily notes read back with its format; every template applies with its properties merged", { skip: !existsSync(KEPANO) && "the shared vault is absent" }, () => {
  const daily = JSON.parse(readFileSync(new URL(".obsidian/daily-notes.json", KEPANO), "utf8"));
  const format = daily.format || "YYYY-MM-DD"; // absent there: Obsidian's default
  const names = readdirSync(new URL(`${daily.folder}/`, KEPANO)).filter((n) => n.endsWith(".md")).map((n) => n.slice(0, -3));
  assert.ok(names.length >= 2);
  for (const n of names) assert.equal(formatDate(parseDate(n, format), format), n);
  const folder = JSON.parse(readFileSync(new URL(".obsidian/templates.json", KEPANO), "utf8")).folder;
  const templates = readdirSync(new URL(`${folder}/`, KEPANO)).filter((n) => n.endsWith(".md"));
  assert.ok(templates.length > 20);
  const note = "---\ntags:\n  - mine\nrating: 3\n---\nMy text\n";
  for (const name of templates) {
    const raw = readFileSync(new URL(`${folder}/${name}`, KEPANO), "utf8");
    const filled = fillTemplate(raw, { title: "Trip", date });
    assert.ok(!/\{\{\s*(date|time|title)/i.test(filled), name);
    const { text } = applyTemplate(note, filled);
    const front = splitFrontmatter(text).front;
    for (const key of (splitFrontmatter(filled).front || "").split("\n").map((l) => /^([^\s-][^:]*):/.exec(l)?.[1]).filter(Boolean)) {
      assert.ok(front.split("\n").some((l) => l.startsWith(`${key}:`)), `${name}: ${key} merged`);
    }
    assert.ok(front.includes("  - mine") && front.includes("rating: 3") && text.includes("My text\n"), name);
  }
});
