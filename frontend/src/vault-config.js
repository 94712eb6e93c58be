// The vault's own Obsidian settings (GET /api/vault/{vault}/config: link format, strict line breaks, daily notes,
// templates, bookmarks, property types, graph groups; server side: domain/obsidian_config.py), fetched once per
// vault and page load and shared by every feature that needs them.
import * as api from "./api/index.js";

const cache = new Map();

/** The settings of `vault` (a promise; Obsidian's defaults when the request fails, so no feature breaks). */
export function vaultConfig(vault) {
  if (!vault) return Promise.resolve(DEFAULTS);
  if (!cache.has(vault)) {
    cache.set(vault, api.vaultConfig(vault, { quiet: true }).catch(() => { cache.delete(vault); return DEFAULTS; }));
  }
  return cache.get(vault);
}

/** Forget the cached settings (after the config files changed). */
export function forgetVaultConfig(vault) { if (vault) cache.delete(vault); else cache.clear(); }

export const DEFAULTS = Object.freeze({
  app: { strict_line_breaks: false, new_link_format: "shortest", use_markdown_links: false, properties_in_document: "visible",
    show_inline_title: true, default_view_mode: "source", live_preview: true, readable_line_length: true,
    attachment_folder_path: "/", new_file_location: "root", new_file_folder_path: "" },
  daily_notes: { folder: "", format: "YYYY-MM-DD", template: "", autorun: false },
  templates: { folder: "", date_format: "YYYY-MM-DD", time_format: "HH:mm" },
  bookmarks: [], property_types: {}, graph_groups: [], problems: [],
});
