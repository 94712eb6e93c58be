// Daily notes and templates as the vault's own Obsidian settings say (.obsidian/daily-notes.json and
// templates.json, read through vault-config.js; obsidian-app.md §3.2, §3.3):
//   openDaily(vault, date)      today's (or any day's) note: folder/ + format(date) + ".md", opened if it exists,
//                               else created from the daily template through the app's create path
//   stepDaily(vault, path, ±1)  the previous or next EXISTING daily note (names that parse with the format)
//   insertTemplate(...)         a template from the templates folder, its variables filled, into the note: at the
//                               cursor of the editor when one is open (insertIntoView), else at the end of the
//                               note through the app's save path (the version check makes a concurrent change a
//                               conflict, never an overwrite)
import * as api from "../api/index.js";
import { getLang } from "../i18n.js";
import { vaultConfig } from "../vault-config.js";
import { formatDate, parseDate } from "./moment.js";
import { fillTemplate, applyTemplate, splitFrontmatter } from "./template-text.js";
import { createNote } from "./create.js";

const clean = (p) => String(p || "").replace(/^\/+|\/+$/g, "");
const withMd = (p) => (/\.md$/i.test(p) ? p : `${p}.md`);
const lastSegment = (p) => p.split("/").pop();

/** The daily note's path for `date` under the settings `dn` ({folder, format}). */
export function dailyPath(dn, date, lang = getLang()) {
  const name = formatDate(date, dn.format || "YYYY-MM-DD", lang);
  const folder = clean(dn.folder);
  return `${folder ? `${folder}/` : ""}${name}.md`;
}

/** The text of the template at `path` (a vault path, `.md` optional), or "" when there is none or it cannot be read. */
async function templateText(vault, path) {
  if (!clean(path)) return "";
  try {
    return (await api.fileSource(vault, withMd(clean(path)), { quiet: true })).content;
  } catch { return ""; }
}

/** Open or create the daily note of `date` in `vault`; resolves its path. */
export async function openDaily(vault, date = new Date()) {
  const cfg = await vaultConfig(vault);
  const dn = cfg.daily_notes;
  const path = dailyPath(dn, date);
  // whether it exists, from the index (a 404 of a read would be logged by the browser as an error); an index
  // that has not seen it yet makes the create below answer "exists", which opens it all the same
  const { hits } = await api.treeSearch({ q: path, vault, limit: 100 }, { quiet: true });
  if (hits.some((h) => h.path === path && h.vault === vault)) return path;
  const name = lastSegment(path).replace(/\.md$/i, "");
  const text = fillTemplate(await templateText(vault, dn.template), {
    title: name, date, dateText: name, dateFormat: dn.format, timeFormat: "HH:mm", lang: getLang(),
  });
  return createNote(vault, path, text, { openExisting: true });
}

/** Every existing daily note of `vault`: [{path, date}] sorted by date (names read back with the format). */
export async function dailyNotes(vault) {
  const cfg = await vaultConfig(vault);
  const dn = cfg.daily_notes;
  const folder = clean(dn.folder);
  const out = [];
  for (let offset = 0; ;) {
    const page = await api.vaultFiles(vault, { dir: folder, limit: 5000, offset, recursive: true }, { quiet: true });
    for (const f of page.files || []) {
      const path = f.path || f;
      if (!/\.md$/i.test(path)) continue;
      const rel = (folder ? path.slice(folder.length + 1) : path).replace(/\.md$/i, "");
      const date = parseDate(rel, dn.format || "YYYY-MM-DD", getLang());
      if (date) out.push({ path, date });
    }
    if (page.next_offset == null || !(page.files || []).length) break;
    offset = page.next_offset;
  }
  return out.sort((a, b) => a.date - b.date);
}

/** The existing daily note before (`step` -1) or after (+1) the one at `path` (or today, when `path` is not a
 * daily note); null when there is none. */
export async function stepDaily(vault, path, step) {
  const notes = await dailyNotes(vault);
  const here = notes.find((n) => n.path === path)?.date;
  const from = here || new Date(new Date().setHours(0, 0, 0, 0));
  const pick = step < 0 ? notes.filter((n) => n.date < from).pop() : notes.find((n) => n.date > from);
  return pick?.path || null;
}

/** The templates of `vault`: [{label, detail, value: path}] (the notes of the templates folder). */
export async function listTemplates(vault) {
  const cfg = await vaultConfig(vault);
  const folder = clean(cfg.templates.folder);
  if (!folder) return [];
  const page = await api.vaultFiles(vault, { dir: folder, limit: 5000, recursive: true }, { quiet: true });
  return (page.files || []).map((f) => f.path || f).filter((p) => /\.md$/i.test(p))
    .map((p) => ({ label: lastSegment(p).replace(/\.md$/i, ""), detail: p, value: p }));
}

/** The template at `tplPath` with its variables filled for the note at `notePath` (now, the vault's formats). */
export async function filledTemplate(vault, tplPath, notePath) {
  const cfg = await vaultConfig(vault);
  const tp = cfg.templates;
  return fillTemplate(await templateText(vault, tplPath), {
    title: lastSegment(notePath).replace(/\.md$/i, ""), date: new Date(), dateFormat: tp.date_format || "YYYY-MM-DD",
    timeFormat: tp.time_format || "HH:mm", lang: getLang(),
  });
}

/**
 * Insert `template` (filled text) into the CodeMirror EditorView `view` at its cursor, its frontmatter merged
 * into the note's (obsidian-app.md §3.3); one transaction (one undo step). A cursor inside the frontmatter
 * inserts at the start of the body.
 */
export function insertIntoView(view, template) {
  const doc = view.state.doc.toString();
  const { body } = splitFrontmatter(doc);
  const head = doc.length - body.length;
  const at = Math.max(0, view.state.selection.main.head - head);
  const tpl = splitFrontmatter(template);
  if (tpl.front == null) {
    const pos = head + at;
    view.dispatch({ changes: { from: pos, insert: tpl.body }, selection: { anchor: pos + tpl.body.length }, scrollIntoView: true, userEvent: "input.template" });
  } else {
    const { text, cursor } = applyTemplate(doc, template, at);
    view.dispatch({ changes: { from: 0, to: doc.length, insert: text }, selection: { anchor: cursor }, scrollIntoView: true, userEvent: "input.template" });
  }
  view.focus();
}

/** Insert `template` at the end of the saved note `path` (no editor open): read it, apply, save over the
 * version read (a conflict if it changed in between). */
export async function appendToNote(vault, path, template) {
  const src = await api.fileSource(vault, path, { quiet: true });
  const { text } = applyTemplate(src.content, template);
  await api.saveFile(vault, { path, content: text, version: src.version }, { quiet: true });
}

/** Insert `text` at the cursor of `view` (the current date or time). */
export function insertText(view, text) {
  const { from, to } = view.state.selection.main;
  view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, userEvent: "input" });
  view.focus();
}
