// The app's own actions as commands (issue 19 item 3): the command palette and its shortcuts sheet, the shell's
// buttons and links (new note, graph, tags, trash, settings, theme, panes, sign out, back/forward), daily notes
// and templates. Ids are Obsidian's where it has one (obsidian-app.md §6.3). Installed once by main.js
// (installNav); a control that is not on screen (a read-only vault has no "new note") hides its command.
import { registerCommand } from "../commands/registry.js";
import { t, getLang } from "../i18n.js";
import { vaultConfig } from "../vault-config.js";
import { go, noteHref, viewHref, tagsHref, parseRoute } from "../router.js";
import { showError, toast } from "../toast.js";
import { CommandPalette, showShortcuts } from "./palette.js";

const THEME_KEY = "obsigate.theme";

/** A control of the shell by id, when it is there and usable. */
const control = (id) => { const n = document.getElementById(id); return n && !n.hidden && !n.disabled ? n : null; };
const click = (id) => () => control(id)?.click();

/** The CodeMirror view of the open editor, if any (its module is loaded then: the import costs nothing more). */
async function editorView() {
  const node = document.querySelector("#main .cm-editor");
  if (!node) return null;
  const { EditorView } = await import("@codemirror/view");
  return EditorView.findFromDOM(node);
}

/** The light/dark toggle (Obsidian 1.10's one command): from "system", the opposite of what is shown now. */
function toggleTheme() {
  let cur = null;
  try { cur = localStorage.getItem(THEME_KEY); } catch { /* storage off */ }
  const dark = cur === "dark" || ((!cur || cur === "system") && window.matchMedia("(prefers-color-scheme: dark)").matches);
  try { localStorage.setItem(THEME_KEY, dark ? "light" : "dark"); } catch { /* storage off */ }
  window.dispatchEvent(new Event("obsigate:theme"));
}

/**
 * Register the commands. `app`: {ready() -> bool (signed in, shell built), vault() -> name|null,
 * writable(vault) -> bool, rerender() (show the open note again after a write), created() (the tree
 * reloads after a file was created)}.
 */
export function installNav(app) {
  const palette = new CommandPalette();
  const cmd = (c) => registerCommand({ ...c, when: c.when ? () => app.ready() && c.when() : app.ready });
  const vault = () => app.vault();
  const notePath = () => { const r = parseRoute(); return r.view === "note" && r.path ? r.path : null; };
  const canWrite = () => !!vault() && app.writable(vault());

  cmd({ id: "command-palette:open", name: () => t("nav.cmd.palette"), hotkeys: ["Mod+P"], section: "navigation", run: () => palette.open() });
  cmd({ id: "app:show-shortcuts", name: () => t("nav.cmd.shortcuts"), hotkeys: ["Shift+?"], section: "navigation", run: () => showShortcuts() });
  cmd({ id: "app:go-back", name: () => t("nav.cmd.back"), hotkeys: ["Mod+Alt+ArrowLeft"], section: "navigation", run: () => history.back() });
  cmd({ id: "app:go-forward", name: () => t("nav.cmd.forward"), hotkeys: ["Mod+Alt+ArrowRight"], section: "navigation", run: () => history.forward() });
  cmd({ id: "graph:open", name: () => t("nav.cmd.graph"), hotkeys: ["Mod+G"], section: "navigation", when: () => !!vault(),
    run: () => go(viewHref("graph", { v: vault() })) });
  cmd({ id: "graph:open-local", name: () => t("nav.cmd.localGraph"), section: "navigation", when: () => !!notePath(),
    run: () => go(viewHref("graph", { v: vault(), p: notePath() })) });
  cmd({ id: "tag-pane:open", name: () => t("nav.cmd.tags"), section: "navigation", when: () => !!vault(), run: () => go(tagsHref(vault())) });
  cmd({ id: "app:open-trash", name: () => t("nav.cmd.trash"), section: "navigation", when: () => !!vault(), run: () => go(viewHref("trash", { v: vault() })) });
  cmd({ id: "app:open-settings", name: () => t("nav.cmd.settings"), hotkeys: ["Mod+,"], section: "navigation", run: () => go(viewHref("settings")) });
  cmd({ id: "file-explorer:new-file", name: () => t("nav.cmd.newNote"), section: "files", when: () => !!control("new-note"), run: click("new-note") });
  cmd({ id: "file-explorer:new-folder", name: () => t("nav.cmd.newFolder"), section: "files", when: () => !!control("new-folder"), run: click("new-folder") });
  cmd({ id: "app:toggle-left-sidebar", name: () => t("nav.cmd.leftPane"), section: "view", when: () => !!control("tree-btn"), run: click("tree-btn") });
  cmd({ id: "app:toggle-right-sidebar", name: () => t("nav.cmd.rightPane"), section: "view", when: () => !!control("side-btn"), run: click("side-btn") });
  cmd({ id: "theme:toggle-light-dark", name: () => t("nav.cmd.theme"), section: "view", run: toggleTheme });
  cmd({ id: "app:sign-out", name: () => t("nav.cmd.signOut"), section: "general", when: () => !!control("sign-out"), run: click("sign-out") });

  // ---- daily notes and templates (their module is small; loaded on first use all the same)
  const daily = () => import("./daily.js");
  const openPath = (path) => { if (path) go(noteHref(vault(), path)); };
  cmd({ id: "daily-notes", name: () => t("nav.cmd.today"), section: "files", when: () => !!vault(),
    run: async () => {
      const { openDaily } = await daily();
      try {
        const before = notePath();
        const path = await openDaily(vault());
        if (path !== before) app.created();
        openPath(path);
      } catch (err) { showError(err); }
    } });
  for (const [id, step, key] of [["daily-notes:goto-prev", -1, "nav.cmd.prevDaily"], ["daily-notes:goto-next", 1, "nav.cmd.nextDaily"]]) {
    cmd({ id, name: () => t(key), section: "files", when: () => !!vault(),
      run: async () => {
        const { stepDaily } = await daily();
        const path = await stepDaily(vault(), notePath(), step).catch((err) => { showError(err); return undefined; });
        if (path === null) toast(t("nav.daily.none"), { kind: "info" });
        else openPath(path);
      } });
  }
  cmd({ id: "insert-template", name: () => t("nav.cmd.insertTemplate"), section: "editing", when: () => !!notePath() && /\.md$/i.test(notePath()) && canWrite(),
    run: () => insertTemplate(app, vault(), notePath()) });
  for (const [id, key, which] of [["insert-current-date", "nav.cmd.insertDate", "date_format"], ["insert-current-time", "nav.cmd.insertTime", "time_format"]]) {
    cmd({ id, name: () => t(key), section: "editing", when: () => !!document.querySelector("#main .cm-editor"),
      run: async () => {
        const [{ insertText }, { formatDate }] = await Promise.all([daily(), import("./moment.js")]);
        const view = await editorView();
        const cfg = await vaultConfig(vault());
        if (view) insertText(view, formatDate(new Date(), cfg.templates[which] || (which === "date_format" ? "YYYY-MM-DD" : "HH:mm"), getLang()));
      } });
  }
  return { palette, relabel: () => palette.relabel() };
}

/** The template picker, then the chosen template into the editor (at its cursor) or, with no editor open, at
 * the end of the saved note. */
async function insertTemplate(app, vault, path) {
  const [{ listTemplates, filledTemplate, insertIntoView, appendToNote }, { pickDialog }] = await Promise.all([import("./daily.js"), import("./picker.js")]);
  let items;
  try { items = await listTemplates(vault); } catch (err) { showError(err); return; }
  if (!items.length) { toast(t("nav.templates.none"), { kind: "info" }); return; }
  const chosen = await pickDialog({ title: t("nav.templates.title"), placeholder: t("nav.templates.placeholder"), items, empty: t("nav.templates.noMatch") });
  if (!chosen) return;
  try {
    const text = await filledTemplate(vault, chosen, path);
    const view = await editorView();
    if (view) insertIntoView(view, text);
    else { await appendToNote(vault, path, text); toast(t("nav.templates.inserted"), { kind: "info" }); app.rerender(); }
  } catch (err) { showError(err); }
}
