// Templates as Obsidian's core Templates and Daily notes plugins fill them (obsidian-app.md §3.2, §3.3): the
// variables {{title}}, {{date}}, {{time}}, {{date:FMT}}, {{time:FMT}} (case-insensitive, spaces inside the
// braces allowed), and a template's frontmatter merged into the note's. Pure, node-tested
// (tests/web/js/nav-template.test.mjs).
import { formatDate } from "./moment.js";

const VAR = /\{\{\s*(title|date|time)\s*(?::\s*([^}]*?)\s*)?\}\}/gi;

/**
 * `text` with its template variables filled. `vars`: {title, date (a Date), dateFormat, timeFormat, lang,
 * dateText?}: `dateText`, when given, is what a bare {{date}} becomes (a daily note's own file name, as the
 * Daily notes plugin does); otherwise `date` formatted with `dateFormat`.
 */
export function fillTemplate(text, { title = "", date = new Date(), dateFormat = "YYYY-MM-DD", timeFormat = "HH:mm", lang = "en", dateText } = {}) {
  return String(text).replace(VAR, (all, name, fmt) => {
    const key = name.toLowerCase();
    if (key === "title") return fmt === undefined ? title : all;
    if (fmt) return formatDate(date, fmt, lang);
    if (key === "date") return dateText ?? formatDate(date, dateFormat, lang);
    return formatDate(date, timeFormat, lang);
  });
}

const FENCE = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** {front, body}: the frontmatter's YAML text (null when there is none) and the rest of `text`. */
export function splitFrontmatter(text) {
  const m = FENCE.exec(text);
  if (!m) return { front: null, body: text };
  return { front: m[1], body: text.slice(m[0].length) };
}

/** Top-level YAML entries of a frontmatter block: [{key, lines}] (a key line and its indented or list
 * continuation lines), in order. Lines before the first key (comments) go in an entry with key null. */
function entries(front) {
  const out = [];
  for (const line of front.split(/\r?\n/)) {
    const m = /^([^\s#-][^:]*?|"[^"]*"|'[^']*'):(?:\s|$)/.exec(line);
    if (m) out.push({ key: m[1].replace(/^["']|["']$/g, "").trim(), lines: [line] });
    else if (out.length) out[out.length - 1].lines.push(line);
    else out.push({ key: null, lines: [line] });
  }
  return out;
}

/** The items of a list entry (block `- x` lines or an inline `[a, b]`), or null when it is not a list. */
function listItems(entry) {
  const head = entry.lines[0].slice(entry.lines[0].indexOf(":") + 1).trim();
  const rest = entry.lines.slice(1).filter((l) => l.trim());
  if (!head && rest.length && rest.every((l) => /^\s*-\s/.test(l) || /^\s*-$/.test(l))) return rest.map((l) => l.replace(/^\s*-\s?/, "").trim());
  const inline = /^\[(.*)\]$/.exec(head);
  if (inline && !rest.length) return inline[1].split(",").map((s) => s.trim()).filter(Boolean);
  if (!head && !rest.length) return [];
  return null;
}

/**
 * The note's frontmatter `noteFront` (YAML text or null) with the template's `tplFront` merged in, as Obsidian
 * merges a template's properties: keys the note lacks are added (in the template's order); a list in both
 * gets the template's missing items appended; any other value the note already has is kept. Returns YAML
 * text (the note's own lines untouched when nothing is added), or null when both are null.
 */
export function mergeFrontmatter(noteFront, tplFront) {
  if (tplFront == null) return noteFront;
  if (noteFront == null || !noteFront.trim()) return tplFront;
  const mine = entries(noteFront);
  const byKey = new Map(mine.filter((e) => e.key).map((e) => [e.key, e]));
  for (const e of entries(tplFront)) {
    if (!e.key) continue;
    const have = byKey.get(e.key);
    if (!have) { mine.push(e); byKey.set(e.key, e); continue; }
    const a = listItems(have), b = listItems(e);
    if (!a || !b) continue;
    const add = b.filter((x) => !a.includes(x));
    if (!add.length) continue;
    have.lines = [`${have.lines[0].slice(0, have.lines[0].indexOf(":") + 1)}`, ...[...a, ...add].map((x) => `  - ${x}`)];
  }
  return mine.map((e) => e.lines.join("\n")).join("\n");
}

/** `note` (whole text) with `template` (whole text, variables already filled) applied: the template's body
 * inserted at `at` (an offset in the note's BODY, after its frontmatter; default its end) and its frontmatter
 * merged. Returns {text, cursor}: the new text and where the inserted body ends. */
export function applyTemplate(note, template, at = null) {
  const n = splitFrontmatter(note);
  const tpl = splitFrontmatter(template);
  const front = mergeFrontmatter(n.front, tpl.front);
  const head = front == null ? "" : `---\n${front}\n---\n`;
  const pos = at == null ? n.body.length : Math.max(0, Math.min(at, n.body.length));
  let before = n.body.slice(0, pos);
  if (at == null && before && !before.endsWith("\n")) before += "\n";
  const body = before + tpl.body + n.body.slice(pos);
  return { text: head + body, cursor: head.length + before.length + tpl.body.length };
}
