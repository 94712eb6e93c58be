// Small helpers shared by Live Preview's inline (livepreview.js) and block (lp-blocks.js) decorations.

/** Whether any selection range touches [from, to] (ends inclusive, every cursor): there the source shows
 * (obsidian-app.md §7.2, "Reveal test"). */
export function touches(state, from, to) {
  return state.selection.ranges.some((r) => r.from <= to && r.to >= from);
}

/** The end offset of a leading YAML frontmatter block (its closing `---` line), or null. Live Preview leaves
 * it as source: the Markdown grammar would read its closing `---` as a heading underline or a rule. */
export function frontmatterEnd(doc) {
  if (doc.lines < 2 || doc.line(1).text !== "---") return null;
  for (let n = 2; n <= Math.min(doc.lines, 2000); n++) {
    if (/^(---|\.\.\.)\s*$/.test(doc.line(n).text)) return doc.line(n).to;
  }
  return null;
}
