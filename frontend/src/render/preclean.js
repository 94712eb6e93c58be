// A note's raw HTML cleaned before DOMPurify parses it. HTML comments are hidden (and their text not even sent
// to the page, obsidian-app.md §4); inline event handlers, style attributes and <style>/<script> elements are
// cut, and so are <base>, <link> and <meta>: Chrome reports a CSP violation for them as soon as they are parsed,
// even in DOMPurify's inert document (which would remove them anyway: the page allows no inline script or style,
// and no request to another origin).
const HANDLER = /(<[a-z][^>]*?)\s+(?:on[a-z]+|style)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;

/** `html` without comments, <style>/<script>/<base>/<link>/<meta> elements, event handlers and style attributes. */
export function precleanHtml(html) {
  let out = html
    .replace(/<!--[\s\S]*?(-->|$)/g, "")
    .replace(/<(style|script)\b[\s\S]*?(<\/\1\s*>|$)/gi, "")
    .replace(/<\/?(?:base|link|meta)\b[^>]*(>|$)/gi, "");
  for (let before = ""; before !== out;) { before = out; out = out.replace(HANDLER, "$1"); }
  return out;
}
