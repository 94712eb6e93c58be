// The app's commands: one registry that the command palette lists, the hotkeys sheet shows and the global
// keydown handler runs. Features register their actions here (a few lines each) instead of adding keydown
// listeners of their own, so every action is reachable from the palette and no two features fight over a key.
//
// A command: {id, name, run, hotkeys?, when?, section?}
//   id       stable, Obsidian's where one exists ("editor:toggle-source", "switcher:open"; obsidian-app.md §6.3)
//   name     () => string, the translated name shown in the palette (a function: the language can change)
//   run      (event?) => void | Promise, what it does
//   hotkeys  ["Mod+O", "Mod+Shift+F", "Escape"...]: Mod = Cmd on macOS, Ctrl elsewhere (Obsidian's convention,
//            obsidian-app.md §3.6); letters matched layout-independently by KeyboardEvent.code
//   when     () => boolean: whether it applies now (hidden from the palette, its keys ignored, when false)
//   section  a group for the hotkeys sheet ("navigation", "editing", "view"...)
//   inInput  true: its hotkeys also fire while focus is in a text field (default: only Mod/Alt combinations do)

const commands = new Map();
const listeners = new Set();
const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || "");

/** Add (or replace, by id) a command; returns a function that removes it. */
export function registerCommand(cmd) {
  if (!cmd?.id || typeof cmd.run !== "function") throw new Error("a command needs an id and a run function");
  commands.set(cmd.id, { hotkeys: [], section: "general", ...cmd });
  listeners.forEach((f) => f());
  return () => { if (commands.get(cmd.id)?.run === cmd.run) { commands.delete(cmd.id); listeners.forEach((f) => f()); } };
}

/** Every registered command that applies now (`when` true), in registration order. */
export function listCommands({ all = false } = {}) {
  return [...commands.values()].filter((c) => all || !c.when || c.when());
}

export function getCommand(id) { return commands.get(id); }

/** Run a command by id (if it applies now); returns whether it ran. */
export function runCommand(id, event) {
  const c = commands.get(id);
  if (!c || (c.when && !c.when())) return false;
  Promise.resolve(c.run(event)).catch((e) => setTimeout(() => { throw e; }));
  return true;
}

/** Called with no argument whenever the set of commands changes. Returns an unsubscribe function. */
export function onCommandsChange(f) { listeners.add(f); return () => listeners.delete(f); }

/** "Mod+Shift+P" -> {mod, ctrl, meta, shift, alt, key} with `key` lower-cased ("p", "enter", "arrowleft", ","). */
export function parseHotkey(spec) {
  const parts = spec.split("+");
  const key = (parts.pop() || "+").toLowerCase() || "+";
  const has = (m) => parts.some((p) => p.toLowerCase() === m);
  return { mod: has("mod"), ctrl: has("ctrl"), meta: has("meta"), shift: has("shift"), alt: has("alt"), key };
}

/** The key of a KeyboardEvent as hotkeys name it: a letter or digit by its physical key (layout-independent). */
function eventKey(e) {
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code || "");
  return (m ? (m[1] || m[2]) : e.key || "").toLowerCase();
}

/** Whether `e` is the hotkey `spec` ("Mod+E"). */
export function matchHotkey(spec, e, mac = isMac) {
  const h = parseHotkey(spec);
  const ctrl = h.ctrl || (h.mod && !mac);
  const meta = h.meta || (h.mod && mac);
  return eventKey(e) === h.key && !!e.ctrlKey === ctrl && !!e.metaKey === meta && !!e.altKey === h.alt && !!e.shiftKey === h.shift;
}

/** A hotkey as shown to people: "Ctrl+Shift+P" (or "⌘⇧P" on macOS). */
export function formatHotkey(spec, mac = isMac) {
  const h = parseHotkey(spec);
  const key = h.key.length === 1 ? h.key.toUpperCase() : h.key.replace(/^arrow/, "").replace(/^./, (c) => c.toUpperCase());
  if (mac) return `${h.ctrl ? "⌃" : ""}${h.alt ? "⌥" : ""}${h.shift ? "⇧" : ""}${h.mod || h.meta ? "⌘" : ""}${key}`;
  return [h.mod || h.ctrl ? "Ctrl" : "", h.meta ? "Meta" : "", h.alt ? "Alt" : "", h.shift ? "Shift" : "", key].filter(Boolean).join("+");
}

const typing = (t) => !!t && (/^(input|textarea|select)$/i.test(t.tagName || "") || t.isContentEditable);

/** The global keydown handler (installed once by main.js): runs the first applicable command whose hotkey
 * matches. Plain keys (no Mod/Ctrl/Alt) are ignored while typing in a field unless the command says `inInput`. */
export function handleKeydown(e) {
  if (e.defaultPrevented || e.isComposing) return false;
  for (const c of commands.values()) {
    if (!c.hotkeys.some((k) => matchHotkey(k, e))) continue;
    const chord = e.ctrlKey || e.metaKey || e.altKey;
    if (!chord && !c.inInput && typing(e.target)) continue;
    if (c.when && !c.when()) continue;
    e.preventDefault();
    Promise.resolve(c.run(e)).catch((err) => setTimeout(() => { throw err; }));
    return true;
  }
  return false;
}
