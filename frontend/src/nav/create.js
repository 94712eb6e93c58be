// Creating a note from the quick switcher or the daily notes command, through the app's one create path
// (POST /api/file/{vault}: create_file, which never overwrites), where the vault's settings put new notes.
import * as api from "../api/index.js";
import { vaultConfig } from "../vault-config.js";

const dirOf = (path) => (path && path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const clean = (p) => String(p || "").replace(/^\/+|\/+$/g, "");

/**
 * The path a new note typed as `name` gets (obsidian-app.md §3.1, §6.1): a folder in the typed text is kept
 * ("Projects/Idea" -> "Projects/Idea.md"); otherwise app.new_file_location decides: "root", "current" (the
 * folder of `current`, the open note's path) or "folder" (app.new_file_folder_path). `.md` is added when the
 * name has no extension of a note. Returns null for a name that cannot be a note (empty, hidden, "..").
 */
export function newNotePath(name, app, current = null) {
  const typed = String(name).trim().replace(/\\/g, "/").replace(/^\/+/, "");
  if (!typed || typed.split("/").some((s) => !s.trim() || s.startsWith("."))) return null;
  const file = /\.(md|canvas|base)$/i.test(typed) ? typed : `${typed}.md`;
  if (typed.includes("/")) return file;
  const where = app?.new_file_location === "current" ? dirOf(current)
    : app?.new_file_location === "folder" ? clean(app.new_file_folder_path) : "";
  return where ? `${where}/${file}` : file;
}

/** The characters a note's name may not hold (Obsidian's rule): `# ^ [ ] |` break wikilinks and embeds, the
 * others are not allowed in file names on some systems. */
export const FORBIDDEN_NAME_CHARS = '#^[]|\\:*"<>?';

/** The forbidden characters in `name`, each once and apart ("# |"), "" when it has none. */
export function forbiddenChars(name) {
  const s = String(name || "");
  return [...FORBIDDEN_NAME_CHARS].filter((c) => s.includes(c)).join(" ");
}

/** Create `path` in `vault` with `content`; resolves the path. A note that exists already is not an error
 * when `openExisting` (the daily note: opening it is what was asked); other refusals throw the ApiError. */
export async function createNote(vault, path, content = "", { openExisting = false } = {}) {
  try {
    await api.createFile(vault, { path, content }, { quiet: true });
  } catch (err) {
    if (!(openExisting && err?.code === "exists")) throw err;
  }
  return path;
}

/** newNotePath with the vault's own settings. */
export async function newNotePathIn(vault, name, current) {
  const cfg = await vaultConfig(vault);
  return newNotePath(name, cfg.app, current);
}
