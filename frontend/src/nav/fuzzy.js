// Matching and ranking for the command palette and the quick switcher (pure: no DOM, node-tested in
// tests/web/js/nav-fuzzy.test.mjs). Case and accents are ignored ("Éte" finds "ete"); the highlight ranges
// index the ORIGINAL text, so folding keeps one code unit per code unit.

const MARKS = /[\u0300-\u036f]/g;

/** `s` lower-cased without accents, the same length as `s` (one UTF-16 unit each: highlight ranges stay valid). */
export function fold(s) {
  let out = "";
  for (const ch of String(s)) {
    const f = ch.normalize("NFD").replace(MARKS, "").toLowerCase();
    out += f.length === ch.length ? f : ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch;
  }
  return out;
}

const isWordStart = (text, i) => i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]) || (/\p{Ll}/u.test(text[i - 1]) && /\p{Lu}/u.test(text[i]));

/** Where `word` (folded) occurs in `folded`: a substring at a word start, else any substring, else its letters
 * in order preferring word starts. Returns {score, ranges} (ranges: [from, to) pairs) or null. `orig` is the
 * unfolded text (for camelCase word starts). */
function matchWord(word, folded, orig) {
  let at = -1;
  for (let i = folded.indexOf(word); i >= 0; i = folded.indexOf(word, i + 1)) {
    if (isWordStart(orig, i)) { at = i; break; }
  }
  if (at >= 0) return { score: 3 + word.length * 2 + (at === 0 ? 2 : 0), ranges: [[at, at + word.length]] };
  at = folded.indexOf(word);
  if (at >= 0) return { score: 1 + word.length * 1.5, ranges: [[at, at + word.length]] };
  // letters in order: each letter at the next word start holding it when there is one, else the next occurrence
  const ranges = [];
  let pos = 0;
  let score = 0;
  let starts = 0;
  for (const ch of word) {
    let i = folded.indexOf(ch, pos);
    if (i < 0) return null;
    for (let j = i; j >= 0; j = folded.indexOf(ch, j + 1)) { if (isWordStart(orig, j)) { i = j; starts += 1; break; } }
    const last = ranges[ranges.length - 1];
    if (last && last[1] === i) { last[1] = i + 1; score += 0.5; } else ranges.push([i, i + 1]);
    pos = i + 1;
  }
  // an acronym ("og" for "Open graph": every letter a word start) is almost as good as a word's start
  if (starts === word.length) return { score: 2 + word.length * 2, ranges };
  return { score: score + starts + word.length * 0.5 - ranges.length * 0.25, ranges };
}

/** Fuzzy match of `query` (space-separated words, every one must match) in `text`: {score, ranges} or null.
 * Higher is better; an empty query matches with score 0 and no ranges. */
export function fuzzyMatch(query, text) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return { score: 0, ranges: [] };
  const folded = fold(text);
  const orig = String(text);
  let score = 0;
  const ranges = [];
  for (const w of words) {
    const m = matchWord(w, folded, orig);
    if (!m) return null;
    score += m.score;
    ranges.push(...m.ranges);
  }
  if (folded === words.join(" ")) score += 50;
  return { score: score - orig.length / 100, ranges: mergeRanges(ranges) };
}

/** Sorted, overlapping or touching [from, to) ranges joined. */
export function mergeRanges(ranges) {
  const out = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b); else out.push([a, b]);
  }
  return out;
}

/** `text` cut into [{text, hit}] pieces by `ranges` (for drawing highlights without innerHTML). */
export function pieces(text, ranges) {
  const out = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) out.push({ text: text.slice(at, a), hit: false });
    out.push({ text: text.slice(a, b), hit: true });
    at = b;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}

// ---- the quick switcher's ranking --------------------------------------------------------------------

/** Tiers, best first (obsidian-app.md §6.1 and issue 19: exact name > prefix > word-start > fuzzy). */
export const TIER = Object.freeze({ EXACT: 0, PREFIX: 1, WORD: 2, INNER: 3, PATH: 4, FUZZY: 5 });

/** A note's name as the switcher matches it: the file name without `.md` ("Projects/Plan.md" -> "Plan"). */
export const baseName = (path) => String(path).split("/").pop().replace(/\.md$/i, "");

/** How `q` (folded, trimmed) matches `name` (a note name or an alias): {tier, ranges} or null. A query with a
 * "/" is matched against the path instead (without `.md`), so "Projects/Pl" finds "Projects/Plan.md". */
export function nameTier(q, name) {
  const words = q.split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const f = fold(name);
  if (f === q) return { tier: TIER.EXACT, ranges: [[0, name.length]] };
  if (f.startsWith(q)) return { tier: TIER.PREFIX, ranges: [[0, q.length]] };
  const m = fuzzyMatch(q, name);
  if (!m) return null;
  const atStarts = words.every((w) => { for (let i = f.indexOf(w); i >= 0; i = f.indexOf(w, i + 1)) if (isWordStart(name, i)) return true; return false; });
  if (atStarts) return { tier: TIER.WORD, ranges: m.ranges };
  if (words.every((w) => f.includes(w))) return { tier: TIER.INNER, ranges: m.ranges };
  return { tier: TIER.FUZZY, ranges: m.ranges, score: m.score };
}

/**
 * Rank switcher candidates for `query`. `items`: [{path, aliases?: string[]}]. Returns, best first,
 * [{item, tier, label, alias, ranges}]: `label` the text shown (the note's name, or the alias that matched
 * best), `ranges` its highlights. Order: the tier; within the fuzzy tiers the match's score; then the shorter
 * name (more of it typed: "Plan B" before "Plan for the year" for "plan"), then the shorter path, then A→Z.
 * Items that do not match are left out.
 */
export function rankNotes(query, items) {
  const q = fold(query).trim().replace(/\s+/g, " ");
  if (!q) return [];
  const out = [];
  for (const item of items) {
    const withPath = q.includes("/");
    const name = withPath ? item.path.replace(/\.md$/i, "") : baseName(item.path);
    let best = null;
    const consider = (text, alias) => {
      const m = nameTier(q, text);
      if (m && (!best || m.tier < best.tier || (m.tier === best.tier && (m.score || 0) > (best.score || 0)))) best = { ...m, label: text, alias };
    };
    consider(name, null);
    if (!withPath) for (const a of item.aliases || []) consider(String(a), a);
    if (!best && !withPath) {
      const m = fuzzyMatch(q, item.path); // letters of the folders too, as a last resort
      if (m) best = { tier: TIER.PATH, ranges: [], score: m.score, label: name, alias: null };
    }
    if (best) out.push({ item, tier: best.tier, label: best.label, alias: best.alias, ranges: best.ranges, score: best.score || 0 });
  }
  out.sort((a, b) => a.tier - b.tier || (a.tier >= TIER.FUZZY ? b.score - a.score : 0)
    || a.label.length - b.label.length || a.item.path.length - b.item.path.length || (a.item.path < b.item.path ? -1 : 1));
  return out;
}

// ---- the command palette's ranking ------------------------------------------------------------------

/**
 * Commands matching `query`, best first: [{cmd, ranges}] over `cmd.label`. With an empty query: the recently
 * used ones first (in `recent` order: ids, most recent first), then the rest in their given order. Typing ranks
 * by match quality; among equal matches recent ones come first.
 */
export function rankCommands(query, cmds, recent = []) {
  const rank = new Map(recent.map((id, i) => [id, i]));
  const r = (c) => (rank.has(c.id) ? rank.get(c.id) : Infinity);
  if (!query.trim()) {
    return cmds.map((cmd, i) => ({ cmd, ranges: [], i }))
      .sort((a, b) => r(a.cmd) - r(b.cmd) || a.i - b.i)
      .map(({ cmd, ranges }) => ({ cmd, ranges }));
  }
  const out = [];
  for (const cmd of cmds) {
    const m = fuzzyMatch(query, cmd.label);
    if (m) out.push({ cmd, ranges: m.ranges, score: m.score + (rank.has(cmd.id) ? 1.5 - Math.min(rank.get(cmd.id), 10) / 10 : 0) });
  }
  out.sort((a, b) => b.score - a.score);
  return out.map(({ cmd, ranges }) => ({ cmd, ranges }));
}
