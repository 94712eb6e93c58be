// The editor's AI text actions without a browser (tests/web/js/aiactions.test.mjs): the menu's actions, the text
// an answer makes of the selection, and the word diff shown before anything is replaced. The server's table
// (src/obsigate/agent/text_actions.py ACTIONS) owns the prompts; these ids, fields and placements mirror it
// (tests/agent/test_text_actions_front.py checks they match).

/** The 16 actions in menu order: `id` (POST /api/ai/{id}), the field it `needs`, where its answer goes. */
export const ACTIONS = [
  { id: "improve" }, { id: "fix" }, { id: "shorten" }, { id: "expand" }, { id: "simplify" },
  { id: "summarize" }, { id: "bullets" }, { id: "outline" },
  { id: "title", placement: "before" }, { id: "continue", placement: "after" }, { id: "explain", placement: "after" },
  { id: "translate", needs: "target_lang" }, { id: "tone", needs: "tone" },
  { id: "formal" }, { id: "casual" }, { id: "custom", needs: "instruction" },
].map((a) => ({ needs: null, placement: "replace", ...a }));

export const actionById = (id) => ACTIONS.find((a) => a.id === id) || null;

/**
 * The text that replaces the selection on Accept: the answer itself, or the selection with the answer after it
 * (`continue`: on the same line when the selection does not end a line; `explain`: a paragraph of its own) or
 * before it (`title`).
 */
export function compose(selection, answer, placement) {
  const text = answer.replace(/^\s*\n/, "").replace(/\s+$/, "");
  if (placement === "after") {
    if (/\n$/.test(selection)) return selection + text;
    return selection + (/^\s/.test(answer) || /\s$/.test(selection) ? "" : " ") + text.replace(/^ +/, "");
  }
  if (placement === "before") return `${text}\n\n${selection}`;
  return text;
}

const TOKENS = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
// Above this many token pairs the diff is one deletion and one insertion (a 20,000-character selection is ~7k
// tokens: 49M cells would stall the page).
const MAX_CELLS = 4_000_000;

/**
 * A word diff of `a` to `b`: [{op: "eq"|"del"|"ins", text}], neighbours of one op merged. Common head and tail
 * first, then a longest common subsequence on what is left.
 */
export function wordDiff(a, b) {
  const x = a.match(TOKENS) || [];
  const y = b.match(TOKENS) || [];
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const out = [];
  const push = (op, text) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  push("eq", x.slice(0, head).join(""));
  if (xs.length * ys.length > MAX_CELLS) {
    push("del", xs.join(""));
    push("ins", ys.join(""));
  } else {
    for (const part of lcsDiff(xs, ys)) push(part.op, part.text);
  }
  push("eq", x.slice(x.length - tail).join(""));
  return out;
}

function lcsDiff(xs, ys) {
  const n = xs.length;
  const m = ys.length;
  const w = m + 1;
  const len = new Uint32Array((n + 1) * w); // len[i][j]: LCS of xs[i:] and ys[j:]
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] = xs[i] === ys[j] ? len[(i + 1) * w + j + 1] + 1 : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
    }
  }
  const parts = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (xs[i] === ys[j]) { parts.push({ op: "eq", text: xs[i] }); i++; j++; }
    else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) parts.push({ op: "del", text: xs[i++] });
    else parts.push({ op: "ins", text: ys[j++] });
  }
  while (i < n) parts.push({ op: "del", text: xs[i++] });
  while (j < m) parts.push({ op: "ins", text: ys[j++] });
  return parts;
}
