// Every *.test.mjs here in ONE Node process (`make web-test`; `node --test` would start one per file):
//   node --import ./tests/web/js/setup.mjs tests/web/js/all.mjs
import { readdirSync } from "node:fs";

for (const f of readdirSync(new URL(".", import.meta.url)).filter((n) => n.endsWith(".test.mjs")).sort()) {
  await import(new URL(f, import.meta.url));
}
