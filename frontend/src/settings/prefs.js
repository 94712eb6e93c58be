// A person's own preferences, kept in this browser (localStorage): the theme (the shell's key and event) and
// the editor's options, which editor/editor.js reads each time it opens a note.

export const THEMES = ["system", "light", "dark"];
const THEME_KEY = "obsigate.theme";
const EDITOR_KEY = "obsigate.editor";
export const FONT_SIZES = [12, 13, 14, 15, 16, 18, 20];
export const EDITOR_DEFAULTS = Object.freeze({ lineWrapping: true, lineNumbers: true, fontSize: 15 });

function read(key) { try { return localStorage.getItem(key); } catch { return null; } }
function write(key, value) { try { localStorage.setItem(key, value); } catch { /* storage off: this page only */ } }

export function getTheme() {
  const saved = read(THEME_KEY);
  return THEMES.includes(saved) ? saved : "system";
}

/** Apply and keep `name`; the "obsigate:theme" event lets the top bar's button (and this page) follow. */
export function setTheme(name) {
  if (!THEMES.includes(name)) return;
  write(THEME_KEY, name);
  document.documentElement.dataset.theme = name;
  window.dispatchEvent(new Event("obsigate:theme"));
}

/** `{lineWrapping, lineNumbers, fontSize}`: what was saved, anything missing or odd taken from the defaults. */
export function editorPrefs() {
  let saved;
  try { saved = JSON.parse(read(EDITOR_KEY) || "{}") || {}; } catch { saved = {}; }
  return {
    lineWrapping: typeof saved.lineWrapping === "boolean" ? saved.lineWrapping : EDITOR_DEFAULTS.lineWrapping,
    lineNumbers: typeof saved.lineNumbers === "boolean" ? saved.lineNumbers : EDITOR_DEFAULTS.lineNumbers,
    fontSize: FONT_SIZES.includes(saved.fontSize) ? saved.fontSize : EDITOR_DEFAULTS.fontSize,
  };
}

export function setEditorPrefs(changes) {
  write(EDITOR_KEY, JSON.stringify({ ...editorPrefs(), ...changes }));
}
