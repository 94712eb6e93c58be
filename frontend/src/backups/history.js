// A file's history (#/history?v=vault&p=path): its backups newest first (GET /api/file/{vault}/backups,
// paged), a version's diff against the current file or another version (GET …/diff, redacted by the server)
// drawn by diff2html (unified or side by side), and Restore this version (POST …/restore) after a
// confirmation. diff2html escapes the diff's text; its HTML still goes through DOMPurify, like every note.
import DOMPurify from "dompurify";
import { html as diffHtml } from "diff2html";
import * as api from "../api/index.js";
import { el, clear, icon } from "../dom.js";
import { t } from "../i18n.js";
import { noteHref } from "../router.js";
import { confirmDialog } from "../dialog.js";
import { toast } from "../toast.js";
import { formatSize, formatTime, reasonLabel, writable } from "./common.js";

const PAGE = 50;
const LAYOUT_KEY = "obsigate.diffLayout";

function savedLayout() {
  try { return localStorage.getItem(LAYOUT_KEY) === "side" ? "side" : "unified"; } catch { return "unified"; }
}

/** A unified diff of `path` as diff2html tables (DOMPurify'd); a one-line note from the server (binary, too
 * large, line endings only) is shown as text. The server labels its sides with the versions (the title above
 * says which): both become the file's path, which diff2html would otherwise take for a rename. */
export function renderDiff(text, layout, path) {
  if (!/^@@ /m.test(text)) return el("p.notice.diff-note", text.trim());
  const plain = text.replace(/^--- .*$/m, () => `--- a/${path}`).replace(/^\+\+\+ .*$/m, () => `+++ b/${path}`);
  const box = el("div.diff-box");
  box.innerHTML = DOMPurify.sanitize(diffHtml(plain, {
    outputFormat: layout === "side" ? "side-by-side" : "line-by-line",
    drawFileList: false, matching: "lines", colorScheme: "light", // colours come from styles/backups.css
  }));
  return box;
}

/** Side by side, diff2html draws each side as its own table: wrapped lines would put the two sides' rows
 * at different heights, so each pair of rows gets the taller one's height (again whenever the width changes). */
function alignSides(box) {
  const align = () => {
    for (const files of box.querySelectorAll(".d2h-files-diff")) {
      const [left, right] = [...files.querySelectorAll(".d2h-diff-tbody")].map((body) => [...body.rows]);
      if (!left || !right || left.length !== right.length) continue;
      left.forEach((row, i) => { row.style.height = right[i].style.height = ""; });
      const heights = left.map((row, i) => Math.max(row.offsetHeight, right[i].offsetHeight));
      left.forEach((row, i) => { row.style.height = right[i].style.height = `${heights[i]}px`; });
    }
  };
  let width = 0;
  const watch = new ResizeObserver(([entry]) => {
    if (Math.round(entry.contentRect.width) !== width) { width = Math.round(entry.contentRect.width); align(); }
  });
  watch.observe(box);
  return () => watch.disconnect();
}

/** The version list's rows (`selected`: the version id shown; `select(id)` on a click). */
function versionItems(versions, selected, select) {
  return versions.map((v) => el("li", el("button.version-item", {
    type: "button", "aria-pressed": String(v.version === selected), "data-version": v.version,
    onclick: () => select(v.version),
  },
  el("span.version-time", formatTime(v.created)),
  el("span.version-meta.muted", [reasonLabel(v.reason), v.size == null ? null : formatSize(v.size)].filter(Boolean).join(" · ")),
  v.deleted ? el("span.badge", t("backups.deletedBadge")) : null)));
}

/** "3 versions" (or none, or one). */
function countText(n) {
  return !n ? t("backups.none") : n === 1 ? t("backups.versionCountOne") : t("backups.versionCount", { n });
}

/** The history page's elements, put in `main`. */
function historyDom(main, vault, path, layout, canWrite) {
  const list = el("ol.version-list", { id: "version-list", "aria-label": t("backups.versions") });
  const more = el("button.button.version-more", { type: "button", hidden: true }, t("backups.more"));
  const status = el("p.backups-status", { role: "status" }, t("app.loading"));
  const compareSel = el("select.compare-select", { id: "compare-with", "aria-label": t("backups.compareWith") });
  const layoutBtns = ["unified", "side"].map((name) => el("button.seg-btn", {
    type: "button", id: `layout-${name}`, "aria-pressed": String(layout === name),
  }, t(name === "side" ? "backups.sideBySide" : "backups.unified")));
  const restoreBtn = el("button.button.primary", { type: "button", id: "restore-version", hidden: !canWrite }, icon("history"), t("backups.restore"));
  const diffTitle = el("h2.diff-title", { id: "diff-title", "aria-live": "polite" }); // announced, not the whole diff
  const diffPane = el("div.diff-pane", { id: "diff", role: "region", "aria-labelledby": "diff-title" });
  const toolbar = el("div.diff-toolbar",
    el("label.compare-label", el("span", t("backups.compareWith")), compareSel),
    el("div.seg", { role: "group", "aria-label": t("backups.layout") }, layoutBtns),
    el("div.spacer"), restoreBtn);
  const detail = el("section.version-detail", { hidden: true }, toolbar, diffTitle, diffPane);

  const name = path.split("/").pop();
  clear(main, el("section.backups-view.history-view", { "aria-labelledby": "history-title" },
    el("nav.breadcrumb", { "aria-label": t("note.breadcrumb") },
      el("a", { href: noteHref(vault, path), id: "back-to-note" }, icon("note"), `${vault} / ${path}`)),
    el("div.note-head", el("h1.note-title", { id: "history-title", tabindex: "-1" }, t("backups.historyOf", { name }))),
    status,
    el("div.history-layout", el("div.version-column", list, more), detail)));
  return { list, more, status, compareSel, layoutBtns, restoreBtn, diffTitle, diffPane, detail };
}

export async function show(main, route, app) {
  const vault = route.vault;
  const path = route.path;
  document.title = `${t("backups.history")} - ${t("app.name")}`;
  if (!vault || !path) {
    clear(main, el("section.backups-view", el("h1.note-title", t("backups.history")), el("p.muted", t("backups.noFile"))));
    return undefined;
  }
  const ctrl = new AbortController();
  const signal = ctrl.signal;
  const canWrite = writable(app, vault);
  let layout = savedLayout();
  let versions = [];
  let next = 0;
  let selected = null; // version id
  let compare = ""; // "" = the current file, else a version id
  let diffSeq = 0;
  let unalign = () => {}; // stops aligning the rows of the side-by-side diff shown

  const { list, more, status, compareSel, layoutBtns, restoreBtn, diffTitle, diffPane, detail } = historyDom(main, vault, path, layout, canWrite);
  const name = path.split("/").pop();

  const label = (id) => formatTime(versions.find((v) => v.version === id)?.created) || id;

  function fillCompare() {
    const others = versions.filter((v) => v.version !== selected);
    clear(compareSel, el("option", { value: "" }, t("backups.currentFile")),
      others.map((v) => el("option", { value: v.version }, `${formatTime(v.created)} · ${reasonLabel(v.reason)}`)));
    compareSel.value = others.some((v) => v.version === compare) ? compare : "";
    compare = compareSel.value;
  }

  async function loadPage() {
    const data = await api.backups(vault, { path, limit: PAGE, offset: next }, { signal });
    versions = versions.concat(data.versions);
    next = data.next_offset;
    more.hidden = next == null;
    status.textContent = countText(data.total);
    clear(list, versionItems(versions, selected, select));
    return data;
  }

  async function showDiff() {
    const seq = ++diffSeq;
    unalign();
    unalign = () => {};
    // the diff always runs from the older side to the newer one (ids sort by age; the current file is newest)
    const [from, to] = compare && compare < selected ? [compare, selected] : [selected, compare];
    diffTitle.textContent = to ? t("backups.changes", { from: label(from), to: label(to) }) : t("backups.changesToCurrent", { from: label(from) });
    clear(diffPane, el("p.muted", t("app.loading")));
    let data;
    try {
      data = await api.backupDiff(vault, { path, version: from, compare_with: to || null }, { signal });
    } catch (e) {
      if (seq === diffSeq && e.name !== "AbortError") clear(diffPane, el("p.muted", e.message));
      return;
    }
    if (seq !== diffSeq) return;
    if (!data.diff) {
      clear(diffPane, el("p.notice", to ? t("backups.identicalVersions") : t("backups.identical")));
      return;
    }
    const box = renderDiff(data.diff, layout, path);
    clear(diffPane, box, data.truncated ? el("p.muted", t("backups.truncated")) : null);
    if (layout === "side" && box.classList.contains("diff-box")) unalign = alignSides(box);
  }

  function select(id) {
    selected = id;
    for (const b of list.querySelectorAll(".version-item")) b.setAttribute("aria-pressed", String(b.dataset.version === id));
    detail.hidden = false;
    fillCompare();
    showDiff();
  }

  more.addEventListener("click", () => loadPage().then(fillCompare).catch(() => {}));
  compareSel.addEventListener("change", () => { compare = compareSel.value; showDiff(); });
  layoutBtns.forEach((btn, i) => btn.addEventListener("click", () => {
    layout = i ? "side" : "unified";
    try { localStorage.setItem(LAYOUT_KEY, layout); } catch { /* storage off */ }
    layoutBtns.forEach((b, j) => b.setAttribute("aria-pressed", String(i === j)));
    showDiff();
  }));
  restoreBtn.addEventListener("click", async () => {
    const version = selected;
    const when = label(version);
    const ok = await confirmDialog({
      title: t("backups.restoreTitle"), message: t("backups.restoreAsk", { path, date: when }), ok: t("backups.restore"),
    });
    if (!ok || signal.aborted) return;
    restoreBtn.disabled = true;
    try {
      await api.restoreBackup(vault, { path, version });
    } catch {
      restoreBtn.disabled = false;
      return; // the error is shown by the API client
    }
    restoreBtn.disabled = false;
    toast(t("backups.restored", { path, date: when }), { kind: "info" });
    app.refreshTree();
    if (signal.aborted) return;
    // the restore backed up the content it replaced: the list gains that version
    versions = [];
    next = 0;
    await loadPage().catch(() => {});
    status.append(" ", el("a", { id: "restored-link", href: noteHref(vault, path) }, t("backups.openNote", { name })));
    select(version);
  });

  try {
    await loadPage();
  } catch {
    if (!signal.aborted) status.textContent = t("backups.loadFailed");
    return () => ctrl.abort();
  }
  if (versions.length) select(versions[0].version);
  return () => { ctrl.abort(); unalign(); };
}
