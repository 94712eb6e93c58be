// Obsidian-flavoured markdown -> sanitised HTML. Loaded on demand (its own chunk).
// markdown-it (inline and block HTML on, sanitised: render/sanitize.js) + callouts + Obsidian's task items
// (render/tasks-md.js) + ==highlight== + footnotes + block ids (render/blockids.js) + an in-house [[wikilink]] /
// ![[embed]] / #tag rule; `%%` comments are removed first (render/comments.js), HTML comments by the renderer;
// single newlines are line breaks unless the vault sets strictLineBreaks (obsidian-app.md §4); every rendering
// goes through DOMPurify before it reaches the page. Math ($…$, $$…$$) and
// ```mermaid blocks come out as their escaped source in placeholders (.math, .mermaid-source), drawn after
// sanitising by viewer/math.js and viewer/mermaid.js, loaded only when a note has some.
import { precleanHtml } from "./render/preclean.js";
import MarkdownIt from "markdown-it";
import callouts from "markdown-it-obsidian-callouts";
import mark from "markdown-it-mark";
import footnote from "markdown-it-footnote";
import { stripComments } from "./render/comments.js";
import { taskItems } from "./render/tasks-md.js";
import { blockIds } from "./render/blockids.js";
import { sanitize, DOMPurify } from "./render/sanitize.js";

const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|avif|ico)$/i;
const AUDIO = /\.(mp3|wav|ogg|m4a|flac|opus)$/i;
const VIDEO = /\.(mp4|webm|mov|ogv)$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Splits "Note#Heading|alias" (an escaped "\|" inside a table counts as "|"). */
export function parseWikilink(inner) {
  const bar = inner.search(/\\?\|/);
  let target = bar < 0 ? inner : inner.slice(0, bar);
  const display = bar < 0 ? null : inner.slice(bar).replace(/^\\?\|/, "");
  let subpath = null;
  const hash = target.indexOf("#");
  if (hash >= 0) { subpath = target.slice(hash + 1); target = target.slice(0, hash); }
  return { target: target.trim(), subpath: subpath ? subpath.trim() : null, display: display ? display.trim() : null };
}

function wikilinkRule(state, silent) {
  const src = state.src;
  let pos = state.pos;
  const embed = src.charCodeAt(pos) === 0x21 /* ! */;
  if (embed) pos += 1;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const end = src.indexOf("]]", pos + 2);
  if (end < 0) return false;
  const inner = src.slice(pos + 2, end);
  if (!inner.trim() || inner.includes("\n") || inner.includes("[[")) return false;
  if (!silent) {
    const token = state.push("wikilink", "", 0);
    token.meta = { ...parseWikilink(inner), embed };
    token.content = inner;
  }
  state.pos = end + 2;
  return true;
}

const TAG = /^#([\p{L}\p{N}_/-]+)/u;
function tagRule(state, silent) {
  const src = state.src;
  const pos = state.pos;
  if (src.charCodeAt(pos) !== 0x23) return false;
  if (pos > 0 && !/[\s([{,;:]/.test(src[pos - 1])) return false;
  const m = TAG.exec(src.slice(pos));
  if (!m || /^[\d/_-]+$/.test(m[1])) return false; // "#123" is not a tag
  const tag = m[1].replace(/[/-]+$/, "");
  if (!silent) {
    const token = state.push("obsidian_tag", "", 0);
    token.content = tag;
  }
  state.pos = pos + 1 + tag.length;
  return true;
}

// Math as Obsidian reads it: $inline$ (no space just inside the dollars, no digit right after the closing one,
// so "$5 and $6" stays text) and $$display$$ (within a line, or a block over several lines).
function mathInline(state, silent) {
  const src = state.src;
  const start = state.pos;
  const max = state.posMax;
  if (src.charCodeAt(start) !== 0x24) return false;
  let tex;
  let end;
  let display = false;
  if (src.charCodeAt(start + 1) === 0x24) {
    end = src.indexOf("$$", start + 2);
    if (end < 0 || end + 2 > max) return false;
    tex = src.slice(start + 2, end);
    display = true;
    end += 2;
  } else {
    if (start + 1 >= max || /\s/.test(src[start + 1])) return false;
    for (let i = src.indexOf("$", start + 1); i >= 0 && i < max; i = src.indexOf("$", i + 1)) {
      if (src[i - 1] === "\\" || /\s/.test(src[i - 1]) || /\d/.test(src[i + 1] || "")) continue;
      tex = src.slice(start + 1, i);
      end = i + 1;
      break;
    }
    if (tex === undefined) return false;
  }
  if (!tex.trim()) return false;
  if (!silent) {
    const token = state.push("math_inline", "", 0);
    token.content = tex;
    token.meta = { display };
  }
  state.pos = end;
  return true;
}

function mathBlock(state, startLine, endLine, silent) {
  const begin = state.bMarks[startLine] + state.tShift[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4 || state.src.slice(begin, begin + 2) !== "$$") return false;
  const lines = [];
  let last = -1;
  for (let line = startLine; line < endLine; line++) {
    const from = line === startLine ? begin + 2 : state.bMarks[line] + state.tShift[line];
    const text = state.src.slice(from, state.eMarks[line]);
    const close = text.indexOf("$$");
    if (close < 0) { lines.push(text); continue; }
    if (text.slice(close + 2).trim()) return false; // "$$a$$ more text": inline display math in a paragraph
    lines.push(text.slice(0, close));
    last = line;
    break;
  }
  const tex = lines.join("\n");
  if (last < 0 || !tex.trim()) return false;
  if (silent) return true;
  const token = state.push("math_block", "div", 0);
  token.block = true;
  token.content = tex.trim();
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

function sizeAttrs(display) {
  const m = /^(\d+)(?:x(\d+))?$/.exec(display || "");
  return m ? ` width="${m[1]}"${m[2] ? ` height="${m[2]}"` : ""}` : "";
}

function createMd() {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: false, breaks: true });
  md.use(callouts).use(taskItems).use(mark).use(footnote).use(blockIds);
  const dropComments = precleanHtml; // comments, <style>/<script>/<base>/<link>/<meta>, handlers (render/preclean.js)
  // table alignment as data-align (markdown-it writes a style attribute, which the CSP forbids: styles/render.css)
  md.core.ruler.push("table_align", (state) => {
    for (const tok of state.tokens) {
      const style = (tok.type === "th_open" || tok.type === "td_open") && tok.attrGet("style");
      if (!style) continue;
      tok.attrs = tok.attrs.filter(([name]) => name !== "style");
      tok.attrSet("data-align", style.replace(/^text-align:\s*/, ""));
    }
  });
  md.renderer.rules.html_block = (tokens, idx) => dropComments(tokens[idx].content);
  md.renderer.rules.html_inline = (tokens, idx) => dropComments(tokens[idx].content);
  md.inline.ruler.before("link", "wikilink", wikilinkRule);
  md.inline.ruler.before("link", "obsidian_tag", tagRule);
  md.inline.ruler.after("escape", "math_inline", mathInline);
  md.block.ruler.before("fence", "math_block", mathBlock, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.math_inline = (tokens, idx) =>
    `<span class="math ${tokens[idx].meta.display ? "math-display" : "math-inline"}">${esc(tokens[idx].content)}</span>`;
  md.renderer.rules.math_block = (tokens, idx) => `<div class="math math-display">${esc(tokens[idx].content)}</div>\n`;
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const lang = tokens[idx].info.trim().split(/\s+/)[0].toLowerCase();
    if (lang === "mermaid") return `<pre class="mermaid-source"><code>${esc(tokens[idx].content)}</code></pre>\n`;
    if (lang === "math") return `<div class="math math-display">${esc(tokens[idx].content.trim())}</div>\n`;
    if (lang === "base") return baseBox(env, { note: env.path, block: (env.baseBlocks = (env.baseBlocks ?? -1) + 1) }); // bases/view.js
    return fence(tokens, idx, options, env, self);
  };

  // env: {vault, resolve(target, kind) -> path|null, rawUrl(path), noteUrl(path, subpath), tagUrl(tag), t(key, vars)}
  md.renderer.rules.wikilink = (tokens, idx, _o, env) => {
    const { target, subpath, display, embed } = tokens[idx].meta;
    const resolved = target ? env.resolve(target, "wikilink") : env.path;
    const label = display || (target ? target.replace(/\.md$/i, "") : "") + (subpath ? (target ? " > " : "") + subpath : "");
    if (embed) return renderEmbed(env, target, subpath, display, resolved);
    if (!resolved && env.lookup) { // a backlink's context: looked up by name when clicked (render/backlinks.js)
      return `<a href="#" class="internal-link" data-lookup="${esc(target)}"${subpath ? ` data-subpath="${esc(subpath)}"` : ""}>${esc(label)}</a>`;
    }
    if (!resolved) {
      return `<a href="#" class="internal-link is-unresolved" data-create="${esc(target)}" title="${esc(env.t("note.unresolved", { target }))}">${esc(label)}</a>`;
    }
    return `<a class="internal-link" href="${esc(env.noteUrl(resolved, subpath))}" data-path="${esc(resolved)}"${subpath ? ` data-subpath="${esc(subpath)}"` : ""}>${esc(label)}</a>`;
  };
  md.renderer.rules.obsidian_tag = (tokens, idx, _o, env) => {
    const tag = tokens[idx].content;
    return `<a class="tag" href="${esc(env.tagUrl(tag))}" data-tag="${esc(tag)}">#${esc(tag)}</a>`;
  };

  // Markdown links and images to vault files go through the server's resolution too.
  const linkOpen = md.renderer.rules.link_open || ((tokens, idx, options, env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = token.attrGet("href") || "";
    if (href.startsWith("#")) {
      token.attrSet("data-anchor", href.slice(1));
    } else if (SCHEME.test(href)) {
      token.attrSet("target", "_blank");
      token.attrSet("rel", "noopener noreferrer");
      token.attrJoin("class", "external-link");
    } else {
      const [file, sub] = splitHash(href);
      const resolved = env.resolve(file, "markdown");
      if (resolved) {
        token.attrSet("href", env.noteUrl(resolved, sub));
        token.attrSet("data-path", resolved);
        token.attrJoin("class", "internal-link");
      } else {
        token.attrSet("href", "#");
        token.attrJoin("class", "internal-link is-unresolved");
        token.attrSet("title", env.t("note.unresolved", { target: file }));
      }
    }
    return linkOpen(tokens, idx, options, env, self);
  };
  const image = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = token.attrGet("src") || "";
    if (SCHEME.test(src) && !/^data:image\//i.test(src)) {
      // The page loads nothing from other origins (CSP): a remote image is a link to it.
      const alt = token.children?.map((c) => c.content).join("") || src;
      return `<a class="external-link remote-image" href="${esc(src)}" target="_blank" rel="noopener noreferrer">${esc(alt)}</a>`;
    }
    if (!SCHEME.test(src)) {
      const resolved = env.resolve(splitHash(src)[0], "markdown");
      token.attrSet("src", resolved ? env.rawUrl(resolved) : "");
      if (!resolved) token.attrJoin("class", "is-unresolved");
    }
    token.attrSet("loading", "lazy");
    return image(tokens, idx, options, env, self);
  };
  md.renderer.rules.footnote_anchor = (tokens, idx, _o, env, slf) => {
    let id = slf.rules.footnote_anchor_name(tokens, idx, _o, env, slf);
    if (tokens[idx].meta.subId > 0) id += `:${tokens[idx].meta.subId}`;
    return ` <a href="#fnref${id}" class="footnote-backref" aria-label="back">\u2191</a>`;
  };
  return md;
}

function splitHash(href) {
  let h = href;
  try { h = decodeURIComponent(href); } catch { /* keep as written */ }
  const i = h.indexOf("#");
  return i < 0 ? [h, null] : [h.slice(0, i), h.slice(i + 1) || null];
}

function renderEmbed(env, target, subpath, display, resolved) {
  if (!resolved) {
    return `<span class="embed embed-missing" role="note">${esc(env.t("note.embedMissing", { target: target + (subpath ? `#${subpath}` : "") }))}</span>`;
  }
  const url = env.rawUrl(resolved);
  if (IMAGE.test(resolved)) {
    const alt = display && !/^\d+(x\d+)?$/.test(display) ? display : target;
    return `<img class="embed-image" src="${esc(url)}" alt="${esc(alt)}" loading="lazy"${sizeAttrs(display)}>`;
  }
  if (AUDIO.test(resolved)) return `<audio class="embed-media" controls preload="none" src="${esc(url)}"></audio>`;
  if (VIDEO.test(resolved)) return `<video class="embed-media" controls preload="none" src="${esc(url)}"></video>`;
  if (/\.base$/i.test(resolved)) return baseBox(env, { path: resolved, view: subpath }); // bases/view.js fills it
  if (/\.md$/i.test(resolved)) {
    return `<div class="embed embed-note" data-path="${esc(resolved)}"${subpath ? ` data-subpath="${esc(subpath)}"` : ""}></div>`;
  }
  return `<a class="embed embed-file" href="${esc(url)}" download>${esc(display || target)}</a>`;
}

/** The box of a base (Obsidian Bases) that bases/view.js fills: a .base file (`path`, `view`) or a note's n-th
 * ```base block (`note`, `block`), shown for the note being rendered (`this`). */
function baseBox(env, attrs) {
  const data = { vault: env.vault, this: env.path, ...attrs };
  const list = Object.entries(data).filter(([, v]) => v != null).map(([k, v]) => ` data-${k}="${esc(String(v))}"`).join("");
  return `<div class="embed-base"${list}></div>\n`;
}

let md = null;

/**
 * Renders a note's markdown (its body, without frontmatter) to sanitised HTML, a string ready for innerHTML.
 * env: {vault, path, resolve(target, kind) -> path|null, rawUrl(path), noteUrl(path, subpath), tagUrl(tag),
 * t(key, vars), strictLineBreaks (the vault's setting: true = CommonMark soft breaks)}. Task checkboxes carry
 * data-line, the 0-based line of `source` they sit on.
 */
export function renderMarkdown(source, env) {
  md ||= createMd();
  const { text, lineMap } = stripComments(source);
  md.set({ breaks: !env.strictLineBreaks });
  const html = md.render(text, { ...env, lineMap });
  return sanitize(html, env);
}

/** One line of markdown (a backlink's context) rendered inline (no paragraph) and sanitised. */
export function renderInline(source, env) {
  md ||= createMd();
  md.set({ breaks: !env.strictLineBreaks });
  return sanitize(md.renderInline(stripComments(source).text, { ...env }), env);
}

export { DOMPurify };
// The properties editor rides in this chunk (with its YAML library): fetched with the first note, not the page.
export { propertiesView } from "./render/properties.js";
