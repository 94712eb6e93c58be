// Module hooks for `node --test` on the web app's sources: what esbuild does for the bundle, done for Node —
// a `.json` import is its parsed value (default export), a `.css` import is nothing (the bundle's app.css).
export async function load(url, context, nextLoad) {
  if (url.endsWith(".css")) return { format: "module", source: "", shortCircuit: true };
  if (url.endsWith(".json")) {
    const { source } = await nextLoad(url, { ...context, format: "json", importAttributes: { type: "json" } });
    return { format: "module", source: `export default ${source};`, shortCircuit: true };
  }
  return nextLoad(url, context);
}
