// JSON Canvas 1.0 (https://jsoncanvas.org/spec/1.0/, shared/reference/obsidian-app.md §2), read for the board
// (board.js): no DOM here, so node --test checks it. A file that is not JSON, or not a canvas at all, throws a
// CanvasError (its `key` is the i18n message); single items that break the spec are skipped and counted, so
// one bad card never blanks the board.

export const NODE_TYPES = new Set(["text", "file", "link", "group"]);
export const SIDES = ["top", "right", "bottom", "left"];
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const MAX_ITEMS = 5000; // a canvas beyond this many nodes or edges is shown cut (the DOM board is not for more)

/** A file that cannot be read as a canvas: `key` is an i18n key of canvas.*.json, `detail` the parser's words. */
export class CanvasError extends Error {
  constructor(key, detail = "") {
    super(detail || key);
    this.key = key;
    this.detail = detail;
  }
}

const num = (v) => typeof v === "number" && Number.isFinite(v);

/**
 * Parse the text of a .canvas file.
 * Returns {nodes, edges, skipped, cut}: nodes in drawing order (groups first, then the rest in file order: the
 * array order is the z-order, and Obsidian draws groups below cards), each {id, type, x, y, width, height, color,
 * text|file+subpath|url|label+background}; edges whose ends exist, each {id, from, to, fromSide, toSide, fromEnd,
 * toEnd, color, label}; `skipped` the items left out for breaking the spec; `cut` true past MAX_ITEMS.
 * Throws CanvasError("canvas.notJson" | "canvas.notCanvas").
 */
export function parseCanvas(text) {
  let data;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, "") || "{}"); // an empty file is an empty canvas (Obsidian's new canvas)
  } catch (e) {
    throw new CanvasError("canvas.notJson", e.message);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new CanvasError("canvas.notCanvas", "top level");
  for (const key of ["nodes", "edges"]) {
    if (data[key] != null && !Array.isArray(data[key])) throw new CanvasError("canvas.notCanvas", key);
  }
  let skipped = 0;
  const rawNodes = data.nodes || [];
  const rawEdges = data.edges || [];
  const cut = rawNodes.length > MAX_ITEMS || rawEdges.length > MAX_ITEMS;
  const byId = new Map();
  for (const raw of rawNodes.slice(0, MAX_ITEMS)) {
    const node = readNode(raw);
    if (!node || byId.has(node.id)) { skipped += 1; continue; }
    byId.set(node.id, node);
  }
  const all = [...byId.values()];
  const nodes = [...all.filter((n) => n.type === "group"), ...all.filter((n) => n.type !== "group")];
  const edges = [];
  const seen = new Set();
  for (const raw of rawEdges.slice(0, MAX_ITEMS)) {
    const edge = readEdge(raw);
    if (!edge || seen.has(edge.id) || !byId.has(edge.from) || !byId.has(edge.to)) { skipped += 1; continue; }
    seen.add(edge.id);
    edges.push(edge);
  }
  return { nodes, edges, skipped, cut };
}

function readNode(raw) {
  if (!raw || typeof raw !== "object" || typeof raw.id !== "string" || !raw.id || !NODE_TYPES.has(raw.type)) return null;
  if (![raw.x, raw.y, raw.width, raw.height].every(num) || raw.width <= 0 || raw.height <= 0) return null;
  const node = { id: raw.id, type: raw.type, x: raw.x, y: raw.y, width: raw.width, height: raw.height, color: readColor(raw.color) };
  if (raw.type === "text") {
    if (typeof raw.text !== "string") return null;
    node.text = raw.text;
  } else if (raw.type === "file") {
    if (typeof raw.file !== "string" || !raw.file) return null;
    node.file = raw.file.replace(/^\/+/, "");
    node.subpath = typeof raw.subpath === "string" && raw.subpath.startsWith("#") ? raw.subpath.slice(1) : null;
  } else if (raw.type === "link") {
    if (typeof raw.url !== "string" || !raw.url) return null;
    node.url = raw.url;
  } else {
    node.label = typeof raw.label === "string" ? raw.label : "";
    node.background = typeof raw.background === "string" && raw.background ? raw.background : null;
    node.backgroundStyle = ["cover", "ratio", "repeat"].includes(raw.backgroundStyle) ? raw.backgroundStyle : "cover";
  }
  return node;
}

function readEdge(raw) {
  if (!raw || typeof raw !== "object" || typeof raw.id !== "string" || typeof raw.fromNode !== "string" || typeof raw.toNode !== "string") return null;
  return {
    id: raw.id, from: raw.fromNode, to: raw.toNode,
    fromSide: SIDES.includes(raw.fromSide) ? raw.fromSide : null,
    toSide: SIDES.includes(raw.toSide) ? raw.toSide : null,
    fromEnd: raw.fromEnd === "arrow" ? "arrow" : "none", // spec defaults: no arrow at the start…
    toEnd: raw.toEnd === "none" ? "none" : "arrow", // …an arrow at the end
    color: readColor(raw.color),
    label: typeof raw.label === "string" ? raw.label : "",
  };
}

/** A canvasColor: {preset: "1".."6"} (red, orange, yellow, green, cyan, purple: the theme decides the shade),
 * {hex: "#rrggbb"}, or null (no colour, or one the spec does not allow). */
export function readColor(c) {
  if (typeof c !== "string") return null;
  if (/^[1-6]$/.test(c)) return { preset: c };
  return HEX.test(c) ? { hex: c.toLowerCase() } : null;
}

/** The box around every node: {x, y, width, height} (a unit box at 0,0 for an empty canvas). */
export function bounds(nodes) {
  if (!nodes.length) return { x: 0, y: 0, width: 1, height: 1 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of nodes) {
    x0 = Math.min(x0, n.x); y0 = Math.min(y0, n.y);
    x1 = Math.max(x1, n.x + n.width); y1 = Math.max(y1, n.y + n.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The camera {x, y, zoom} that shows `box` whole and centred in a `w`×`h` viewport (screen = (world - x)·zoom). */
export function fit(box, w, h, { pad = 40, min = 0.05, max = 1 } = {}) {
  const zoom = clamp(Math.min((w - 2 * pad) / box.width, (h - 2 * pad) / box.height), min, max);
  return { x: box.x + box.width / 2 - w / 2 / zoom, y: box.y + box.height / 2 - h / 2 / zoom, zoom };
}

/** The camera after zooming by `factor` around the screen point (sx, sy), which stays put. */
export function zoomAt(camera, factor, sx, sy, { min = 0.05, max = 4 } = {}) {
  const zoom = clamp(camera.zoom * factor, min, max);
  const wx = camera.x + sx / camera.zoom;
  const wy = camera.y + sy / camera.zoom;
  return { x: wx - sx / zoom, y: wy - sy / zoom, zoom };
}

export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

/** Where an edge leaves `side` of `node`: the middle of that side. */
export function anchor(node, side) {
  const cx = node.x + node.width / 2, cy = node.y + node.height / 2;
  if (side === "top") return { x: cx, y: node.y };
  if (side === "bottom") return { x: cx, y: node.y + node.height };
  if (side === "left") return { x: node.x, y: cy };
  return { x: node.x + node.width, y: cy };
}

/** The facing sides of two boxes (for an edge that names none: the spec is silent, Obsidian always writes both). */
export function facingSides(a, b) {
  const dx = (b.x + b.width / 2) - (a.x + a.width / 2);
  const dy = (b.y + b.height / 2) - (a.y + a.height / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? ["right", "left"] : ["left", "right"];
  return dy >= 0 ? ["bottom", "top"] : ["top", "bottom"];
}

const OUT = { top: [0, -1], bottom: [0, 1], left: [-1, 0], right: [1, 0] };

/**
 * An edge's curve between two nodes: {d (an SVG path: a cubic Bézier leaving each side at a right angle, as
 * Obsidian draws them), start, end, mid (the label's place), startAngle, endAngle (radians, the direction the
 * line arrives: for arrowheads)}.
 */
export function edgePath(from, to, edge) {
  const [fs, ts] = facingSides(from, to);
  const fromSide = edge.fromSide || fs, toSide = edge.toSide || ts;
  const a = anchor(from, fromSide), b = anchor(to, toSide);
  const dist = Math.hypot(b.x - a.x, b.y - a.y);
  const k = clamp(dist / 2, 40, 250);
  const c1 = { x: a.x + OUT[fromSide][0] * k, y: a.y + OUT[fromSide][1] * k };
  const c2 = { x: b.x + OUT[toSide][0] * k, y: b.y + OUT[toSide][1] * k };
  const r = (v) => Math.round(v * 10) / 10;
  const mid = { // the curve at t = 0.5
    x: (a.x + 3 * c1.x + 3 * c2.x + b.x) / 8,
    y: (a.y + 3 * c1.y + 3 * c2.y + b.y) / 8,
  };
  return {
    d: `M${r(a.x)},${r(a.y)} C${r(c1.x)},${r(c1.y)} ${r(c2.x)},${r(c2.y)} ${r(b.x)},${r(b.y)}`,
    start: a, end: b, mid,
    startAngle: Math.atan2(a.y - c1.y, a.x - c1.x), // into the start node
    endAngle: Math.atan2(b.y - c2.y, b.x - c2.x), // into the end node
  };
}

/** The nodes whose box lies inside `group`'s (membership is geometric in JSON Canvas: there is no parent field). */
export function members(group, nodes) {
  return nodes.filter((n) => n !== group && n.x >= group.x && n.y >= group.y
    && n.x + n.width <= group.x + group.width && n.y + n.height <= group.y + group.height);
}

/** The [[wikilink]] and markdown-link targets of a text card (resolved by the board before rendering). */
export function linkTargets(text) {
  const out = new Set();
  for (const m of text.matchAll(/!?\[\[([^\]\n|#]+)(?:[#|][^\]\n]*)?\]\]/g)) out.add(m[1].trim());
  for (const m of text.matchAll(/\]\((?!#|[a-z][a-z0-9+.-]*:)([^)\s]+)\)/gi)) {
    let target = m[1];
    try { target = decodeURIComponent(target); } catch { /* kept as written */ }
    out.add(target.split("#")[0]);
  }
  out.delete("");
  return [...out];
}

/** The host of a link card's URL (its label: the board never fetches the page), or the URL itself. */
export function linkHost(url) {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Whether a link card's URL may be a link at all (http, https, mailto): no javascript: or data: hrefs. */
export const safeUrl = (url) => /^(https?:|mailto:)/i.test(url);
