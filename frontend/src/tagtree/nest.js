// Nested tags (`#a/b/c` under `a` and `a/b`, Obsidian's tag pane) from the flat list GET /api/tags gives.
// The server already counts a parent once per note that carries it or any tag below it (vault_index.list_tags:
// "a/b also counts toward a, once per note"), so a node's count is the server's count for that full tag; a
// parent the list lacks (past its last page) gets the largest of its children's counts, the least it can be.

/**
 * nestTags([{tag: "a/b", count: 2}, {tag: "a", count: 3}]) ->
 *   [{name: "a", tag: "a", count: 3, children: [{name: "b", tag: "a/b", count: 2, children: []}]}]
 * Siblings sorted by name (case-insensitive, numbers in order), like Obsidian's tag pane sorted by name.
 * Tags compare case-insensitively (`#Work` = `#work`, as the server does); the first spelling met is shown.
 */
export function nestTags(tags) {
  const root = { children: new Map() };
  const counts = new Map();
  for (const { tag, count } of tags) counts.set(String(tag).toLowerCase(), count);
  for (const { tag } of tags) {
    let node = root;
    const parts = String(tag).split("/").filter(Boolean);
    parts.forEach((name, i) => {
      const full = parts.slice(0, i + 1).join("/");
      const key = name.toLowerCase();
      if (!node.children.has(key)) node.children.set(key, { name, tag: full, count: counts.get(full.toLowerCase()), children: new Map() });
      node = node.children.get(key);
    });
  }
  return finish(root.children);
}

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

function finish(children) {
  return [...children.values()]
    .map((n) => {
      const kids = finish(n.children);
      const count = n.count ?? Math.max(0, ...kids.map((k) => k.count));
      return { name: n.name, tag: n.tag, count, children: kids };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
}
