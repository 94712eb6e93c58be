// A .canvas file (JSON Canvas 1.0) as a read-only board (issue 19 item 4): plain DOM cards in one "world" box
// that the camera moves and scales (CSS transform), and one SVG layer for the edges between groups and cards.
// Pointer drag pans, the wheel zooms around the pointer; from the keyboard (the board is focusable) arrows pan,
// + and - zoom, 0 fits the whole canvas. Live: while shown, the canvas file and the notes on its cards are
// polled (live.js) and the board is drawn again, camera kept, when one of them changed.
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";
import { go } from "../router.js";
import { bounds, CanvasError, clamp, edgePath, fit, parseCanvas, zoomAt } from "./model.js";
import { canvasEnv, colorValue, fileCard, groupBox, linkCard, resolveTargets, textCard } from "./cards.js";
import { watchVersions } from "./live.js";

const PAN_STEP = 80; // screen pixels an arrow key moves the board
const ZOOM_STEP = 1.25;
const DRAG_SLOP = 4; // pixels a press may move and still be a click
const SVG = "http://www.w3.org/2000/svg";
const PROBE_AT_END = 64 * 1024; // bytes from which the live refresh asks for a file's end, not its start

/**
 * Show the canvas `path` of `vault` in `main`. `alive()` is false once the person left this file (the board
 * then stops polling); `breadcrumb` and `actions` are the note view's (the same header as any file).
 */
export function mountCanvas(main, { vault, path, alive, breadcrumb, actions }) {
  const name = path.split("/").pop().replace(/\.canvas$/i, "");
  const status = el("p.canvas-status.muted", { role: "status" });
  const zoomLabel = el("output.canvas-zoom-level", { "aria-live": "off" }, "100%");
  const world = el("div.canvas-world");
  const help = el("p.canvas-help.muted", { id: "canvas-help" }, t("canvas.help"));
  const viewport = el("div.canvas-viewport", {
    id: "canvas-board", tabindex: "0", role: "region", "aria-roledescription": t("canvas.board"),
    "aria-label": t("canvas.boardLabel", { name }), "aria-describedby": "canvas-help", dataset: { state: "loading" },
  }, world);
  const button = (label, text, act, id) => el("button.icon-btn.canvas-zoom-btn", { type: "button", id, "aria-label": label, title: label, onclick: act }, text);
  const cam = { x: 0, y: 0, zoom: 1 };
  const board = { vault, path, viewport, world, status, cam, zoomLabel, fitted: false, box: null, apply: null };
  const apply = () => {
    world.style.transform = `translate(${-cam.x * cam.zoom}px, ${-cam.y * cam.zoom}px) scale(${cam.zoom})`;
    zoomLabel.textContent = `${Math.round(cam.zoom * 100)}%`;
    viewport.dataset.zoom = cam.zoom.toFixed(3);
  };
  board.apply = apply;
  const zoomBy = (f) => { Object.assign(cam, zoomAt(cam, f, viewport.clientWidth / 2, viewport.clientHeight / 2)); apply(); };
  const fitAll = () => { if (board.box) Object.assign(cam, fit(board.box, viewport.clientWidth, viewport.clientHeight)); apply(); };
  const tools = el("div.canvas-tools", { role: "group", "aria-label": t("canvas.zoom") },
    button(t("canvas.zoomOut"), "−", () => zoomBy(1 / ZOOM_STEP), "canvas-zoom-out"), zoomLabel,
    button(t("canvas.zoomIn"), "+", () => zoomBy(ZOOM_STEP), "canvas-zoom-in"),
    button(t("canvas.fit"), "⤢", fitAll, "canvas-fit"));
  clear(main, el("article.note.canvas-page", { "aria-labelledby": "note-title" },
    breadcrumb,
    el("div.note-head", el("h1.note-title", { id: "note-title", tabindex: "-1" }, name), el("div.note-actions", tools, actions)),
    status, viewport, help));
  bindCamera(board, { zoomBy, fitAll });

  let versions = new Map();
  const draw = async () => {
    const drawn = await render(board);
    if (!alive()) return;
    versions = drawn;
    if (!board.fitted && board.box) { fitAll(); board.fitted = true; }
    viewport.dataset.state = board.error ? "error" : "ready";
  };
  draw().then(() => watchVersions({ vault, alive, versions: () => versions, onChange: draw }));
  apply();
}

/** Reads and draws the canvas into `board.world`; returns the versions seen {path -> {version, probe}}. */
async function render(board) {
  const { vault, path, world, status } = board;
  const versions = new Map();
  let file;
  try {
    file = await readAll(vault, path);
  } catch (e) {
    board.error = true;
    showProblem(board, e.message);
    versions.set(path, { version: `!${e.code}`, probe: 0 });
    return versions;
  }
  versions.set(path, { version: file.version, probe: file.probe });
  let canvas;
  try {
    canvas = parseCanvas(file.content);
  } catch (e) {
    if (!(e instanceof CanvasError)) throw e;
    board.error = true;
    showProblem(board, t(e.key), e.detail);
    return versions;
  }
  board.error = false;
  const mdmod = await import("../markdown.js");
  const resolve = await resolveTargets(vault, canvas.nodes.filter((n) => n.type === "text").map((n) => n.text));
  const env = canvasEnv(vault, path, resolve);
  const read = (p) => readAll(vault, p, { first: true });
  const boxes = await Promise.all(canvas.nodes.map(async (node) => {
    if (node.type === "group") return { box: groupBox(node, vault) };
    if (node.type === "text") return { box: textCard(node, mdmod, env) };
    if (node.type === "link") return { box: linkCard(node) };
    return fileCard(node, { vault, mdmod, read });
  }));
  for (const { watched } of boxes) if (watched) versions.set(watched.path, watched);
  const groups = boxes.filter((b) => b.box.dataset.type === "group").map((b) => b.box);
  const cards = boxes.filter((b) => b.box.dataset.type !== "group").map((b) => b.box);
  clear(world, groups, edgeLayer(canvas), edgeLabels(canvas), cards);
  board.box = bounds(canvas.nodes);
  board.viewport.dataset.nodes = String(canvas.nodes.length);
  board.viewport.dataset.edges = String(canvas.edges.length);
  const notes = [];
  if (!canvas.nodes.length) notes.push(t("canvas.empty"));
  if (canvas.skipped) notes.push(t("canvas.skipped", { n: canvas.skipped }));
  if (canvas.cut) notes.push(t("canvas.cut"));
  status.textContent = notes.join(" ");
  status.classList.toggle("notice", notes.length > 0);
  decorate(world);
  return versions;
}

function showProblem(board, message, detail = "") {
  clear(board.world);
  board.box = null;
  board.status.classList.add("notice");
  board.status.setAttribute("role", "alert");
  clear(board.status, el("strong", t("canvas.unreadable")), " ", message, detail ? el("code.canvas-detail", detail) : null);
}

/** The edges: one SVG path each (a curve leaving and reaching the named sides), arrowheads as small triangles. */
function edgeLayer(canvas) {
  const byId = new Map(canvas.nodes.map((n) => [n.id, n]));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "canvas-edges");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "1");
  svg.setAttribute("height", "1");
  for (const edge of canvas.edges) {
    const geo = edgePath(byId.get(edge.from), byId.get(edge.to), edge);
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "canvas-edge");
    g.dataset.id = edge.id;
    const color = colorValue(edge.color);
    if (color) g.style.setProperty("--c", color);
    const line = document.createElementNS(SVG, "path");
    line.setAttribute("d", geo.d);
    g.append(line);
    if (edge.toEnd === "arrow") g.append(arrow(geo.end, geo.endAngle));
    if (edge.fromEnd === "arrow") g.append(arrow(geo.start, geo.startAngle));
    svg.append(g);
  }
  return svg;
}

function arrow(tip, angle) {
  const size = 12;
  const p = (a, r) => `${Math.round((tip.x - Math.cos(a) * r) * 10) / 10},${Math.round((tip.y - Math.sin(a) * r) * 10) / 10}`;
  const head = document.createElementNS(SVG, "polygon");
  head.setAttribute("class", "canvas-arrow");
  head.setAttribute("points", `${tip.x},${tip.y} ${p(angle + 0.45, size)} ${p(angle - 0.45, size)}`);
  return head;
}

/** Edge labels as HTML (readable text with a backdrop), centred on their curve. */
function edgeLabels(canvas) {
  const byId = new Map(canvas.nodes.map((n) => [n.id, n]));
  return canvas.edges.filter((e) => e.label).map((edge) => {
    const { mid } = edgePath(byId.get(edge.from), byId.get(edge.to), edge);
    const label = el("span.canvas-edge-label", { dataset: { edge: edge.id } }, edge.label);
    label.style.left = `${mid.x}px`;
    label.style.top = `${mid.y}px`;
    const color = colorValue(edge.color);
    if (color) label.style.setProperty("--c", color);
    return label;
  });
}

/** Pointer drag, wheel and keys move the camera; a press that did not drag is a click (a note card opens). */
function bindCamera(board, { zoomBy, fitAll }) {
  const { viewport, cam, apply } = board;
  let drag = null;
  let dragged = false;
  viewport.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || e.target.closest("a, button, audio, video")) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, cx: cam.x, cy: cam.y };
    dragged = false;
  });
  viewport.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < DRAG_SLOP) return;
    if (!dragged) { dragged = true; viewport.setPointerCapture(e.pointerId); viewport.classList.add("is-panning"); }
    cam.x = drag.cx - dx / cam.zoom;
    cam.y = drag.cy - dy / cam.zoom;
    apply();
  });
  const end = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    drag = null;
    viewport.classList.remove("is-panning");
  };
  viewport.addEventListener("pointerup", end);
  viewport.addEventListener("pointercancel", end);
  viewport.addEventListener("click", (e) => {
    if (dragged) { e.preventDefault(); e.stopPropagation(); dragged = false; return; }
    const card = e.target.closest(".canvas-file[data-open]");
    if (card && !e.target.closest("a, button") && !window.getSelection()?.toString()) go(card.dataset.open);
  }, true);
  viewport.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = viewport.getBoundingClientRect();
    const factor = Math.exp(-clamp(e.deltaY * (e.deltaMode === 1 ? 16 : 1), -200, 200) / 300);
    Object.assign(cam, zoomAt(cam, factor, e.clientX - r.left, e.clientY - r.top));
    apply();
  }, { passive: false });
  viewport.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const pan = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (pan) {
      cam.x += (pan[0] * PAN_STEP) / cam.zoom;
      cam.y += (pan[1] * PAN_STEP) / cam.zoom;
      apply();
    } else if (e.key === "+" || e.key === "=") zoomBy(ZOOM_STEP);
    else if (e.key === "-" || e.key === "_") zoomBy(1 / ZOOM_STEP);
    else if (e.key === "0") fitAll();
    else return;
    e.preventDefault();
  });
  // Tabbing to a link on a card off screen brings that card into view.
  viewport.addEventListener("focusin", (e) => {
    const card = e.target.closest(".canvas-node");
    if (!card || e.target === viewport) return;
    viewport.scrollTop = 0; // the browser may scroll the viewport itself to show the focused link: undo that
    viewport.scrollLeft = 0;
    const r = card.getBoundingClientRect(), v = viewport.getBoundingClientRect();
    if (r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom) return;
    const x = Number.parseFloat(card.style.left), y = Number.parseFloat(card.style.top);
    const w = Number.parseFloat(card.style.width), h = Number.parseFloat(card.style.height);
    cam.x = x + w / 2 - viewport.clientWidth / 2 / cam.zoom;
    cam.y = y + h / 2 - viewport.clientHeight / 2 / cam.zoom;
    apply();
  });
}

/** read_file of a text file: the whole of it (`first`: its first chunk only), with its `version` and the
 * `probe` offset live.js asks at: 0 for a small file; for a big one the end of what was read (an empty chunk
 * while nothing changed; a 400 once it got shorter, which is a change too). */
async function readAll(vault, path, { first = false } = {}) {
  const head = await api.readFile(vault, { path }, { quiet: true });
  const parts = [head.content];
  let next = head.next_offset;
  while (!first && next != null) {
    const more = await api.readFile(vault, { path, offset: next }, { quiet: true });
    parts.push(more.content);
    next = more.next_offset;
  }
  const content = parts.join("");
  const bytes = next == null ? new TextEncoder().encode(first ? head.content : content).length : 0;
  const probe = bytes > PROBE_AT_END ? head.offset + bytes : 0;
  return { ...head, content, probe, version: head.version };
}

/** Code colours and math on the cards, by the note view's chunks, only when some card has them. */
function decorate(root) {
  if (root.querySelector('pre > code[class*="language-"]')) import("../highlight.js").then((m) => m.highlightAll(root)).catch(() => {});
  if (root.querySelector(".math:not([data-tex])")) import("../viewer/math.js").then((m) => m.renderMath(root)).catch(() => {});
}
