// assistant/commands.js: how a line is read as a slash command, what the completion offers, the /providers
// and /keys rows.
import { test } from "node:test";
import assert from "node:assert/strict";

const c = await import("../../../frontend/src/assistant/commands.js");

test("a line is a command, an unknown command, or a message", () => {
  assert.deepEqual(c.parseSlash("  /Skill   tasks "), { name: "skill", arg: "tasks", command: c.COMMANDS[1] });
  assert.deepEqual(c.parseSlash("/help"), { name: "help", arg: "", command: c.COMMANDS[0] });
  assert.equal(c.parseSlash("/etc/hosts?").command, null); // unknown: an error, never sent to the model
  assert.equal(c.parseSlash("/").name, "");
  assert.equal(c.parseSlash("hello /help"), null);
  assert.equal(c.parseSlash("//etc/hosts"), null); // "//": a message
  assert.equal(c.messageOf("//etc/hosts"), "/etc/hosts");
  assert.equal(c.messageOf(" plain "), "plain");
  assert.equal(c.usage(c.COMMANDS[3]), "/provider <name>");
});

const ctx = {
  skills: [{ id: "summarize", icon: "📝", description: "Sum" }, { id: "tasks", icon: "✅", description: "Tasks" }],
  providers: [{ name: "deepseek", label: "DeepSeek" }, { name: "gemini", label: "Gemini" }],
  models: ["fake-model", "other"],
  admin: true,
};

test("the completion: commands by prefix, then each command's arguments", () => {
  assert.deepEqual(c.slashItems("/", ctx).map((i) => i.value), ["/help", "/skill ", "/providers", "/provider ", "/model ", "/keys"]);
  assert.deepEqual(c.slashItems("/pro", ctx).map((i) => i.label), ["/providers", "/provider <name>"]);
  assert.equal(c.slashItems("/pro", ctx)[0].admin, true);
  assert.equal(c.slashItems("/pro", ctx)[0].command, "providers"); // the view shows its description
  assert.deepEqual(c.slashItems("/skill ", ctx).map((i) => i.value), ["/skill summarize", "/skill tasks", "/skill off"]);
  assert.deepEqual(c.slashItems("/skill t", ctx).map((i) => i.label), ["✅ tasks"]);
  assert.deepEqual(c.slashItems("/provider g", ctx).map((i) => i.value), ["/provider gemini"]);
  assert.deepEqual(c.slashItems("/model o", ctx).map((i) => i.value), ["/model other"]);
  assert.equal(c.slashItems("/model o", { ...ctx, admin: false }), null); // not offered to others
  assert.deepEqual(c.slashItems("/zz", ctx), []);
  assert.equal(c.slashItems("hello", ctx), null);
  assert.equal(c.slashItems("//x", ctx), null);
  assert.equal(c.slashItems("/skill a b", ctx), null);
  assert.equal(c.findSkill(ctx.skills, " TASKS ").id, "tasks");
  assert.equal(c.findSkill(ctx.skills, "nope"), null);
});

test("the /providers and /keys rows come from GET /api/ai/status, the default first", () => {
  const status = {
    default_provider: "gemini",
    providers: [
      { name: "deepseek", label: "DeepSeek", configured: false, problem: "no API key", default_model: "v4", key: null,
        key_source: null, key_required: true, env: { api_key: "DEEPSEEK_API_KEY" } },
      { name: "gemini", label: "Gemini", configured: true, problem: null, default_model: "g", key: "…abcd",
        key_source: "dotenv", key_required: true, env: { api_key: "GEMINI_API_KEY" } },
      { name: "ollama", label: "Ollama", configured: true, problem: null, default_model: null, key: null,
        key_source: null, key_required: false, env: { api_key: "OLLAMA_API_KEY" } },
    ],
  };
  assert.deepEqual(c.providerRows(status).map((r) => [r.name, r.ok, r.isDefault, r.problem]),
    [["gemini", true, true, null], ["deepseek", false, false, "no API key"], ["ollama", true, false, null]]);
  assert.deepEqual(c.keyRows(status).map((r) => [r.name, r.key, r.source, r.required]),
    [["deepseek", null, null, true], ["gemini", "…abcd", "dotenv", true], ["ollama", null, null, false]]);
});

test("Enter runs a whole command as typed; only an unfinished word takes the highlighted completion", () => {
  const picks = (line) => c.enterPicks(line, c.slashItems(line, ctx));
  for (const line of ["/provider", "/skill   ", "/skill", "/Help", "/skill tasks", "/model other"]) assert.equal(picks(line), false, line);
  for (const line of ["/pro", "/", "/sk", "/skill t", "/provider g"]) assert.equal(picks(line), true, line);
  assert.equal(c.enterPicks("/zz", []), false); // nothing offered: the line runs (an unknown command's error)
  assert.equal(c.enterPicks("hello", null), false);
});
