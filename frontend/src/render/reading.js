// The reading view's Obsidian behaviours, hooked into the note view (note.js) in a few lines: the properties
// view, tickable tasks, block-id targets, backlink contexts as markdown and the hover preview of links.
import * as api from "../api/index.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { vaultConfig } from "../vault-config.js";
import { choiceDialog } from "../dialog.js";
import { showError, toast } from "../toast.js";
import "../styles/render.css";
import { tickableTasks } from "./tasks.js";
import { hoverPreview, previewSource } from "./hover.js";
import { contextHtml, lookupLinks } from "./backlinks.js";
import { registerCommand } from "../commands/registry.js";

const dialog = (title, message, choices) => choiceDialog({ title, message, choices });

/**
 * The hooks for `view` (a NoteView). deps: {loadMarkdown, env(vault, path, links, cfg)}
 * from note.js. Returns {properties(note, cfg, editable, md), tasks(body, note), context(line, vault, path), block(body, id)}.
 */
export function readingHooks(view, deps) {
  let mdmod = null;
  const ui = (note) => ({
    t, dialog,
    onError: (err) => showError(err),
    reload: () => { toast(t("render.reloaded"), { kind: "info" }); view.current = null; view.open(note.vault, note.path); },
  });
  const preview = async (path, subpath) => {
    const vault = view.current?.vault;
    const [note, md] = await Promise.all([api.readFile(vault, { path }, { quiet: true }), deps.loadMarkdown()]);
    const box = el("div.markdown-body.hover-body");
    box.innerHTML = md.renderMarkdown(previewSource(note.content), deps.env(vault, path, note.links, await vaultConfig(vault)));
    if (subpath && subpath.startsWith("^")) {
      const target = box.querySelector(`[data-block-id="${CSS.escape(subpath.slice(1))}"]`);
      if (target) { const only = el("div.markdown-body.hover-body"); only.append(target); return only; }
    }
    return box;
  };
  hoverPreview([view.main, view.backlinks], { render: preview, label: (p) => t("render.previewOf", { name: p.replace(/\.md$/i, "") }) });
  lookupLinks(view.backlinks, () => view.current?.vault);
  // Obsidian's "Add file property" (obsidian-app.md §6.3): a new row in the open note's properties editor
  const addButton = () => view.main.querySelector(".properties-editor #add-property");
  registerCommand({
    id: "markdown:add-metadata-property", name: () => t("render.addProperty"), hotkeys: ["Mod+;"], section: "editing",
    when: () => Boolean(addButton()),
    run: () => { const b = addButton(); b.closest("details").open = true; b.click(); },
  });

  return {
    /** md: markdown.js, whose chunk carries the properties editor (and its YAML library) off the first load. */
    properties(note, cfg, editable, md) {
      return md.propertiesView(note, cfg, { ...ui(note), writable: editable, readOnlyView: () => view.properties(note) });
    },
    tasks(body, note) { tickableTasks(body, note, ui(note)); },
    context(line, vault, path) {
      const p = el("p.backlink-context", line);
      const fill = (md) => {
        mdmod = md;
        p.innerHTML = contextHtml(md, line, deps.env(vault, path, []), path);
      };
      if (mdmod) fill(mdmod);
      else deps.loadMarkdown().then(fill).catch(() => {});
      return p;
    },
    block(body, id) {
      return body.querySelector(`[data-block-id="${CSS.escape(id)}"]`) || body.querySelector(`[data-block-id="${CSS.escape(id.toLowerCase())}"]`);
    },
  };
}
