// The assistant panel (issue 11 item 9) over the assistant's SSE API (docs/assistant.md): chat / agent
// toggle, context mode, provider and model with capability badges, tokens as they stream, tool steps folded
// into "N steps", one confirmation card with ONE "Approve all (N)" and a Reject, Stop, conversations.
// Server text is only ever inserted as text nodes; answers go through the app's `render` (DOMPurify).

import { postEvents } from "./sse.js";

const WRITES = new Set(["create_file", "create_directory", "edit_file", "append_to_file", "restore_backup", "rename_file",
  "rename_directory", "move_path", "replace_in_files", "delete_file", "delete_directory"]);
const STATUS_ICON = { running: "…", ok: "✓", error: "✕", deferred: "⏸", pending_confirmation: "?" };

/** Build an element: `h("button", {class: "x", onclick}, "text", child)`; strings become text nodes. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A unified diff as lines with +/- classes (text only). */
function diffView(diff) {
  const pre = h("pre", { class: "diff", tabindex: "0" });
  for (const line of (diff || "").split("\n")) {
    const kind = line.startsWith("+") && !line.startsWith("+++") ? "add"
      : line.startsWith("-") && !line.startsWith("---") ? "del"
      : line.startsWith("@@") ? "hunk" : "ctx";
    pre.append(h("span", { class: `diff-${kind}` }, line), "\n");
  }
  return pre;
}

/**
 * Mount the panel in `root`.
 * options: `t(key, vars)` (the app's catalog), `render(markdown) -> Node` (sanitised), `context()` ->
 * `{vault, directory, files}` (what "this folder / these files" mean now), `onWrite(paths)` (refresh the
 * tree and the open note), `onError(err)` (show an API error), `language()` ("fr"/"en").
 */
export function mountAssistant(root, options) {
  const { t, render, context, onWrite, onError, language } = options;
  const state = { agent: true, conversationId: null, controller: null, models: null };

  const agentToggle = h("input", { type: "checkbox", role: "switch", checked: true, id: "as-agent",
    onchange: (e) => { state.agent = e.target.checked; } });
  const mode = h("select", { "aria-label": t("assistant.mode") },
    h("option", { value: "directory" }, t("assistant.mode.directory")),
    h("option", { value: "files" }, t("assistant.mode.files")),
    h("option", { value: "general" }, t("assistant.mode.general")));
  const provider = h("select", { "aria-label": t("assistant.provider"), onchange: () => fillModels() });
  const model = h("select", { "aria-label": t("assistant.model"), onchange: () => showBadges() });
  const badges = h("span", { class: "badges", "aria-live": "polite" });
  const log = h("div", { class: "assistant-log", role: "log", "aria-live": "polite" });
  const input = h("textarea", { rows: "3", "aria-label": t("assistant.input"), placeholder: t("assistant.placeholder") });
  const send = h("button", { type: "submit", class: "primary" }, t("assistant.send"));
  const list = h("ul", { class: "conversations", hidden: true, "aria-label": t("assistant.conversations") });
  const form = h("form", { class: "assistant-input", onsubmit: (e) => { e.preventDefault(); state.controller ? stop() : ask(); } },
    input, send);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
  });

  root.replaceChildren(h("section", { class: "assistant", "aria-label": t("assistant.title") },
    h("div", { class: "assistant-bar" },
      h("label", { for: "as-agent", class: "switch" }, agentToggle, " ", t("assistant.agent")),
      mode, provider, model, badges,
      h("button", { type: "button", onclick: () => toggleConversations(), "aria-expanded": "false" }, t("assistant.history")),
      h("button", { type: "button", onclick: () => newConversation() }, t("assistant.new"))),
    list, log, form));

  async function json(url, init) {
    const r = await fetch(url, init);
    const body = r.status === 204 ? null : await r.json();
    if (!r.ok) { const err = new Error(body?.message || `HTTP ${r.status}`); err.status = r.status; err.body = body; throw err; }
    return body;
  }

  async function loadModels() {
    try {
      state.models = await json("/api/config/ai-models");
      provider.replaceChildren(...state.models.providers.map((p) =>
        h("option", { value: p.name, selected: p.name === state.models.default_provider },
          p.configured ? p.label : `${p.label} (${t("assistant.not_configured")})`)));
      fillModels();
    } catch (err) { onError(err); }
  }

  function fillModels() {
    const p = state.models?.providers.find((x) => x.name === provider.value);
    if (!p) return;
    model.replaceChildren(...p.models.map((m) => h("option", { value: m.name, selected: m.name === p.default_model }, m.name)));
    showBadges();
  }

  function showBadges() {
    const p = state.models?.providers.find((x) => x.name === provider.value);
    const m = p?.models.find((x) => x.name === model.value);
    badges.replaceChildren(...Object.entries(m?.capabilities || {}).filter(([, on]) => on)
      .map(([flag]) => h("span", { class: "badge", title: t(`capability.${flag}`) }, t(`capability.${flag}`))));
  }

  function newConversation() {
    state.conversationId = null;
    log.replaceChildren();
  }

  async function toggleConversations() {
    list.hidden = !list.hidden;
    if (list.hidden) return;
    try {
      const { conversations } = await json("/api/ai/conversations");
      list.replaceChildren(...conversations.map((c) => h("li", {},
        h("button", { type: "button", class: "link", onclick: () => openConversation(c.id) }, c.title),
        h("button", { type: "button", class: "icon", "aria-label": t("assistant.delete", { title: c.title }),
          onclick: async () => { await json(`/api/ai/conversations/${encodeURIComponent(c.id)}`, { method: "DELETE" }).catch(onError); toggleConversations(); toggleConversations(); } }, "✕"))));
      if (!conversations.length) list.append(h("li", { class: "muted" }, t("assistant.no_conversations")));
    } catch (err) { onError(err); }
  }

  async function openConversation(id) {
    try {
      const conv = await json(`/api/ai/conversations/${encodeURIComponent(id)}`);
      state.conversationId = id;
      list.hidden = true;
      log.replaceChildren();
      for (const m of conv.messages) {
        if (m.role === "user") log.append(h("div", { class: "msg user" }, m.content));
        else if (m.role === "assistant" && m.content) log.append(answerBlock(m.content));
      }
    } catch (err) { onError(err); }
  }

  function answerBlock(text) {
    const el = h("div", { class: "msg assistant" });
    el.append(render ? render(text) : document.createTextNode(text));
    return el;
  }

  /** One request's view: the steps fold, the streamed answer, a confirmation card. */
  function turnView() {
    const steps = h("ul", { class: "steps" });
    const summary = h("summary", {});
    const fold = h("details", { class: "steps-fold", hidden: true }, summary, steps);
    const answer = h("div", { class: "msg assistant streaming" });
    const view = h("div", { class: "turn" }, fold, answer);
    const rows = new Map();
    let text = "";
    let stepped = false; // tool steps since the last text: the next text is a new model turn, a new paragraph
    return {
      view,
      tool(ev) {
        let row = rows.get(ev.id);
        if (!row) {
          row = h("li", {});
          rows.set(ev.id, row);
          steps.append(row);
        }
        row.className = `step step-${ev.status}`;
        row.replaceChildren(h("span", { class: "step-icon", "aria-label": t(`step.${ev.status}`) }, STATUS_ICON[ev.status] || "·"),
          " ", ev.label, ev.summary ? h("span", { class: "muted" }, ` — ${ev.summary}`) : null);
        fold.hidden = false;
        stepped = true;
        const first = rows.values().next().value;
        summary.textContent = `${t("assistant.steps", { n: rows.size })} · ${first?.childNodes[2]?.textContent || ""}`;
      },
      delta(chunk) {
        if (stepped && text) text += "\n\n";
        stepped = false;
        text += chunk;
        answer.textContent = text;
      },
      final(content) { answer.classList.remove("streaming"); answer.replaceChildren(render ? render(content) : content); },
      end() { answer.classList.remove("streaming"); if (!text) answer.remove(); },
    };
  }

  function confirmationCard(ev, turn) {
    const n = ev.actions.length;
    const approve = h("button", { type: "button", class: "primary" }, t("assistant.approve_all", { n }));
    const reject = h("button", { type: "button" }, t("assistant.reject"));
    const card = h("div", { class: "confirm-card", role: "group", "aria-label": t("assistant.confirm_title") },
      h("h3", {}, t("assistant.confirm_title")),
      h("ol", {}, ...ev.actions.map((a) => h("li", {},
        h("div", { class: "action-label" }, a.label), h("div", { class: "muted" }, a.paths.join(", ")),
        h("details", { open: n <= 3 }, h("summary", {}, t("assistant.diff")), diffView(a.diff))))),
      h("div", { class: "actions" }, approve, reject));
    const answer = (yes) => {
      approve.disabled = reject.disabled = true;
      card.classList.add(yes ? "approved" : "rejected");
      log.append(turn.view);
      stream("/api/ai/bookslm/agent", { run_id: ev.run_id, confirm_all: yes }, turn, ev.actions.flatMap((a) => a.paths));
    };
    approve.addEventListener("click", () => answer(true));
    reject.addEventListener("click", () => answer(false));
    return card;
  }

  async function stream(url, body, turn, written = []) {
    const controller = new AbortController();
    state.controller = controller;
    send.textContent = t("assistant.stop");
    send.classList.add("danger");
    let wrote = false;
    try {
      await postEvents(url, body, (name, data) => {
        if (name === "delta") turn.delta(data.text);
        else if (name === "tool") { turn.tool(data); if (data.status === "ok" && WRITES.has(data.name)) wrote = true; }
        else if (name === "message") turn.final(data.content);
        else if (name === "notice") log.append(h("div", { class: "notice", role: "status" }, data.message));
        else if (name === "confirmation") log.append(confirmationCard(data, turnView()));
        else if (name === "error") log.append(h("div", { class: "error", role: "alert" }, `${data.code}: ${data.message}`));
        else if (name === "done") state.conversationId = data.conversation_id || state.conversationId;
        log.scrollTop = log.scrollHeight;
      }, controller.signal);
    } catch (err) {
      if (err.name === "AbortError") log.append(h("div", { class: "notice" }, t("assistant.stopped")));
      else onError(err);
    } finally {
      turn.end();
      state.controller = null;
      send.textContent = t("assistant.send");
      send.classList.remove("danger");
      if (wrote && onWrite) onWrite(written);
    }
  }

  function stop() {
    state.controller?.abort();
  }

  function ask() {
    const message = input.value.trim();
    if (!message) return;
    input.value = "";
    log.append(h("div", { class: "msg user" }, message));
    const ctx = context() || {};
    const mentions = [...message.matchAll(/@([^\s@]+)/g)].map((m) => m[1]);
    const body = {
      message, mode: mode.value, language: language(),
      vault: ctx.vault || undefined,
      directory: mode.value === "directory" ? ctx.directory || "" : undefined,
      files: mode.value === "files" ? ctx.files || [] : undefined,
      extra_files: mentions.filter((p) => /\.[a-z0-9]+$/i.test(p)),
      extra_directories: mentions.filter((p) => !/\.[a-z0-9]+$/i.test(p)),
      provider: provider.value || undefined,
      model: model.value || undefined,
      conversation_id: state.conversationId || undefined,
    };
    const turn = turnView();
    log.append(turn.view);
    stream(state.agent ? "/api/ai/bookslm/agent" : "/api/ai/bookslm/chat", body, turn);
  }

  loadModels();
  return { newConversation, openConversation };
}
