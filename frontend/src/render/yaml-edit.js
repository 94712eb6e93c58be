// Edits of a note's frontmatter that keep everything else in it as written (comments, key order, quoting,
// nested values the properties view does not edit): the YAML is changed through eemeli `yaml`'s Document, the
// library Obsidian itself uses (domain/markdown/frontmatter.py), then the file's body is put back untouched.
import { parseDocument, isMap, isScalar } from "yaml";
import { splitFrontmatter, joinFrontmatter } from "./frontmatter.js";

/**
 * An edit: {op: "set", key, value} | {op: "rename", key, to} | {op: "remove", key}. Returns the file `source`
 * with it applied to the frontmatter, or null when the frontmatter is not a valid YAML mapping (never rewritten).
 */
export function applyPropertyEdit(source, edit) {
  const { yaml, body } = splitFrontmatter(source);
  const doc = parseDocument(yaml ?? "", { keepSourceTokens: false });
  if (doc.errors.length || (doc.contents != null && !isMap(doc.contents))) return null;
  if (edit.op === "set") doc.set(edit.key, edit.value);
  else if (edit.op === "remove") doc.delete(edit.key);
  else if (edit.op === "rename") {
    if (!edit.to || edit.to === edit.key || doc.has(edit.to)) return null;
    const pair = doc.contents?.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === edit.key);
    if (!pair) return null;
    if (isScalar(pair.key)) pair.key.value = edit.to;
    else pair.key = doc.createNode(edit.to);
  }
  const empty = !doc.contents || (isMap(doc.contents) && !doc.contents.items.length && !doc.commentBefore && !doc.comment);
  return joinFrontmatter(empty ? "" : doc.toString({ nullStr: "" }), body); // an empty value is written `key:`, as Obsidian does
}

/** The frontmatter of `source` as plain values ({} when there is none), or null when it is not valid YAML. */
export function readProperties(source) {
  const { yaml } = splitFrontmatter(source);
  if (yaml == null) return {};
  const doc = parseDocument(yaml);
  if (doc.errors.length) return null;
  const value = doc.toJS();
  return value && typeof value === "object" && !Array.isArray(value) ? value : value == null ? {} : null;
}
