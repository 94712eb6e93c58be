// The graph's groups and search (issue 19 item 6): Obsidian's graph groups are a list of {query, colour}, a node
// taking the colour of the first group whose query it matches. A query here is the part of Obsidian's search
// syntax that needs no note text: `tag:#x` (nested tags too), `path:folder`, `file:name`, plain words (in the
// file's name or path), quoted phrases, `-term` to exclude; every term must match. No DOM: node --test checks it.

/** One term: {kind: "tag"|"path"|"file"|"any"|"regex", value (lower case; a regex's source as typed), not};
 * a `/regex/` term (on the note's path, case-insensitive) also has `re`, or `error` (the
 * engine's message) when it does not compile: queryError below. */
export function parseQuery(query) {
  const terms = [];
  const re = /(-?)(?:(tag|path|file):)?(?:"([^"]*)"|\/((?:\\.|[^/\\])+)\/(?=\s|$)|(\S+))/gi;
  for (const m of String(query || "").matchAll(re)) {
    if (m[4] != null) { // /regex/
      const term = { kind: "regex", value: m[4], not: m[1] === "-" };
      try { term.re = new RegExp(m[4], "i"); } catch (err) { term.error = err.message; }
      terms.push(term);
      continue;
    }
    const kind = (m[2] || "any").toLowerCase();
    let value = (m[3] ?? m[5] ?? "").trim().toLowerCase();
    if (kind === "tag") value = value.replace(/^#/, "");
    if (!value) continue;
    terms.push({ kind, value, not: m[1] === "-" });
  }
  return terms;
}

/** The first broken `/regex/` of parsed terms as {regex, error}, or null when all compile. */
export function queryError(terms) {
  const bad = terms.find((t) => t.error);
  return bad ? { regex: `/${bad.value}/`, error: bad.error } : null;
}

/** The tags a parsed query asks about (each needs the set of notes carrying it: tagNotes below). */
export const tagsOf = (terms) => [...new Set(terms.filter((t) => t.kind === "tag").map((t) => t.value))];

/**
 * Whether the node at `path` (a vault path, or null for a link to a note not created yet, named `label`)
 * matches every term. `tagged(tag)` gives the Set of paths carrying that tag (nested ones too), or null while
 * unknown (then a tag term matches nothing).
 */
export function matches(terms, path, label, tagged) {
  if (!terms.length) return false;
  const full = (path || label || "").toLowerCase();
  const name = (path ? path.split("/").pop().replace(/\.md$/i, "") : label || "").toLowerCase();
  return terms.every((t) => {
    let hit;
    if (t.kind === "tag") hit = Boolean(path && tagged(t.value)?.has(path));
    else if (t.kind === "path") hit = Boolean(path) && (full.startsWith(`${t.value.replace(/\/$/, "")}/`) || full.includes(t.value));
    else if (t.kind === "file") hit = name.includes(t.value);
    else if (t.kind === "regex") hit = Boolean(t.re?.test(path || label || ""));
    else hit = full.includes(t.value);
    return hit !== t.not;
  });
}

/**
 * Each node's group: a Uint8Array, 0 for none, else 1 + the index of the first group (in `groups`, each
 * {query, color}) whose query the node matches. `paths[i]` / `labels[i]` describe node i.
 */
export function assignGroups(groups, paths, labels, tagged) {
  const out = new Uint8Array(paths.length);
  const parsed = groups.slice(0, 254).map((g) => parseQuery(g.query));
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < parsed.length; j++) {
      if (matches(parsed[j], paths[i], labels[i], tagged)) { out[i] = j + 1; break; }
    }
  }
  return out;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The groups kept for a vault (localStorage `obsigate.graph.groups:<vault>`): a list of {query, color}. */
export function readGroups(storage, vault) {
  try {
    const list = JSON.parse(storage.getItem(groupsKey(vault)) || "[]");
    return Array.isArray(list)
      ? list.filter((g) => g && typeof g.query === "string" && HEX.test(g.color)).map(({ query, color }) => ({ query, color }))
      : [];
  } catch {
    return [];
  }
}

export function writeGroups(storage, vault, groups) {
  try { storage.setItem(groupsKey(vault), JSON.stringify(groups)); } catch { /* storage off: kept for this visit only */ }
}

const groupsKey = (vault) => `obsigate.graph.groups:${vault}`;

/** Colours offered to a new group, in turn (the canvas presets: red, orange, yellow, green, cyan, purple). */
export const GROUP_COLORS = ["#e93147", "#ec7500", "#e0ac00", "#08b94e", "#00bfbc", "#7852ee"];
