// markdown-it plugin: Obsidian's block ids (obsidian-app.md §4, obsidian.md). A trailing ` ^id` (letters, digits,
// `-`) is not shown: it becomes the block's data-block-id, so a `[[Note#^id]]` link can scroll to the block. A
// paragraph that is only `^id` (the line after a list, quote or table) is removed and names the block before it.

const TRAILING = /(^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/;

/** The opening token of the block that holds the inline token at `index` (a list item for its paragraph). */
function owner(tokens, index) {
  const open = tokens[index - 1];
  if (open?.type === "paragraph_open" && tokens[index - 2]?.type === "list_item_open") return tokens[index - 2];
  return open && open.nesting === 1 ? open : null;
}

/** The opening token of the block just before `open` at the same level (null at the start). */
function previousBlock(tokens, openIndex) {
  const level = tokens[openIndex].level;
  for (let i = openIndex - 1; i >= 0; i--) {
    const tok = tokens[i];
    if (tok.level !== level) continue;
    if (tok.nesting === 0) return tok.block ? tok : null; // a fence, an hr, a math block…
    if (tok.nesting === 1) return tok;
    for (let j = i - 1, depth = 0; j >= 0; j--) { // tok closes a block: find its opening
      if (tokens[j].level === level && tokens[j].nesting === -1) depth++;
      if (tokens[j].level === level && tokens[j].nesting === 1) { if (depth === 0) return tokens[j]; depth--; }
    }
    return null;
  }
  return null;
}

/** The plugin (md.use(blockIds)). */
export function blockIds(md) {
  md.core.ruler.push("obsidian_block_ids", (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const inline = tokens[i];
      if (inline.type !== "inline" || !inline.children?.length) continue;
      const kids = inline.children;
      const last = kids[kids.length - 1];
      if (last.type !== "text") continue;
      const m = TRAILING.exec(last.content);
      if (!m) continue;
      last.content = last.content.slice(0, m.index).replace(/[ \t]+$/, "");
      if (!last.content) kids.pop();
      while (kids.length && /^(softbreak|hardbreak)$/.test(kids[kids.length - 1].type)) kids.pop();
      let target = owner(tokens, i);
      if (!kids.length && tokens[i - 1]?.type === "paragraph_open" && tokens[i - 2]?.type !== "list_item_open") {
        // a paragraph of its own: hidden; it names the block before it (when there is one)
        tokens[i - 1].hidden = true;
        if (tokens[i + 1]?.type === "paragraph_close") tokens[i + 1].hidden = true;
        target = previousBlock(tokens, i - 1) || null;
      }
      if (target) target.attrSet("data-block-id", m[2]);
    }
  });
}
