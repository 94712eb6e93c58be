// The trash (#/trash?v=vault): files deleted and still gone, a deleted folder as one entry with its files
// (GET /api/trash/{vault}, paged), each restorable — one file, or a whole folder after a confirmation
// (POST /api/trash/{vault}/restore {path, kind}: all or nothing, never over an existing file). A deleted file
// and a deleted folder of one path are two entries; kind says which one comes back.
import * as api from "../api/index.js";
import { el, clear, icon } from "../dom.js";
import { t, formatDate } from "../i18n.js";
import { noteHref, viewHref } from "../router.js";
import { confirmDialog } from "../dialog.js";
import { toast } from "../toast.js";
import { formatSize, writable } from "./common.js";

const PAGE = 50;

const split = (path) => {
  const i = path.lastIndexOf("/");
  return i < 0 ? ["", path] : [path.slice(0, i), path.slice(i + 1)];
};

export async function show(main, route, app) {
  const vault = route.vault;
  document.title = `${t("backups.trash")} - ${t("app.name")}`;
  const list = el("ul.trash-list", { id: "trash-list", "aria-labelledby": "trash-title" });
  const more = el("button.button", { type: "button", hidden: true }, t("backups.more"));
  const status = el("p.backups-status", { role: "status", id: "trash-status" }, t("app.loading"));
  clear(main, el("section.backups-view.trash-view", { "aria-labelledby": "trash-title" },
    el("h1.note-title", { id: "trash-title", tabindex: "-1" }, t("backups.trash")),
    el("p.muted.trash-intro", t("backups.trashIntro")),
    status, list, more));
  if (!vault) {
    status.textContent = t("backups.noVault");
    return undefined;
  }
  const ctrl = new AbortController();
  const signal = ctrl.signal;
  const canWrite = writable(app, vault);
  let next = 0;

  async function restore(path, { folder = false, count = 1, first = path } = {}) {
    if (folder && !(await confirmDialog({
      title: t("backups.restoreFolderTitle"), ok: t("backups.restoreFolder"),
      message: count === 1 ? t("backups.restoreFolderAskOne", { path }) : t("backups.restoreFolderAsk", { path, n: count }),
    }))) return;
    try {
      await api.restoreTrash(vault, { path, kind: folder ? "folder" : "file" });
    } catch {
      await reload(); // shown by the API client; the trash may have changed meanwhile
      return;
    }
    const done = !folder ? t("backups.fileRestored", { path })
      : count === 1 ? t("backups.folderRestoredOne", { path }) : t("backups.folderRestored", { path, n: count });
    toast(done, { kind: "info" });
    app.refreshTree();
    await reload();
    if (signal.aborted) return;
    status.append(" ", el("a", { id: "restored-link", href: noteHref(vault, first) }, t("backups.openNote", { name: split(first)[1] })));
  }

  const restoreBtn = (label, aria, onclick, cls = "button") => (canWrite
    ? el(`button.${cls}.trash-restore`, { type: "button", "aria-label": aria, onclick }, icon("history"), label)
    : null);

  function fileRow(f, { inFolder = null } = {}) {
    const [dir, name] = split(inFolder ? f.path.slice(inFolder.length + 1) : f.path);
    return el(inFolder ? "li.trash-file" : "li.trash-entry", { "data-path": f.path, "data-kind": "file" },
      icon(/\.md$/i.test(f.path) ? "note" : "file"),
      el("div.trash-main",
        el("span.trash-name", name),
        dir && !inFolder ? el("span.trash-dir.muted", dir) : null,
        el("span.trash-meta.muted", [inFolder ? dir : null, t("backups.deletedOn", { date: formatDate(f.deleted_at) }), f.size == null ? null : formatSize(f.size)].filter(Boolean).join(" · "))),
      el("div.trash-actions",
        el("a.button.trash-history", { href: viewHref("history", { v: vault, p: f.path }), "aria-label": t("backups.historyOfPath", { path: f.path }) }, t("backups.history")),
        restoreBtn(t("backups.restoreShort"), t("backups.restorePath", { path: f.path }), () => restore(f.path))));
  }

  function folderRow(e) {
    const [dir, name] = split(e.path);
    const files = el("ul.trash-files", e.files.map((f) => fileRow(f, { inFolder: e.path })),
      e.count > e.files.length ? el("li.muted.trash-more", t("backups.moreFiles", { n: e.count - e.files.length })) : null);
    return el("li.trash-entry.trash-folder", { "data-path": e.path, "data-kind": "folder" },
      icon("folder"),
      el("div.trash-main",
        el("span.trash-name", name),
        dir ? el("span.trash-dir.muted", dir) : null,
        el("span.trash-meta.muted", [(e.count === 1 ? t("backups.folderFilesOne") : t("backups.folderFiles", { n: e.count })), t("backups.deletedOn", { date: formatDate(e.deleted_at) })].join(" · "))),
      el("div.trash-actions",
        restoreBtn(t("backups.restoreFolder"), t("backups.restoreFolderPath", { path: e.path }),
          () => restore(e.path, { folder: true, count: e.count, first: e.files[0]?.path }), "button.primary")),
      el("details.trash-details", el("summary", e.count === 1 ? t("backups.showFilesOne") : t("backups.showFiles", { n: e.count })), files));
  }

  async function loadPage() {
    const data = await api.trash(vault, { limit: PAGE, offset: next }, { signal });
    list.append(...data.entries.map((e) => (e.kind === "folder" ? folderRow(e) : fileRow(e.files[0]))));
    next = data.next_offset;
    more.hidden = next == null;
    const n = data.total;
    status.textContent = !n ? t("backups.trashEmpty") : n === 1 ? t("backups.trashCountOne") : t("backups.trashCount", { n });
    if (!canWrite && data.total) status.append(" ", t("backups.readOnly", { vault }));
  }

  async function reload() {
    next = 0;
    clear(list);
    await loadPage().catch(() => {});
  }

  more.addEventListener("click", () => loadPage().catch(() => {}));
  try {
    await loadPage();
  } catch {
    if (!signal.aborted) status.textContent = t("backups.loadFailed");
  }
  return () => ctrl.abort();
}
