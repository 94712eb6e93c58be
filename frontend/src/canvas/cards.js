// The cards of a canvas board (board.js): each JSON Canvas node as DOM, in world pixels (the board scales the
// whole world at once). Text cards and the start of note cards go through the app's markdown renderer
// (sanitised); a link card shows its URL and never loads the page (the app talks to its own server only).
import * as api from "../api/index.js";
import { el, icon } from "../dom.js";
import { t } from "../i18n.js";
import { noteHref, searchHref } from "../router.js";
import { linkHost, linkTargets, safeUrl } from "./model.js";

export const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i;
const NOTE_START = 1500; // characters of a note shown on its card (the card opens the whole note)
const MAX_LOOKUPS = 60; // distinct link targets of text cards resolved per render

/** Sets a box's place and size in world pixels, and its colour (a preset's CSS variable, or the hex). */
export function place(node, box) {
  box.style.left = `${node.x}px`;
  box.style.top = `${node.y}px`;
  box.style.width = `${node.width}px`;
  box.style.height = `${node.height}px`;
  const c = colorValue(node.color);
  if (c) box.style.setProperty("--c", c);
  return box;
}

/** A canvasColor as a CSS value: presets are the theme's --canvas-1…6 (styles/canvas.css). */
export const colorValue = (color) => (color?.preset ? `var(--canvas-${color.preset})` : color?.hex || null);

/** The markdown environment of a canvas (markdown.js's env): links resolved by `resolve`, images raw. */
export function canvasEnv(vault, path, resolve) {
  return {
    vault, path, t, resolve,
    rawUrl: (p) => api.rawUrl(vault, p),
    noteUrl: (p, heading) => noteHref(vault, p, heading),
    tagUrl: (tag) => searchHref(`#${tag}`, vault),
  };
}

/** {target -> vault path} for the links of the text cards, resolved by name through the path search (the
 * server's index): an exact path first, else a file whose name (without .md) is the target, shortest path. */
export async function resolveTargets(vault, texts) {
  const targets = [...new Set(texts.flatMap(linkTargets))].slice(0, MAX_LOOKUPS);
  const found = new Map();
  await Promise.all(targets.map(async (target) => {
    try {
      const name = target.split("/").pop().toLowerCase();
      const data = await api.treeSearch({ q: name.replace(/\.md$/i, ""), vault, limit: 20 }, { quiet: true });
      const paths = data.hits.filter((h) => h.vault === vault || h.vault == null).map((h) => h.path);
      const want = target.toLowerCase();
      const exact = paths.find((p) => p.toLowerCase() === want || p.toLowerCase() === `${want}.md`);
      const byName = paths.filter((p) => {
        const base = p.split("/").pop().toLowerCase();
        return base === name || base === `${name}.md`;
      }).sort((a, b) => a.length - b.length)[0];
      const hit = exact || byName;
      if (hit) found.set(target.toLowerCase(), hit);
    } catch { /* left unresolved */ }
  }));
  return (target) => (target ? found.get(target.toLowerCase()) ?? null : null);
}

/** A text card: its markdown rendered. */
export function textCard(node, mdmod, env) {
  const body = el("div.markdown-body.canvas-text");
  body.innerHTML = mdmod.renderMarkdown(node.text, env); // DOMPurify'd
  quietEmbeds(body, env.vault);
  return place(node, el("div.canvas-node.canvas-card", { dataset: { id: node.id, type: "text" } }, body));
}

/** A note's embeds inside a card stay links (a card shows the start of one note, not a tree of them). */
function quietEmbeds(root, vault) {
  for (const box of root.querySelectorAll(".embed-note")) {
    box.replaceWith(el("a.internal-link", { href: noteHref(vault, box.dataset.path, box.dataset.subpath || null), dataset: { path: box.dataset.path } },
      box.dataset.path.replace(/\.md$/i, "")));
  }
}

/** A link card: the host as its title and the URL as a link opened in a new tab; nothing is fetched. */
export function linkCard(node) {
  const host = linkHost(node.url);
  const link = safeUrl(node.url)
    ? el("a.external-link.canvas-url", { href: node.url, target: "_blank", rel: "noopener noreferrer" }, node.url)
    : el("span.canvas-url", node.url);
  return place(node, el("div.canvas-node.canvas-card.canvas-link", { dataset: { id: node.id, type: "link" } },
    el("div.canvas-card-head", icon("link"), el("span.canvas-card-title", host)), link));
}

/** A group: its box (below the cards) and its label above its top-left corner; a background image if any. */
export function groupBox(node, vault) {
  const box = place(node, el("div.canvas-node.canvas-group", { dataset: { id: node.id, type: "group" }, role: node.label ? "group" : null, "aria-label": node.label || null }));
  if (node.background && IMAGE.test(node.background)) {
    box.style.backgroundImage = `url("${api.rawUrl(vault, node.background).replace(/"/g, "%22")}")`;
    box.dataset.bg = node.backgroundStyle;
  }
  if (node.label) box.append(el("span.canvas-group-label", node.label));
  return box;
}

/**
 * A file card. Notes: the file name as a title link and the start of the note rendered (or its `subpath`
 * section); images shown; any other file a link that opens it. `read(path)` gives read_file's answer or throws.
 * Returns {box, watched: {path, probe} | null} (what the live refresh polls).
 */
export async function fileCard(node, { vault, mdmod, read }) {
  const name = node.file.split("/").pop();
  const shown = name.replace(/\.md$/i, "") + (node.subpath ? ` > ${node.subpath}` : "");
  const href = noteHref(vault, node.file, node.subpath || null);
  const title = el("a.canvas-card-title", { href, dataset: { path: node.file } }, shown);
  const box = place(node, el("div.canvas-node.canvas-card.canvas-file", { dataset: { id: node.id, type: "file", path: node.file } },
    el("div.canvas-card-head", icon(/\.md$/i.test(name) ? "note" : "file"), title)));
  if (IMAGE.test(name)) {
    box.classList.add("canvas-media");
    box.append(el("img.canvas-image", { src: api.rawUrl(vault, node.file), alt: name, loading: "lazy", draggable: "false" }));
    return { box, watched: null };
  }
  if (!/\.md$/i.test(name)) {
    box.append(el("p.muted.canvas-file-kind", t("canvas.openFile")));
    return { box, watched: null };
  }
  try {
    const note = await read(node.file);
    const body = el("div.markdown-body.canvas-text");
    const source = node.subpath ? subpathOf(note.content, node.subpath) : startOf(note.content);
    const links = linkMap(note.links);
    body.innerHTML = mdmod.renderMarkdown(source ?? "", canvasEnv(vault, node.file, links));
    quietEmbeds(body, vault);
    box.append(body);
    box.dataset.open = href; // a click on the card (not a drag, not a link inside) opens the note
    return { box, watched: { path: node.file, version: note.version, probe: note.probe } };
  } catch (e) {
    box.classList.add("is-missing");
    box.append(el("p.muted", e.code === "not_found" ? t("canvas.missing", { path: node.file }) : e.message));
    return { box, watched: { path: node.file, version: `!${e.code}`, probe: 0 } };
  }
}

function linkMap(links) {
  const at = new Map();
  for (const l of links || []) if (l.resolved && !at.has(l.target.toLowerCase())) at.set(l.target.toLowerCase(), l.resolved);
  return (target) => (target ? at.get(target.toLowerCase()) ?? null : null);
}

/** The start of a note for its card: whole paragraphs up to about NOTE_START characters. */
export function startOf(content) {
  if (content.length <= NOTE_START) return content;
  const cut = content.lastIndexOf("\n\n", NOTE_START);
  return `${content.slice(0, cut > NOTE_START / 3 ? cut : NOTE_START)}\n\n…`;
}

/** A card's `subpath`: "Heading" → that heading's section, "^id" → the block (paragraph or item) with that id. */
export function subpathOf(content, sub) {
  const lines = content.split("\n");
  if (sub.startsWith("^")) {
    const id = sub.slice(1).trim();
    const at = lines.findIndex((l) => new RegExp(`\\s\\^${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`).test(l));
    if (at < 0) return null;
    let from = at;
    while (from > 0 && lines[from - 1].trim() && !/^\s*([-*+]|\d+\.)\s/.test(lines[from])) from -= 1;
    return lines.slice(from, at + 1).join("\n").replace(/\s\^[\w-]+\s*$/, "");
  }
  const want = sub.trim().toLowerCase();
  let start = -1, level = 0, fence = false;
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
