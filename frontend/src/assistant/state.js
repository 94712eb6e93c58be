// The assistant panel's state, apart from its view (panel.js): a reducer over the assistant's SSE events
// (docs/assistant.md) and the person's actions, and the pure rules the panel follows (what a request's context
// is, which folders an @-completion offers, how a diff line is coloured). No DOM: covered by `node --test`.

/** A step's icon by status. */
export const STATUS_ICON = { running: "…", ok: "✓", error: "✕", deferred: "⏸", pending_confirmation: "?" };

/** The panel when it opens: agent mode, no conversation, nothing streaming, no chips. */
export function initialState() {
  return { agent: true, conversationId: null, streaming: false, chips: [], turn: null, posts: [] };
}

/**
 * One request's answer as it streams: `steps` ({id, status, label, summary, risk, state, parts}, in first-seen
 * order; `parts`: the result's images, PDFs and files, each `{kind, mime_type, name, size, width?, height?, url?,
 * file_id?, note?}`, never their bytes),
 * `text` (the deltas, a blank line between model turns), `final` (the answer's last full text, or null),
 * `wrote` (an ok step that may have changed the vault), `applied` (how many changes were applied so far: the
 * view refreshes the tree and the open note each time it grows), `written` (the paths a resumed confirmation
 * names).
 */
export function newTurn(written = []) {
  return { steps: [], text: "", stepped: false, final: null, ended: false, wrote: false, applied: 0, written };
}

/**
 * A request as a reopened conversation shows it (the server's `steps` of that request and its answer text):
 * an ended turn a resume continues.
 */
export function restoredTurn(steps = [], text = "") {
  const rows = steps.map((ev) => row(ev));
  return { ...newTurn(), steps: rows, text, stepped: rows.length > 0, ended: true };
}

/** The answer text to show: the streamed text, or the final message when nothing streamed. */
export function answerText(turn) {
  return turn.text || turn.final || "";
}

/**
 * The next state after `action` (the state is never changed in place). Actions:
 * - {type: "agent", on}: the chat/agent switch;
 * - {type: "conversation", id}: a conversation opened, or none (null: a new one);
 * - {type: "chip", chip} / {type: "unchip", chip}: an @-mention chosen ({vault, kind, path}, once) / removed;
 * - {type: "start", written, resume}: a request starts streaming (`written`: the paths of the proposals it
 *   approves; `resume`: it continues the open turn, whose steps and text it keeps: one message, one count);
 * - {type: "restore", turn}: a reopened conversation's last request (restoredTurn) becomes the open turn;
 * - {type: "event", name, data}: one SSE event of that request;
 * - {type: "stopped"}: the person pressed Stop; {type: "end"}: the stream is over (done, failed or stopped).
 * `posts` collects what the stream adds to the log besides the turn ({kind: "notice"|"error"|"confirmation"|
 * "stopped", data}), in order; the view draws the ones it has not drawn yet.
 */
export function reduce(state, action) {
  switch (action.type) {
    case "agent": return { ...state, agent: Boolean(action.on) };
    case "conversation": return { ...state, conversationId: action.id || null };
    case "chip": {
      const c = action.chip;
      if (state.chips.some((x) => x.vault === c.vault && x.path === c.path)) return state;
      return { ...state, chips: [...state.chips, { vault: c.vault, kind: c.kind, path: c.path }] };
    }
    case "unchip": return { ...state, chips: state.chips.filter((x) => x !== action.chip) };
    case "start": return { ...state, streaming: true, turn: started(state.turn, action) };
    case "restore": return { ...state, turn: action.turn };
    case "event": return onEvent(state, action.name, action.data || {});
    case "stopped": return post(state, "stopped", null);
    case "end": return { ...state, streaming: false, turn: state.turn && { ...state.turn, ended: true } };
    default: throw new Error(`unknown action ${action.type}`);
  }
}

/** A resume continues the open turn (its steps, its text: the next text is a new paragraph); else a new one. */
function started(turn, { written = [], resume = false }) {
  if (!resume || !turn) return newTurn(written);
  return { ...turn, ended: false, final: null, stepped: turn.stepped || turn.steps.length > 0, written };
}

const post = (state, kind, data) => ({ ...state, posts: [...state.posts, { kind, data }] });

function onEvent(state, name, data) {
  const turn = state.turn || newTurn();
  switch (name) {
    case "delta": {
      // tool steps since the last text: the next text is a new model turn, a new paragraph
      const text = (turn.stepped && turn.text ? `${turn.text}\n\n` : turn.text) + data.text;
      return { ...state, turn: { ...turn, text, stepped: false } };
    }
    case "tool": return { ...state, turn: step(turn, data) };
    case "message": return { ...state, turn: { ...turn, final: data.content } };
    case "notice": case "error": case "confirmation": return post(state, name, data);
    // the request's conversation: first (a Stop before `done` still leaves it open), then again with `done`
    case "conversation": case "done": return { ...state, conversationId: data.conversation_id || state.conversationId };
    default: return state; // an event this version does not know is not an error
  }
}

/** A step's row from a `tool` event (or a restored step): `state` is the server's, or guessed from the status. */
function row(ev) {
  const state = ev.state || (ev.status === "ok" ? (ev.risk && ev.risk !== "read" ? "applied" : "done") : ev.status);
  const parts = Array.isArray(ev.parts) && ev.parts.length ? { parts: ev.parts } : {};
  return { id: ev.id, status: ev.status, label: ev.label, summary: ev.summary || null, risk: ev.risk ?? null, state, ...parts };
}

/** Whether a step is an applied change: it ended ok and its tool is not a read (the server's risk). */
const isApplied = (s) => s.status === "ok" && s.risk !== "read" && s.state !== "done";

/**
 * A `tool` event: its row added or updated in place; a step that becomes an applied change changed the vault
 * (`wrote`) and counts once in `applied`.
 */
function step(turn, ev) {
  const next = row(ev);
  const at = turn.steps.findIndex((s) => s.id === ev.id);
  const steps = at < 0 ? [...turn.steps, next] : turn.steps.map((s, i) => (i === at ? next : s));
  const fresh = isApplied(next) && !(at >= 0 && isApplied(turn.steps[at]));
  return { ...turn, steps, stepped: true, wrote: turn.wrote || fresh, applied: turn.applied + (fresh ? 1 : 0) };
}

/** The folded steps' summary: "3 steps · <the first step's label>" ("1 step": the catalog's `assistant.steps.one`). */
export function stepsSummary(turn, t) {
  const n = turn.steps.length;
  return `${t(n === 1 ? "assistant.steps.one" : "assistant.steps", { n })} · ${turn.steps[0]?.label || ""}`;
}

/**
 * The request's context fields from the mode (`mode`: "directory" | "files" | "mentions" | "general"), the
 * chips (only those of `ctx.vault`) and `ctx` ({vault, directory, files}: what "this folder / this note" mean
 * now). Chips become "these files" in mentions mode, extra files and folders in any other.
 */
export function contextFields(mode, chips, ctx) {
  const chosen = chips.filter((c) => c.vault === ctx.vault);
  const files = chosen.filter((c) => c.kind === "file").map((c) => c.path);
  const folders = chosen.filter((c) => c.kind === "folder").map((c) => c.path);
  const extras = { extra_files: files, extra_directories: folders };
  if (mode === "mentions") {
    if (files.length) return { mode: "files", files, extra_directories: folders };
    if (folders.length) return { mode: "directory", directory: folders[0], extra_directories: folders.slice(1) };
    return { mode: "general" };
  }
  if (mode === "files") return ctx.files?.length ? { mode: "files", files: ctx.files, ...extras } : { mode: "general", ...extras };
  if (mode === "directory") return { mode: "directory", directory: ctx.directory || "", ...extras };
  return { mode: "general", ...extras };
}

/** The "@words" being typed before the caret (`value` up to `caret`): {start, query}, or null. */
export function mentionAt(value, caret) {
  const upto = value.slice(0, caret);
  const m = /(?:^|\s)@([^\s@]*)$/.exec(upto);
  return m ? { start: upto.length - m[1].length - 1, query: m[1] } : null;
}

/** Folders whose own name holds every typed word, among the folders of the matching files (at most 5). */
export function foldersOf(hits, query) {
  const words = query.toLowerCase().split(/[\s/]+/).filter(Boolean);
  const found = new Set();
  for (const hit of hits) {
    const parts = hit.path.split("/").slice(0, -1);
    parts.forEach((name, i) => {
      if (words.every((w) => name.toLowerCase().includes(w))) found.add(parts.slice(0, i + 1).join("/"));
    });
  }
  return [...found].slice(0, 5).map((path) => ({ kind: "folder", path, title: path.split("/").pop() }));
}

/** The @-completion's items: matching folders first, then files, at most 12. */
export function mentionItems(hits, query) {
  const files = hits.map((hit) => ({ kind: "file", path: hit.path, title: hit.title }));
  return [...foldersOf(hits, query), ...files].slice(0, 12);
}

/** A unified diff line's kind: "add", "del", "hunk" or "ctx" (the file headers are context). */
export function diffKind(line) {
  if (line.startsWith("+") && !line.startsWith("+++")) return "add";
  if (line.startsWith("-") && !line.startsWith("---")) return "del";
  return line.startsWith("@@") ? "hunk" : "ctx";
}
