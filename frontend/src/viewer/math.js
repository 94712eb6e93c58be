// Math in notes ($…$, $$…$$), drawn by KaTeX into the placeholders markdown.js left (their text is the TeX
// source, already through DOMPurify). katex.render builds DOM nodes (inline sizes set through the CSSOM, which
// the page's CSP allows) and escapes what it draws; \href, \url and friends stay off (trust: false).
// Loaded only when a note has math; its style sheet (static/katex.css, woff2 fonts beside it) comes with it.
import katex from "katex";

let sheet = null;
/** The KaTeX style sheet, linked once (a file under /static: style-src 'self'). */
function loadSheet() {
  sheet ||= new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL("../katex.css", import.meta.url).href; // this chunk lives in static/chunks/
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
  return sheet;
}

/** Renders every math placeholder under root (once each). */
export async function renderMath(root) {
  await loadSheet();
  for (const node of root.querySelectorAll(".math:not([data-tex])")) {
    const tex = node.textContent;
    node.dataset.tex = tex; // the source stays on the node (copying, tests), never parsed as HTML
    katex.render(tex, node, {
      displayMode: node.classList.contains("math-display"),
      throwOnError: false, // a mistake shows in red with its message, the rest of the note renders
      trust: false,
      strict: "ignore",
      output: "htmlAndMathml", // MathML for screen readers
      maxExpand: 1000,
    });
  }
}
