// The graph view (issues 11 and 19, item 6), loaded on demand: the link graph of a vault or of a note.
//   #/graph?v={vault}                     the whole vault: every note (GET /api/graph/{vault}/export, 10k+ nodes)
//   #/graph?v={vault}&p={path}&d={1..3}   a note's local graph, d link hops either way (get_graph)
//   &s=vault  the whole vault with that note marked;  &t={tag}  only notes with the tag (nested ones too)
// Everything heavy happens in one worker (/static/graph-layout.js): the ForceAtlas2 layout AND the drawing, on
// an OffscreenCanvas the page hands over, so the page never blocks (issue 19: no main-thread task over 100 ms
// after first paint at 10k notes, where sigma's WebGL in a software renderer took seconds). The graph shows at
// once from a cheap placement (rings around the centre, the last layout of this vault, or a seeded scatter) and
// settles while it is in use; the whole vault's final layout is kept for the tab (sessionStorage). Groups by
// query with colours, a search that lights matching notes, and show/hide switches: graph/panel.js.
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";
import { go, noteHref, viewHref } from "../router.js";
import { displayPanel } from "./panel.js";
import { placeVault } from "./place.js";

const MAX_DEPTH = 3; // services/graph.py MAX_DEPTH
const LOCAL_LIMIT = 2000; // get_graph's most nodes
const LIST_MAX = 100; // rows of the node list shown at once
const BIG = 2000; // from this many nodes: no edges while laying out or moving, fewer labels, thinner edges, no fading
const TOP_LABELS = 150; // a big graph's notes named before any hover
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
  const canvas = el("div.graph-canvas", { id: "graph-canvas", role: "img", tabindex: "0", "aria-label": t("graph.canvasLabel") });
  const list = el("details.graph-list", { id: "graph-list" });
  const zoom = el("div.graph-zoom", { role: "group", "aria-label": t("graph.zoom") });
  const view = el("section.graph-view", { "aria-labelledby": "graph-title", dataset: { state: "loading", scope } },
    el("div.graph-bar",
      el("h1.graph-title", { id: "graph-title", tabindex: "-1" }, title),
      controls(here), zoom),
    el("div.graph-info", status, legend(scope)),
    el("div.graph-display", { id: "graph-display" }),
    el("div.graph-stage", canvas),
    list);
  clear(main, view);
  const state = { worker: null, observer: null, media: null, dead: false };
  const cleanup = () => {
    state.dead = true;
    state.worker?.terminate();
    state.observer?.disconnect();
    state.resizer?.disconnect();
    state.media?.removeEventListener("change", state.onTheme);
  };
  if (!vault) {
    status.textContent = t("graph.noVault");
    return cleanup;
  }

  let model;
  try {
    model = scope === "local" ? await loadLocal(here) : await loadVault(here, state);
  } catch (e) {
    status.textContent = e.message || t("graph.failed");
    view.dataset.state = "error";
    return cleanup;
  }
  if (state.dead || !view.isConnected) return cleanup; // left (or replaced) while it loaded
  performance.mark("graph-data");
  await draw(model, { view, canvas, status, list, zoom, state, here });
  fillTags(view.querySelector("#graph-tag"), vault, tag, state); // after the graph's own request: it comes first
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

async function loadVault({ user, vault, path, tag }, state) {
  // The worker that will draw the graph fetches and parses the export (750 KB of JSON at 10k notes: a long task
  // on the page's thread) and sends back the arrays; if it cannot (an error answer, no worker), the page asks
  // itself, which also shows a lapsed session's sign-in form. The browser keeps the body and asks with
  // If-None-Match: an unchanged vault costs a 304.
  state.worker = new Worker(WORKER_URL);
  const data = await new Promise((resolve) => {
    state.worker.onmessage = ({ data: msg }) => resolve(msg.type === "model" ? msg : null);
    state.worker.onerror = () => resolve(null);
    state.worker.postMessage({ type: "load", url: api.graphExportUrl(vault, { tag: tag || null }), saved: savedLayouts({ user, vault, tag }), center: path });
  }) ?? await api.graphExport(vault, { tag }, { quiet: true }).then((d) => ({ ...d, edges: uniquePairs(d.edges, d.notes.length + d.unresolved.length) }));
  await breath();
  const notes = data.notes.length;
  const all = notes + data.unresolved.length;
  const labels = data.labels ?? [...data.notes.map(baseName), ...data.unresolved];
  const kinds = new Array(all).fill("note", 0, notes).fill("unresolved", notes);
  const paths = new Array(all).fill(null);
  for (let i = 0; i < notes; i++) paths[i] = data.notes[i];
  return {
    labels, kinds, paths, depths: null, placed: data.placed ?? null,
    edges: data.edges,
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

const cacheKey = ({ user, vault, tag }) => `obsigate.graph2:${user}:${vault}:${tag}`;

/** Where each node starts, and whether that is already a finished layout (the whole vault's: placed by the
 * worker that loaded it, see loadVault, or here when the page had to load it itself). */
function placement(model, here) {
  if (model.placed) return model.placed;
  const n = model.labels.length;
  if (here.scope !== "local") return placeVault(model, savedLayouts(here));
  const xy = new Float32Array(2 * n); // rings by distance from the centre: readable before any layout
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

/** The tab's stored layouts for this graph and, for a tag's graph, the whole vault's (as stored: strings). */
function savedLayouts(here) {
  const read = (h) => { try { return sessionStorage.getItem(cacheKey(h)); } catch { return null; } };
  return { own: read(here), base: here.tag ? read({ ...here, tag: "" }) : null };
}

// Kept as "version\n[keys…]\n[x0, y0, …]" (graph/place.js reads it): the positions' JSON comes built from the
// worker, so the page only joins strings (no JSON.stringify of 10k keys and 20k numbers in one task).
function writeCache(here, model, xyJson) {
  if (!xyJson) return;
  const keys = JSON.stringify(model.paths.map((p, i) => p ?? `?${model.labels[i]}`));
  try {
    sessionStorage.setItem(cacheKey(here), `${model.version ?? ""}\n${keys}\n${xyJson}`);
  } catch { /* storage full or off: the next visit lays out again */ }
}

// ---- drawing: the worker draws, the page steers --------------------------------------------------
// The page keeps a copy of the positions (posted by the worker after each layout slice) and the camera; it
// finds the node under the pointer itself (a loop over n points: well under a millisecond at 10k) and tells
// the worker what to show. Nothing here rasterises or lays out anything.

async function draw(model, { view, canvas, status, list, zoom, state, here }) {
  const n = model.labels.length;
  const big = n >= BIG;
  const { xy, settled, known } = placement(model, here);
  if (big) await breath();
  if (state.dead) return;
  const degree = new Uint32Array(n);
  for (const i of model.edges) degree[i] += 1;
  // A big graph names only its most linked notes up front; the rest on hover, search or from the list.
  const named = new Uint8Array(n);
  if (big) for (const i of rank(degree).slice(0, TOP_LABELS)) named[i] = 1;
  const kinds = Uint8Array.from(model.kinds, (k, i) => (i === model.center ? 3 : KIND_CODE[k] ?? 0));
  const sizes = Float32Array.from(degree, (d) => (big ? Math.min(8, 1.5 + Math.sqrt(d) * 0.5) : Math.min(14, 4 + Math.sqrt(d) * 1.6)));
  const links = model.edges.length / 2;
  const counts = t("graph.counts", { nodes: n.toLocaleString(), links: links.toLocaleString() });
  const cut = model.truncated ? ` ${t("graph.truncated", { total: model.total.toLocaleString() })}` : "";
  const say = (what) => { status.textContent = `${counts}${cut}${what ? ` · ${what}` : ""}`; };
  const marked = view.querySelector(".graph-legend [data-kind=center]")?.parentElement;
  if (marked) marked.hidden = model.center < 0;
  say(settled || n < 2 ? "" : t("graph.layingOut")); // before the canvas measures its box: no shift after

  const surface = el("canvas.graph-surface", { "aria-hidden": "true" });
  canvas.append(surface);
  const stage = { w: canvas.clientWidth || 1, h: canvas.clientHeight || 1, dpr: Math.min(2, devicePixelRatio || 1) };
  const g = { n, xy, sizes, kinds, paths: model.paths, hidden: null };
  const steer = { cam: fitCamera(g, stage), follow: true, hover: -1 };
  const worker = state.worker || new Worker(WORKER_URL); // the one that loaded the data, if any
  state.worker = worker;
  const post = (msg) => { if (!state.dead) worker.postMessage(msg); };
  const layout = settled || n < 2 ? null : { maxIterations: known < n * 0.9 ? (big ? 1500 : 800) : 60, maxMs: big ? 30000 : 8000 };
  const offscreen = surface.transferControlToOffscreen();
  worker.postMessage({
    type: "init", canvas: offscreen, w: stage.w, h: stage.h, dpr: stage.dpr, cam: steer.cam, layout,
    graph: { n, xy: xy.slice(), edges: model.edges.slice(), sizes, kinds, labels: model.labels, named },
    look: { palette: palette(big), big },
  }, [offscreen]);
  performance.mark("graph-drawn");
  view.dataset.layout = layout ? "running" : "done";
  const moveTo = (cam, follow = false) => { steer.cam = cam; steer.follow = follow; post({ type: "camera", cam }); };
  worker.onmessage = ({ data }) => {
    if (state.dead) return;
    if (data.type === "drawn") {
      performance.mark("graph-interactive"); // the first frame is up and the pointer handlers are live (bench/ui.py)
      view.dataset.state = "ready";
    } else if (data.type === "edges") {
      view.dataset.linked = "all";
    } else if (data.type === "positions" || data.type === "done") {
      g.xy = data.xy;
      if (steer.follow) moveTo(fitCamera(g, stage), true);
      if (data.type === "done") {
        performance.mark("graph-settled");
        view.dataset.layout = "done";
        say("");
        if (here.scope === "vault") writeCache(here, model, data.saved);
      }
    }
  };
  worker.onerror = () => { view.dataset.layout = "done"; view.dataset.state = "ready"; say(t("graph.failed")); };
  state.resizer = new ResizeObserver(() => {
    if (state.dead) return;
    Object.assign(stage, { w: canvas.clientWidth || 1, h: canvas.clientHeight || 1 });
    post({ type: "resize", ...stage });
    if (steer.follow) moveTo(fitCamera(g, stage), true);
  });
  state.resizer.observe(canvas);
  // For keyboard users' list, tests and tools: where a note's node is on screen (px from the canvas' top left).
  const byPath = new Map(model.paths.map((p, i) => [p, i]).filter(([p]) => p));
  canvas.graphPositionOf = (path) => {
    const i = byPath.get(path);
    return i == null ? null : toScreen(g, steer.cam, stage, i);
  };
  const light = (lit) => post({ type: "look", lit });
  const hide = (hidden) => {
    g.hidden = hidden;
    post({ type: "look", hidden });
    if (steer.follow) moveTo(fitCamera(g, stage), true);
  };
  pointer(canvas, { g, stage, steer, moveTo, here, model, post, neighbours: null });
  keys(canvas, { stage, steer, moveTo, fit: () => moveTo(fitCamera(g, stage), true) });
  zoomButtons(zoom, {
    zoomBy: (f) => moveTo(zoomAt(steer.cam, f, stage.w / 2, stage.h / 2, stage)),
    fit: () => moveTo(fitCamera(g, stage), true),
  });
  watchTheme(state, () => post({ type: "look", palette: palette(big) }));
  view.dataset.nodes = String(n);
  view.dataset.links = String(links);
  if (big) await breath();
  if (state.dead) return;
  const panel = displayPanel(view.querySelector("#graph-display"), { model, degree, here, light, hide, post });
  nodeList(list, model, degree, here, (keys, on) => panel.point(on ? keys.map(Number) : null));
}

const KIND_CODE = { note: 0, attachment: 1, unresolved: 2, center: 3 };
const MIN_K = 1e-4, MAX_K = 50;

/** The camera {x, y, k} that shows every visible node, with a margin. */
function fitCamera(g, { w, h }) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < g.n; i++) {
    if (g.hidden?.[i]) continue;
    const x = g.xy[2 * i], y = g.xy[2 * i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (x0 > x1) return { x: 0, y: 0, k: 1 };
  const pad = 32;
  const k = Math.min(4, (w - 2 * pad) / Math.max(x1 - x0, 1e-6), (h - 2 * pad) / Math.max(y1 - y0, 1e-6));
  return { x: (x0 + x1) / 2, y: (y0 + y1) / 2, k: Math.max(MIN_K, Math.min(MAX_K, k > 0 ? k : 1)) };
}

function zoomAt(cam, factor, sx, sy, { w, h }) {
  const k = Math.max(MIN_K, Math.min(MAX_K, cam.k * factor));
  const wx = cam.x + (sx - w / 2) / cam.k, wy = cam.y + (sy - h / 2) / cam.k;
  return { x: wx - (sx - w / 2) / k, y: wy - (sy - h / 2) / k, k };
}

const toScreen = (g, cam, { w, h }, i) => ({ x: (g.xy[2 * i] - cam.x) * cam.k + w / 2, y: (g.xy[2 * i + 1] - cam.y) * cam.k + h / 2 });

/** The visible node drawn under the screen point (sx, sy), or -1. */
function pick(g, cam, stage, sx, sy) {
  let best = -1, bestD = Infinity;
  const wx = cam.x + (sx - stage.w / 2) / cam.k, wy = cam.y + (sy - stage.h / 2) / cam.k;
  for (let i = 0; i < g.n; i++) {
    if (g.hidden?.[i]) continue;
    const dx = (g.xy[2 * i] - wx) * cam.k, dy = (g.xy[2 * i + 1] - wy) * cam.k;
    const d = dx * dx + dy * dy;
    const r = g.sizes[i] + 3;
    if (d <= r * r && d < bestD) { best = i; bestD = d; }
  }
  return best;
}

/** Drag pans, the wheel zooms about the pointer, hovering lights a node and its links, a click opens its note. */
function pointer(canvas, { g, stage, steer, moveTo, here, model, post }) {
  let drag = null;
  const at = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  const hover = (i) => {
    if (i === steer.hover) return;
    steer.hover = i;
    canvas.style.cursor = i >= 0 && model.paths[i] ? "pointer" : "";
    post({ type: "look", hover: i });
  };
  canvas.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, cam: steer.cam, moved: false };
  });
  canvas.addEventListener("pointermove", (e) => {
    if (drag && e.pointerId === drag.id) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      if (!drag.moved) { drag.moved = true; canvas.setPointerCapture(e.pointerId); hover(-1); }
      moveTo({ ...drag.cam, x: drag.cam.x - dx / drag.cam.k, y: drag.cam.y - dy / drag.cam.k });
      return;
    }
    hover(pick(g, steer.cam, stage, ...at(e)));
  });
  canvas.addEventListener("pointerup", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const moved = drag.moved;
    drag = null;
    if (moved) return;
    const i = pick(g, steer.cam, stage, ...at(e));
    if (i >= 0 && model.paths[i]) go(noteHref(here.vault, model.paths[i]));
  });
  canvas.addEventListener("pointerleave", () => { if (!drag) hover(-1); });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const f = Math.exp(-Math.max(-200, Math.min(200, e.deltaY * (e.deltaMode === 1 ? 16 : 1))) / 300);
    moveTo(zoomAt(steer.cam, f, ...at(e), stage));
  }, { passive: false });
}

/** With the picture focused: arrows pan, + and - zoom, 0 fits (as on a canvas board). */
function keys(canvas, { stage, steer, moveTo, fit }) {
  canvas.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const pan = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    const cam = steer.cam;
    if (pan) moveTo({ ...cam, x: cam.x + (pan[0] * 80) / cam.k, y: cam.y + (pan[1] * 80) / cam.k });
    else if (e.key === "+" || e.key === "=") moveTo(zoomAt(cam, 1.4, stage.w / 2, stage.h / 2, stage));
    else if (e.key === "-" || e.key === "_") moveTo(zoomAt(cam, 1 / 1.4, stage.w / 2, stage.h / 2, stage));
    else if (e.key === "0") fit();
    else return;
    e.preventDefault();
  });
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
    note: big ? translucent(v("--fg-2"), 0.55) : v("--fg-2"), center: v("--accent"), accent: v("--accent"), unresolved: v("--unresolved"),
    attachment: v("--note-ok"), fg: v("--fg"), bg2: v("--bg-2"), dim: v("--bg-3"), dimEdge: translucent(v("--fg-2"), 0.08),
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
async function fillTags(select, vault, current, state) {
  let data;
  try {
    data = await api.tags({ vault, limit: 1000 }, { quiet: true });
  } catch { return; } // the filter keeps "all" and the current tag
  const tags = data.tags.filter((x) => x.tag.toLowerCase() !== current.toLowerCase());
  for (let i = 0; i < tags.length && !state.dead; i += 200) { // 200 options a task: a thousand at once is a long one
    select.append(...tags.slice(i, i + 200).map(({ tag, count }) => el("option", { value: tag }, `#${tag} (${count})`)));
    await breath();
  }
}

/** A new task: what follows runs after the browser had a chance to paint and answer input. */
const breath = () => new Promise((resolve) => setTimeout(resolve, 0));

function zoomButtons(box, { zoomBy, fit }) {
  const button = (label, text, act) => el("button.graph-zoom-btn", { type: "button", "aria-label": label, title: label, onclick: act }, text);
  clear(box,
    button(t("graph.zoomIn"), "+", () => zoomBy(1.5)),
    button(t("graph.zoomOut"), "−", () => zoomBy(1 / 1.5)),
    button(t("graph.zoomReset"), "⤢", fit));
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
