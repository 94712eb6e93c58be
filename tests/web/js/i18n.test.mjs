// i18n.js: the FR/EN catalogs (the shell's, the features', the lazy screens' from views.js) and t().
import { test } from "node:test";
import assert from "node:assert/strict";

const { t, getLang, LANGUAGES } = await import("../../../frontend/src/i18n.js");

test("English by default outside a browser; placeholders filled, unknown ones kept", () => {
  assert.equal(getLang(), "en");
  assert.deepEqual(LANGUAGES.map(([code]) => code), ["en", "fr"]);
  assert.equal(t("assistant.approve_all", { n: 2 }), "Approve all (2)");
  assert.equal(t("assistant.approve_all"), "Approve all ({n})");
  assert.equal(t("no.such.key"), "no.such.key");
});

test("every screen of views.js brings its catalog in both languages", async () => {
  const { VIEWS } = await import("../../../frontend/src/views.js");
  for (const [name, view] of Object.entries(VIEWS)) {
    const keys = Object.keys(view.i18n.en);
    assert.ok(keys.length, name);
    assert.deepEqual(Object.keys(view.i18n.fr).sort(), [...keys].sort(), name);
    for (const k of keys) assert.equal(t(k), view.i18n.en[k], `${name}: ${k}`);
  }
});
