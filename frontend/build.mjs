// Builds the web app into ../src/obsigate/web/static (committed: the Python package serves it, no Node at run time).
// Usage: npm ci && node build.mjs        (or `make web` from the repo root)
import * as esbuild from "esbuild";
import { rm, mkdir, copyFile, readdir, stat, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, "../src/obsigate/web/static");

// The FR/EN catalog (the shell's en.json/fr.json plus one i18n/<feature>.<lang>.json per feature) must cover
// every key the sources use (t("key"), data-i18n="key", …), in both languages, with no key defined twice.
{
  const i18n = path.join(here, "src/i18n");
  const catalog = { en: {}, fr: {} };
  const problems = [];
  for (const f of (await readdir(i18n)).sort()) {
    const m = f.match(/^(?:([a-z]+)\.)?(en|fr)\.json$/);
    if (!m) continue;
    for (const [k, v] of Object.entries(JSON.parse(readFileSync(path.join(i18n, f), "utf8")))) {
      if (k in catalog[m[2]]) problems.push(`defined twice in ${m[2]}: ${k}`);
      catalog[m[2]][k] = v;
    }
  }
  const { en, fr } = catalog;
  const used = new Set();
  const sources = async (dir) => (await readdir(dir, { withFileTypes: true })).flatMap((d) =>
    d.isDirectory() ? [] : d.name.endsWith(".js") ? [path.join(dir, d.name)] : []);
  const dirs = [path.join(here, "src"), ...(await readdir(path.join(here, "src"), { withFileTypes: true }))
    .filter((d) => d.isDirectory() && !["i18n", "styles"].includes(d.name)).map((d) => path.join(here, "src", d.name))];
  for (const dir of dirs) {
    for (const file of await sources(dir)) {
      const src = readFileSync(file, "utf8");
      for (const m of src.matchAll(/(?:\bt\(|L\(|"data-i18n(?:-[a-z]+)?":\s*)"([a-z]+\.[A-Za-z.]+)"/g)) used.add(m[1]);
    }
  }
  problems.push(
    ...[...used].filter((k) => !(k in en)).map((k) => `missing in en: ${k}`),
    ...Object.keys(en).filter((k) => !(k in fr)).map((k) => `missing in fr: ${k}`),
    ...Object.keys(fr).filter((k) => !(k in en)).map((k) => `only in fr: ${k}`),
  );
  if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

// KaTeX's fonts: woff2 only (every browser the build targets reads it; the woff/ttf fallbacks would triple the size).
const katexWoff2Only = {
  name: "katex-woff2-only",
  setup(build) {
    build.onLoad({ filter: /katex[\\/]dist[\\/]katex\.css$/ }, async (args) => ({
      contents: readFileSync(args.path, "utf8").replace(/,\s*url\([^)]*\.woff\) format\("woff"\),\s*url\([^)]*\.ttf\) format\("truetype"\)/g, ""),
      loader: "css",
    }));
  },
};
// read-excel-file's unzip without workers (see src/viewer/unzip-sync.js).
const xlsxUnzipInPlace = {
  name: "xlsx-unzip-in-place",
  setup(build) {
    build.onResolve({ filter: /^fflate$/ }, (args) =>
      /read-excel-file[\\/].*unzipFromArrayBuffer\.js$/.test(args.importer) ? { path: path.join(here, "src/viewer/unzip-sync.js") } : undefined);
  },
};

await esbuild.build({
  entryPoints: {
    app: path.join(here, "src/main.js"), // main.js imports styles/app.css -> app.css
    "mermaid-frame": path.join(here, "src/viewer/mermaid-frame.js"), // runs in static/mermaid-frame.html
    katex: path.join(here, "node_modules/katex/dist/katex.css"), // linked by viewer/math.js when a note has math
  },
  plugins: [katexWoff2Only, xlsxUnzipInPlace],
  loader: { ".woff2": "file" },
  assetNames: "fonts/[name]-[hash]",
  outdir: out,
  bundle: true,
  format: "esm",
  splitting: true,
  minify: true,
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "linked",
  charset: "utf8",
  logLevel: "warning",
});
// The graph view's layout worker: a classic script of its own (no shared chunks, so no module worker needed),
// served as /static/graph-layout.js — the CSP allows same-origin worker scripts only, never blob: ones.
await esbuild.build({
  entryPoints: { "graph-layout": path.join(here, "src/graph/layout.worker.js") },
  outdir: out,
  bundle: true,
  format: "iife",
  minify: true,
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  legalComments: "linked",
  charset: "utf8",
  logLevel: "warning",
});
await copyFile(path.join(here, "src/favicon.svg"), path.join(out, "favicon.svg"));
await copyFile(path.join(here, "src/viewer/mermaid-frame.html"), path.join(out, "mermaid-frame.html"));

// Each bundled package's licence, next to the bundle (runtime dependencies per package-lock.json).
const lock = JSON.parse(readFileSync(path.join(here, "package-lock.json"), "utf8"));
await mkdir(path.join(out, "licenses"), { recursive: true });
for (const [key, info] of Object.entries(lock.packages)) {
  if (!key.startsWith("node_modules/") || info.dev) continue;
  const dir = path.join(here, key);
  const lic = (await readdir(dir)).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (lic) await copyFile(path.join(dir, lic), path.join(out, "licenses", `${key.slice(13).replaceAll("/node_modules/", "__").replaceAll("/", "__")}.txt`));
  else {
    await writeFile(path.join(out, "licenses", `${key.slice(13).replaceAll("/node_modules/", "__").replaceAll("/", "__")}.txt`),
      `${key.slice(13)} ${info.version}: ${info.license} (declared in its package.json; the package ships no licence file)\n`);
  }
}

// Size report (raw / gzip) of every file written.
async function walk(dir) {
  const rows = [];
  for (const name of (await readdir(dir)).sort()) {
    const p = path.join(dir, name);
    if ((await stat(p)).isDirectory()) rows.push(...(await walk(p)));
    else {
      const buf = readFileSync(p);
      rows.push([path.relative(out, p), buf.length, gzipSync(buf, { level: 9 }).length]);
    }
  }
  return rows;
}
for (const [name, raw, gz] of await walk(out)) {
  console.log(`${name.padEnd(44)} ${(raw / 1024).toFixed(1).padStart(8)} KB ${(gz / 1024).toFixed(1).padStart(8)} KB gz`);
}
