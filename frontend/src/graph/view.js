// The graph view (issue 11 item 6), loaded on demand: the link graph drawn by sigma.js (WebGL) over graphology.
//   #/graph?v={vault}                     the whole vault: every note (GET /api/graph/{vault}/export, 10k+ nodes)
//   #/graph?v={vault}&p={path}&d={1..3}   a note's local graph, d link hops either way (get_graph)
//   &s=vault  the whole vault with that note marked;  &t={tag}  only notes with the tag (nested ones too)
// The layout is ForceAtlas2 in a worker (/static/graph-layout.js): the graph shows and answers at once from a
// cheap placement (rings around the centre, the last layout of this vault, or a seeded scatter) and settles
// while it is in use. The whole vault's final layout is kept for the tab (sessionStorage), so coming back
// costs no layout at all while the vault is unchanged.
import Graph from "graphology";
import Sigma, { DEFAULT_STYLES } from "sigma";
import { layerPlain, pathLine } from "sigma/rendering";
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";
import { go, noteHref, viewHref } from "../router.js";

const MAX_DEPTH = 3; // services/graph.py MAX_DEPTH
const LOCAL_LIMIT = 2000; // get_graph's most nodes
const LIST_MAX = 100; // rows of the node list shown at once
const BIG = 2000; // from this many nodes: no edges or labels while moving, fewer labels, thinner edges, no fading
const TOP_LABELS = 150; // a big graph's notes named before any hover
const EDGES_PER_FRAME = 10000; // a big graph's edges are added this many a frame
const WORKER_URL = "/static/graph-layout.js";

/** Show the graph for `route` in `main`; returns the clean-up (stops the worker, kills sigma). */
export async function show(main, route, app) {
  const vault = route.vault || app.vault;
  const params = route.params || new URLSearchParams();
  const path = route.path || null;
  const scope = path && params.get("s") !== "vault" ? "local" : "vault";
  const depth = Math.min(MAX_DEPTH, Math.max(1, Number.parseInt(params.get("d"), 10) || 1));
  const tag = params.get("t") || "";
  const here = { vault, path, scope, depth, tag, user: app.user?.name || "" };
  const title = scope === "local" ? t("graph.localTitle", { name: baseName(path) }) : t("graph.vaultTitle", { vault: vault || "" });
  document.title = `${title} - ${t("app.name")}`;

  const status = el("p.graph-status", { id: "graph-status", role: "status" }, t("app.loading"));
  const canvas = el("div.graph-canvas", { id: "graph-canvas", role: "img", "aria-label": t("graph.canvasLabel") });
  const list = el("details.graph-list", { id: "graph-list" });
  const zoom = el("div.graph-zoom", { role: "group", "aria-label": t("graph.zoom") });
  const view = el("section.graph-view", { "aria-labelledby": "graph-title", dataset: { state: "loading", scope } },
    el("div.graph-bar",
      el("h1.graph-title", { id: "graph-title", tabindex: "-1" }, title),
      controls(here), zoom),
    el("div.graph-info", status, legend(scope)),
    el("div.graph-stage", canvas),
    list);
  clear(main, view);
  const state = { renderer: null, worker: null, observer: null, media: null, dead: false };
  const cleanup = () => {
    state.dead = true;
    state.worker?.terminate();
    state.observer?.disconnect();
    state.resizer?.disconnect();
    state.media?.removeEventListener("change", state.onTheme);
    state.renderer?.kill();
  };
  if (!vault) {
    status.textContent = t("graph.noVault");
    return cleanup;
  }

  let model;
  try {
    model = scope === "local" ? await loadLocal(here) : await loadVault(here);
  } catch (e) {
    status.textContent = e.message || t("graph.failed");
    view.dataset.state = "error";
    return cleanup;
  }
  if (state.dead || !view.isConnected) return cleanup; // left (or replaced) while it loaded
  performance.mark("graph-data");
  draw(model, { view, canvas, status, list, zoom, state, here });
  fillTags(view.querySelector("#graph-tag"), vault, tag); // after the graph's own request: it comes first
  return cleanup;
}

// ---- data --------------------------------------------------------------------------------------
// A model: {labels, kinds ("note"|"attachment"|"unresolved"), paths (null when unresolved), edges (Uint32Array of
// index pairs, each pair once whatever the direction), center (index or -1), total, truncated, version}.

async function loadLocal({ vault, path, depth, tag }) {
  const data = await api.graph(vault, { path, depth, scope: "local", tag, limit: LOCAL_LIMIT }, { quiet: true });
  const at = new Map(data.nodes.map((n, i) => [n.id, i]));
  const pairs = [];
  for (const e of data.edges) pairs.push(at.get(e.source), at.get(e.target));
  return {
    labels: data.nodes.map((n) => n.title),
    kinds: data.nodes.map((n) => n.type),
    paths: data.nodes.map((n) => (n.type === "unresolved" ? null : n.id)),
    depths: data.nodes.map((n) => n.depth ?? 0),
    edges: uniquePairs(pairs, data.nodes.length),
    center: at.get(data.center) ?? -1,
    total: data.total_nodes,
    truncated: data.truncated,
    version: null,
  };
}

async function loadVault({ vault, path, tag }) {
  // The browser keeps the body and asks with If-None-Match: an unchanged vault costs a 304.
  const data = await api.graphExport(vault, { tag }, { quiet: true });
  const notes = data.notes.length;
  const all = notes + data.unresolved.length;
  const labels = new Array(all);
  const kinds = new Array(all);
  const paths = new Array(all);
  data.notes.forEach((p, i) => { labels[i] = baseName(p); kinds[i] = "note"; paths[i] = p; });
  data.unresolved.forEach((text, j) => { labels[notes + j] = text; kinds[notes + j] = "unresolved"; paths[notes + j] = null; });
  return {
    labels, kinds, paths, depths: null,
    edges: uniquePairs(data.edges, all),
    center: path ? data.notes.indexOf(path) : -1,
    total: all,
    truncated: false,
    version: data.version,
  };
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

// ---- placement and the layout's cache ----------------------------------------------------------

const cacheKey = ({ user, vault, tag }) => `obsigate.graph:${user}:${vault}:${tag}`;

/** Where each node starts, and whether that is already a finished layout. */
function placement(model, here) {
  const n = model.labels.length;
  const xy = new Float32Array(2 * n);
  if (here.scope === "local") { // rings by distance from the centre: readable before any layout
    const perRing = new Map();
    model.depths.forEach((d) => perRing.set(d, (perRing.get(d) || 0) + 1));
    const seen = new Map();
    for (let i = 0; i < n; i++) {
      const d = model.depths[i];
      const k = seen.get(d) || 0;
      seen.set(d, k + 1);
      const angle = (2 * Math.PI * k) / perRing.get(d) + d;
      xy[2 * i] = Math.cos(angle) * d * 100;
      xy[2 * i + 1] = Math.sin(angle) * d * 100;
    }
    return { xy, settled: false, known: 0 };
  }
  // A tag's graph without a layout of its own starts from the whole vault's: its notes keep their places.
  const saved = readCache(here) ?? (here.tag ? { ...readCache({ ...here, tag: "" }), version: null } : null);
  const radius = 10 * Math.sqrt(n);
  const placed = new Uint8Array(n);
  let known = 0;
  for (let i = 0; i < n; i++) {
    const key = model.paths[i] ?? `?${model.labels[i]}`;
    const p = saved?.at?.get(key);
    if (p) {
      xy[2 * i] = p[0];
      xy[2 * i + 1] = p[1];
      placed[i] = 1;
      known += 1;
    }
  }
  // New nodes start next to a neighbour already placed, else at a seeded spot of a disc.
  const e = model.edges;
  for (let k = 0; k < e.length; k += 2) {
    for (const [a, b] of [[e[k], e[k + 1]], [e[k + 1], e[k]]]) {
      if (!placed[a] && placed[b] === 1) {
        const [jx, jy] = seeded(model.labels[a]);
        xy[2 * a] = xy[2 * b] + jx * 20 - 10;
        xy[2 * a + 1] = xy[2 * b + 1] + jy * 20 - 10;
        placed[a] = 2;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (placed[i]) continue;
    const [u, v] = seeded(model.paths[i] ?? model.labels[i]);
    const r = radius * Math.sqrt(u);
    xy[2 * i] = r * Math.cos(2 * Math.PI * v);
    xy[2 * i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return { xy, settled: saved?.version === model.version && known === n, known };
}

function readCache(here) {
  try {
    const raw = sessionStorage.getItem(cacheKey(here));
    if (!raw) return null;
    const { version, keys, xy } = JSON.parse(raw);
    return { version, at: new Map(keys.map((k, i) => [k, [xy[2 * i], xy[2 * i + 1]]])) };
  } catch {
    return null;
  }
}

function writeCache(here, model, xy) {
  const keys = model.paths.map((p, i) => p ?? `?${model.labels[i]}`);
  const rounded = Array.from(xy, (v) => Math.round(v * 10) / 10);
  try {
    sessionStorage.setItem(cacheKey(here), JSON.stringify({ version: model.version, keys, xy: rounded }));
  } catch { /* storage full or off: the next visit lays out again */ }
}

/** Two numbers in [0, 1) from a string (FNV-1a): the same note starts at the same spot every time. */
function seeded(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  const a = (h >>> 0) / 4294967296;
  h = Math.imul(h ^ 0x9e3779b9, 16777619);
  return [a, (h >>> 0) / 4294967296];
}

// ---- drawing -----------------------------------------------------------------------------------

function draw(model, { view, canvas, status, list, zoom, state, here }) {
  const n = model.labels.length;
  const big = n >= BIG;
  const { xy, settled, known } = placement(model, here);
  const degree = new Uint32Array(n);
  for (const i of model.edges) degree[i] += 1;
  // A big graph names only its most linked notes up front (each label costs sigma work); the rest on hover.
  const named = new Set(big ? rank(degree).slice(0, TOP_LABELS) : []);
  const graph = new Graph({ type: "undirected", multi: false });
  for (let i = 0; i < n; i++) {
    const kind = i === model.center ? "center" : model.kinds[i];
    graph.addNode(String(i), {
      x: xy[2 * i], y: xy[2 * i + 1], kind, name: model.labels[i],
      label: !big || named.has(i) || kind === "center" ? model.labels[i] : "",
      size: big ? Math.min(10, 1 + Math.sqrt(degree[i]) * 0.6) : Math.min(16, 5 + Math.sqrt(degree[i]) * 1.8),
    });
  }
  // A big graph's edges come once its first frame is up and its layout stands still (linkUp, below): tens of
  // thousands of lines cost far more to build and draw than the nodes — without a GPU (software WebGL), seconds.
  const links = model.edges.length / 2;
  let linked = 0;
  const addEdges = (until) => {
    for (; linked < until; linked += 1) graph.addEdge(String(model.edges[2 * linked]), String(model.edges[2 * linked + 1]));
  };
  if (!big) addEdges(links);
  const neighbours = adjacency(model.edges, n);

  // Sigma is built again when the theme changes: its styles are plain values (cheaper for 10k nodes than
  // functions evaluated per node and per frame), so new colours mean a new renderer on the same graph.
  const mount = (camera) => {
    const colors = palette(big);
    graph.updateEachNodeAttributes((_k, a) => { a.color = colors[a.kind]; return a; }, { attributes: ["color"] });
    const renderer = new Sigma(graph, canvas, {
      settings: sigmaSettings(big), styles: sigmaStyles(colors, big),
      primitives: { edges: { paths: [pathLine()], layers: [layerPlain()] } }, // straight lines only: no self-links here
    });
    if (camera) renderer.getCamera().setState(camera);
    bind(renderer);
    state.renderer = renderer;
    return renderer;
  };
  // Hover: the node's links and neighbours stand out (the rest fades in a small graph); click opens the note.
  const bind = (renderer) => {
    let lit = null;
    const light = (node, on) => {
      renderer.setNodesState(neighbours[Number(node)].map(String), { isHighlighted: on });
      renderer.setEdgesState(graph.edges(node), { isHighlighted: on });
    };
    renderer.on("enterNode", ({ node }) => { lit = node; light(node, true); });
    renderer.on("leaveNode", ({ node }) => { if (lit === node) { light(node, false); lit = null; } });
    renderer.on("clickNode", ({ node }) => {
      const path = model.paths[Number(node)];
      if (path) go(noteHref(here.vault, path));
    });
  };
  const linkUp = () => { // a slice of edges a frame: the page keeps answering meanwhile
    const slice = () => {
      if (state.dead) return;
      addEdges(Math.min(links, linked + EDGES_PER_FRAME));
      if (linked < links) requestAnimationFrame(slice);
    };
    if (linked < links) requestAnimationFrame(slice);
  };
  const counts = t("graph.counts", { nodes: n.toLocaleString(), links: links.toLocaleString() });
  const cut = model.truncated ? ` ${t("graph.truncated", { total: model.total.toLocaleString() })}` : "";
  const say = (what) => { status.textContent = `${counts}${cut}${what ? ` · ${what}` : ""}`; };
  const marked = view.querySelector(".graph-legend [data-kind=center]")?.parentElement;
  if (marked) marked.hidden = model.center < 0;
  say(settled || n < 2 ? "" : t("graph.layingOut")); // before sigma measures its box: no shift after
  mount(null);
  performance.mark("graph-drawn");
  state.resizer = new ResizeObserver(() => { if (!state.dead) { state.renderer.resize(); state.renderer.scheduleRender(); } });
  state.resizer.observe(canvas);

  // For keyboard users' list, tests and tools: where a note's node is on screen (px from the canvas' top left).
  const byPath = new Map(model.paths.map((p, i) => [p, String(i)]).filter(([p]) => p));
  canvas.graphPositionOf = (path) => {
    const key = byPath.get(path);
    return key == null ? null : state.renderer.graphToViewport(graph.getNodeAttributes(key));
  };

  zoomButtons(zoom, () => state.renderer.getCamera());
  watchTheme(state, () => {
    const camera = state.renderer.getCamera().getState();
    state.renderer.kill();
    mount(camera);
  });
  view.dataset.nodes = String(n);
  view.dataset.links = String(links);
  nodeList(list, model, degree, here, (keys, on) => { if (!state.dead) state.renderer.setNodesState(keys, { isHighlighted: on }); });
  // Sigma drew in its constructor; the second animation frame from now comes once that frame was presented.
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (state.dead) return;
    performance.mark("graph-interactive"); // all nodes on screen, sigma's handlers live (bench/ui.py reads it)
    view.dataset.state = "ready";
  }));

  if (settled || n < 2) {
    view.dataset.layout = "done";
    say("");
    requestAnimationFrame(() => requestAnimationFrame(linkUp));
    return;
  }
  runLayout(graph, model, { view, state, here, xy, fresh: known < n * 0.9, big, linkUp, say });
}

/** The ForceAtlas2 layout in its worker: positions applied once a frame, edges and the cache once it settles. */
function runLayout(graph, model, { view, state, here, xy, fresh, big, linkUp, say }) {
  view.dataset.layout = "running";
  const worker = new Worker(WORKER_URL);
  state.worker = worker;
  let pending = null;
  const apply = () => {
    const p = pending;
    pending = null;
    if (!p || state.dead) return;
    let i = 0;
    graph.updateEachNodeAttributes((_node, attr) => {
      attr.x = p[2 * i];
      attr.y = p[2 * i + 1];
      i += 1;
      return attr;
    }, { attributes: ["x", "y"] });
  };
  worker.onmessage = ({ data }) => {
    if (!pending) requestAnimationFrame(apply); // one graph update a frame however fast the worker posts
    pending = data.xy;
    if (data.type !== "done") return;
    worker.terminate();
    state.worker = null;
    requestAnimationFrame(() => {
      if (state.dead) return;
      linkUp();
      performance.mark("graph-settled");
      view.dataset.layout = "done";
      say("");
      if (here.scope === "vault") writeCache(here, model, data.xy);
    });
  };
  worker.onerror = () => { linkUp(); view.dataset.layout = "done"; say(""); };
  // fresh: from a remembered layout only the new notes need a place (a short settle, not a whole layout)
  worker.postMessage({
    type: "start", xy, edges: model.edges,
    maxIterations: fresh ? (big ? 1500 : 800) : 60, maxMs: big ? 30000 : 8000,
  });
}

function sigmaSettings(big) {
  return {
    hideEdgesOnMove: big, hideLabelsOnMove: big, enableEdgeEvents: false, enableCameraRotation: false,
    labelRenderedSizeThreshold: big ? 6 : 0, labelDensity: big ? 0.5 : 3, stagePadding: 32,
    itemSizesReference: "screen", minCameraRatio: 0.02, maxCameraRatio: 5,
  };
}

function sigmaStyles(colors, big) {
  const name = { attribute: "name" };
  const nodes = [
    DEFAULT_STYLES.nodes, // position, size, colour and label from the attributes; a hovered node's label boxed
    { labelColor: colors.fg, labelSize: 12, backdropColor: colors.bg2, backdropShadowColor: colors.shadow, cursor: "pointer" },
    { whenData: { kind: "unresolved" }, then: { cursor: "default" } },
    { whenData: { kind: "center" }, then: { labelVisibility: "visible", zIndex: 2 } },
    { whenState: "isHovered", then: { label: name, color: colors.accent } },
    { whenState: "isHighlighted", then: { color: colors.accent, label: name, labelVisibility: "visible", depth: "topNodes" } },
  ];
  const edges = [
    DEFAULT_STYLES.edges,
    { color: colors.edge, size: big ? 0.5 : 1 },
    { whenState: "isHighlighted", then: { color: colors.accent, size: big ? 1 : 1.5 } },
  ];
  if (!big) { // fading the rest is a test per node and edge at every hover: affordable on a small graph only
    nodes.push({ when: (_a, s, g) => g.hasHovered && !s.isHovered && !s.isHighlighted, then: { color: colors.dim, labelVisibility: "hidden" } });
    edges.push({ when: (_a, s, g) => g.hasHovered && !s.isHighlighted, then: { color: colors.dimEdge } });
  }
  return { nodes, edges };
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

/** Node indexes, most linked first (ties by index). */
function rank(degree) {
  return Array.from(degree.keys()).sort((a, b) => degree[b] - degree[a] || a - b);
}

/** The theme's colours for the graph; a big graph's notes are see-through, so where they crowd reads darker. */
function palette(big) {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  const dark = css.getPropertyValue("color-scheme").includes("dark");
  return {
    note: big ? translucent(v("--fg-2"), 0.45) : v("--fg-2"), center: v("--accent"), accent: v("--accent"), unresolved: v("--unresolved"),
    attachment: v("--note-ok"), fg: v("--fg"), bg2: v("--bg-2"), dim: v("--bg-3"), dimEdge: v("--bg-2"),
    edge: translucent(v("--fg-2"), dark ? 0.3 : 0.22), shadow: dark ? "rgba(0, 0, 0, 0.6)" : "rgba(15, 23, 42, 0.25)",
  };
}

/** "#rrggbb" at opacity `a` (edges: many faint lines read better than a few solid ones). */
function translucent(hex, a) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${a})` : hex;
}

/** Re-colour when the theme changes (the button on <html data-theme>, or the system's setting). */
function watchTheme(state, recolor) {
  let frame = 0;
  const later = () => { cancelAnimationFrame(frame); frame = requestAnimationFrame(() => { if (!state.dead) recolor(); }); };
  state.observer = new MutationObserver(later);
  state.observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  state.media = matchMedia("(prefers-color-scheme: dark)");
  state.onTheme = later;
  state.media.addEventListener("change", later);
}

// ---- controls ----------------------------------------------------------------------------------

function hrefFor(here, over) {
  const next = { ...here, ...over };
  const local = next.scope === "local";
  return viewHref("graph", {
    v: next.vault, p: next.path, d: local && next.depth > 1 ? next.depth : null,
    s: !local && next.path ? "vault" : null, t: next.tag,
  });
}

function controls(here) {
  const seg = (scope, key) => {
    const active = here.scope === scope;
    if (scope === "local" && !here.path) {
      return el("span.graph-seg", { "aria-disabled": "true", title: t("graph.localNeedsNote") }, t(key));
    }
    return el("a.graph-seg", { href: hrefFor(here, { scope }), "aria-current": active ? "page" : null, id: `graph-scope-${scope}` }, t(key));
  };
  const depth = el("select", { id: "graph-depth", "aria-label": t("graph.depth"), disabled: here.scope !== "local" },
    Array.from({ length: MAX_DEPTH }, (_, i) => el("option", { value: i + 1, selected: here.depth === i + 1 }, String(i + 1))));
  depth.addEventListener("change", () => go(hrefFor(here, { depth: Number(depth.value) })));
  const tag = el("select", { id: "graph-tag", "aria-label": t("graph.tag") },
    el("option", { value: "" }, t("graph.allTags")),
    here.tag ? el("option", { value: here.tag, selected: true }, `#${here.tag}`) : null);
  tag.addEventListener("change", () => go(hrefFor(here, { tag: tag.value })));
  return el("div.graph-controls",
    el("nav.graph-scope", { "aria-label": t("graph.scope") }, seg("local", "graph.local"), seg("vault", "graph.vault")),
    el("label.graph-field", el("span", t("graph.depth")), depth),
    el("label.graph-field", el("span", t("graph.tag")), tag));
}

/** The tag filter's choices: the vault's tags, most used first. */
async function fillTags(select, vault, current) {
  try {
    const data = await api.tags({ vault, limit: 1000 }, { quiet: true });
    const rows = data.tags.filter((x) => x.tag.toLowerCase() !== current.toLowerCase())
      .map(({ tag, count }) => el("option", { value: tag }, `#${tag} (${count})`));
    select.append(...rows);
  } catch { /* the filter keeps "all" and the current tag */ }
}

function zoomButtons(box, camera) {
  const button = (label, text, act) => el("button.graph-zoom-btn", { type: "button", "aria-label": label, title: label, onclick: act }, text);
  clear(box,
    button(t("graph.zoomIn"), "+", () => camera().zoomIn({ duration: 200 })),
    button(t("graph.zoomOut"), "−", () => camera().zoomOut({ duration: 200 })),
    button(t("graph.zoomReset"), "⤢", () => camera().reset({ duration: 200 })));
}

function legend(scope) {
  const item = (kind, key) => el("li", el("span.graph-dot", { dataset: { kind } }), t(key));
  return el("ul.graph-legend", { "aria-label": t("graph.legend") },
    item("note", "graph.legendNote"), scope === "local" ? item("attachment", "graph.legendAttachment") : null,
    item("unresolved", "graph.legendUnresolved"), item("center", scope === "local" ? "graph.legendCenter" : "graph.legendMarked"));
}

/** The nodes as a list of links (keyboard and screen readers; the canvas is a picture): the most linked first,
 * narrowed by a filter; focusing or pointing at a row lights its node. Built when first opened. */
function nodeList(details, model, degree, here, highlight) {
  const n = model.labels.length;
  const filter = el("input.graph-filter", { type: "search", id: "graph-filter", "aria-label": t("graph.filter"), placeholder: t("graph.filter") });
  const rows = el("ul.graph-rows", { id: "graph-rows" });
  const more = el("p.muted.graph-more");
  clear(details, el("summary", t("graph.list", { n: n.toLocaleString() })), filter, rows, more);
  let order = null;
  let lit = [];
  let matches = []; // the rows a filter found, lit while nothing else is pointed at
  const light = (keys) => {
    highlight(lit, false);
    lit = keys;
    highlight(lit, true);
  };
  const fill = () => {
    order ??= rank(degree);
    const q = filter.value.trim().toLowerCase();
    const hits = [];
    for (const i of order) {
      if (!q || model.labels[i].toLowerCase().includes(q) || (model.paths[i] || "").toLowerCase().includes(q)) hits.push(i);
      if (hits.length > LIST_MAX) break;
    }
    const shown = hits.slice(0, LIST_MAX);
    clear(rows, shown.map((i) => {
      const name = model.labels[i];
      const links = t("graph.rowLinks", { n: degree[i] });
      const row = model.paths[i]
        ? el("a", { href: noteHref(here.vault, model.paths[i]), title: model.paths[i] }, name)
        : el("span.graph-unresolved", { title: t("graph.legendUnresolved") }, name);
      const li = el("li", { dataset: { node: String(i) } }, row, el("span.muted", ` ${links}`));
      const on = () => light([String(i)]);
      li.addEventListener("mouseenter", on);
      li.addEventListener("focusin", on);
      return li;
    }));
    more.textContent = hits.length > LIST_MAX ? t("graph.listMore", { n: LIST_MAX }) : "";
    matches = q ? shown.map(String) : [];
    light(matches);
  };
  details.addEventListener("toggle", () => { if (details.open) fill(); else light([]); });
  filter.addEventListener("input", () => fill());
  rows.addEventListener("mouseleave", () => light(matches));
}

function baseName(path) {
  return (path || "").split("/").pop().replace(/\.md$/i, "");
}
