// The assistant panel's pure parts (issue 19 item 5): errors worded by code (errors.js), the shortcut
// (dock.js, through the app's command registry), when the empty state shows (onboarding.js), and the catalogs of these words in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";

const { t } = await import("../../../frontend/src/i18n.js");
const { errorText } = await import("../../../frontend/src/assistant/errors.js");
const { ASSISTANT_HOTKEY } = await import("../../../frontend/src/assistant/dock.js");
const { matchHotkey, formatHotkey } = await import("../../../frontend/src/commands/registry.js");
const { unconfiguredDefault } = await import("../../../frontend/src/assistant/onboarding.js");
const { default: en } = await import("../../../frontend/src/i18n/assistant.en.json");
const { default: fr } = await import("../../../frontend/src/i18n/assistant.fr.json");

test("an error is worded by its code, with the seconds to wait; an unknown code keeps the server's words", () => {
  assert.equal(errorText(t, { code: "provider_auth_failed", message: "401 from upstream" }),
    "The provider refused its API key. An administrator can check it in the AI settings.");
  assert.equal(errorText(t, { code: "provider_rate_limited", retryAfter: 12 }), "The provider is limiting requests: try again in 12 s.");
  assert.equal(errorText(t, { code: "rate_limited", details: { retry_after: 3 } }), "Too many requests: try again in 3 s.");
  assert.equal(errorText(t, { code: "something_new", message: "The server's own words." }), "The server's own words.");
  assert.equal(errorText(t, null), "Something went wrong.");
});

test("every error code the panel words is worded in French too, and the words differ", () => {
  const keys = Object.keys(en).filter((k) => k.startsWith("assistant.error.") || k.startsWith("assistant.empty."));
  assert.ok(keys.length > 20);
  for (const k of keys) {
    assert.ok(fr[k], k);
    assert.notEqual(fr[k], en[k], k);
    assert.deepEqual(fr[k].match(/\{\w+\}/g), en[k].match(/\{\w+\}/g), k); // the same placeholders
  }
});

test("Ctrl+Shift+A (Cmd+Shift+A on a Mac) reaches the panel, by the key's place; Ctrl+A, Ctrl+Alt+Shift+A do not", () => {
  const key = (o) => ({ key: "A", code: "KeyA", ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...o });
  assert.equal(ASSISTANT_HOTKEY, "Mod+Shift+A");
  assert.ok(matchHotkey(ASSISTANT_HOTKEY, key({ ctrlKey: true, shiftKey: true }), false));
  assert.ok(matchHotkey(ASSISTANT_HOTKEY, key({ metaKey: true, shiftKey: true }), true));
  assert.ok(matchHotkey(ASSISTANT_HOTKEY, key({ ctrlKey: true, shiftKey: true, key: "Q" }), false)); // AZERTY
  assert.ok(!matchHotkey(ASSISTANT_HOTKEY, key({ ctrlKey: true }), false));
  assert.ok(!matchHotkey(ASSISTANT_HOTKEY, key({ ctrlKey: true, shiftKey: true, altKey: true }), false));
  assert.equal(formatHotkey(ASSISTANT_HOTKEY, false), "Ctrl+Shift+A");
});

test("the empty state shows when the default provider is not configured, whatever the others are", () => {
  const models = (configured) => ({ default_provider: "deepseek", providers: [
    { name: "deepseek", label: "DeepSeek", configured }, { name: "ollama", label: "Ollama", configured: true }] });
  assert.equal(unconfiguredDefault(models(false))?.label, "DeepSeek");
  assert.equal(unconfiguredDefault(models(true)), null);
  assert.equal(unconfiguredDefault(null), null); // no list: its error is in the conversation already
});
