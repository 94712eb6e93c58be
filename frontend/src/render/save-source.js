// One small edit of a note made from reading view (a ticked task, a property): the whole file is read as stored,
// changed by a pure function and saved through the app's one save path (POST /api/file/{vault}/save: the tool
// layer's propose -> apply, refused with 409 "conflict" when the file is no longer the version shown). A file
// changed since it was shown is never overwritten silently: the person chooses to apply the edit to the latest
// version or to reload the note.
import * as api from "../api/index.js";
import { inShapeOf, toLF as lf } from "../eol.js";

/**
 * Applies `change(source) -> new source | null` (null: nothing to do) to the note {vault, path, version} (the
 * version shown). ui: {t, dialog(title, message, choices) -> Promise<value>}. Resolves to {status: "saved",
 * source, version} | {status: "reload"} | {status: "unchanged"}; network/permission errors are thrown
 * (api errors with .status/.code).
 */
export async function editSource(note, change, ui) {
  let src = await api.fileSource(note.vault, note.path, { quiet: true });
  let fresh = src.version === note.version;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!fresh) {
      const choice = await ui.dialog(ui.t("render.conflictTitle"), ui.t("render.conflictBody", { path: note.path }), [
        { value: "reload", label: ui.t("render.reload") },
        { value: "apply", label: ui.t("render.applyLatest"), primary: true },
      ]);
      if (choice !== "apply") return { status: "reload" };
    }
    if (src.encoding && src.encoding !== "utf-8" || src.next_offset != null) return { status: "reload" };
    const next = change(lf(src.content));
    if (next == null || next === lf(src.content)) return { status: "unchanged" };
    try {
      // the file's own line breaks (CRLF stays CRLF) and final-newline state kept
      const content = inShapeOf(src.content, next);
      await api.saveFile(note.vault, { path: note.path, content, version: src.version }, { quiet: true });
    } catch (err) {
      if (err.status !== 409 || err.code !== "conflict" || attempt > 0) throw err;
      src = await api.fileSource(note.vault, note.path, { quiet: true });
      fresh = false;
      continue;
    }
    const saved = await api.fileSource(note.vault, note.path, { quiet: true });
    // ours only if it reads as what we sent (another writer in between must still make the next edit a conflict)
    const ours = saved.content === inShapeOf(src.content, next);
    return { status: "saved", source: lf(saved.content), version: ours ? saved.version : src.version };
  }
  return { status: "reload" };
}
