// Backups (issue 11 item 7): a note's history (versions, a unified or side-by-side diff rendered by
// diff2html, restore) and the trash (deleted files and folders' files, restore). Diffs come from the
// server (diff_backup: secrets redacted); diff2html escapes the text, and the HTML goes through DOMPurify.

import DOMPurify from "dompurify";
import { html as diffHtml } from "diff2html";

async function api(url, init) {
  const r = await fetch(url, init);
  const body = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw Object.assign(new Error(body?.message || `HTTP ${r.status}`), { status: r.status, body });
  return body;
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child != null) el.append(child instanceof Node ? child : String(child));
  return el;
}

const q = (vault, rest) => `/api/file/${encodeURIComponent(vault)}${rest}`;

async function restore(vault, path, version) {
  return api(q(vault, "/restore"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path, version }),
  });
}

/** Render a unified diff (`text`) as diff2html HTML, `side` = side-by-side, else line by line. */
export function renderDiff(text, side = false) {
  const box = h("div", { class: "diff2html-box" });
  if (!text) {
    box.textContent = "";
    return box;
  }
  box.innerHTML = DOMPurify.sanitize(diffHtml(text, { outputFormat: side ? "side-by-side" : "line-by-line", drawFileList: false }));
  return box;
}

/**
 * A note's history in `container`: its versions newest first; choosing one shows its diff against the current
 * file; Restore puts it back (the current content is itself backed up first). options: `t`, `confirm(text)
 * -> Promise<bool>`, `onRestored(path)`, `onError(err)`.
 */
export async function openHistory(container, { vault, path }, options) {
  const { t, confirm, onRestored, onError } = options;
  let side = false;
  const diffPane = h("div", { class: "history-diff", "aria-live": "polite" });
  const list = h("ol", { class: "history-list", "aria-label": t("history.versions") });
  const toggle = h("button", { type: "button", onclick: () => { side = !side; current && show(current); } }, t("history.toggle_layout"));
  container.replaceChildren(h("section", { class: "history", "aria-label": t("history.title", { path }) },
    h("h2", {}, t("history.title", { path })), toggle, list, diffPane));
  let current = null;

  async function show(version) {
    current = version;
    try {
      const d = await api(q(vault, `/diff?path=${encodeURIComponent(path)}&version=${encodeURIComponent(version.version)}`));
      diffPane.replaceChildren(d.diff ? renderDiff(d.diff, side) : h("p", { class: "muted" }, t("history.identical")));
    } catch (err) {
      onError?.(err);
    }
  }

  try {
    const { versions } = await api(q(vault, `/backups?path=${encodeURIComponent(path)}`));
    if (!versions.length) list.append(h("li", { class: "muted" }, t("history.none")));
    for (const v of versions) {
      list.append(h("li", {},
        h("button", { type: "button", class: "link", onclick: () => show(v) },
          `${new Date(v.created).toLocaleString()} — ${t(`reason.${v.reason}`, {}, v.reason)} (${v.size} B)`),
        h("button", { type: "button", onclick: async () => {
          if (!(await confirm(t("history.confirm_restore", { path })))) return;
          try { await restore(vault, path, v.version); onRestored?.(path); } catch (err) { onError?.(err); }
        } }, t("history.restore"))));
    }
    if (versions.length) show(versions[0]);
  } catch (err) {
    onError?.(err);
  }
}

/** The trash of `vault`: every path whose newest backup holds a deleted file, with Restore. */
export async function openTrash(container, { vault }, options) {
  const { t, onRestored, onError } = options;
  const list = h("ul", { class: "trash-list", "aria-label": t("trash.title") });
  container.replaceChildren(h("section", { class: "trash" }, h("h2", {}, t("trash.title")), list));
  try {
    const { files } = await api(q(vault, "/backups?limit=500"));
    const deleted = (files || []).filter((f) => f.deleted);
    if (!deleted.length) list.append(h("li", { class: "muted" }, t("trash.empty")));
    for (const f of deleted) {
      list.append(h("li", {}, h("span", {}, f.path), " ",
        h("span", { class: "muted" }, new Date(f.created).toLocaleString()), " ",
        h("button", { type: "button", onclick: async () => {
          try { await restore(vault, f.path, f.latest); onRestored?.(f.path); openTrash(container, { vault }, options); }
          catch (err) { onError?.(err); }
        } }, t("trash.restore"))));
    }
  } catch (err) {
    onError?.(err);
  }
}
