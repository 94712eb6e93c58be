// The text of a new link as Obsidian writes it (`fileToLinktext`), following the vault's `.obsidian/app.json`
// `newLinkFormat` (shortest | relative | absolute) and `useMarkdownLinks` (obsidian-app.md §3.1; the
// algorithm: shared/reference/obsidian.md §7 "Link generation"). Pure functions: unit-tested in
// tests/web/js/linktext.test.mjs.

const NOTE = /\.md$/i;
const base = (p) => p.slice(p.lastIndexOf("/") + 1);
const dir = (p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");

/**
 * An index of a vault's files for link generation: `paths` (vault-relative, "/" separated) -> a lookup of how
 * many files share each lower-cased file name (with extension), and which root-level paths exist.
 */
export function linkIndex(paths) {
  const byName = new Map();
  const all = new Set();
  for (const p of paths) {
    const key = base(p).toLowerCase();
    byName.set(key, (byName.get(key) || 0) + 1);
    all.add(p.toLowerCase());
  }
  return { byName, all };
}

/**
 * The path part of a link from `source` to `target` (both vault paths): notes lose `.md` in wikilinks and keep
 * it in markdown links; attachments always keep their extension.
 * - shortest: the bare name when resolving it from anywhere gives exactly the target (the name is unique in
 *   the vault, or the target is the root-level file of that name, which the exact-path step picks first);
 *   otherwise the full vault path.
 * - relative: a `../` chain from the source's folder (a note in the same folder: just its name).
 * - absolute: the full vault path.
 */
export function linkPath(target, source, index, { format = "shortest", markdown = false } = {}) {
  const strip = (p) => (!markdown && NOTE.test(p) ? p.replace(NOTE, "") : p);
  if (format === "relative") {
    const from = dir(source).split("/").filter(Boolean);
    const to = target.split("/");
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    return strip([...from.slice(common).map(() => ".."), ...to.slice(common)].join("/"));
  }
  if (format === "absolute") return strip(target);
  const name = base(target);
  const unique = (index.byName.get(name.toLowerCase()) || 0) === 1;
  const rootCopy = !target.includes("/");
  return strip(unique || rootCopy ? name : target);
}

/** Percent-encodes what a markdown link destination cannot hold as is (spaces, brackets), as Obsidian does. */
export function encodeDestination(path) {
  return path.replace(/[ %()<>[\]^`{|}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/**
 * The whole link Obsidian would insert for `target` from `source`: `[[path]]` (or `[[path|alias]]`), or with
 * `markdown` true `[display](encoded path)`; `embed` prefixes `!`. `display` defaults to the file's name (no
 * `.md`).
 */
export function linkMarkup(target, source, index, { format, markdown = false, alias = "", embed = false } = {}) {
  const path = linkPath(target, source, index, { format, markdown });
  const bang = embed ? "!" : "";
  if (markdown) {
    const display = alias || base(target).replace(NOTE, "");
    return `${bang}[${display}](${encodeDestination(path)})`;
  }
  return `${bang}[[${path}${alias ? `|${alias}` : ""}]]`;
}
