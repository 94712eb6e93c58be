// Live Preview's block widgets (obsidian-app.md §7.1): tables, callouts (`> [!type]`) and `$$` math blocks are
// drawn by the reading view's renderer (markdown.js, through DOMPurify) in place of their source lines, until
// the selection enters them; then the source shows for editing. Built from a StateField (livepreview.js):
// CM6 takes block decorations only from state.

import { syntaxTree } from "@codemirror/language";
import { Decoration, WidgetType } from "@codemirror/view";
import { frontmatterEnd, touches } from "./lp-util.js";

class BlockWidget extends WidgetType {
  constructor(source, kind, ctx) { super(); this.source = source; this.kind = kind; this.ctx = ctx; }
  eq(other) { return other.source === this.source && other.kind === this.kind; }
  get estimatedHeight() { return this.source.split("\n").length * 26; }
  toDOM(view) {
    const box = document.createElement("div");
    box.className = `cm-lp-block cm-lp-${this.kind} markdown-body`;
    box.innerHTML = this.ctx.render(this.source); // sanitised by the renderer (DOMPurify)
    if (box.querySelector(".math")) import("../viewer/math.js").then((m) => m.renderMath(box)).catch(() => {});
    // A click inside (not on a link) puts the cursor at the block's start: its source shows for editing.
    box.addEventListener("mousedown", (e) => {
      if (e.button !== 0 || e.target.closest("a, input")) return;
      e.preventDefault();
      view.dispatch({ selection: { anchor: view.posAtDOM(box) } });
      view.focus();
    });
    return box;
  }
  ignoreEvent() { return true; }
}

/** The lines [from, to] of `$$ … $$` blocks outside code fences (a block may open and close on one line). */
function mathBlocks(doc, startLine) {
  const found = [];
  let fence = null;
  let open = null;
  for (let n = startLine; n <= doc.lines; n++) {
    const line = doc.line(n);
    const text = line.text.trim();
    const f = /^(```+|~~~+)/.exec(text);
    if (open == null && f && (!fence || text.startsWith(fence))) { fence = fence ? null : f[1]; continue; }
    if (fence) continue;
    if (open == null && text.startsWith("$$")) {
      if (text.length > 4 && text.endsWith("$$")) found.push([line.from, line.to]);
      else open = line.from;
    } else if (open != null && text.endsWith("$$")) {
      found.push([open, line.to]);
      open = null;
    }
  }
  return found;
}

/** The block decorations of the whole document (tables, callouts, math blocks not touched by the selection). */
export function blockDecorations(state, ctx) {
  const { doc } = state;
  const fmEnd = frontmatterEnd(doc) ?? -1;
  const deco = [];
  const add = (from, to, kind) => {
    const a = doc.lineAt(from).from;
    const b = doc.lineAt(to).to;
    if (a <= fmEnd || touches(state, a, b)) return;
    deco.push(Decoration.replace({ widget: new BlockWidget(doc.sliceString(a, b), kind, ctx), block: true }).range(a, b));
  };
  for (let node = syntaxTree(state).topNode.firstChild; node; node = node.nextSibling) {
    if (node.name === "Table") add(node.from, node.to, "table");
    else if (node.name === "Blockquote" && /^\s*>\s*\[![^\]]+\]/.test(doc.lineAt(node.from).text)) add(node.from, node.to, "callout");
  }
  const first = fmEnd >= 0 ? doc.lineAt(fmEnd).number + 1 : 1;
  for (const [from, to] of mathBlocks(doc, first)) add(from, to, "math");
  return Decoration.set(deco, true);
}
