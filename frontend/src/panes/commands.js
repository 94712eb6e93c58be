// The tabs' and split's commands in the app's one registry (commands/registry.js), with Obsidian's ids and
// default hotkeys (obsidian-app.md §6.3). Browsers keep some of those keys for their own tabs (Ctrl+W, Ctrl+T,
// Ctrl+Tab, Ctrl+Shift+T and Ctrl+1..9 never reach a page in Chrome and Firefox), so each also has an Alt
// variant that does reach the page; the palette and the hotkeys sheet show both.
import { registerCommand } from "../commands/registry.js";
import { t } from "../i18n.js";
import { go, tagsHref } from "../router.js";

/** Register the commands acting on the shell's Panes and Bookmarks; `shell()` gives {panes, bookmarks, tree},
 * `ready()` whether the shell is up (signed in). */
export function registerPaneCommands(shell, ready) {
  const get = () => shell().panes;
  const cmd = (id, name, hotkeys, run, when = ready) => registerCommand({ id, name: () => t(name), hotkeys, section: "tabs", when, run: () => run(get()) });
  cmd("workspace:new-tab", "panes.cmd.newTab", ["Mod+T", "Alt+T"], (panes) => panes.newTab());
  cmd("workspace:open-in-new-tab", "panes.cmd.openInNewTab", ["Mod+Enter"], (panes) => {
    // the link or tree file that has the focus, else the open place (a second tab on it)
    panes.openInNewTab(panes.target(document.activeElement) || location.hash || panes.home());
  }, () => ready() && !isEditing());
  cmd("workspace:close", "panes.cmd.close", ["Mod+W", "Alt+W"], (panes) => panes.close());
  cmd("workspace:undo-close-pane", "panes.cmd.reopen", ["Mod+Shift+T", "Alt+Shift+T"], (panes) => panes.reopen(), () => ready() && get().closed.length > 0);
  cmd("workspace:next-tab", "panes.cmd.next", ["Ctrl+Tab", "Alt+PageDown"], (panes) => panes.cycle(1));
  cmd("workspace:previous-tab", "panes.cmd.previous", ["Ctrl+Shift+Tab", "Alt+PageUp"], (panes) => panes.cycle(-1));
  for (let n = 1; n <= 8; n++) cmd(`workspace:goto-tab-${n}`, `panes.cmd.goto${n}`, [`Mod+${n}`, `Alt+${n}`], (panes) => panes.goto(n));
  cmd("workspace:goto-last-tab", "panes.cmd.gotoLast", ["Mod+9", "Alt+9"], (panes) => panes.goto(9));
  cmd("workspace:split-vertical", "panes.cmd.split", [], (panes) => panes.split(), () => ready() && get().recs.length < 2);
  cmd("workspace:focus-other-pane", "panes.cmd.otherPane", [], (panes) => { panes.focus(1 - panes.layout.focus); panes.focusActiveTab(); },
    () => ready() && get().recs.length > 1);
  registerCommand({ id: "tag-pane:open", name: () => t("tags.cmd.open"), section: "navigation", when: ready,
    run: () => go(tagsHref(shell().tree.vault)) });
  registerCommand({ id: "bookmarks:open", name: () => t("bookmarks.cmd.open"), section: "navigation", when: ready,
    run: () => shell().bookmarks.reveal() });
}

/** Mod+Enter in the editor is the editor's (Obsidian: open the link under the cursor in a new tab). */
const isEditing = () => !!document.activeElement?.closest?.(".cm-editor, textarea, input");
