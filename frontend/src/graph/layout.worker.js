// The graph view's worker (issues 11 and 19, item 6): the ForceAtlas2 layout (graphology-layout-forceatlas2's
// iterations over flat typed arrays) AND the drawing (draw.js on the OffscreenCanvas the page handed over), so
// that neither ever holds the main thread: the page only moves a camera, tests what is under the pointer (a loop
// over the positions it is sent) and tells the worker what to show. Positions are posted to the page after each
// layout slice (a copy, transferred). Built by build.mjs as its own file (/static/graph-layout.js): the page's
// CSP allows same-origin worker scripts only, never blob: workers.
import iterate from "graphology-layout-forceatlas2/iterate.js";
import { drawFrame } from "./draw.js";
import { placeVault } from "./place.js";

const PPN = 10; // floats per node in FA2's node matrix: x, y, dx, dy, old dx, old dy, mass, convergence, size, fixed
const PPE = 3; // floats per edge: source offset, target offset, weight
const SLICE_MS = 40;
const CALM = 0.002; // stop once nodes move less than this share of the layout's extent per iteration
const STILL_MS = 150; // a big graph's edges come back this long after the camera stopped

const s = { ctx: null, g: null, view: null, look: null, job: 0, frame: 0, movedAt: 0, drawn: false, layoutDone: true };

self.onmessage = ({ data }) => {
  const handler = HANDLERS[data.type];
  if (handler) handler(data);
};

const HANDLERS = {
  /** {url, saved}: the whole vault's export, fetched and parsed here, its nodes placed (place.js, `saved`: the
   * tab's stored layouts); posts {type: "model", notes, unresolved, labels, edges (Uint32Array, each link once),
   * version, placed: {xy, settled, known}} or {type: "failed", status} (the page then asks itself). */
  async load({ url, saved }) {
    try {
      const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!res.ok) { self.postMessage({ type: "failed", status: res.status }); return; }
      const data = await res.json();
      const all = data.notes.length + data.unresolved.length;
      const labels = [...data.notes.map((p) => p.split("/").pop().replace(/\.md$/i, "")), ...data.unresolved];
      const edges = uniquePairs(data.edges, all);
      const paths = [...data.notes, ...data.unresolved.map(() => null)];
      const placed = placeVault({ labels, paths, edges, version: data.version }, saved);
      self.postMessage({ type: "model", notes: data.notes, unresolved: data.unresolved, labels, edges, version: data.version, placed },
        [edges.buffer, placed.xy.buffer]);
    } catch {
      self.postMessage({ type: "failed", status: 0 });
    }
  },
  /** {canvas, w, h, dpr, cam, graph: {n, xy, edges, sizes, kinds, labels, named}, look, layout: {maxIterations, maxMs} | null} */
  init(data) {
    s.ctx = data.canvas.getContext("2d", { alpha: true });
    s.g = { ...data.graph, neighbours: adjacency(data.graph.edges, data.graph.n) };
    s.view = { w: data.w, h: data.h, dpr: data.dpr, cam: data.cam };
    s.look = { hover: -1, lit: null, hidden: null, group: null, groupColors: [], ...data.look };
    size();
    s.layoutDone = !data.layout;
    schedule(); // the first picture from the placement, before any layout slice
    const id = ++s.job;
    if (data.layout) setTimeout(() => run(id, data.layout), 0);
  },
  camera({ cam }) { s.view.cam = cam; s.movedAt = performance.now(); schedule(); },
  resize({ w, h, dpr }) { Object.assign(s.view, { w, h, dpr }); size(); schedule(); },
  /** Any of {palette, hover, lit (index array or null), hidden, group, groupColors, showEdges}. */
  look(data) {
    for (const [key, value] of Object.entries(data)) {
      if (key === "lit") s.look.lit = value ? new Set(value) : null;
      else if (key !== "type") s.look[key] = value;
    }
    schedule();
  },
  stop() { s.job += 1; },
};

function size() {
  const { w, h, dpr } = s.view;
  s.ctx.canvas.width = Math.max(1, Math.round(w * dpr));
  s.ctx.canvas.height = Math.max(1, Math.round(h * dpr));
}

// A task of its own, queued behind the layout's next slice at worst (a worker's requestAnimationFrame waits for
// an idle moment the layout never leaves): the picture is committed when the task ends.
function schedule() {
  if (s.frame || !s.ctx) return;
  s.frame = 1;
  setTimeout(() => {
    s.frame = 0;
    const moving = performance.now() - s.movedAt < STILL_MS;
    // A big graph draws its lines once the layout stands still and the camera is not moving (as sigma's
    // hideEdgesOnMove did): tens of thousands of lines cost most of a frame.
    const showEdges = s.look.edges !== false && (!s.look.big || (s.layoutDone && !moving));
    drawFrame(s.ctx, s.g, s.view, { ...s.look, showEdges });
    if (!s.drawn) { s.drawn = true; self.postMessage({ type: "drawn" }); }
    if (showEdges && !s.edgesShown) { s.edgesShown = true; self.postMessage({ type: "edges" }); }
    if (moving) setTimeout(schedule, STILL_MS);
  }, 0);
}

/** The layout: FA2 slices of SLICE_MS, the picture redrawn and the positions posted after each. */
function run(id, { maxIterations, maxMs }) {
  const { n, edges } = s.g;
  const xy = s.g.xy;
  const nodes = new Float32Array(n * PPN);
  for (let i = 0; i < n; i++) {
    const o = i * PPN;
    nodes[o] = xy[2 * i];
    nodes[o + 1] = xy[2 * i + 1];
    nodes[o + 6] = 1; // mass: 1 + degree
    nodes[o + 7] = 1;
    nodes[o + 8] = 1;
  }
  const m = edges.length / 2;
  const links = new Float32Array(m * PPE);
  for (let e = 0; e < m; e++) {
    const a = edges[2 * e] * PPN;
    const b = edges[2 * e + 1] * PPN;
    links[e * PPE] = a;
    links[e * PPE + 1] = b;
    links[e * PPE + 2] = 1;
    nodes[a + 6] += 1;
    nodes[b + 6] += 1;
  }
  // The library's own advice for a graph of this order (inferSettings), Barnes-Hut beyond a few hundred nodes.
  const settings = {
    linLogMode: false, outboundAttractionDistribution: false, adjustSizes: false, edgeWeightInfluence: 1,
    scalingRatio: 10, strongGravityMode: true, gravity: 0.05, slowDown: 1 + Math.log(Math.max(1, n)),
    barnesHutOptimize: n > 300, barnesHutTheta: 0.5,
  };
  const started = performance.now();
  let iterations = 0;
  const step = () => {
    if (id !== s.job) return;
    const before = xy.slice();
    const sliceEnd = performance.now() + SLICE_MS;
    let count = 0;
    do {
      iterate(settings, nodes, links);
      count += 1;
    } while (performance.now() < sliceEnd && iterations + count < maxIterations);
    iterations += count;
    for (let i = 0; i < n; i++) {
      xy[2 * i] = nodes[i * PPN];
      xy[2 * i + 1] = nodes[i * PPN + 1];
    }
    const calm = movement(before, xy) / count < CALM;
    const done = calm || iterations >= maxIterations || performance.now() - started > maxMs;
    if (done) s.layoutDone = true;
    const out = xy.slice();
    // The final positions also as the JSON the page keeps for the tab (rounded): building that string for 10k
    // nodes is a few hundred ms the page's thread must not spend.
    const saved = done ? JSON.stringify(Array.from(out, (v) => Math.round(v * 10) / 10)) : null;
    self.postMessage({ type: done ? "done" : "positions", xy: out, iterations, saved }, [out.buffer]);
    schedule();
    if (!done) setTimeout(step, 0); // lets camera moves and a "stop" in between slices
  };
  step();
}

/** Mean distance a node moved during the slice, as a share of the layout's extent. */
function movement(a, b) {
  let moved = 0;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < b.length; i += 2) {
    moved += Math.abs(b[i] - a[i]) + Math.abs(b[i + 1] - a[i + 1]);
    minX = Math.min(minX, b[i]); maxX = Math.max(maxX, b[i]);
    minY = Math.min(minY, b[i + 1]); maxY = Math.max(maxY, b[i + 1]);
  }
  const extent = Math.max(maxX - minX, maxY - minY, 1e-9);
  return moved / (b.length / 2) / extent;
}

/** Each node's neighbours, from the flat index pairs. */
function adjacency(edges, n) {
  const out = Array.from({ length: n }, () => []);
  for (let k = 0; k < edges.length; k += 2) {
    out[edges[k]].push(edges[k + 1]);
    out[edges[k + 1]].push(edges[k]);
  }
  return out;
}

/** Index pairs with each link once, whichever way it goes (a→b and b→a are one line on screen). */
function uniquePairs(flat, n) {
  const seen = new Set();
  const out = [];
  for (let i = 0; i < flat.length; i += 2) {
    const a = flat[i], b = flat[i + 1];
    if (a == null || b == null || a === b) continue;
    const key = a < b ? a * n + b : b * n + a;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a, b);
  }
  return Uint32Array.from(out);
}
