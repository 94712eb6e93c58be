// Obsidian's comments hidden before markdown-it sees the text: `%%inline%%` and block `%%` … `%%` (obsidian-app.md
// §4: exactly two `%`, removed from reading view; an unclosed `%%` hides the rest of the note), but never inside
// fenced code or an inline code span, where `%%` is literal text (mermaid comments, shell prompts…).
// HTML comments are left to markdown-it (html on) and dropped by its renderer (markdown.js).

const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * `source` without its `%%` comments, and `lineMap[i]` = the 0-based line of `source` that output line i starts
 * on (a comment spanning lines joins them: the kept line maps to where it began). Pure; O(length).
 * @param {string} source
 * @returns {{text: string, lineMap: number[]}}
 */
export function stripComments(source) {
  if (!source.includes("%%")) {
    const n = source.split("\n").length;
    return { text: source, lineMap: Array.from({ length: n }, (_, i) => i) };
  }
  const lines = source.split("\n");
  const out = [];
  const lineMap = [];
  let fence = null; // the open fence's marker ("```", "~~~~"…)
  let comment = false;
  let cur = null; // the output line being built
  let curOrig = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li];
    if (cur === null) { cur = ""; curOrig = li; }
    if (!comment) {
      const f = FENCE.exec(line);
      if (fence) {
        if (f && f[1][0] === fence[0] && f[1].length >= fence.length && !line.slice(f[0].length).trim()) fence = null;
        cur += line;
        out.push(cur); lineMap.push(curOrig); cur = null;
        continue;
      }
      if (f && !cur) {
        fence = f[1];
        cur += line;
        out.push(cur); lineMap.push(curOrig); cur = null;
        continue;
      }
    }
    let i = 0;
    while (i < line.length) {
      if (comment) {
        const end = line.indexOf("%%", i);
        if (end < 0) break;
        comment = false;
        i = end + 2;
        continue;
      }
      const ch = line[i];
      if (ch === "`") {
        let n = 1;
        while (line[i + n] === "`") n++;
        const run = "`".repeat(n);
        let close = line.indexOf(run, i + n);
        while (close >= 0 && line[close + n] === "`") close = line.indexOf(run, close + n + 1);
        const stop = close < 0 ? i + n : close + n;
        cur += line.slice(i, stop);
        i = stop;
        continue;
      }
      if (ch === "%" && line[i + 1] === "%" && line[i - 1] !== "\\") {
        comment = true;
        i += 2;
        continue;
      }
      cur += ch;
      i++;
    }
    if (!comment) { out.push(cur); lineMap.push(curOrig); cur = null; }
  }
  if (cur !== null) { out.push(cur); lineMap.push(curOrig); }
  return { text: out.join("\n"), lineMap };
}
