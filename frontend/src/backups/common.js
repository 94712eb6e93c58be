// What the history and the trash views share: sizes and backup reasons in words, and whether a vault takes writes.
import { t, getLang } from "../i18n.js";

/** 1234 -> "1.2 KB" ("1,2 Ko" in French). */
export function formatSize(bytes) {
  const n = (x, d) => x.toLocaleString(getLang(), { maximumFractionDigits: d });
  if (bytes < 1024) return t("backups.bytes", { n: n(bytes, 0) });
  if (bytes < 1024 * 1024) return t("backups.kb", { n: n(bytes / 1024, 1) });
  return t("backups.mb", { n: n(bytes / (1024 * 1024), 1) });
}

// A backup holds the file as it was just before the change that made it.
const REASONS = {
  edit_file: () => t("backups.reasonEdit"),
  append_to_file: () => t("backups.reasonAppend"),
  restore_backup: () => t("backups.reasonRestore"),
  restore_trash: () => t("backups.reasonRestore"),
  rename_file: () => t("backups.reasonRename"),
  rename_directory: () => t("backups.reasonRename"),
  move_path: () => t("backups.reasonMove"),
  replace_in_files: () => t("backups.reasonReplace"),
  delete_file: () => t("backups.reasonDelete"),
  delete_directory: () => t("backups.reasonDeleteFolder"),
};
export const reasonLabel = (reason) => REASONS[reason]?.() || reason;

/** A backup's time to the second (versions taken in the same minute must stay apart). */
export function formatTime(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso || "" : d.toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "medium" });
}

/** False for a read-only vault: its views offer no restore. */
export const writable = (app, vault) => !app.vaults.find((v) => v.name === vault)?.read_only;
