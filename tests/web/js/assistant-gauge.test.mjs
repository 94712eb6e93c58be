// The context gauge's pure parts (assistant/gauge.js, issue 21 item 5): token counts for people, the gauge's
// line in both languages, which notice each level shows, and the catalogs of its words in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";

const { t } = await import("../../../frontend/src/i18n.js");
const { PARTS, gaugeLine, noticeKey, tokens } = await import("../../../frontend/src/assistant/gauge.js");
const { default: en } = await import("../../../frontend/src/i18n/gauge.en.json");
const { default: fr } = await import("../../../frontend/src/i18n/gauge.fr.json");

test("token counts read as 950, 13.7k, 128k, 1.05M", () => {
  assert.deepEqual([0, 950, 1000, 13_700, 32_768, 128_000, 1_048_576, 1_000_000].map(tokens),
    ["0", "950", "1k", "13.7k", "32.8k", "128k", "1.05M", "1M"]);
});

test("the line says the share and the total over the window, in both languages; below 70 % no notice", () => {
  const report = { percent: 42.5, total: 13_700, window: 32_768 };
  assert.equal(gaugeLine(report, t), "42.5 % · 13.7k / 32.8k tokens");
  assert.equal(noticeKey("ok"), null);
  assert.deepEqual(["warn70", "warn85", "warn95"].map(noticeKey), ["gauge.warn70", "gauge.warn85", "gauge.warn95"]);
  const tFr = (key, vars) => fr[key].replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
  assert.equal(gaugeLine(report, tFr), "42.5 % · 13.7k / 32.8k jetons");
});

test("every part and notice is worded in both languages", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fr).sort());
  for (const part of PARTS) assert.ok(en[`gauge.part.${part}`] && fr[`gauge.part.${part}`], part);
  for (const level of ["warn70", "warn85", "warn95"]) assert.match(en[`gauge.${level}`], /\{percent\} %/);
});
