// Runs the web page's script (app.js, as served) in Node against a live ObsiGate, with a tiny fake DOM,
// types a search until the server refuses it, and prints what the page then shows, as JSON.
// Usage: node run_page.mjs BASE_URL SCRIPT_FILE SEARCHES
import { pathToFileURL } from "node:url";

const [base, scriptFile, searches] = process.argv.slice(2);

class Element {
  constructor(tag) { this.tag = tag; this.children = []; this.textContent = ""; this.hidden = false; this.style = {}; this.listeners = {}; this.value = ""; }
  append(...nodes) { this.children.push(...nodes); }
  replaceChildren(...nodes) { this.children = nodes; }
  addEventListener(type, fn) { this.listeners[type] = fn; }
}
const byId = {};
const hiddenAtStart = new Set(["error", "content"]);
globalThis.document = {
  getElementById: (id) => (byId[id] ??= Object.assign(new Element("x"), { hidden: hiddenAtStart.has(id) })),
  createElement: (tag) => new Element(tag),
};
globalThis.sessionStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { origin: base };
const realFetch = globalThis.fetch;
globalThis.fetch = (path, options) => realFetch(base + path, options);
const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(String(reason)));

await import(pathToFileURL(scriptFile).href);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await sleep(300);
const seen = [];
for (let i = 0; i < Number(searches); i++) {
  byId.q.value = "plan";
  byId.q.listeners.input();
  await sleep(500);
  seen.push({ error: byId.error.textContent, hidden: byId.error.hidden, count: byId.count.textContent, hits: byId.hits.children.length });
}
console.log(JSON.stringify({ seen, unhandled }));
