// Edit mode of the note view (issue 19 item 1): the rendered note is replaced in place by the editor, in Live
// Preview unless the person chose source mode (kept in local storage, like Obsidian's per-vault default), the
// cursor in it at once. Save goes through the editor's save path (version check, conflict dialog, merge);
// Close (or Mod+E, the note view's command) goes back to reading. Loaded on demand with the editor.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { choiceDialog } from "../dialog.js";
import { showError, toast } from "../toast.js";
import { vaultConfig } from "../vault-config.js";
import { loadSource, openEditor } from "./editor.js";

const SOURCE_KEY = "obsigate.editor.sourceMode";

/** Whether the person last chose source mode ("1"/"0" in local storage); else the vault's Obsidian default. */
async function startInSource(vault) {
  let stored = null;
  try { stored = localStorage.getItem(SOURCE_KEY); } catch { /* storage off */ }
  if (stored != null) return stored === "1";
  const config = await vaultConfig(vault);
  return config.app?.live_preview === false;
}

/**
 * Opens the editor in place of `body` (the rendered note) for `note` (read_file's answer: vault, path, links).
 * options: `user`, `preview` (livepreview.js's context), `close()` (back to reading). Returns the controller
 * the note view keeps: `{save(), dirty(), destroy(), toggleSource(), canPreview}`, or null when the file cannot
 * be edited (a toast says why).
 */
export async function openEditMode(body, editBtn, note, { user, preview, close }) {
  let loaded;
  try {
    loaded = await loadSource(note.vault, note.path);
  } catch (err) {
    showError(err);
    return null;
  }
  if (!loaded.source) { toast(t(loaded.reason)); return null; }
  const sourceMode = await startInSource(note.vault);
  if (!body.isConnected) return null; // the person went elsewhere meanwhile
  const box = el("div.editor-box");
  const save = el("button.button.primary", { type: "button", id: "save-note" }, t("editor.save"));
  const closeBtn = el("button.button", { type: "button", id: "close-editor", "aria-keyshortcuts": "Control+E" }, t("editor.close"));
  const toggle = el("button.button.source-toggle", { type: "button", id: "toggle-source", "aria-pressed": String(sourceMode) }, t("editor.sourceMode"));
  body.replaceWith(el("div.editor-wrap", el("div.editor-actions", save, closeBtn, toggle), box));
  editBtn?.remove();
  const editor = openEditor(box, loaded.source, {
    t,
    user,
    preview,
    sourceMode,
    dialog: (title, message, choices) => choiceDialog({ title, message, choices }),
    onSaved: () => toast(t("editor.saved"), { kind: "info" }),
    onError: (err) => showError(err),
  });
  const showMode = () => {
    const source = editor.sourceMode();
    toggle.setAttribute("aria-pressed", String(source));
    box.classList.toggle("is-live", !source);
  };
  const toggleSource = () => {
    editor.setSourceMode(!editor.sourceMode());
    try { localStorage.setItem(SOURCE_KEY, editor.sourceMode() ? "1" : "0"); } catch { /* storage off */ }
    showMode();
    editor.view.focus();
  };
  showMode();
  save.addEventListener("click", () => editor.save());
  closeBtn.addEventListener("click", () => close());
  toggle.addEventListener("click", toggleSource);
  // Focus on open, as Obsidian: the cursor at the start of the text after the frontmatter.
  const fm = /^---\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(editor.view.state.doc.toString());
  editor.view.dispatch({ selection: { anchor: fm ? Math.min(fm[0].length, editor.view.state.doc.length) : 0 } });
  editor.view.focus();
  return { save: editor.save, dirty: editor.dirty, destroy: editor.destroy, toggleSource, canPreview: true, view: editor.view };
}
