// assistant/state.js: the panel's reducer over the SSE events and the person's actions, and its rules.
import { test } from "node:test";
import assert from "node:assert/strict";

const s = await import("../../../frontend/src/assistant/state.js");

const run = (state, ...actions) => actions.reduce(s.reduce, state);
const ev = (name, data) => ({ type: "event", name, data });

test("a streamed agent turn: steps by id, text in paragraphs per model turn, posts, the conversation id", () => {
  const before = s.initialState();
  const after = run(before, { type: "start" },
    ev("delta", { text: "Let me " }), ev("delta", { text: "look." }),
    ev("tool", { id: "r", status: "running", label: "Reading Ideas.md", risk: "read" }),
    ev("tool", { id: "r", status: "ok", label: "Read Ideas.md", summary: "12 lines", risk: "read" }),
    ev("delta", { text: "Done." }),
    ev("notice", { message: "slow" }),
    ev("confirmation", { run_id: "x", actions: [] }),
    ev("done", { conversation_id: "c1" }),
    { type: "end" });
  assert.equal(before.turn, null); // never changed in place
  assert.equal(after.turn.text, "Let me look.\n\nDone.");
  assert.deepEqual(after.turn.steps, [{ id: "r", status: "ok", label: "Read Ideas.md", summary: "12 lines", risk: "read", state: "done" }]);
  assert.equal(after.turn.wrote, false); // reads only: the vault did not change
  assert.equal(after.turn.ended, true);
  assert.equal(after.streaming, false);
  assert.deepEqual(after.posts.map((p) => p.kind), ["notice", "confirmation"]);
  assert.equal(after.conversationId, "c1");
  assert.equal(s.stepsSummary(after.turn, (k, v) => `${k} ${v.n}`), "assistant.steps.one 1 · Read Ideas.md");
  assert.equal(run(after, ev("done", {})).conversationId, "c1"); // a done without an id keeps the open one
});

test("a step's parts (a result's image, PDF, file) come with its tool event, by URL, and a restored step keeps them", () => {
  const image = { kind: "image", mime_type: "image/png", name: "a.png", size: 9, width: 3, height: 2, url: "/api/ai/conversations/c/images/x" };
  const after = run(s.initialState(), { type: "start" },
    ev("tool", { id: "r", status: "running", label: "Reading a.png", risk: "read" }),
    ev("tool", { id: "r", status: "ok", label: "Read a.png", risk: "read", parts: [image] }));
  assert.deepEqual(after.turn.steps[0].parts, [image]);
  assert.deepEqual(s.restoredTurn([{ id: "r", status: "ok", label: "Read a.png", parts: [image] }]).steps[0].parts, [image]);
});

test("the vault changed when a step that is not a read ends ok (the server's risk, no list of tools)", () => {
  const start = run(s.initialState(), { type: "start", written: ["Buoy.md"] });
  const wrote = (risk, status = "ok") => run(start, ev("tool", { id: "w", status, label: "x", risk })).turn.wrote;
  assert.equal(wrote("write"), true);
  assert.equal(wrote("dangerous"), true);
  assert.equal(wrote("read"), false);
  assert.equal(wrote("write", "pending_confirmation"), false);
  assert.equal(wrote("write", "error"), false);
  assert.deepEqual(start.turn.written, ["Buoy.md"]);
  const message = run(start, ev("message", { content: "Final [[Buoy]]" }), ev("unknown_event", {}), { type: "stopped" });
  assert.equal(message.turn.final, "Final [[Buoy]]");
  assert.deepEqual(message.posts, [{ kind: "stopped", data: null }]);
});

test("a resumed run continues the same turn: steps and text kept, one cumulative count, a new paragraph", () => {
  const paused = run(s.initialState(), { type: "start" },
    ev("delta", { text: "Reading." }),
    ev("tool", { id: "r", status: "ok", label: "File read: a.md", risk: "read", state: "done" }),
    ev("tool", { id: "d", status: "pending_confirmation", label: "Delete file: a.md", risk: "dangerous", state: "proposed" }),
    ev("confirmation", { run_id: "x", actions: [] }), { type: "end" });
  const resumed = run(paused, { type: "start", resume: true, written: ["a.md"] },
    ev("tool", { id: "d", status: "error", label: "Delete file: a.md — rejected", risk: "dangerous", state: "rejected", summary: "rejected" }),
    ev("tool", { id: "w", status: "ok", label: "File created: b.md", risk: "write", state: "applied" }),
    ev("delta", { text: "Kept it." }), ev("message", { content: "Kept it." }), { type: "end" });
  assert.deepEqual(resumed.turn.steps.map((x) => [x.id, x.state]), [["r", "done"], ["d", "rejected"], ["w", "applied"]]);
  assert.equal(s.stepsSummary(resumed.turn, (k, v) => `${v.n} steps`), "3 steps · File read: a.md");
  assert.equal(s.answerText(resumed.turn), "Reading.\n\nKept it.");
  assert.deepEqual(resumed.turn.written, ["a.md"]);
  assert.equal(resumed.turn.applied, 1); // the rejected delete is no change
  // without `resume` (a new question) the turn starts afresh
  assert.deepEqual(run(paused, { type: "start" }).turn.steps, []);
});

test("each applied change counts once (the view refreshes the tree each time the count grows)", () => {
  const start = run(s.initialState(), { type: "start" });
  const a = run(start, ev("tool", { id: "w", status: "running", label: "x", risk: "write", state: "running" }));
  assert.equal(a.turn.applied, 0);
  const b = run(a, ev("tool", { id: "w", status: "ok", label: "x", risk: "write", state: "applied" }));
  assert.equal(b.turn.applied, 1);
  assert.equal(run(b, ev("tool", { id: "w", status: "ok", label: "x", risk: "write", state: "applied" })).turn.applied, 1);
  const c = run(b, ev("tool", { id: "v", status: "ok", label: "y", risk: "dangerous" }));
  assert.equal(c.turn.applied, 2);
  assert.equal(c.turn.steps[1].state, "applied"); // an older server's event: the state guessed from status and risk
});

test("a reopened conversation's last request becomes the open turn a resume continues", () => {
  const restored = s.restoredTurn([{ id: "d", status: "pending_confirmation", label: "Delete file: a.md", risk: "dangerous", state: "proposed" }], "Before.");
  assert.equal(restored.ended, true);
  const st = run(s.initialState(), { type: "restore", turn: restored }, { type: "start", resume: true },
    ev("tool", { id: "d", status: "ok", label: "File deleted: a.md", risk: "dangerous", state: "applied" }), ev("delta", { text: "Done." }));
  assert.deepEqual(st.turn.steps.map((x) => x.label), ["File deleted: a.md"]);
  assert.equal(st.turn.text, "Before.\n\nDone.");
  assert.equal(st.turn.applied, 1);
  assert.equal(s.answerText({ text: "", final: "F" }), "F");
});

test("chips once each, removed by identity; the agent switch; conversations", () => {
  const chip = { vault: "notes", kind: "file", path: "a.md", title: "A" };
  let st = run(s.initialState(), { type: "chip", chip }, { type: "chip", chip: { ...chip } });
  assert.deepEqual(st.chips, [{ vault: "notes", kind: "file", path: "a.md" }]);
  st = run(st, { type: "unchip", chip: st.chips[0] }, { type: "agent", on: false }, { type: "conversation", id: "c9" });
  assert.deepEqual(st.chips, []);
  assert.equal(st.agent, false);
  assert.equal(st.conversationId, "c9");
  assert.equal(run(st, { type: "conversation", id: null }).conversationId, null);
  assert.throws(() => s.reduce(st, { type: "nope" }));
});

test("a request's context from the mode and the chips of the current vault", () => {
  const chips = [
    { vault: "notes", kind: "file", path: "a.md" }, { vault: "notes", kind: "folder", path: "P" },
    { vault: "other", kind: "file", path: "z.md" },
  ];
  const ctx = { vault: "notes", directory: "Projects", files: ["Projects/b.md"] };
  assert.deepEqual(s.contextFields("mentions", chips, ctx), { mode: "files", files: ["a.md"], extra_directories: ["P"] });
  assert.deepEqual(s.contextFields("mentions", chips.slice(1), ctx), { mode: "directory", directory: "P", extra_directories: [] });
  assert.deepEqual(s.contextFields("mentions", [], ctx), { mode: "general" });
  assert.deepEqual(s.contextFields("files", chips, ctx), { mode: "files", files: ["Projects/b.md"], extra_files: ["a.md"], extra_directories: ["P"] });
  assert.deepEqual(s.contextFields("files", [], { vault: "notes" }), { mode: "general", extra_files: [], extra_directories: [] });
  assert.deepEqual(s.contextFields("directory", [], ctx), { mode: "directory", directory: "Projects", extra_files: [], extra_directories: [] });
  assert.deepEqual(s.contextFields("general", [], ctx), { mode: "general", extra_files: [], extra_directories: [] });
});

test("@-mentions: the words at the caret, folders before files, diff line kinds", () => {
  assert.deepEqual(s.mentionAt("see @proj pla", 9), { start: 4, query: "proj" });
  assert.deepEqual(s.mentionAt("@", 1), { start: 0, query: "" });
  assert.equal(s.mentionAt("mail a@b", 8), null);
  const hits = [{ path: "Projects/Plans/a.md", title: "A" }, { path: "Projects/b.md", title: "B" }];
  assert.deepEqual(s.mentionItems(hits, "proj").map((i) => `${i.kind}:${i.path}`),
    ["folder:Projects", "file:Projects/Plans/a.md", "file:Projects/b.md"]);
  assert.deepEqual(s.foldersOf(hits, "plans").map((f) => f.title), ["Plans"]);
  assert.deepEqual(["+++ b/x", "+a", "--- a/x", "-b", "@@ -1 +1 @@", " c"].map(s.diffKind), ["ctx", "add", "ctx", "del", "hunk", "ctx"]);
});

test("the steps fold counts in the singular for one step, in English and in French", async () => {
  const load = async (name) => (await import(`../../../frontend/src/i18n/${name}.json`)).default;
  for (const [lang, one, three] of [["en", "1 step · a", "3 steps · a"], ["fr", "1 étape · a", "3 étapes · a"]]) {
    const catalog = { ...(await load(lang)), ...(await load(`assistant.${lang}`)) }; // as i18n.js merges them
    const t = (key, vars) => catalog[key].replace(/\{(\w+)\}/g, (m, k) => String(vars[k]));
    const turn = (n) => ({ steps: Array.from({ length: n }, () => ({ label: "a" })) });
    assert.equal(s.stepsSummary(turn(1), t), one, lang);
    assert.equal(s.stepsSummary(turn(3), t), three, lang);
  }
});
