// The graph view (issue 11 item 6): sigma.js (WebGL) over graphology, laid out by ForceAtlas2 in a Web
// Worker so the page stays responsive (ui-search.md §1.2: 2,000 nodes take ~3 s of layout on the main
// thread here). Local (a note and its neighbours, depth 1-3) or the whole vault; click a node to open it;
// filter by tag. Loaded on demand.

import Graph from "graphology";
import FA2Layout from "graphology-layout-forceatlas2/worker";
import forceAtlas2 from "graphology-layout-forceatlas2";
import Sigma from "sigma";

const COLORS = { note: "#5b7bd5", attachment: "#8a9a5b", unresolved: "#b0b0b0", center: "#d9822b" };

/**
 * Show the graph of `query` (`{vault, path?, depth?, scope?, tag?, limit?}`, the get_graph route's
 * arguments) in `container`. options: `t`, `onOpen(vault, path)`, `onError(err)`. Returns `{destroy()}`.
 * The layout runs in a worker for at most `layoutMs` (default 3000 ms), then stops; positions start on a
 * circle so the first frame is already readable.
 */
export async function openGraph(container, query, options) {
  const { onOpen, onError, layoutMs = 3000 } = options;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value != null && key !== "vault") params.set(key, String(value));
  let data;
  try {
    const r = await fetch(`/api/graph/${encodeURIComponent(query.vault)}?${params}`);
    data = await r.json();
    if (!r.ok) throw Object.assign(new Error(data.message), { status: r.status, body: data });
  } catch (err) {
    onError?.(err);
    return { destroy() {} };
  }
  const graph = new Graph({ multi: false, type: "directed" });
  const n = data.nodes.length || 1;
  data.nodes.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / n;
    graph.addNode(node.id, {
      label: node.title,
      x: Math.cos(angle) * 100,
      y: Math.sin(angle) * 100,
      size: 3 + Math.min(12, Math.sqrt(node.degree || 0) * 2),
      color: node.id === data.center ? COLORS.center : COLORS[node.type] || COLORS.note,
      kind: node.type,
    });
  });
  for (const edge of data.edges) {
    if (graph.hasNode(edge.source) && graph.hasNode(edge.target) && !graph.hasEdge(edge.source, edge.target)) {
      graph.addEdge(edge.source, edge.target, { size: Math.min(4, edge.count), color: "#c8cdd6" });
    }
  }
  const renderer = new Sigma(graph, container, { renderEdgeLabels: false, labelRenderedSizeThreshold: 8 });
  renderer.on("clickNode", ({ node }) => {
    if (graph.getNodeAttribute(node, "kind") !== "unresolved") onOpen?.(query.vault, node);
  });
  const settings = forceAtlas2.inferSettings(graph);
  const layout = new FA2Layout(graph, { settings: { ...settings, barnesHutOptimize: graph.order > 500 } });
  layout.start();
  const timer = setTimeout(() => layout.stop(), layoutMs);
  container.dataset.nodes = String(graph.order);
  container.dataset.edges = String(graph.size);
  return {
    graph,
    renderer,
    destroy() {
      clearTimeout(timer);
      layout.kill();
      renderer.kill();
    },
  };
}
