// canvas/model.js: JSON Canvas 1.0 read as the spec says (shared/reference/obsidian-app.md §2), and the board's
// geometry (fit, zoom about a point, edge anchors and curves).
import { test } from "node:test";
import assert from "node:assert/strict";

const m = await import("../../../frontend/src/canvas/model.js");

const node = (id, type, extra = {}) => ({ id, type, x: 0, y: 0, width: 100, height: 50, ...extra });

test("nodes keep file order except that groups go below; spec defaults for edge ends", () => {
  const text = JSON.stringify({
    nodes: [node("a", "text", { text: "A" }), node("g", "group", { label: "G" }), node("f", "file", { file: "/x.md", subpath: "#H" })],
    edges: [{ id: "e", fromNode: "a", toNode: "f" }],
    extra: "kept by Obsidian, ignored here",
  });
  const c = m.parseCanvas(text);
  assert.deepEqual(c.nodes.map((n) => n.id), ["g", "a", "f"]);
  assert.equal(c.nodes[2].file, "x.md");
  assert.equal(c.nodes[2].subpath, "H");
  assert.equal(c.nodes[0].backgroundStyle, "cover");
  assert.deepEqual([c.edges[0].fromEnd, c.edges[0].toEnd, c.edges[0].fromSide], ["none", "arrow", null]);
  assert.equal(c.skipped, 0);
});

test("items that break the spec are skipped and counted; an empty file is an empty canvas", () => {
  const c = m.parseCanvas(JSON.stringify({
    nodes: [node("a", "text", { text: "A" }), node("b", "text"), node("a", "text", { text: "dup" }), node("c", "shape"),
      { id: "d", type: "text", text: "no size" }, node("e", "link", { url: "https://x.org" }), node("z", "text", { text: "", width: 0 })],
    edges: [{ id: "1", fromNode: "a", toNode: "e", toEnd: "none", fromSide: "diagonal" }, { id: "2", fromNode: "a", toNode: "nope" }, { id: 3 }],
  }));
  assert.deepEqual(c.nodes.map((n) => n.id), ["a", "e"]);
  assert.equal(c.nodes[0].text, "A");
  assert.equal(c.edges.length, 1);
  assert.equal(c.edges[0].toEnd, "none");
  assert.equal(c.edges[0].fromSide, null);
  assert.equal(c.skipped, 5 + 2);
  assert.deepEqual(m.parseCanvas(""), { nodes: [], edges: [], skipped: 0, cut: false });
  assert.deepEqual(m.parseCanvas("\uFEFF{}").nodes, []);
});

test("not JSON, or JSON that is not a canvas, is a CanvasError with its message key", () => {
  for (const [text, key] of [["{nodes: [", "canvas.notJson"], ["[]", "canvas.notCanvas"], ["null", "canvas.notCanvas"],
    ['{"nodes": {}}', "canvas.notCanvas"], ['{"edges": "x"}', "canvas.notCanvas"]]) {
    assert.throws(() => m.parseCanvas(text), (e) => e instanceof m.CanvasError && e.key === key, text);
  }
});

test("colours: presets 1-6 and hex only", () => {
  assert.deepEqual(m.readColor("4"), { preset: "4" });
  assert.deepEqual(m.readColor("#FF8800"), { hex: "#ff8800" });
  assert.deepEqual(m.readColor("#abc"), { hex: "#abc" });
  for (const bad of ["7", "0", "red", "#ff88", "url(x)", 3, null]) assert.equal(m.readColor(bad), null, String(bad));
});

test("fit centres the whole canvas, never above 100 %; zoomAt keeps the point under the pointer", () => {
  const box = m.bounds([node("a", "text", { x: -100, y: -50 }), node("b", "text", { x: 900, y: 400, width: 200, height: 100 })]);
  assert.deepEqual(box, { x: -100, y: -50, width: 1200, height: 550 });
  const cam = m.fit(box, 640, 480, { pad: 20 });
  assert.equal(cam.zoom, 0.5);
  // the box's centre lands on the viewport's centre
  assert.equal((box.x + box.width / 2 - cam.x) * cam.zoom, 320);
  assert.equal((box.y + box.height / 2 - cam.y) * cam.zoom, 240);
  assert.equal(m.fit({ x: 0, y: 0, width: 10, height: 10 }, 800, 600).zoom, 1);
  const z = m.zoomAt({ x: 10, y: 20, zoom: 1 }, 2, 100, 50);
  assert.equal(z.zoom, 2);
  assert.deepEqual([(110 - z.x) * z.zoom, (70 - z.y) * z.zoom], [100, 50]); // world (110, 70) stays at (100, 50)
  assert.equal(m.zoomAt({ x: 0, y: 0, zoom: 3 }, 10, 0, 0).zoom, 4);
});

test("edges leave the named sides, else the facing ones; arrowheads point into the node", () => {
  const a = node("a", "text");
  const b = node("b", "text", { x: 300 });
  assert.deepEqual(m.facingSides(a, b), ["right", "left"]);
  assert.deepEqual(m.facingSides(a, node("c", "text", { y: -400 })), ["top", "bottom"]);
  const geo = m.edgePath(a, b, { fromSide: null, toSide: null });
  assert.deepEqual([geo.start, geo.end], [{ x: 100, y: 25 }, { x: 300, y: 25 }]);
  assert.ok(geo.d.startsWith("M100,25 C"));
  assert.equal(geo.endAngle, 0); // arriving at b's left side, going right
  const down = m.edgePath(a, b, { fromSide: "bottom", toSide: "top" });
  assert.deepEqual(down.start, { x: 50, y: 50 });
  assert.equal(down.endAngle, Math.PI / 2); // arriving from above
});

test("groups contain the nodes inside their box; link targets of a text card", () => {
  const g = node("g", "group", { x: -10, y: -10, width: 300, height: 300 });
  assert.deepEqual(m.members(g, [g, node("in", "text"), node("out", "text", { x: 250 })]).map((n) => n.id), ["in"]);
  assert.deepEqual(m.linkTargets("See [[Dune]], ![[pic.png|200]], [[Books/Dune#Plot|the plot]], [x](Notes/My%20Note.md#h), [w](https://x.org) [a](#top)"),
    ["Dune", "pic.png", "Books/Dune", "Notes/My Note.md"]);
  assert.equal(m.linkHost("https://example.com:8080/x"), "example.com:8080");
  assert.equal(m.linkHost("not a url"), "not a url");
  assert.ok(m.safeUrl("https://x.org") && !m.safeUrl("javascript:alert(1)") && !m.safeUrl("data:text/html,x"));
});
