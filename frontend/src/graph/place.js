// Where the whole vault's nodes start (graph view, issue 11 and 19 item 6): from the tab's stored layout when
// there is one, new nodes next to a placed neighbour, the rest at a seeded spot of a disc. Used by the worker
// that loads the export (layout.worker.js), or by the page when it had to load it itself. No DOM.

/**
 * model: {labels, paths (null for a link to a note not created yet), edges (Uint32Array pairs), version};
 * saved: {own, base} the stored layouts as strings ("version\n[keys]\n[xy]") of this graph and, for a tag's
 * graph, of the whole vault (its notes keep their places). Returns {xy (Float32Array), settled (the stored
 * layout is this very graph's: no layout to run), known (nodes placed from it)}.
 */
export function placeVault(model, saved) {
  const n = model.labels.length;
  const xy = new Float32Array(2 * n);
  const own = parseSaved(saved?.own);
  const layout = own ?? (parseSaved(saved?.base) ? { ...parseSaved(saved.base), version: null } : null);
  const radius = 10 * Math.sqrt(n);
  const placed = new Uint8Array(n);
  let known = 0;
  for (let i = 0; i < n; i++) {
    const p = layout?.at.get(model.paths[i] ?? `?${model.labels[i]}`);
    if (p) {
      xy[2 * i] = p[0];
      xy[2 * i + 1] = p[1];
      placed[i] = 1;
      known += 1;
    }
  }
  const e = model.edges;
  const near = (a, b) => {
    if (placed[a] || placed[b] !== 1) return;
    const [jx, jy] = seeded(model.labels[a]);
    xy[2 * a] = xy[2 * b] + jx * 20 - 10;
    xy[2 * a + 1] = xy[2 * b + 1] + jy * 20 - 10;
    placed[a] = 2;
  };
  if (known) for (let k = 0; k < e.length; k += 2) { near(e[k], e[k + 1]); near(e[k + 1], e[k]); }
  for (let i = 0; i < n; i++) {
    if (placed[i]) continue;
    const [u, v] = seeded(model.paths[i] ?? model.labels[i]);
    const r = radius * Math.sqrt(u);
    xy[2 * i] = r * Math.cos(2 * Math.PI * v);
    xy[2 * i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return { xy, settled: layout?.version === model.version && known === n, known };
}

/** A stored layout string as {version, at: Map(key -> [x, y])}, or null. */
export function parseSaved(raw) {
  if (!raw) return null;
  try {
    const [version, keysJson, xyJson] = raw.split("\n");
    const keys = JSON.parse(keysJson);
    const xy = JSON.parse(xyJson);
    return { version: version || null, at: new Map(keys.map((k, i) => [k, [xy[2 * i], xy[2 * i + 1]]])) };
  } catch {
    return null;
  }
}

/** Two numbers in [0, 1) from a string (FNV-1a): the same note starts at the same spot every time. */
export function seeded(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  const a = (h >>> 0) / 4294967296;
  h = Math.imul(h ^ 0x9e3779b9, 16777619);
  return [a, (h >>> 0) / 4294967296];
}
