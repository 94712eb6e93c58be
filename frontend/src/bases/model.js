// Pure helpers of the base views (no DOM): a cell's plain text, its sort key, and the client-side column sort.
// Cells come from GET /api/base/{vault} (services/bases.py, domain/bases/query.py): JSON values, or objects
// tagged by "$": link {path, text}, date {v}, text {v}, object {v}, html/icon/image {v}, error {v}.

/** A cell as plain text (lists joined by ", "; booleans "true"/"false"; null ""). */
export function cellText(cell) {
  if (cell == null) return "";
  if (Array.isArray(cell)) return cell.map(cellText).join(", ");
  if (typeof cell !== "object") return String(cell);
  if (cell.$ === "link") return cell.text ?? cell.path ?? "";
  if (cell.$ === "object") return JSON.stringify(cell.v);
  return String(cell.v ?? "");
}

/** Whether a cell counts as empty (null, "", [], an error): sorted last either way, as the server does. */
export function isEmpty(cell) {
  return cell == null || cell === "" || (Array.isArray(cell) && !cell.length) || cell?.$ === "error";
}

/** Ascending order of two non-empty cells: numbers numerically, dates chronologically, the rest as text (natural
 * order, case-insensitive). */
export function compareCells(a, b) {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (a?.$ === "date" && b?.$ === "date") return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  return cellText(a).localeCompare(cellText(b), undefined, { numeric: true, sensitivity: "base" });
}

/** Rows sorted by column `col` (`dir` 1 ascending, -1 descending), empty cells last; a new array, stable. */
export function sortRows(rows, col, dir) {
  return rows
    .map((row, i) => [row, i])
    .sort(([a, i], [b, j]) => {
      const x = a.cells[col];
      const y = b.cells[col];
      const ex = isEmpty(x);
      const ey = isEmpty(y);
      if (ex || ey) return ex === ey ? i - j : ex ? 1 : -1;
      return dir * compareCells(x, y) || i - j;
    })
    .map(([row]) => row);
}

const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i;
const COLOUR = /^#[0-9a-f]{3,8}$/i;

/** What a card's `image` cell shows: {path} of a vault image, {colour} of a hex colour, or null (a remote URL
 * is never loaded: the page's CSP allows only its own origin). */
export function cardImage(cell) {
  const v = Array.isArray(cell) ? cell[0] : cell;
  if (v == null) return null;
  if (typeof v === "string") {
    if (COLOUR.test(v.trim())) return { colour: v.trim() };
    const p = v.trim().replace(/^\.\//, "");
    return IMAGE.test(p) && !/^[a-z][a-z0-9+.-]*:/i.test(p) ? { path: p } : null;
  }
  if ((v.$ === "link" || v.$ === "image") && IMAGE.test(v.path || v.v || "")) return { path: v.path || v.v };
  return null;
}

/** The view last chosen for a base (localStorage `obsigate.base.view:<vault>:<path>[#block]`), or null. */
export function readChosenView(storage, vault, path, block = null) {
  try { return storage?.getItem(viewKey(vault, path, block)) || null; } catch { return null; }
}

/** Keeps `view` as the chosen one for that base (null forgets it). */
export function writeChosenView(storage, vault, path, block, view) {
  try {
    if (view) storage?.setItem(viewKey(vault, path, block), view);
    else storage?.removeItem(viewKey(vault, path, block));
  } catch { /* storage off: kept for this visit only */ }
}

const viewKey = (vault, path, block) => `obsigate.base.view:${vault}:${path}${block != null ? `#${block}` : ""}`;
