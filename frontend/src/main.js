// ObsiGate web app: the shell (top bar, tree, note, side panel), sign-in, routing, theme and language.
import "./styles/app.css";
import "./styles/tree.css";
import { VIEWS, isView } from "./views.js"; // here: the screens' style sheets keep their place in app.css
import "./styles/viewer.css";
import "./styles/search.css";
import "./styles/assistant.css";
import "./styles/assistant-images.css"; // the panel's images (assistant/images.js)
import "./styles/assistant-plan.css"; // the panel's plan box (assistant/plan.js)
import "./styles/assistant-gauge.css"; // the panel's context gauge (assistant/gauge.js)
import "./styles/skills.css";
import "./styles/aitoolbar.css"; // the editor's AI toolbar (a lazy chunk's CSS would not load)
import "./styles/a11y.css"; // accessibility fixes across screens (the editor's dark theme)
import "./styles/canvas.css"; // the canvas board (canvas/board.js, a lazy chunk)
import "./styles/nav.css"; // command palette, shortcuts sheet, switcher additions (nav/)
import "./styles/liveedit.css"; // Live Preview in the editor (editor/livepreview.js)
import * as api from "./api/index.js";
import { el, clear, icon, debounce } from "./dom.js";
import { t, getLang, setLang, onLangChange, LANGUAGES } from "./i18n.js";
import { parseRoute, go, searchHref, noteHref, tagsHref, viewHref, adoptPathRoute } from "./router.js";
import { showTags } from "./tags.js";
import { FileTree } from "./tree.js";
import { NoteView, loadMarkdown } from "./note.js";
import { SearchView } from "./search.js";
import { QuickSwitcher } from "./switcher.js";
import { assistantDock } from "./assistant/dock.js"; // the panel's place, keys and focus (panel.js loads on open)
import { signIn } from "./login.js";
import { showError } from "./toast.js";
import { confirmDialog } from "./dialog.js";
import { draftCount, dropAllDrafts } from "./drafts.js";
import { registerCommand, handleKeydown } from "./commands/registry.js";
import { installNav } from "./nav/commands.js";
import "./styles/panes.css"; // tabs and split, the tags tree, the bookmarks
import { Panes } from "./panes/panes.js";
import { registerPaneCommands } from "./panes/commands.js";
import { Bookmarks } from "./bookmarks/bookmarks.js";

const THEMES = ["system", "light", "dark"];
const THEME_ICON = { system: "monitor", light: "sun", dark: "moon" };
const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* storage off */ } },
};

const state = { viewSeq: 0, health: null, user: null, vaults: [], vault: null, shell: null, signingIn: null };

// ---- theme -------------------------------------------------------------------------------------
function theme() { return THEMES.includes(store.get("obsigate.theme")) ? store.get("obsigate.theme") : "system"; }
function applyTheme() { document.documentElement.dataset.theme = theme(); }
applyTheme();
document.documentElement.lang = getLang();

// ---- shell -------------------------------------------------------------------------------------
/** Labelled control: data-i18n-label sets aria-label and title (re-applied when the language changes). */
const L = (key) => ({ "data-i18n-label": key, "aria-label": t(key), title: t(key) });

/** The shell's elements (top bar, tree pane, main pane, side panes), not yet wired. */
function shellDom() {
  const vaultSelect = el("select.vault-select", { id: "vault-select", ...L("top.vault") });
  const searchInput = el("input.search-input", {
    id: "search", type: "search", role: "searchbox", autocomplete: "off", spellcheck: "false", enterkeyhint: "search",
    ...L("top.search"), "data-i18n-placeholder": "top.searchPlaceholder", placeholder: t("top.searchPlaceholder"),
  });
  const themeBtn = el("button.icon-btn", { type: "button", id: "theme-btn" });
  const langSelect = el("select.lang-select", { id: "lang-select", ...L("top.language") },
    LANGUAGES.map(([code, name]) => el("option", { value: code, selected: code === getLang(), title: name, lang: code }, code.toUpperCase())));
  const settingsLink = el("a.icon-btn", { href: viewHref("settings"), id: "settings-btn", ...L("top.settings") }, icon("settings"));
  const signOut = el("button.icon-btn", { type: "button", id: "sign-out", ...L("top.signOut"), hidden: !state.health?.auth }, icon("logout"));
  const treeBtn = el("button.icon-btn", { type: "button", id: "tree-btn", "aria-controls": "left-pane", ...L("top.menu") }, icon("menu"));
  const sideBtn = el("button.icon-btn", { type: "button", id: "side-btn", "aria-controls": "right-pane", ...L("top.panel") }, icon("panel"));
  const assistantBtn = el("button.icon-btn", { type: "button", id: "assistant-btn", "aria-controls": "assistant-pane", "aria-expanded": "false", ...L("top.assistant") }, icon("chat"));

  const treeRoot = el("ul.tree", { role: "tree", id: "tree" });
  const main = el("main.main-pane", { id: "main", tabindex: "-1" });
  const outline = el("div.side-body", { id: "outline" });
  const backlinks = el("div.side-body", { id: "backlinks" });

  const header = el("header.topbar", { role: "banner" },
    treeBtn,
    el("a.brand", { href: "#/", "aria-label": "ObsiGate" }, el("img", { src: "/static/favicon.svg", alt: "", width: "22", height: "22" }), el("span.brand-name", "ObsiGate")),
    vaultSelect,
    el("div.search-wrap", { role: "search" }, icon("search", "icon search-icon"), searchInput),
    el("div.spacer"),
    themeBtn, langSelect, settingsLink, signOut, assistantBtn, sideBtn);
  const tagsLink = el("a.pane-link", { href: "#/tags", id: "tags-link", "data-i18n": "top.tags" }, t("top.tags"));
  const graphLink = el("a.pane-link", { href: viewHref("graph"), id: "graph-link", "data-i18n": "top.graph" }, t("top.graph"));
  const trashLink = el("a.pane-link", { href: viewHref("trash"), id: "trash-link", "data-i18n": "top.trash" }, t("top.trash"));
  const treeActions = el("div.tree-actions", { id: "tree-actions" }); // the tree's own buttons (new note, new folder)
  const left = el("nav.left-pane", { id: "left-pane", "aria-labelledby": "tree-heading" },
    el("div.pane-head", el("h2.pane-heading", { id: "tree-heading", "data-i18n": "tree.heading" }, t("tree.heading")),
      el("div.pane-links", tagsLink, graphLink, trashLink)),
    treeActions,
    treeRoot);
  const right = el("aside.right-pane", { id: "right-pane", "aria-label": t("side.tabs"), "data-i18n-aria": "side.tabs" },
    el("section.side-section", { "aria-labelledby": "outline-h" }, el("h2.pane-heading", { id: "outline-h", "data-i18n": "side.outline" }, t("side.outline")), outline),
    el("section.side-section", { "aria-labelledby": "backlinks-h" }, el("h2.pane-heading", { id: "backlinks-h", "data-i18n": "side.backlinks" }, t("side.backlinks")), backlinks));
  const assistantPane = el("aside.assistant-pane", { id: "assistant-pane", hidden: true });
  const scrim = el("div.scrim", { "aria-hidden": "true" });
  const skip = el("a.skip-link", { href: "#main", "data-i18n": "top.skip" }, t("top.skip"));
  skip.addEventListener("click", (e) => { e.preventDefault(); (main.querySelector(".pane.is-focused .note-title") || main.querySelector(".note-title") || main).focus(); });
  const shell = el("div.shell", { id: "shell" }, skip, header, el("div.panes", left, main, right, assistantPane, scrim));
  return { vaultSelect, searchInput, themeBtn, langSelect, signOut, treeBtn, sideBtn, assistantBtn, treeRoot, main, outline, backlinks, tagsLink, graphLink, trashLink, treeActions, assistantPane, scrim, shell };
}

function buildShell() {
  const { vaultSelect, searchInput, themeBtn, langSelect, signOut, treeBtn, sideBtn, assistantBtn, treeRoot, main, outline, backlinks, tagsLink, graphLink, trashLink, treeActions, assistantPane, scrim, shell } = shellDom();
  document.getElementById("app").replaceChildren(shell);

  const wide = (px) => window.matchMedia(`(min-width: ${px}px)`).matches;
  const setPane = (which, open) => {
    shell.dataset[which] = open ? "open" : "closed";
    (which === "tree" ? treeBtn : sideBtn).setAttribute("aria-expanded", String(open));
  };
  setPane("tree", store.get("obsigate.tree") !== "closed" && wide(900));
  setPane("side", store.get("obsigate.side") !== "closed" && wide(1200));
  const toggle = (which) => {
    const open = shell.dataset[which] !== "open";
    setPane(which, open);
    if (wide(which === "tree" ? 900 : 1200)) store.set(`obsigate.${which}`, open ? "open" : "closed");
  };
  treeBtn.addEventListener("click", () => toggle("tree"));
  sideBtn.addEventListener("click", () => toggle("side"));
  const dock = assistantDock({ pane: assistantPane, button: assistantBtn, shell, mount: () => mountAssistantOnce(assistantPane) });
  assistantBtn.addEventListener("click", () => dock.toggle());
  scrim.addEventListener("click", () => { if (!wide(900)) setPane("tree", false); if (!wide(1200)) setPane("side", false); });
  const narrowClose = () => { if (!wide(900)) setPane("tree", false); if (!wide(1200)) setPane("side", false); };

  const drawTheme = () => {
    const name = theme();
    clear(themeBtn, icon(THEME_ICON[name]));
    themeBtn.setAttribute("aria-label", t("top.theme", { name: t(`theme.${name}`) }));
    themeBtn.title = themeBtn.getAttribute("aria-label");
  };
  themeBtn.addEventListener("click", () => {
    store.set("obsigate.theme", THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length]);
    window.dispatchEvent(new Event("obsigate:theme"));
  });
  // "obsigate:theme": the stored theme changed (this button, or the settings page's choice)
  window.addEventListener("obsigate:theme", () => { applyTheme(); drawTheme(); });
  drawTheme();

  langSelect.addEventListener("change", () => setLang(langSelect.value));
  signOut.addEventListener("click", async () => {
    const drafts = draftCount();
    if (drafts && !(await confirmDialog({ title: t("editor.unsaved"), message: t("signout.drafts", { n: drafts }), ok: t("top.signOut") }))) return;
    dropAllDrafts();
    try { await api.signOut({ auth401: false, quiet: true }); } catch { /* already out */ }
    state.user = null;
    sessionEnded(false);
  });
  vaultSelect.addEventListener("change", () => go(noteHref(vaultSelect.value, null)));
  // Typing on the search page keeps its filters (they live in the route).
  const searchTo = (q) => {
    const r = parseRoute();
    go(searchHref(q, state.vault, r.view === "search" ? r.params : null), { replace: r.view === "search" });
  };
  const typed = debounce(() => {
    const q = searchInput.value;
    if (q.trim() || parseRoute().view === "search") searchTo(q);
  }, 120); // issue 19: last key → results ≤ 250 ms with the debounce; a stale request is aborted (search.js)
  searchInput.addEventListener("input", typed);
  searchInput.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      searchInput.value = "";
      if (parseRoute().view === "search") go(state.lastPlace || "#/");
    } else if (e.key === "Enter") {
      e.preventDefault();
      const q = searchInput.value;
      if (q.trim()) searchTo(q);
    }
  });

  const writable = (v) => !state.vaults.find((x) => x.name === v)?.read_only;
  const tree = new FileTree(treeRoot, {
    actions: treeActions,
    writable,
    // After a write from the tree the open view is shown again (its links may have changed), unless the
    // editor is open: its text is the person's, never replaced under them.
    changed: () => { if (!main.querySelector(".editor-wrap")) { state.shell.note.current = null; route(); } },
  });
  // Tabs and split (panes/): each pane has its own note and search views; the focused one is state.shell's.
  const panes = new Panes(main, {
    outline, backlinks, vault: () => state.vault,
    onFocus: (hash) => tree.reveal(parseRoute(hash).path || null).catch(() => {}),
    views: (body, paneOutline, paneBacklinks) => ({
      note: new NoteView({ main: body, outline: paneOutline, backlinks: paneBacklinks, writable, user: () => state.user?.name || "anonymous", created: () => tree.refresh() }),
      search: new SearchView(body),
    }),
  });
  panes.followMoves(tree); // tabs follow a renamed, moved or deleted file
  const bookmarks = new Bookmarks(tree);
  treeActions.before(bookmarks.root);
  const switcher = new QuickSwitcher(() => state.vault, { created: () => tree.refresh() });

  onLangChange(() => {
    for (const n of shell.querySelectorAll("[data-i18n]")) n.textContent = t(n.dataset.i18n);
    for (const n of shell.querySelectorAll("[data-i18n-label]")) { n.setAttribute("aria-label", t(n.dataset.i18nLabel)); n.title = t(n.dataset.i18nLabel); }
    for (const n of shell.querySelectorAll("[data-i18n-aria]")) n.setAttribute("aria-label", t(n.dataset.i18nAria));
    for (const n of shell.querySelectorAll("[data-i18n-placeholder]")) n.placeholder = t(n.dataset.i18nPlaceholder);
    langSelect.value = getLang();
    drawTheme();
    tree.relabel();
    switcher.relabel();
    relabelAssistant();
    panes.relabel(); // re-render in the new language
    bookmarks.relabel();
    route();
  });

  state.shell = { shell, vaultSelect, searchInput, signOut, tree, panes, bookmarks, switcher, narrowClose, tagsLink, graphLink, trashLink, treeActions,
    get note() { return panes.focused.note; }, get search() { return panes.focused.search; }, get main() { return panes.focused.body; } };
}

// ---- the assistant (its module loads on first open: it is not part of the first page load) ---------------
let assistant = null; // {mount(), handle} once the panel's module is loaded

/** Load and mount the panel in `pane` the first time (assistant/dock.js opens, closes and focuses it). */
function mountAssistantOnce(pane) {
  // a new shell (signed in again) has a new, empty pane: the panel is mounted there anew
  if (!assistant || assistant.pane !== pane) assistant = { handle: null, pane, ready: loadAssistant(pane) };
  return assistant.ready;
}

async function loadAssistant(pane) {
  const [{ mountAssistant }, { answerRenderer }] = await Promise.all([import("./assistant/panel.js"), import("./assistant/answer.js")]);
  const options = {
    t,
    language: getLang,
    render: await answerRenderer(() => state.vault), // answers as sanitised markdown, note links open the note
    context: () => {
      const r = parseRoute();
      const path = r.view === "note" ? r.path : null;
      return { vault: state.vault, files: path ? [path] : [], directory: path && path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "" };
    },
    // After each change the assistant applied: the tree, and the open note shown again -- unless the editor is
    // open: its text is the person's, never replaced under them (a save over the changed file is a conflict).
    onWrite: () => {
      state.shell.tree.refresh();
      if (parseRoute().view === "note" && !state.shell.main.querySelector(".editor-wrap")) { state.shell.note.current = null; route(); }
    },
  };
  // Drawn again in a new language; the open conversation comes back from the server (the panel keeps its id).
  assistant.mount = () => { pane.replaceChildren(); assistant.handle = mountAssistant(pane, options); };
  assistant.mount();
}

/** After a language switch: the panel redrawn in it, once no answer is streaming. */
function relabelAssistant() {
  if (!assistant?.handle) return;
  if (assistant.handle.busy()) { setTimeout(relabelAssistant, 500); return; }
  assistant.mount();
}

function fillVaults() {
  const { vaultSelect } = state.shell;
  clear(vaultSelect, state.vaults.map((v) => el("option", { value: v.name }, v.name)));
  vaultSelect.value = state.vault || "";
}

// ---- routing -----------------------------------------------------------------------------------
async function route() {
  if (!state.shell || state.signingIn) return;
  const r = parseRoute();
  const seq = ++state.viewSeq;
  if (r.view !== "search") state.lastPlace = location.hash || "#/";
  const { tree, searchInput, vaultSelect, narrowClose } = state.shell;
  const known = (name) => state.vaults.some((v) => v.name === name);
  const vault = r.vault && known(r.vault) ? r.vault : state.vault || state.vaults[0]?.name || null;
  if (r.view === "note" && r.vault && !known(r.vault)) {
    showError({ message: t("error.noVault", { vault: r.vault }), code: "vault_access_denied" });
  }
  if (vault && vault !== state.vault) {
    state.vault = vault;
    store.set("obsigate.vault", vault);
  }
  vaultSelect.value = state.vault || "";
  const pane = state.shell.panes.sync(location.hash, state.vault); // the focused pane follows the URL (panes/)
  if (pane.redirect) { go(pane.redirect, { replace: true }); return; } // a vault's stored tabs came back
  pane.leave?.(); // a lazy view's clean-up (a graph's worker, …)
  pane.leave = null;
  const { note, search } = pane;
  if (state.vault) { tree.setVault(state.vault).catch(() => {}); state.shell.bookmarks.setVault(state.vault).catch(() => {}); }
  narrowClose();
  state.shell.tagsLink.href = tagsHref(state.vault);
  state.shell.graphLink.href = viewHref("graph", { v: state.vault });
  state.shell.trashLink.href = viewHref("trash", { v: state.vault });
  if (isView(r.view)) {
    note.leave();
    tree.reveal(r.path || null);
    const mod = await VIEWS[r.view].load();
    if (seq !== state.viewSeq) return;
    const leave = await mod.show(state.shell.main, { ...r, vault: r.vault || state.vault }, appContext());
    if (typeof leave === "function") { if (seq === state.viewSeq) pane.leave = leave; else leave(); }
  } else if (r.view === "tags") {
    note.leave();
    tree.reveal(null);
    await showTags(state.shell.main, r.vault || state.vault).catch(() => {});
  } else if (r.view === "search") {
    note.leave();
    if (document.activeElement !== searchInput) searchInput.value = r.q;
    await search.show(r.q, r.vault || state.vault, r.params);
  } else if (r.view === "note" && r.path && state.vault === r.vault) {
    await note.open(r.vault, r.path, r.heading, r.find);
    tree.setVault(state.vault).then(() => tree.reveal(r.path)).catch(() => {});
  } else {
    note.welcome();
    tree.reveal(null);
  }
}

/** What a lazily loaded view may use of the shell (its only way in: views never import main.js). */
function appContext() {
  return {
    vault: state.vault,
    vaults: state.vaults,
    user: state.user, // {name, admin, vaults} or null when auth is off
    health: state.health,
    refreshTree: () => state.shell.tree.refresh(),
    reloadVaults: async () => { await loadVaults(); },
    rerender: () => { state.shell.note.current = null; return route(); },
  };
}

// ---- session -----------------------------------------------------------------------------------
async function sessionEnded(expired) {
  if (state.signingIn) return state.signingIn;
  const gate = document.getElementById("login");
  document.getElementById("app").hidden = true;
  state.signingIn = signIn(gate, { expired }).then(async (user) => {
    state.signingIn = null;
    state.user = user;
    document.getElementById("app").hidden = false;
    await loadVaults();
    route(); // same hash as before: the person is back where they were
  });
  return state.signingIn;
}

async function loadVaults() {
  const data = await api.vaults();
  state.vaults = data.vaults || [];
  const saved = store.get("obsigate.vault");
  if (!state.vault) state.vault = state.vaults.some((v) => v.name === saved) ? saved : state.vaults[0]?.name || null;
  fillVaults();
}

async function boot() {
  adoptPathRoute();
  if (parseRoute().view === "note") loadMarkdown().catch(() => {}); // in parallel with the API calls below
  api.setUnauthenticatedHandler(() => sessionEnded(true));
  try {
    state.health = await api.health();
  } catch {
    clear(document.getElementById("app"), el("p.boot-error", { role: "alert" }, t("error.network")));
    return;
  }
  buildShell();
  if (state.health.auth) {
    try {
      state.user = await api.me({ auth401: false, quiet: true });
    } catch (e) {
      if (e.status === 401) { await sessionEnded(false); return; }
      showError(e);
    }
  }
  await loadVaults();
  await route();
}

window.addEventListener("hashchange", () => route());
// The shell's own commands; features register theirs in commands/registry.js the same way.
const ready = () => !!state.shell && !state.signingIn;
registerCommand({ id: "switcher:open", name: () => t("cmd.switcher"), hotkeys: ["Mod+O"], section: "navigation", when: ready,
  run: () => state.shell.switcher.open() });
registerCommand({ id: "global-search:open", name: () => t("cmd.search"), hotkeys: ["/", "Mod+Shift+F"], section: "navigation", when: ready,
  run: () => state.shell.searchInput.focus() });
// The palette, the shortcuts sheet, the shell's actions, daily notes and templates (nav/commands.js).
const nav = installNav({ ready, vault: () => state.vault, writable: (v) => !state.vaults.find((x) => x.name === v)?.read_only,
  rerender: () => { state.shell.note.current = null; return route(); }, created: () => state.shell.tree.refresh() });
onLangChange(() => nav.relabel());
registerPaneCommands(() => state.shell, ready); // tabs and split, tags, bookmarks (panes/commands.js)
document.addEventListener("keydown", (e) => { if (!state.signingIn) handleKeydown(e); });
// API errors were shown where they happened; anything else unexpected is shown too, never swallowed.
window.addEventListener("unhandledrejection", (e) => { if (e.reason?.name !== "AbortError" && !(e.reason instanceof api.ApiError)) showError(e.reason); });

boot();
