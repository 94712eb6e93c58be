// Settings › Your files (issue 21 item 2; docs/files.md): the person's own file space. What they uploaded and
// what the assistant's tools made, newest first, with the space used against the quota; upload (kept until
// deleted), open (images, PDF and text inline, in a new tab: the server serves them sandboxed) and delete.
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { confirmDialog } from "../dialog.js";
import { t, formatDate } from "../i18n.js";
import { toast } from "../toast.js";
import { formatSize } from "../backups/common.js";

export async function filesSection(body) {
  const section = el("section.settings-section", { id: "cfg-files", "aria-labelledby": "cfg-files-title" },
    el("h2", { id: "cfg-files-title" }, t("settings.files.title")));
  body.append(section);
  const input = el("input", { type: "file", id: "files-upload", multiple: true });
  const draw = async (focusId) => {
    const data = await api.userFiles({ limit: 200 });
    clear(section,
      el("h2", { id: "cfg-files-title" }, t("settings.files.title")),
      el("p.muted", t("settings.files.intro")),
      el("div.settings-card.files-upload", { role: "group", "aria-labelledby": "files-upload-label" },
        el("label", { id: "files-upload-label", for: "files-upload" }, t("settings.files.upload")), " ", input,
        el("p.field-hint", { id: "files-usage" }, t("settings.files.usage", {
          used: formatSize(data.used_bytes), quota: formatSize(data.quota_bytes), n: data.total,
        }))),
      data.files.length
        ? el("ul.file-list", { "aria-label": t("settings.files.list") }, data.files.map((f) => fileRow(f, draw)))
        : el("p.muted", { id: "files-none" }, t("settings.files.none")));
    if (focusId) document.getElementById(focusId)?.focus();
  };
  input.addEventListener("change", async () => {
    const chosen = [...input.files];
    input.disabled = true;
    try {
      for (const file of chosen) {
        await api.uploadUserFile(file);
        toast(t("settings.files.uploaded", { name: file.name }), { kind: "info", timeout: 2500 });
      }
    } catch { /* shown by the API client (file_too_large, quota_exceeded) */ } finally {
      input.value = "";
      input.disabled = false;
      await draw("files-upload");
    }
  });
  await draw();
}

function fileRow(f, draw) {
  const remove = el("button.button.danger", { type: "button", id: `file-delete-${f.file_id}`, "aria-label": t("settings.files.deleteOne", { name: f.name }) },
    t("settings.files.delete"));
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: t("settings.files.deleteTitle"), message: t("settings.files.deleteAsk", { name: f.name }), ok: t("settings.files.delete"), danger: true }))) return;
    remove.disabled = true;
    try {
      await api.deleteUserFile(f.file_id);
      toast(t("settings.files.deleted", { name: f.name }), { kind: "info", timeout: 2500 });
      await draw("files-upload");
    } catch {
      remove.disabled = false;
    }
  });
  const origin = f.created_by_tool ? t("settings.files.byTool", { tool: f.created_by_tool }) : t("settings.files.uploadedBy");
  return el("li.key-row.file-row", { "data-file-id": f.file_id },
    el("div.key-main",
      el("a", { href: api.userFileUrl(f.file_id), target: "_blank", rel: "noopener noreferrer" }, f.name),
      " ", el("span.chip", f.mime_type)),
    el("div.key-meta.muted", `${formatSize(f.size)} · ${origin} · ${formatDate(f.created_at)}`),
    el("div.actions",
      el("a.button", { href: api.userFileUrl(f.file_id, true), download: f.name }, t("settings.files.download")),
      remove));
}
