// Live Preview (issue 19 item 1): CodeMirror 6 decorations in Obsidian's style (obsidian-app.md §7). Markup is
// hidden where the selection is not (emphasis, heading #s, link syntax, `==highlight==`, escapes); the element
// under the cursor or selection shows its source. Widgets stand for embeds, task checkboxes (clickable),
// rules and inline math; tables, callouts and $$ blocks are block widgets drawn by the reading view's own
// renderer (sanitised). How CM6 editors do this (§7.2): a ViewPlugin over the visible ranges for inline
// decorations, a StateField for the block ones (CM6 refuses block decorations from plugins); hidden ranges are
// atomic so the arrows skip them. Part of the editor's lazy chunk.

import { syntaxTree } from "@codemirror/language";
import { Decoration, EditorView, ViewPlugin, WidgetType } from "@codemirror/view";
import { StateField } from "@codemirror/state";
import { blockDecorations } from "./lp-blocks.js";
import { frontmatterEnd, touches } from "./lp-util.js";

const hide = Decoration.replace({});
const marks = new Map();
/** A styling mark over [from, to], or nothing when the range is empty (CM6 refuses empty marks). */
const mark = (cls, attrs) => ({
  range: (from, to) => {
    const key = attrs ? null : cls;
    const deco = (key && marks.get(key)) || Decoration.mark(attrs ? { class: cls, attributes: attrs } : { class: cls });
    if (key) marks.set(key, deco);
    return to > from ? deco.range(from, to) : null;
  },
});
const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i;
const CODE_NODES = new Set(["InlineCode", "FencedCode", "CodeBlock", "CodeText", "HTMLBlock", "Comment"]);
const EMPHASIS = { Emphasis: "cm-lp-em", StrongEmphasis: "cm-lp-strong", Strikethrough: "cm-lp-strike", InlineCode: "cm-lp-code" };
const MARKS = new Set(["EmphasisMark", "StrikethroughMark", "CodeMark"]);

class CheckboxWidget extends WidgetType {
  constructor(checked, label) { super(); this.checked = checked; this.label = label; }
  eq(other) { return other.checked === this.checked; }
  toDOM() {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "cm-lp-task";
    box.checked = this.checked;
    box.tabIndex = -1; // the keyboard toggles it with Mod+L (editor:toggle-checklist-status), as in Obsidian
    box.setAttribute("aria-label", this.label);
    return box;
  }
  ignoreEvent() { return false; } // the editor's mousedown handler (livePreview) toggles it in the text
}

class RuleWidget extends WidgetType {
  eq() { return true; }
  toDOM() { const hr = document.createElement("hr"); hr.className = "cm-lp-hr"; return hr; }
}

class MathWidget extends WidgetType {
  constructor(tex) { super(); this.tex = tex; }
  eq(other) { return other.tex === this.tex; }
  toDOM() {
    const wrap = document.createElement("span");
    wrap.className = "cm-lp-math";
    const node = document.createElement("span");
    node.className = "math math-inline";
    node.textContent = this.tex;
    wrap.append(node);
    import("../viewer/math.js").then((m) => m.renderMath(wrap)).catch(() => {});
    return wrap;
  }
}

class EmbedWidget extends WidgetType {
  constructor(target, ctx) { super(); this.target = target; this.ctx = ctx; }
  eq(other) { return other.target === this.target; }
  toDOM() {
    const [name] = this.target.split("|");
    const path = name.split("#")[0].trim();
    if (IMAGE.test(path)) {
      const img = document.createElement("img");
      img.className = "cm-lp-image";
      img.alt = path;
      img.src = this.ctx.rawUrl(this.ctx.resolve(path) || path);
      const width = /\|(\d+)(?:x\d+)?\s*$/.exec(this.target);
      if (width) img.width = Number(width[1]);
      return img;
    }
    const chip = document.createElement("span");
    chip.className = "cm-lp-embed";
    chip.dataset.target = name.trim();
    chip.textContent = name.trim().replace(/#\^?/, " > ");
    return chip;
  }
  ignoreEvent() { return false; }
}

/** The inline decorations of the visible part of the document: [decorations, atomic (hidden) ranges]. */
function inlineDecorations(view, ctx) {
  const { state } = view;
  const deco = [];
  const atomic = [];
  const fmEnd = frontmatterEnd(state.doc) ?? -1;
  const tree = syntaxTree(state);
  const conceal = (from, to) => { if (to > from) { deco.push(hide.range(from, to)); atomic.push(hide.range(from, to)); } };
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= Math.min(to, fmEnd); pos = state.doc.lineAt(pos).to + 1) {
      deco.push(Decoration.line({ class: "cm-lp-frontmatter" }).range(state.doc.lineAt(pos).from)); // YAML, as code
    }
    tree.iterate({
      from, to,
      enter: (node) => {
        if (node.to <= fmEnd) return false;
        const name = node.name;
        if (/^ATXHeading[1-6]$/.test(name)) {
          const line = state.doc.lineAt(node.from);
          deco.push(Decoration.line({ class: `cm-lp-h cm-lp-h${name.slice(-1)}` }).range(line.from));
          if (!touches(state, line.from, line.to)) {
            const m = node.node.getChild("HeaderMark");
            if (m && m.from === line.from) conceal(m.from, Math.min(line.to, m.to + 1));
          }
          return true;
        }
        if (name in EMPHASIS) {
          deco.push(mark(EMPHASIS[name]).range(node.from, node.to));
          if (!touches(state, node.from, node.to)) {
            for (let c = node.node.firstChild; c; c = c.nextSibling) if (MARKS.has(c.name)) conceal(c.from, c.to);
          }
          return name !== "InlineCode";
        }
        if (name === "Link") { linkDecorations(node.node, state, deco, conceal); return false; }
        if (name === "Escape" && !touches(state, node.from, node.to)) { conceal(node.from, node.from + 1); return false; }
        if (name === "HorizontalRule") {
          const line = state.doc.lineAt(node.from);
          if (!touches(state, line.from, line.to)) deco.push(Decoration.replace({ widget: new RuleWidget() }).range(node.from, node.to));
          return false;
        }
        if (name === "TaskMarker") {
          // `- [ ]` becomes a checkbox (the bullet hidden too, as Obsidian draws it) unless the cursor is on it
          const bullet = node.node.parent?.parent?.getChild("ListMark");
          const start = bullet && bullet.to < node.from ? bullet.from : node.from;
          if (!touches(state, start, node.to)) {
            const checked = state.doc.sliceString(node.from + 1, node.to - 1) !== " ";
            if (/^[-*+]$/.test(state.doc.sliceString(start, start + 1))) conceal(start, node.from);
            deco.push(Decoration.replace({ widget: new CheckboxWidget(checked, ctx.t("editor.taskToggle")) }).range(node.from, node.to));
          }
          return false;
        }
        if (name === "Blockquote" || name === "Table") return true;
        return !CODE_NODES.has(name);
      },
    });
    regexDecorations(view, from, to, fmEnd, tree, deco, conceal, ctx);
  }
  return [Decoration.set(deco.filter(Boolean), true), Decoration.set(atomic, true)];
}

/** `[text](url)`: only the text, styled as a link, off the cursor. A bare `[x]` (the grammar's shortcut
 * reference, also the inside of every `[[wikilink]]`) is left to the wikilink rules. */
function linkDecorations(link, state, deco, conceal) {
  const m = [];
  for (let c = link.firstChild; c; c = c.nextSibling) if (c.name === "LinkMark") m.push(c);
  if (m.length < 4 || !link.getChild("URL")) return;
  deco.push(mark("cm-lp-link").range(m[0].to, m[1].from));
  if (touches(state, link.from, link.to)) return;
  conceal(link.from, m[0].to);
  conceal(m[1].from, link.to);
}

const INLINE = /(!?)\[\[([^\]\n]+?)\]\]|==(?=\S)([^=\n]+?)==|%%[^\n]*?%%|(?<![\\$])\$(?=[^\s$])([^$\n]+?)(?<=\S)\$(?!\d)|(?<=^|\s)#(?!\d+(?:\s|$))[\p{L}\p{N}_/-]+/gu;

/** What the Markdown grammar does not know: [[wikilinks]], ![[embeds]], ==highlight==, %%comments%%, $math$, #tags. */
function regexDecorations(view, from, to, fmEnd, tree, deco, conceal, ctx) {
  const { state } = view;
  for (let pos = from; pos <= to;) {
    const line = state.doc.lineAt(pos);
    pos = line.to + 1;
    if (line.to <= fmEnd) continue;
    for (const m of line.text.matchAll(INLINE)) {
      const start = line.from + m.index;
      const end = start + m[0].length;
      const inside = tree.resolveInner(start, 1);
      if (CODE_NODES.has(inside.name) || CODE_NODES.has(inside.parent?.name)) continue;
      const shown = touches(state, start, end);
      if (m[2] !== undefined) {
        if (m[1]) {
          if (!shown) deco.push(Decoration.replace({ widget: new EmbedWidget(m[2], ctx) }).range(start, end));
          continue;
        }
        const bar = m[2].indexOf("|");
        const textFrom = bar >= 0 ? start + 2 + bar + 1 : start + 2;
        const target = (bar >= 0 ? m[2].slice(0, bar) : m[2]).trim();
        deco.push(mark("cm-lp-wikilink", { "data-target": target }).range(textFrom, end - 2));
        if (!shown) { conceal(start, textFrom); conceal(end - 2, end); }
      } else if (m[3] !== undefined) {
        deco.push(mark("cm-lp-highlight").range(start, end));
        if (!shown) { conceal(start, start + 2); conceal(end - 2, end); }
      } else if (m[0].startsWith("%%")) {
        deco.push(mark("cm-lp-comment").range(start, end));
      } else if (m[4] !== undefined) {
        if (!shown) deco.push(Decoration.replace({ widget: new MathWidget(m[4]) }).range(start, end));
      } else {
        deco.push(mark("cm-lp-tag").range(start, end));
      }
    }
  }
}

/** Toggles the task marker `[ ]` <-> `[x]` at `pos` (the `[`). */
function toggleTask(view, pos) {
  const inner = view.state.doc.sliceString(pos + 1, pos + 2);
  view.dispatch({ changes: { from: pos + 1, to: pos + 2, insert: inner === " " ? "x" : " " } });
}

/** Mod+L (Obsidian's editor:toggle-checklist-status): the task on each selected line ticked or unticked. */
export function toggleChecklist(view) {
  const changes = [];
  for (const r of view.state.selection.ranges) {
    const line = view.state.doc.lineAt(r.head);
    const m = /^(\s*(?:[-*+]|\d+[.)])\s+)\[(.)\]/.exec(line.text);
    if (m) changes.push({ from: line.from + m[1].length + 1, to: line.from + m[1].length + 2, insert: m[2] === " " ? "x" : " " });
    else {
      const bullet = /^(\s*)(?:([-*+]|\d+[.)])\s+)?/.exec(line.text);
      changes.push({ from: line.from + bullet[1].length, to: line.from + bullet[0].length, insert: `${bullet[2] || "-"} [ ] ` });
    }
  }
  view.dispatch({ changes });
  return true;
}

/**
 * The Live Preview extension. `ctx`: `{t(key), rawUrl(path), resolve(target) -> path|null,
 * render(markdown) -> sanitised HTML, follow(target)}` (the note view's link resolution and renderer).
 */
export function livePreview(ctx) {
  const plugin = ViewPlugin.fromClass(class {
    constructor(view) { [this.decorations, this.atomic] = inlineDecorations(view, ctx); }
    update(u) {
      if (u.docChanged || u.selectionSet || u.viewportChanged || syntaxTree(u.startState) !== syntaxTree(u.state)) {
        [this.decorations, this.atomic] = inlineDecorations(u.view, ctx);
      }
    }
  }, {
    decorations: (v) => v.decorations,
    provide: (p) => EditorView.atomicRanges.of((view) => view.plugin(p)?.atomic ?? Decoration.none),
  });
  const blocks = StateField.define({
    create: (state) => blockDecorations(state, ctx),
    update(value, tr) {
      if (tr.docChanged || tr.selection || syntaxTree(tr.startState) !== syntaxTree(tr.state)) return blockDecorations(tr.state, ctx);
      return value;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  const clicks = EditorView.domEventHandlers({
    mousedown(e, view) {
      if (e.button !== 0) return false;
      const box = e.target.closest?.(".cm-lp-task");
      if (box) { e.preventDefault(); toggleTask(view, view.posAtDOM(box)); return true; }
      if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return false; // edit the link: place the cursor
      const link = e.target.closest?.(".cm-lp-wikilink, .cm-lp-embed");
      const target = link?.dataset.target || link?.closest("[data-target]")?.dataset.target;
      if (!target) return false;
      e.preventDefault();
      ctx.follow(target);
      return true;
    },
  });
  return [plugin, blocks, clicks, EditorView.editorAttributes.of({ class: "cm-lp" })];
}
