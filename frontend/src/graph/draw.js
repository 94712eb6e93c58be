// The graph's picture, drawn by the worker (layout.worker.js) on an OffscreenCanvas 2D context: the main thread
// never rasterises a node or an edge (issue 19 item 6: no main-thread task over 100 ms at 10k notes, even with a
// software-only renderer). Plain canvas paths batched by colour: one stroke for all edges, one fill per colour.

const TAU = 2 * Math.PI;
const LABEL_FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MAX_LABELS = 400; // labels considered per frame (top named ones, the lit ones, the hovered one)

/**
 * Draw one frame.
 * g: {n, xy (Float32Array, world coordinates, from the layout), edges (Uint32Array pairs), sizes (screen px),
 *     kinds (Uint8Array: 0 note, 1 attachment, 2 unresolved, 3 centre), labels (string[]), named (Uint8Array),
 *     neighbours (Int32Array[] or null)}
 * view: {w, h, dpr, cam: {x, y, k} (the world point at the centre, pixels per world unit)}
 * look: {palette: {note, attachment, unresolved, center, accent, edge, fg, bg2, dim, shadow}, big, showEdges,
 *        hover (index or -1), lit (Set of indexes or null: search or list highlight, the rest dims),
 *        hidden (Uint8Array or null), group (Uint8Array or null: 1 + index in groupColors), groupColors}
 */
export function drawFrame(ctx, g, view, look) {
  const { w, h, dpr, cam } = view;
  const { palette, hover, lit, hidden, group, groupColors } = look;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const k = cam.k;
  const ox = w / 2 - cam.x * k, oy = h / 2 - cam.y * k;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const sx = (i) => g.xy[2 * i] * k + ox;
  const sy = (i) => g.xy[2 * i + 1] * k + oy;
  const shown = (i) => !hidden || !hidden[i];
  const near = hover >= 0 && g.neighbours ? new Set(g.neighbours[hover]) : null;
  const dimming = lit != null || (near != null && !look.big);

  if (look.showEdges) {
    ctx.lineWidth = look.big ? 0.5 : 1;
    ctx.strokeStyle = dimming ? palette.dimEdge : palette.edge;
    ctx.beginPath();
    const e = g.edges;
    for (let j = 0; j < e.length; j += 2) {
      const a = e[j], b = e[j + 1];
      if (!shown(a) || !shown(b)) continue;
      ctx.moveTo(sx(a), sy(a));
      ctx.lineTo(sx(b), sy(b));
    }
    ctx.stroke();
    if (hover >= 0 && g.neighbours) { // the hovered node's links, on top
      ctx.lineWidth = look.big ? 1 : 1.5;
      ctx.strokeStyle = palette.accent;
      ctx.beginPath();
      for (const b of g.neighbours[hover]) {
        if (!shown(b)) continue;
        ctx.moveTo(sx(hover), sy(hover));
        ctx.lineTo(sx(b), sy(b));
      }
      ctx.stroke();
    }
  }

  // Nodes by colour: one path and one fill per colour.
  const kindColor = [palette.note, palette.attachment, palette.unresolved, palette.center];
  const buckets = new Map();
  const colorOf = (i) => {
    if (i === hover || near?.has(i) || lit?.has(i)) return palette.accent;
    if (dimming && g.kinds[i] !== 3) return palette.dim;
    if (group && group[i] && g.kinds[i] !== 3) return groupColors[group[i] - 1];
    return kindColor[g.kinds[i]];
  };
  for (let i = 0; i < g.n; i++) {
    if (!shown(i)) continue;
    const x = sx(i), y = sy(i);
    const r = g.sizes[i];
    if (x < -r || y < -r || x > w + r || y > h + r) continue; // off screen
    const c = colorOf(i);
    let list = buckets.get(c);
    if (!list) buckets.set(c, (list = []));
    list.push(i);
  }
  const order = [...buckets.keys()].sort((a, b) => (a === palette.accent) - (b === palette.accent)); // lit ones on top
  for (const c of order) {
    ctx.fillStyle = c;
    ctx.beginPath();
    for (const i of buckets.get(c)) {
      const x = sx(i), y = sy(i), r = g.sizes[i];
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, TAU);
    }
    ctx.fill();
  }
  drawLabels(ctx, g, { w, h, sx, sy, shown, hover, near, lit, palette, big: look.big, dimming });
}

function drawLabels(ctx, g, { w, h, sx, sy, shown, hover, near, lit, palette, big, dimming }) {
  const want = [];
  if (hover >= 0) want.push(hover);
  for (const i of near || []) if (want.length < MAX_LABELS) want.push(i);
  for (const i of lit || []) if (want.length < MAX_LABELS) want.push(i);
  // The rest are named unless dimmed (a search or a hover in a small graph names only what it lights).
  for (let i = 0; i < g.n && want.length < MAX_LABELS && !dimming; i++) if (g.kinds[i] === 3 || (big ? g.named[i] : true)) want.push(i);
  ctx.font = LABEL_FONT;
  ctx.textBaseline = "middle";
  const taken = [];
  const seen = new Set();
  for (const i of want) {
    if (seen.has(i) || !shown(i) || !g.labels[i]) continue;
    seen.add(i);
    const x = sx(i) + g.sizes[i] + 4, y = sy(i);
    if (x > w || y < 0 || y > h || x < -200) continue;
    const text = g.labels[i].length > 40 ? `${g.labels[i].slice(0, 39)}…` : g.labels[i];
    const width = ctx.measureText(text).width;
    const box = [x - 2, y - 8, x + width + 2, y + 8];
    if (i !== hover && taken.some((t) => box[0] < t[2] && box[2] > t[0] && box[1] < t[3] && box[3] > t[1])) continue;
    taken.push(box);
    if (i === hover) {
      ctx.fillStyle = palette.bg2;
      ctx.shadowColor = palette.shadow;
      ctx.shadowBlur = 6;
      ctx.fillRect(box[0] - 3, box[1] - 2, box[2] - box[0] + 6, box[3] - box[1] + 4);
      ctx.shadowBlur = 0;
    }
    ctx.fillStyle = palette.fg;
    ctx.fillText(text, x, y);
  }
}
