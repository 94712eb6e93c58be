// The frontmatter block as the server splits it (domain/markdown/frontmatter.py split_frontmatter, obsidian.md
// §3): it starts at byte 0 with "---" + newline and ends at the next line starting with "---".

/**
 * Splits LF-normalised `text` into {yaml: string|null, body: string, bodyLine: number (0-based line of the body)}.
 * yaml is the text between the fences; null when there is no block (then body is the whole text, bodyLine 0).
 */
export function splitFrontmatter(text) {
  if (!text.startsWith("---\n")) return { yaml: null, body: text, bodyLine: 0 };
  const close = text.indexOf("\n---", 3);
  if (close < 0) return { yaml: null, body: text, bodyLine: 0 };
  const yaml = close > 3 ? text.slice(4, close) : "";
  const end = text.indexOf("\n", close + 1);
  const body = end < 0 ? "" : text.slice(end + 1);
  const bodyLine = text.slice(0, close + 1).split("\n").length;
  return { yaml, body, bodyLine };
}

/** The file text with its frontmatter replaced by `yaml` (a YAML mapping's text; "" or null drops the block). */
export function joinFrontmatter(yaml, body) {
  const y = (yaml || "").replace(/\n+$/, "");
  return y ? `---\n${y}\n---\n${body}` : body;
}
