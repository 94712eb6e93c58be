// Keyboard moves between the search box and the result list (issue 19 item 3): Down from the box enters the
// list, Up/Down move hit to hit, Home/End jump, Up on the first hit or Esc goes back to the box, Enter opens
// (the hit is a link). Pure decision here (tests/web/js/search-keys.test.mjs); search.js wires it to the DOM.

/**
 * Where a key sends the focus among `count` hits from `index` (-1: the search box).
 * @returns {number|null} the hit to focus, -1 for the box, null when the key is not ours.
 */
export function nextFocus(index, key, count) {
  if (!count) return null;
  if (index < 0) return key === "ArrowDown" ? 0 : null;
  switch (key) {
    case "ArrowDown": return Math.min(index + 1, count - 1);
    case "ArrowUp": return index === 0 ? -1 : index - 1;
    case "Home": return 0;
    case "End": return count - 1;
    case "Escape": return -1;
    default: return null;
  }
}

/**
 * The query cut around a syntax error's 0-based `position`: [before, the faulty character, after]; a fault
 * at the end (an unclosed quote found there) is shown as a space after the text.
 */
export function errorParts(query, position) {
  const q = String(query ?? "");
  const at = Math.max(0, Math.min(Number(position) || 0, q.length));
  return [q.slice(0, at), q.slice(at, at + 1) || " ", q.slice(at + 1)];
}
