// Runs inside static/mermaid-frame.html (see viewer/mermaid.js): mermaid draws here, where inline styles are
// allowed, and hands back the SVG text. One diagram at a time (mermaid keeps its configuration globally).
import mermaid from "mermaid";
import DOMPurify from "dompurify";

const BASE = {
  startOnLoad: false,
  securityLevel: "strict", // labels sanitised, no click handlers or links to javascript:
  htmlLabels: false, // labels as SVG <text>: the page shows the diagram as an <img>, where HTML labels do not render
  flowchart: { htmlLabels: false },
  suppressErrorRendering: true, // a broken diagram throws its message instead of drawing a "bomb" picture
  logLevel: "fatal",
};

let queue = Promise.resolve();
let count = 0;

window.obsigateMermaid = {
  /** {text, width, height}: the SVG of `source` (light or dark theme); rejects with mermaid's message when it cannot be drawn. */
  render(source, dark) {
    const run = async () => {
      mermaid.initialize({ ...BASE, theme: dark ? "dark" : "default" });
      const { svg } = await mermaid.render(`mermaid-${++count}`, source);
      // Inside an <img>, width="100%" means nothing: the drawing's own size (its viewBox) instead.
      const clean = DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true } });
      const root = new DOMParser().parseFromString(clean, "image/svg+xml").documentElement;
      if (root.localName !== "svg") throw new Error("no svg");
      const box = (root.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
      let [width, height] = [0, 0];
      if (box.length === 4 && box.every(Number.isFinite)) {
        [, , width, height] = box.map(Math.ceil);
        root.setAttribute("width", String(width));
        root.setAttribute("height", String(height));
      }
      return { text: new XMLSerializer().serializeToString(root), width, height };
    };
    const job = queue.then(run, run);
    queue = job.catch(() => {});
    return job;
  },
};
