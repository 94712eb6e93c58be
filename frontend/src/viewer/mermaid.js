// ```mermaid blocks drawn as pictures. Mermaid writes <style> elements and style="" attributes, which the page's
// CSP (style-src 'self' + nonce) refuses; so it runs in a hidden same-origin frame (static/mermaid-frame.html,
// its own policy: scripts from 'self' only, inline styles allowed) that returns the SVG text. Here it is
// sanitised (DOMPurify, SVG profile) and shown as an <img> of a data: URL: an image runs no script and its
// inner styles are its own. Labels are SVG <text> (htmlLabels off), which an <img> renders.
// Loaded only when a note has a mermaid block; the frame loads mermaid itself (~1 MB) on first use.
import { el } from "../dom.js";
import { t } from "../i18n.js";

let frame = null;
function renderer() {
  frame ||= new Promise((resolve, reject) => {
    const iframe = el("iframe.mermaid-frame", { "aria-hidden": "true", tabindex: "-1", title: "mermaid" });
    iframe.addEventListener("load", () => {
      const api = iframe.contentWindow?.obsigateMermaid;
      if (api) resolve(api);
      else { frame = null; iframe.remove(); reject(new Error(t("viewer.mermaidUnavailable"))); }
    }, { once: true });
    iframe.src = new URL("../mermaid-frame.html", import.meta.url).href; // this chunk lives in static/chunks/
    document.body.append(iframe);
  });
  return frame;
}

function dark() {
  const theme = document.documentElement.dataset.theme;
  return theme === "dark" || (theme !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
}

async function draw(figure, api) {
  const source = figure.dataset.source;
  const isDark = dark();
  figure.dataset.dark = String(isDark);
  let out;
  try {
    const svg = await api.render(source, isDark);
    if (!svg.text.startsWith("<svg")) throw new Error(t("viewer.mermaidEmpty"));
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}`;
    out = el("img.mermaid-image", { src, alt: t("viewer.mermaidAlt"), width: svg.width || null, height: svg.height || null });
  } catch (e) {
    out = el("div.mermaid-error", { role: "note" },
      el("p", t("viewer.mermaidError")),
      el("pre", el("code", String(e?.message || e).trim())),
      el("pre.mermaid-code", el("code", source)));
  }
  figure.replaceChildren(out);
}

const drawn = new Set(); // the figures on screen, redrawn when the theme changes
let watching = false;
function watchTheme() {
  if (watching) return;
  watching = true;
  const redraw = () => {
    for (const fig of [...drawn]) {
      if (!fig.isConnected) { drawn.delete(fig); continue; }
      if (fig.dataset.dark !== String(dark())) renderer().then((api) => draw(fig, api)).catch(() => {});
    }
  };
  new MutationObserver(redraw).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
}

/** Replaces each ```mermaid source block under root by its diagram (or the error that stops it). */
export async function renderMermaid(root) {
  const blocks = [...root.querySelectorAll("pre.mermaid-source")].filter((pre) => !pre.closest("figure.mermaid"));
  if (!blocks.length) return;
  const figures = blocks.map((pre) => {
    const figure = el("figure.mermaid", { "aria-busy": "true", dataset: { source: pre.textContent } }, pre.cloneNode(true));
    pre.replaceWith(figure);
    return figure;
  });
  watchTheme();
  let api;
  try {
    api = await renderer();
  } catch (e) {
    for (const fig of figures) fig.replaceChildren(el("p.mermaid-error", { role: "note" }, e.message), ...fig.childNodes);
    return;
  }
  for (const fig of figures) {
    await draw(fig, api);
    fig.removeAttribute("aria-busy");
    drawn.add(fig);
  }
}
