// The note view: properties panel, rendered markdown (sanitised), embeds, outline and backlinks.
import * as api from "./api/index.js";
import { el, clear, icon } from "./dom.js";
import { t, formatDate } from "./i18n.js";
import { noteHref, searchHref, viewHref, go } from "./router.js";
import { confirmDialog } from "./dialog.js";
import { csvTable } from "./csv.js";
import { toast } from "./toast.js";
import { vaultConfig } from "./vault-config.js";
import { readingHooks } from "./render/reading.js";
import { registerCommand } from "./commands/registry.js";

let markdown = null;
/** The renderer is its own chunk, fetched with the first note (or at start when the URL is a note's). */
export const loadMarkdown = () => (markdown ||= import("./markdown.js"));
const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|avif|ico)$/i;
const AUDIO = /\.(mp3|wav|ogg|m4a|flac|opus)$/i;
const VIDEO = /\.(mp4|webm|mov|ogv)$/i;
const OFFICE = /\.(docx|xlsx)$/i;
const MAX_OFFICE_BYTES = 20 * 1024 * 1024; // previewed in the page: bigger ones are only downloaded
const MAX_EMBED_DEPTH = 2;

/** {target -> resolved path} from read_file's `links` (the server's resolution rules). */
function linkResolver(links) {
  const exact = new Map();
  const folded = new Map();
  for (const l of links || []) {
    if (!l.resolved) continue;
    for (const key of [l.target, l.target + (l.subpath ? `#${l.subpath}` : "")]) {
      if (!exact.has(key)) exact.set(key, l.resolved);
      if (!folded.has(key.toLowerCase())) folded.set(key.toLowerCase(), l.resolved);
    }
  }
  return (target) => (target ? exact.get(target) ?? folded.get(target.toLowerCase()) ?? null : null);
}

function env(vault, path, links, cfg = null) {
  const resolve = linkResolver(links);
  return {
    vault, path, t, resolve, strictLineBreaks: Boolean(cfg?.app?.strict_line_breaks),
    rawUrl: (p) => api.rawUrl(vault, p),
    noteUrl: (p, heading) => noteHref(vault, p, heading),
    tagUrl: (tag) => searchHref(`#${tag}`, vault),
  };
}

export class NoteView {
  constructor({ main, outline, backlinks, writable = () => true, created = () => {}, user = () => "anonymous" }) {
    this.user = user; // () -> the signed-in name: drafts are kept per user
    this.main = main;
    this.writable = writable; // (vault) -> may this person write there?
    this.created = created; // (vault, path) -> the tree shows the new file
    this.outline = outline;
    this.backlinks = backlinks;
    this.current = null; // {vault, path}
    this.seq = 0;
    main.addEventListener("click", (e) => this.onClick(e));
    this.reading = readingHooks(this, { loadMarkdown, env }); // render/reading.js
    this.editor = null; // the open editor (edit mode), or null in reading view
    this.registerEditCommands();
  }

  /** Reading <-> editing (Obsidian's markdown:toggle-preview, Mod+E), source mode and save as commands. */
  registerEditCommands() {
    const editable = () => Boolean(this.editor || this.main.querySelector("#edit-note"));
    registerCommand({ id: "markdown:toggle-preview", name: () => t("editor.cmdTogglePreview"), hotkeys: ["Mod+E"], section: "editing",
      when: editable, run: () => (this.editor ? this.closeEditor({ keep: true }) : this.main.querySelector("#edit-note")?.click()) });
    registerCommand({ id: "editor:toggle-source", name: () => t("editor.cmdToggleSource"), section: "editing",
      when: () => Boolean(this.editor?.canPreview), run: () => this.editor.toggleSource() });
    registerCommand({ id: "editor:save-file", name: () => t("editor.cmdSave"), hotkeys: ["Mod+S"], section: "editing",
      when: () => Boolean(this.editor), run: () => this.editor.save() });
  }

  /** The editor is dropped (another note, another view): its draft stays in local storage. */
  dropEditor() {
    this.editor?.destroy();
    this.editor = null;
  }

  /** Back to reading view. keep: unsaved text is saved first (Mod+E, as Obsidian keeps every edit); else the
   * person confirms discarding it (Close). The note is read again, and focused so the keys scroll it. */
  async closeEditor({ keep = false } = {}) {
    const editor = this.editor;
    if (!editor) return;
    if (editor.dirty()) {
      if (keep ? !(await editor.save()) : !(await confirmDialog({ title: t("editor.unsaved"), message: t("editor.unsavedBody"), ok: t("editor.discard") }))) return;
    }
    if (this.editor !== editor || !this.current) return;
    const { vault, path } = this.current;
    this.dropEditor();
    this.current = null;
    await this.open(vault, path);
    this.main.querySelector("#note-title")?.focus({ preventScroll: true });
  }

  /** Another view takes the main pane: the side panel is emptied too. */
  leave() {
    this.dropEditor();
    this.current = null;
    this.seq++;
    clear(this.outline);
    clear(this.backlinks);
  }

  welcome() {
    this.current = null;
    clear(this.main, el("div.welcome",
      el("h1.note-title", { tabindex: "-1" }, t("note.welcomeTitle")),
      el("p", t("note.welcome"))));
    clear(this.outline);
    clear(this.backlinks);
    document.title = t("app.name");
  }

  async open(vault, path, heading, find) {
    const same = this.current && this.current.vault === vault && this.current.path === path;
    this.current = { vault, path };
    if (same) { if (find) this.findText(find); else this.scrollToHeading(heading); return; }
    this.dropEditor();
    const seq = ++this.seq;
    const name = path.split("/").pop();
    document.title = `${name.replace(/\.md$/i, "")} - ${t("app.name")}`;
    if (/\.base$/i.test(path)) { import("./bases/view.js").then((m) => seq === this.seq && m.showBaseFile(this, vault, path)); return; }
    if (/\.canvas$/i.test(path)) { this.showCanvas(vault, path, seq); return; }
    if (!/\.md$/i.test(path)) { this.showFile(vault, path, seq); return; }
    this.main.setAttribute("aria-busy", "true");
    try {
      const [note, mdmod, cfg] = await Promise.all([readWhole(vault, path), loadMarkdown(), vaultConfig(vault)]);
      if (seq !== this.seq) return;
      this.render(note, mdmod, cfg);
      // reading view takes the focus (keys scroll the note) unless the person is elsewhere (tree, search box)
      if (!document.activeElement || document.activeElement === document.body) this.main.querySelector("#note-title")?.focus({ preventScroll: true });
      this.scrollToHeading(heading, true);
      if (find) this.findText(find);
      this.loadBacklinks(vault, path, seq, note.links);
    } catch (e) {
      if (seq !== this.seq) return;
      this.current = null; // opening it again (e.g. after signing in) tries again
      clear(this.main, el("div.note-error", { role: "alert" },
        el("h1.note-title", name), el("p", e.message), e.hint ? el("p.muted", e.hint) : null));
      clear(this.outline);
      clear(this.backlinks);
    } finally {
      if (seq === this.seq) this.main.removeAttribute("aria-busy");
    }
  }

  breadcrumb(vault, path) {
    const parts = path.split("/");
    return el("nav.breadcrumb", { "aria-label": t("note.breadcrumb") },
      el("span", vault), ...parts.map((p, i) => [el("span.sep", { "aria-hidden": "true" }, "/"),
        el("span", i === parts.length - 1 ? { "aria-current": "page" } : null, p)]));
  }

  async showFile(vault, path, seq) {
    const url = api.rawUrl(vault, path);
    const name = path.split("/").pop();
    let preview = el("p.muted", t("note.binary"));
    let office = null;
    if (IMAGE.test(path)) preview = el("img.file-preview", { src: url, alt: name });
    else if (AUDIO.test(path)) preview = el("audio.file-audio", { controls: true, preload: "metadata", src: url, "aria-label": name });
    else if (VIDEO.test(path)) preview = el("video.file-preview", { controls: true, preload: "metadata", src: url, "aria-label": name });
    else if (/\.pdf$/i.test(path)) preview = el("iframe.file-frame", { src: url, title: name }); // the browser's own PDF viewer
    else if (OFFICE.test(path)) {
      preview = office = el("div.office-preview", { "aria-busy": "true" }, el("p.muted", t("app.loading")));
    } else if (!/\.(docx?|xlsx?|pptx?|zip|gz|tar|7z|exe|bin)$/i.test(path)) {
      try { // a text file the server can read (txt, csv, json, …): shown as text
        const file = await readWhole(vault, path, { quiet: true });
        if (seq !== this.seq) return;
        preview = /\.csv$/i.test(path) ? csvTable(file.content) : el("pre.file-text", el("code", file.content));
      } catch (e) {
        if (seq !== this.seq) return;
        if (e.code !== "not_text") preview = el("p.muted", e.message);
      }
    }
    clear(this.main, el("article.note",
      this.breadcrumb(vault, path),
      el("div.note-head", el("h1.note-title", { id: "note-title", tabindex: "-1" }, name), el("div.note-actions", this.viewLinks(vault, path))),
      preview,
      el("p", el("a.button", { href: url, download: name, id: "download-file" }, icon("download"), t("note.download")))));
    clear(this.outline, el("p.muted", t("side.noHeadings")));
    this.loadBacklinks(vault, path, this.seq);
    if (office) this.fillOffice(office, vault, path, /\.docx$/i.test(path) ? "docx" : "xlsx", seq);
  }

  /** A .canvas file: a board of its cards (canvas/board.js, its own chunk), live while it is shown. */
  async showCanvas(vault, path, seq) {
    const { mountCanvas } = await import("./canvas/board.js");
    if (seq !== this.seq) return;
    mountCanvas(this.main, { vault, path, alive: () => seq === this.seq, breadcrumb: this.breadcrumb(vault, path), actions: this.viewLinks(vault, path) });
    clear(this.outline, el("p.muted", t("side.noHeadings")));
    this.loadBacklinks(vault, path, seq);
  }

  /** A .docx or .xlsx previewed in the page (its renderer loaded now), unless it is too big to be worth it. */
  async fillOffice(box, vault, path, kind, seq) {
    let content;
    try {
      const [buffer, mod] = await Promise.all([api.rawBytes(vault, path, MAX_OFFICE_BYTES, { quiet: true, auth401: false }), import("./viewer/office.js")]);
      if (seq !== this.seq) return;
      content = buffer
        ? await (kind === "docx" ? mod.docxPreview(buffer) : mod.xlsxPreview(buffer))
        : el("p.notice", { role: "note" }, t("viewer.tooBig", { size: MAX_OFFICE_BYTES / 1024 / 1024 }));
    } catch (e) {
      content = el("p.notice", { role: "note" }, t("viewer.previewFailed", { error: e?.message || String(e) }));
    }
    if (seq !== this.seq) return;
    box.removeAttribute("aria-busy");
    clear(box, content);
  }

  /** Links to this file's history and local graph (views loaded on demand). */
  viewLinks(vault, path) {
    return [
      el("a.icon-btn", { href: viewHref("history", { v: vault, p: path }), id: "history-link", "aria-label": t("note.history"), title: t("note.history") }, icon("history")),
      el("a.icon-btn", { href: viewHref("graph", { v: vault, p: path }), id: "local-graph-link", "aria-label": t("note.localGraph"), title: t("note.localGraph") }, icon("graph")),
    ];
  }

  render(note, mdmod, cfg = null) {
    const { vault, path } = note;
    const body = el("div.markdown-body");
    body.innerHTML = mdmod.renderMarkdown(note.content, env(vault, path, note.links, cfg)); // DOMPurify'd
    const title = path.split("/").pop().replace(/\.md$/i, "");
    const editable = this.writable(vault) && note.next_offset == null;
    const editBtn = editable ? el("button.button.edit-btn", { type: "button", id: "edit-note" }, t("note.edit")) : null;
    editBtn?.addEventListener("click", () => this.edit(note, body, editBtn));
    clear(this.main, el("article.note", { "aria-labelledby": "note-title" },
      this.breadcrumb(vault, path),
      el("div.note-head", el("h1.note-title", { id: "note-title", tabindex: "-1" }, title),
        el("div.note-actions", editBtn, this.viewLinks(vault, path))),
      el("p.note-meta.muted", note.modified ? t("note.modified", { date: formatDate(note.modified) }) : null),
      this.reading.properties(note, cfg, editable, mdmod),
      note.next_offset != null ? el("p.notice", { role: "note" }, t("note.truncated")) : null,
      body));
    this.fillEmbeds(body, vault, mdmod, 1, new Set([path])).then(() => decorate(body));
    decorate(body);
    if (editable) this.reading.tasks(body, note);
    this.renderOutline(body);
  }

  /** Replace the rendered note by the editor in place (editor/edit-mode.js, loaded now), the cursor in it. */
  async edit(note, body, editBtn) {
    const [{ openEditMode }, mdmod] = await Promise.all([import("./editor/edit-mode.js"), loadMarkdown()]);
    if (this.current?.path !== note.path || this.current?.vault !== note.vault || !body.isConnected) return;
    this.editor = await openEditMode(body, editBtn, note, {
      user: this.user(),
      preview: {
        t, rawUrl: (p) => api.rawUrl(note.vault, p), resolve: linkResolver(note.links),
        render: (src) => mdmod.renderMarkdown(src, env(note.vault, note.path, note.links)),
        follow: (target) => this.follow(note, target),
      },
      close: () => this.closeEditor(),
    });
  }

  /** A link clicked in Live Preview: opened like in reading view, or offered for creation when unresolved. */
  follow(note, target) {
    const [path, sub] = target.split("#");
    const resolved = linkResolver(note.links)(path.trim()) || linkResolver(note.links)(target);
    if (resolved) go(noteHref(note.vault, resolved, sub || null));
    else this.offerCreate(note.vault, path.trim());
  }

  properties(note) {
    const fm = note.frontmatter || {};
    const keys = Object.keys(fm);
    if (!keys.length && !note.frontmatter_error) return null;
    const resolve = linkResolver(note.links);
    const value = (v, key) => {
      if (Array.isArray(v)) return el("span.prop-list", v.map((x) => value(x, key)));
      if (v && typeof v === "object") return el("code", JSON.stringify(v));
      if (key === "tags" || key === "tag") {
        return el("a.tag", { href: searchHref(`#${v}`, note.vault) }, `#${v}`);
      }
      const wl = typeof v === "string" && /^\[\[([^\]|#]+)(?:#([^\]|]*))?(?:\|([^\]]*))?\]\]$/.exec(v.trim());
      if (wl) { // a quoted "[[link]]" property, resolved by the server like any link
        const target = resolve(wl[1].trim());
        const label = (wl[3] || wl[1]).trim();
        return target
          ? el("a.internal-link", { href: noteHref(note.vault, target, wl[2] || null), dataset: { path: target } }, label)
          : el("span.internal-link.is-unresolved", { title: t("note.unresolved", { target: wl[1] }) }, label);
      }
      return el("span.prop-value", v === null ? "" : String(v));
    };
    return el("details.properties", { open: true },
      el("summary", t("note.properties")),
      note.frontmatter_error ? el("p.notice", { role: "note" }, note.frontmatter_error) : null,
      el("dl", keys.map((k) => [el("dt", k), el("dd", value(fm[k], k))])));
  }

  async fillEmbeds(root, vault, mdmod, depth, seen) {
    for (const box of root.querySelectorAll(".embed-note")) {
      const path = box.dataset.path;
      const sub = box.dataset.subpath || null;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", path + (sub ? ` > ${sub}` : ""));
      const head = el("a.embed-title", { href: noteHref(vault, path, sub) }, icon("link"), path.replace(/\.md$/i, "") + (sub ? ` > ${sub}` : ""));
      if (depth > MAX_EMBED_DEPTH || seen.has(path) && !sub) {
        clear(box, head, el("p.muted", t("note.embedLoop", { target: path })));
        continue;
      }
      try {
        const note = await readWhole(vault, path, { quiet: true });
        const src = sub ? section(note.content, sub) : note.content;
        const inner = el("div.embed-body");
        inner.innerHTML = mdmod.renderMarkdown(src ?? "", env(vault, path, note.links, await vaultConfig(vault)));
        clear(box, head, inner);
        await this.fillEmbeds(inner, vault, mdmod, depth + 1, new Set([...seen, path]));
      } catch (e) {
        clear(box, head, el("p.muted", `${e.message}`));
      }
    }
  }

  renderOutline(body) {
    const hs = [...body.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter((h) => !h.closest(".embed-note"));
    if (!hs.length) { clear(this.outline, el("p.muted", t("side.noHeadings"))); return; }
    const min = Math.min(...hs.map((h) => Number(h.tagName[1])));
    clear(this.outline, el("ul.outline-list", hs.map((h, i) => {
      h.id = `h-${i}`;
      h.tabIndex = -1;
      const a = el("a", { href: `#${h.id}`, dataset: { heading: h.id } }, h.textContent);
      a.classList.add(`lvl-${Number(h.tagName[1]) - min}`);
      a.addEventListener("click", (e) => { e.preventDefault(); h.scrollIntoView({ block: "start" }); h.focus({ preventScroll: true }); });
      return el("li", a);
    })));
  }

  async loadBacklinks(vault, path, seq, links = null) {
    clear(this.backlinks, el("p.muted", t("app.loading")));
    let data;
    try {
      data = await api.backlinks(vault, { path, limit: 50 });
    } catch {
      if (seq === this.seq) clear(this.backlinks);
      return;
    }
    if (seq !== this.seq) return;
    const entry = (p, title, lines) => el("li",
      el("a.backlink-title", { href: noteHref(vault, p) }, title || p),
      el("span.backlink-path.muted", p),
      ...lines.slice(0, 2).map((line) => this.reading.context(line, vault, path))); // markdown, sanitised
    const linked = data.backlinks.length
      ? el("ul.backlink-list", data.backlinks.map((b) => entry(b.path, b.title, (b.links || []).map((l) => l.context))))
      : el("p.muted", t("side.noBacklinks"));
    // Unlinked mentions scan every note's text (~0.1-0.5 s on 10k notes): asked only when the person opens
    // them, as Obsidian does, so the server is free for the next note someone opens.
    const summary = el("summary", t("side.unlinkedAsk"));
    const mentions = el("details.side-details", { id: "unlinked-mentions" }, summary, el("p.muted", t("app.loading")));
    mentions.addEventListener("toggle", async () => {
      if (!mentions.open || mentions.dataset.loaded) return;
      mentions.dataset.loaded = "1";
      try {
        const found = (await api.backlinks(vault, { path, limit: 50, unlinked: true })).unlinked || [];
        summary.textContent = t("side.unlinked", { n: found.length });
        mentions.replaceChildren(summary, found.length
          ? el("ul.backlink-list", found.map((m) => entry(m.path, m.title, (m.mentions || []).map((x) => x.context))))
          : el("p.muted", t("side.noUnlinked")));
      } catch {
        delete mentions.dataset.loaded; // closed and opened again: asked again
        mentions.replaceChildren(summary, el("p.muted", t("error.network")));
      }
    });
    clear(this.backlinks, linked, mentions, links ? this.outgoing(vault, links) : null);
  }

  /** Outgoing links of the open note (read_file's `links`, resolved by the server). */
  outgoing(vault, links) {
    const seen = new Map();
    for (const l of links) {
      const key = l.resolved || `?${l.target}`;
      if (!seen.has(key) && l.target) seen.set(key, l);
    }
    if (!seen.size) return null;
    return el("details.side-details",
      el("summary", t("side.outgoing", { n: seen.size })),
      el("ul.outgoing-list", [...seen.values()].map((l) => el("li", l.resolved
        ? el("a", { href: noteHref(vault, l.resolved) }, l.resolved.replace(/\.md$/i, ""))
        : el("span.internal-link.is-unresolved", { title: t("note.unresolved", { target: l.target }) }, l.target)))));
  }

  scrollToHeading(heading, initial = false) {
    if (!heading) { if (initial) this.main.scrollTop = 0; return; }
    const want = heading.replace(/^\^/, "").trim().toLowerCase();
    const body = this.main.querySelector(".markdown-body");
    if (!body) return;
    let target = heading.startsWith("^") ? this.reading.block(body, heading.slice(1)) : null;
    target ||= [...body.querySelectorAll("h1,h2,h3,h4,h5,h6")].find((h) => h.textContent.trim().toLowerCase() === want);
    if (!target && heading.startsWith("^")) target = [...body.querySelectorAll("p, li")].find((n) => n.textContent.includes(`^${want}`));
    if (target) { target.scrollIntoView({ block: "start" }); target.classList.add("flash"); setTimeout(() => target.classList.remove("flash"), 1500); }
  }

  /** An unresolved [[link]]: offer to create the note (POST /api/file, never overwrites), then open it. */
  async offerCreate(vault, target) {
    if (!this.writable(vault)) { toast(t("note.readOnly", { vault }), { kind: "info" }); return; }
    const path = /\.[a-z0-9]{1,8}$/i.test(target) ? target : `${target}.md`;
    const ok = await confirmDialog({
      title: t("note.createTitle"), message: t("note.createAsk", { path }), ok: t("note.create"),
    });
    if (!ok) return;
    const title = path.split("/").pop().replace(/\.md$/i, "");
    try {
      await api.createFile(vault, { path, content: `# ${title}\n` });
    } catch { return; } // shown by the API client
    this.created(vault, path);
    go(noteHref(vault, path));
  }

  /** Marks the first occurrence of `text` in the note (case-insensitive) and scrolls to it. */
  findText(text) {
    const body = this.main.querySelector(".markdown-body");
    if (!body || !text) return;
    body.querySelectorAll("mark.find-match").forEach((m) => m.replaceWith(...m.childNodes));
    const want = text.toLowerCase();
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const i = node.data.toLowerCase().indexOf(want);
      if (i < 0) continue;
      const hit = node.splitText(i);
      hit.splitText(text.length);
      const mark = el("mark.find-match");
      hit.replaceWith(mark);
      mark.append(hit);
      mark.scrollIntoView({ block: "center" });
      return;
    }
  }

  onClick(e) {
    const a = e.target.closest("a");
    if (!a || !this.main.contains(a)) return;
    const href = a.getAttribute("href") || "";
    if (a.classList.contains("is-unresolved")) {
      e.preventDefault();
      if (a.dataset.create && this.current) this.offerCreate(this.current.vault, a.dataset.create);
      return;
    }
    if (href.startsWith("#") && !href.startsWith("#/")) {
      // In-note anchors (footnotes, [text](#heading)): the note's ids are prefixed by DOMPurify.
      e.preventDefault();
      const id = decodeURIComponent(href.slice(1));
      const node = document.getElementById(`user-content-${id}`) || document.getElementById(id);
      if (node) node.scrollIntoView({ block: "center" });
      else this.scrollToHeading(id.replace(/-/g, " "));
      return;
    }
    if (href.startsWith("#/") && a.dataset.path && this.current && a.dataset.path === this.current.path) {
      e.preventDefault();
      this.scrollToHeading(a.dataset.subpath || null);
      return;
    }
    if (href.startsWith("#/")) { e.preventDefault(); go(href); }
  }
}

/** Code colours, math and diagrams, each drawn by its own chunk, fetched only for a note that has some. */
function decorate(root) {
  if (root.querySelector('pre > code[class*="language-"]')) import("./highlight.js").then((m) => m.highlightAll(root)).catch(() => {});
  if (root.querySelector(".math:not([data-tex])")) import("./viewer/math.js").then((m) => m.renderMath(root)).catch(() => {});
  if (root.querySelector("pre.mermaid-source")) import("./viewer/mermaid.js").then((m) => m.renderMermaid(root)).catch(() => {});
  if (root.querySelector(".embed-base:not([data-filled])")) import("./bases/view.js").then((m) => m.fillBases(root)).catch(() => {});
}

/** read_file, every chunk of a long note (offsets in UTF-8 bytes) joined, up to 16 MB of text. */
async function readWhole(vault, path, { quiet = false } = {}) {
  const first = await api.readFile(vault, { path }, { quiet });
  const parts = [first.content];
  let next = first.next_offset;
  let size = first.content.length;
  while (next != null && size < 16e6) {
    const more = await api.readFile(vault, { path, offset: next }, { quiet });
    parts.push(more.content);
    size += more.content.length;
    next = more.next_offset;
  }
  return { ...first, content: parts.join(""), next_offset: next };
}

/** The part of a note under one heading (until the next heading of the same or a higher level). */
function section(content, heading) {
  const lines = content.split("\n");
  const want = heading.trim().toLowerCase();
  let start = -1;
  let level = 0;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
    if (fence) continue;
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(lines[i]);
    if (!m) continue;
    if (start < 0 && m[2].toLowerCase() === want) { start = i; level = m[1].length; continue; }
    if (start >= 0 && m[1].length <= level) return lines.slice(start, i).join("\n");
  }
  return start >= 0 ? lines.slice(start).join("\n") : null;
}
