// The note editor (issue 11 item 4): CodeMirror 6 markdown, `[[` completion from the vault, save with the
// version hash (the server refuses a save over a file changed since it was read: 409 conflict), a conflict
// dialog (keep mine / take theirs / merge with @codemirror/merge), and a local draft so unsaved text
// survives a reload and is never lost silently. Loaded on demand (not part of the first page load).

import { autocompletion } from "@codemirror/autocomplete";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { unifiedMergeView } from "@codemirror/merge";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { editorPrefs } from "../settings/prefs.js";
import * as api from "../api/index.js";
import { readDraft, writeDraft, dropDraft } from "../drafts.js";
import { aiToolbar } from "./aitoolbar.js";
import { livePreview, toggleChecklist } from "./livepreview.js";
import { linkCompletion } from "./complete.js";
import { themeHighlight } from "./highlight.js";
import { eolOf, toLF, withEol } from "../eol.js";

// api.fileSource: the whole file as stored (frontmatter included, secrets redacted; a save restores them): what
// the editor edits and saves back whole. read_file's `content` is only the body after the frontmatter.

/**
 * The text the editor may edit, or null with the reason's i18n key: a binary, a file too big for one read, or
 * one that is not valid UTF-8 (shown with U+FFFD replacements: saving them would destroy the original bytes).
 */
export async function loadSource(vault, path) {
  const src = await api.fileSource(vault, path, { quiet: true });
  if (src.encoding !== "utf-8") return { source: null, reason: "editor.notText" };
  if (src.next_offset != null) return { source: null, reason: "note.truncated" };
  if (src.content.includes("\uFFFD")) return { source: null, reason: "editor.notUtf8" };
  return { source: src, reason: null };
}

/**
 * Open the editor on `note` (loadSource's `source`: `{vault, path, content, version}`, the whole file) inside `container`.
 * options: `t(key, vars)`, `dialog(title, body, buttons) -> Promise<value>` (the app's modal), `onSaved(note)` (null: nothing to write),
 * `onError(err)`, `user` (whose drafts these are), `preview` (Live Preview's context, see livepreview.js; none:
 * source mode only), `sourceMode` (start in source mode). Returns `{view, save() -> Promise<saved?>, dirty(),
 * sourceMode(), setSourceMode(on), destroy()}`.
 */
export function openEditor(container, note, options) {
  const { t, dialog, onSaved, onError, user = "anonymous", preview = null } = options;
  let source = !preview || Boolean(options.sourceMode);
  const mode = new Compartment(); // Live Preview on or off (source mode), switched without losing the state
  let base = note.version;
  // the editor holds "\n" breaks; a save writes the file's own (a CRLF note stays CRLF)
  let eol = eolOf(note.content);
  let saved = toLF(note.content);
  const draft = readDraft(user, note.vault, note.path);
  let start = saved;
  // Unsaved work over a version that changed since (another tab, person or agent) is never silently dropped:
  // the editor opens on it, still based on the version it was written over (so a save is a conflict, not an
  // overwrite), and the conflict dialog offers keep mine / take theirs / merge at once.
  const stale = Boolean(draft && draft.base !== note.version && draft.content !== saved);
  if (draft && draft.content !== saved) {
    start = draft.content;
    if (stale) base = draft.base;
  }

  const nonce = document.querySelector('meta[name="csp-nonce"]')?.content;
  const prefs = editorPrefs(); // the person's options (settings page): wrapping, line numbers, font size
  const ai = aiToolbar(container); // the AI actions on a selection (aitoolbar.js)
  const extensions = (...extra) => [
    nonce ? EditorView.cspNonce.of(nonce) : [],
    basicSetup,
    themeHighlight, // the syntax colours readable in the dark theme too (a11y)
    markdown({ base: markdownLanguage }), // GFM: tables, task lists, strikethrough
    mode.of(source ? [] : livePreview(preview)),
    prefs.lineWrapping ? EditorView.lineWrapping : [],
    prefs.lineNumbers ? [] : EditorView.editorAttributes.of({ class: "cm-no-line-numbers" }),
    EditorView.theme({ "&": { fontSize: `${prefs.fontSize}px` } }),
    autocompletion({ override: [linkCompletion(note.vault, note.path)] }),
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => { save(); return true; } },
      { key: "Mod-l", preventDefault: true, run: toggleChecklist }, // Obsidian's editor:toggle-checklist-status
    ]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) writeDraft(user, note.vault, note.path, update.state.doc.toString(), base);
    }),
    EditorView.contentAttributes.of({ "aria-label": t("editor.label", { path: note.path }) }),
    ai.extension,
    ...extra,
  ];
  const view = new EditorView({ parent: container, state: EditorState.create({ doc: start, extensions: extensions() }) });
  ai.attach(view);

  const text = () => view.state.doc.toString();
  let mergeOpen = false; // the merge view shows: a save writes even a text equal to the last one saved

  async function put(content, version) {
    const bytes = withEol(content, eol);
    await api.saveFile(note.vault, { path: note.path, content: bytes, version }, { quiet: true }); // errors: onError or the dialog
    const fresh = await api.fileSource(note.vault, note.path, { quiet: true });
    // The file read back is ours only if it reads as what we sent: another writer between the save and this
    // read must still make the next save a conflict, never be overwritten by it.
    if (fresh.content === bytes) base = fresh.version;
    saved = content;
    mergeOpen = false;
    // text typed while the save was in flight stays a draft (over the version just saved)
    if (text() === content) dropDraft(user, note.vault, note.path);
    else writeDraft(user, note.vault, note.path, text(), base);
    onSaved?.(fresh);
  }

  /** Saves the text; true when it is on disk as shown (a conflict resolved by the dialog counts if resolved). */
  async function save() {
    const mine = text();
    if (mine === saved && !mergeOpen) { // nothing changed: no write (the file keeps its bytes and its mtime)
      dropDraft(user, note.vault, note.path);
      onSaved?.(null); // it is on disk as shown
      return true;
    }
    try {
      await put(mine, base);
    } catch (err) {
      if (err.status === 409 && err.code === "conflict") await resolveConflict(mine);
      else onError?.(err);
    }
    return text() === saved;
  }

  async function resolveConflict(mine) {
    const theirs = await api.fileSource(note.vault, note.path, { quiet: true });
    eol = eolOf(theirs.content);
    const theirsLF = toLF(theirs.content);
    const choice = await dialog(t("editor.conflict_title"), t("editor.conflict_body", { path: note.path }), [
      { value: "mine", label: t("editor.keep_mine") },
      { value: "theirs", label: t("editor.take_theirs") },
      { value: "merge", label: t("editor.merge"), primary: true },
    ]);
    if (choice === "mine") {
      await put(mine, theirs.version).catch(onError);
    } else if (choice === "theirs") {
      base = theirs.version;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: theirsLF } });
      saved = theirsLF;
      dropDraft(user, note.vault, note.path);
    } else if (choice === "merge") {
      // their file is the original; my text is the document with per-chunk Accept/Reject controls
      base = theirs.version;
      mergeOpen = true;
      view.setState(EditorState.create({
        doc: mine,
        extensions: extensions(unifiedMergeView({ original: theirsLF, mergeControls: true, collapseUnchanged: { margin: 3 } })),
      }));
    }
  }

  if (stale) resolveConflict(draft.content).catch((err) => onError?.(err));

  return {
    view,
    save,
    dirty: () => text() !== saved,
    sourceMode: () => source,
    setSourceMode(on) {
      if (!preview || on === source) return;
      source = on;
      view.dispatch({ effects: mode.reconfigure(source ? [] : livePreview(preview)) });
    },
    destroy: () => { ai.destroy(); view.destroy(); },
  };
}
