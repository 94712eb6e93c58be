// The graph view's layout, off the main thread (issue 11 item 6): ForceAtlas2 iterations from
// graphology-layout-forceatlas2 over flat typed arrays, positions posted back (transferred, not copied) about
// every SLICE_MS so the graph moves while it settles. Built by build.mjs as its own file (/static/graph-layout.js):
// the page's CSP allows same-origin worker scripts only, never blob: workers.
import iterate from "graphology-layout-forceatlas2/iterate.js";

const PPN = 10; // floats per node in FA2's node matrix: x, y, dx, dy, old dx, old dy, mass, convergence, size, fixed
const PPE = 3; // floats per edge: source offset, target offset, weight
const SLICE_MS = 60;
const CALM = 0.002; // stop once nodes move less than this share of the layout's extent per iteration

let job = 0; // the running layout; a new "start" or a "stop" ends the one before

self.onmessage = ({ data }) => {
  job += 1;
  if (data.type === "start") run(job, data);
};

/**
 * data: {xy: Float32Array (x0, y0, x1, y1, …), edges: Uint32Array (s0, t0, …), maxIterations, maxMs}.
 * Posts {type: "positions", xy, iterations} after each slice, then {type: "done", xy, iterations}.
 */
function run(id, { xy, edges, maxIterations, maxMs }) {
  const n = xy.length / 2;
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
    const s = edges[2 * e] * PPN;
    const t = edges[2 * e + 1] * PPN;
    links[e * PPE] = s;
    links[e * PPE + 1] = t;
    links[e * PPE + 2] = 1;
    nodes[s + 6] += 1;
    nodes[t + 6] += 1;
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
    if (id !== job) return;
    const before = positions(nodes, n);
    const sliceEnd = performance.now() + SLICE_MS;
    let count = 0;
    do {
      iterate(settings, nodes, links);
      count += 1;
    } while (performance.now() < sliceEnd && iterations + count < maxIterations);
    iterations += count;
    const out = positions(nodes, n);
    const calm = movement(before, out) / count < CALM;
    const done = calm || iterations >= maxIterations || performance.now() - started > maxMs;
    self.postMessage({ type: done ? "done" : "positions", xy: out, iterations }, [out.buffer]);
    if (!done) setTimeout(step, 0); // lets a "stop" (or a new start) in between slices
  };
  step();
}

function positions(nodes, n) {
  const xy = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    xy[2 * i] = nodes[i * PPN];
    xy[2 * i + 1] = nodes[i * PPN + 1];
  }
  return xy;
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
