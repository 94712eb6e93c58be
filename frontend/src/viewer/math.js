// Math in notes ($…$, $$…$$), drawn by KaTeX into the placeholders markdown.js left (their text is the TeX
// source, already through DOMPurify). KaTeX builds DOM nodes and escapes what it draws; \href, \url and
// friends stay off (trust: false). Loaded only when a note has math; its style sheet (static/katex.css, woff2
// fonts beside it) comes with it.
import { __renderToDomTree as renderTree } from "katex";

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
    const tree = renderTree(tex, {
      displayMode: node.classList.contains("math-display"),
      throwOnError: false, // a mistake shows in red with its message, the rest of the note renders
      trust: false,
      strict: "ignore",
      output: "htmlAndMathml", // MathML for screen readers
      maxExpand: 1000,
    });
    cssomOnly(tree);
    node.replaceChildren(tree.toNode()); // what katex.render does, after cssomOnly
  }
}

const camel = (prop) => prop.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
/** KaTeX sets most sizes through node.style (the CSSOM, which the CSP allows) but a few as a style="" attribute
 * (the error colour, \pmb, \fcolorbox), which the CSP refuses: those move to node.style, or go (MathML nodes,
 * read by screen readers, not seen). */
function cssomOnly(node) {
  const css = node.attributes?.style;
  if (css !== undefined) {
    delete node.attributes.style;
    if (node.style) {
      for (const decl of css.split(";")) {
        const i = decl.indexOf(":");
        if (i > 0) node.style[camel(decl.slice(0, i).trim())] = decl.slice(i + 1).trim();
      }
    }
  }
  for (const child of node.children || []) cssomOnly(child);
}
