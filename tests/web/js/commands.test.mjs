// commands/registry.js: the app's commands, their hotkeys (Mod = Ctrl, or Cmd on macOS) and the keydown dispatch.
import { test } from "node:test";
import assert from "node:assert/strict";

const reg = await import("../../../frontend/src/commands/registry.js");

const key = (code, mods = {}, target = { tagName: "BODY" }) => {
  let prevented = false;
  const k = /^Key(.)$/.exec(code)?.[1]?.toLowerCase() ?? code;
  return { code, key: k, target, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods,
    get defaultPrevented() { return prevented; }, preventDefault() { prevented = true; } };
};

test("Mod is Ctrl off macOS and Cmd on it; letters match by their physical key", () => {
  assert.ok(reg.matchHotkey("Mod+E", key("KeyE", { ctrlKey: true }), false));
  assert.ok(!reg.matchHotkey("Mod+E", key("KeyE", { metaKey: true }), false));
  assert.ok(reg.matchHotkey("Mod+E", key("KeyE", { metaKey: true }), true));
  assert.ok(!reg.matchHotkey("Mod+E", key("KeyE", { ctrlKey: true, shiftKey: true }), false));
  assert.ok(reg.matchHotkey("Mod+Shift+F", { code: "KeyF", key: "é", ctrlKey: true, shiftKey: true }, false)); // AZERTY etc.
  assert.equal(reg.formatHotkey("Mod+Shift+P", false), "Ctrl+Shift+P");
  assert.equal(reg.formatHotkey("Mod+Shift+P", true), "⇧⌘P");
  assert.equal(reg.formatHotkey("Alt+ArrowLeft", false), "Alt+Left");
});

test("the keydown handler runs the first applicable command, and leaves plain keys to text fields", () => {
  const ran = [];
  const off = reg.registerCommand({ id: "t:one", name: () => "One", hotkeys: ["Mod+K"], run: () => ran.push("one") });
  reg.registerCommand({ id: "t:slash", name: () => "Slash", hotkeys: ["/"], run: () => ran.push("slash") });
  reg.registerCommand({ id: "t:never", name: () => "Never", hotkeys: ["Mod+J"], when: () => false, run: () => ran.push("never") });
  const e = key("KeyK", { ctrlKey: true });
  assert.equal(reg.handleKeydown(e), true);
  assert.ok(e.defaultPrevented);
  assert.equal(reg.handleKeydown({ ...key("/"), code: "Slash", key: "/" }), true);
  assert.equal(reg.handleKeydown({ ...key("/", {}, { tagName: "TEXTAREA" }), code: "Slash", key: "/" }), false);
  assert.equal(reg.handleKeydown(key("KeyJ", { ctrlKey: true })), false);
  assert.deepEqual(ran, ["one", "slash"]);
  assert.ok(reg.listCommands().some((c) => c.id === "t:one") && !reg.listCommands().some((c) => c.id === "t:never"));
  assert.equal(reg.runCommand("t:never"), false);
  off();
  assert.equal(reg.getCommand("t:one"), undefined);
  assert.throws(() => reg.registerCommand({ id: "x" }));
});
