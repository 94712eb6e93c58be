// The sanitiser's rules for notes (DOMPurify): the inline and block HTML Obsidian's reading view shows (<br>,
// <span>, <div>, <details>/<summary>, <kbd>, <sup>, <sub>, <u>, <mark>, <img>, tables… obsidian-app.md §4
// "HTML"), nothing scriptable (no script, event handler, javascript: URL, form control or frame), and no
// request to another origin (the page's CSP forbids them: a remote <img> becomes a link to it, as markdown
// images already do). Relative src/href in raw HTML resolve in the vault like markdown links.
import DOMPurify from "dompurify";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** DOMPurify's options for a note (ids prefixed "user-content-…" so a note never takes the app's own ids). */
export const PURIFY = {
  ADD_ATTR: ["target", "loading", "controls", "preload", "download"],
  SANITIZE_NAMED_PROPS: true,
  FORBID_ATTR: ["style"],
  FORBID_TAGS: ["style", "form", "button", "textarea", "select", "option", "iframe", "frame", "object", "embed", "dialog", "meta", "link", "base", "template"],
};

let current = null; // the env of the note being sanitised (DOMPurify's hooks are global; sanitize is synchronous)

DOMPurify.addHook("uponSanitizeElement", (node, data) => {
  // Only disabled checkboxes (task items) may stay as <input>; render/tasks.js enables the note's own.
  if (data.tagName === "input" && !(node.getAttribute("type") === "checkbox" && node.hasAttribute("disabled"))) node.remove();
});

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  const env = current;
  if (!env) return;
  const tag = node.nodeName;
  if ((tag === "IMG" || tag === "VIDEO" || tag === "AUDIO" || tag === "SOURCE") && node.hasAttribute("src")) {
    const src = node.getAttribute("src");
    if (/^data:image\//i.test(src) || src.startsWith("/api/file/")) return;
    if (SCHEME.test(src) || src.startsWith("//")) {
      const link = node.ownerDocument.createElement("a");
      link.className = "external-link remote-image";
      link.setAttribute("href", src);
      link.setAttribute("target", "_blank");
      link.setAttribute("rel", "noopener noreferrer");
      link.textContent = node.getAttribute("alt") || src;
      node.replaceWith(link);
      return;
    }
    // the server resolved the note's links, not its raw HTML: an unknown src is relative to the note's folder
    const file = decode(src.split("#")[0]);
    const resolved = env.resolve?.(file, "markdown") || relativeTo(env.path, file);
    if (resolved) node.setAttribute("src", env.rawUrl(resolved));
    else { node.removeAttribute("src"); node.classList.add("is-unresolved"); }
    if (tag === "IMG") node.setAttribute("loading", "lazy");
  } else if (tag === "A" && node.hasAttribute("href") && !node.classList.contains("internal-link")) {
    const href = node.getAttribute("href");
    if (SCHEME.test(href) || href.startsWith("//")) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
      node.classList.add("external-link");
    } else if (href && !href.startsWith("#")) { // <a href="Other note.md#Heading">: a link into the vault
      const [file, sub] = decode(href).split(/#(.*)/s);
      const path = env.resolve?.(file, "markdown") || relativeTo(env.path, file);
      if (path) {
        node.setAttribute("href", env.noteUrl(path, sub || null));
        node.setAttribute("data-path", path);
        node.classList.add("internal-link");
      } else node.removeAttribute("href");
    }
  }
});

/** `file` (a relative URL path) from the folder of the note `notePath`; null when it climbs out of the vault. */
export function relativeTo(notePath, file) {
  if (!file || file.startsWith("/")) return file ? file.replace(/^\/+/, "") || null : null;
  const parts = (notePath || "").split("/").slice(0, -1);
  for (const seg of file.split("/")) {
    if (seg === "..") { if (!parts.length) return null; parts.pop(); } else if (seg && seg !== ".") parts.push(seg);
  }
  return parts.join("/") || null;
}

function decode(s) {
  try { return decodeURIComponent(s); } catch { return s; }
}

/** `html` sanitised for a note rendered with `env` (markdown.js's env: resolve, rawUrl…). */
export function sanitize(html, env) {
  current = env;
  try {
    return DOMPurify.sanitize(html, PURIFY);
  } finally {
    current = null;
  }
}

export { DOMPurify };
