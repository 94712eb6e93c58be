// The assistant panel (issue 11 item 9) over the assistant's SSE API (docs/assistant.md): chat / agent
// toggle, context mode (this folder, this note, these files picked with @, general), provider and model with
// capability badges, tokens as they stream, tool steps folded into "N steps", one confirmation card with ONE
// "Approve all (N)" and a Reject, Stop, and the conversation list (resume, delete, new).
// Server text is only ever inserted as text nodes; answers go through the app's `render` (DOMPurify).

import { confirmDialog } from "../dialog.js";
import { icon } from "../dom.js";
import { postEvents } from "./sse.js";

const CURRENT = "obsigate.assistant.conversation"; // this tab's open conversation, reopened after a reload
const session = {
  get() { try { return sessionStorage.getItem(CURRENT); } catch { return null; } },
  set(id) { try { if (id) sessionStorage.setItem(CURRENT, id); else sessionStorage.removeItem(CURRENT); } catch { /* storage off */ } },
};

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
  const state = { agent: true, conversationId: null, controller: null, models: null, chips: [] };

  const agentToggle = h("input", { type: "checkbox", role: "switch", checked: true, id: "as-agent",
    onchange: (e) => { state.agent = e.target.checked; } });
  const mentionsMode = h("option", { value: "mentions", disabled: true }, t("assistant.mode.mentions"));
  const mode = h("select", { "aria-label": t("assistant.mode"), id: "as-mode" },
    h("option", { value: "directory" }, t("assistant.mode.directory")),
    h("option", { value: "files" }, t("assistant.mode.files")),
    mentionsMode,
    h("option", { value: "general" }, t("assistant.mode.general")));
  const provider = h("select", { "aria-label": t("assistant.provider"), onchange: () => fillModels() });
  const model = h("select", { "aria-label": t("assistant.model"), onchange: () => showBadges() });
  const badges = h("span", { class: "badges", "aria-live": "polite" });
  const log = h("div", { class: "assistant-log", role: "log", "aria-live": "polite" });
  const input = h("textarea", { rows: "3", "aria-label": t("assistant.input"), placeholder: t("assistant.placeholder"),
    "aria-autocomplete": "list", "aria-haspopup": "listbox", "aria-controls": "as-mentions" });
  const send = h("button", { type: "submit", class: "primary" }, t("assistant.send"));
  const historyBtn = h("button", { type: "button", id: "as-history", "aria-expanded": "false", "aria-controls": "as-conversations",
    onclick: () => toggleConversations() }, t("assistant.history"));
  const list = h("ul", { class: "conversation-list", "aria-label": t("assistant.conversations") });
  const conversations = h("section", { class: "conversations", id: "as-conversations", hidden: true, "aria-label": t("assistant.conversations") }, list);
  const chips = h("ul", { class: "mention-chips", hidden: true, "aria-label": t("assistant.mention.chosen") });
  const menu = h("ul", { class: "mention-menu", id: "as-mentions", role: "listbox", hidden: true, "aria-label": t("assistant.mention.list") });
  const form = h("form", { class: "assistant-input", onsubmit: (e) => { e.preventDefault(); state.controller ? stop() : ask(); } },
    menu, chips, h("div", { class: "assistant-compose" }, input, send));
  input.addEventListener("keydown", (e) => {
    if (mentionKey(e)) return;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
  });
  input.addEventListener("input", () => mentionInput());
  input.addEventListener("click", () => mentionInput());
  input.addEventListener("focus", () => mentionInput());
  input.addEventListener("blur", () => setTimeout(closeMenu, 150)); // a click on an option lands first

  root.replaceChildren(h("section", { class: "assistant", "aria-label": t("assistant.title") },
    h("div", { class: "assistant-bar" },
      h("label", { for: "as-agent", class: "switch" }, agentToggle, " ", t("assistant.agent")),
      mode, provider, model, badges,
      historyBtn,
      h("button", { type: "button", id: "as-new", "aria-label": t("assistant.newConversation"), title: t("assistant.newConversation"),
        onclick: () => { newConversation(); input.focus(); } }, t("assistant.new"))),
    conversations, log, form));

  async function json(url, init) {
    const r = await fetch(url, init);
    const body = r.status === 204 ? null : await r.json();
    if (!r.ok) { const err = new Error(body?.message || `HTTP ${r.status}`); err.status = r.status; err.body = body; throw err; }
    return body;
  }
  const conversationUrl = (id) => `/api/ai/conversations/${encodeURIComponent(id)}`;

  async function loadModels() {
    try {
      state.models = await json("/api/config/ai-models");
      provider.replaceChildren(...state.models.providers.map((p) =>
        h("option", { value: p.name, selected: p.name === state.models.default_provider },
          p.configured ? p.label : `${p.label} (${t("assistant.not_configured")})`)));
      fillModels();
    } catch (err) { onError(err); }
  }

  function fillModels(wanted) {
    const p = state.models?.providers.find((x) => x.name === provider.value);
    if (!p) return;
    const names = p.models.map((m) => m.name);
    if (wanted && !names.includes(wanted)) names.push(wanted); // a resumed conversation's model, even if not listed
    model.replaceChildren(...names.map((name) => h("option", { value: name, selected: name === (wanted || p.default_model) }, name)));
    showBadges();
  }

  function showBadges() {
    const p = state.models?.providers.find((x) => x.name === provider.value);
    const m = p?.models.find((x) => x.name === model.value);
    badges.replaceChildren(...Object.entries(m?.capabilities || {}).filter(([, on]) => on)
      .map(([flag]) => h("span", { class: "badge", title: t(`capability.${flag}`) }, t(`capability.${flag}`))));
  }

  // ---- conversations: list, resume, delete, new ------------------------------------------------------

  function setConversation(id) {
    state.conversationId = id;
    session.set(id);
    for (const b of list.querySelectorAll("button.conv-open")) {
      if (b.dataset.id === id) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  }

  function newConversation() {
    setConversation(null);
    log.replaceChildren();
  }

  async function toggleConversations(open = conversations.hidden) {
    conversations.hidden = !open;
    historyBtn.setAttribute("aria-expanded", String(open));
    if (open) await listConversations();
  }

  async function listConversations() {
    let data;
    try { data = await json("/api/ai/conversations?limit=100"); } catch (err) { onError(err); return; }
    const when = (s) => new Date(s * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
    list.replaceChildren(...data.conversations.map((c) => h("li", { class: "conversation" },
      h("button", { type: "button", class: "conv-open", "data-id": c.id, "aria-current": c.id === state.conversationId ? "true" : null,
        onclick: () => openConversation(c.id) },
        h("span", { class: "conv-title" }, c.title || c.id),
        h("span", { class: "conv-meta muted" }, `${when(c.updated)} · ${t("assistant.messages", { n: c.messages })}`)),
      h("button", { type: "button", class: "icon conv-delete", "aria-label": t("assistant.delete", { title: c.title }),
        title: t("assistant.delete", { title: c.title }), onclick: () => deleteConversation(c) }, "✕"))));
    if (!data.conversations.length) list.append(h("li", { class: "muted" }, t("assistant.no_conversations")));
  }

  async function deleteConversation(c) {
    const ok = await confirmDialog({ title: t("assistant.deleteTitle"), message: t("assistant.deleteMessage", { title: c.title }), ok: t("assistant.deleteOk") });
    if (!ok) return;
    try { await json(conversationUrl(c.id), { method: "DELETE", headers: { "Content-Type": "application/json" } }); } catch (err) { onError(err); return; }
    if (c.id === state.conversationId) newConversation();
    await listConversations();
  }

  /** Show a conversation's messages; the next message continues it. `quiet`: a stale id is only forgotten. */
  async function openConversation(id, { quiet = false } = {}) {
    let conv;
    try { conv = await json(conversationUrl(id)); } catch (err) {
      if (err.status === 404) session.set(null);
      if (!quiet) onError(err);
      return;
    }
    setConversation(id);
    toggleConversations(false);
    log.replaceChildren();
    for (const m of conv.messages) {
      const text = typeof m.content === "string" ? m.content : "";
      if (m.role === "user") log.append(h("div", { class: "msg user" }, text));
      else if (m.role === "assistant" && text) log.append(answerBlock(text));
    }
    if (conv.provider && [...provider.options].some((o) => o.value === conv.provider)) {
      provider.value = conv.provider;
      fillModels(conv.model);
    }
    log.scrollTop = log.scrollHeight;
    if (!quiet) input.focus();
  }

  // ---- @-mentions: notes and folders as chips --------------------------------------------------------

  const mention = { at: null, items: [], active: -1, ctrl: null, timer: 0 };

  /** The "@words" being typed before the caret: {start, query}, or null. */
  function mentionAtCaret() {
    const upto = input.value.slice(0, input.selectionStart);
    const m = /(?:^|\s)@([^\s@]*)$/.exec(upto);
    return m ? { start: upto.length - m[1].length - 1, query: m[1] } : null;
  }

  function mentionInput() {
    mention.at = mentionAtCaret();
    clearTimeout(mention.timer);
    if (!mention.at?.query) { closeMenu(); return; }
    mention.timer = setTimeout(() => lookup(mention.at.query), 80);
  }

  /** Folders whose own name holds every typed word, among the folders of the matching files. */
  function foldersOf(hits, query) {
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

  async function lookup(query) {
    const vault = context()?.vault;
    if (!vault) return;
    mention.ctrl?.abort();
    const ctrl = (mention.ctrl = new AbortController());
    let data;
    try {
      data = await json(`/api/tree-search?${new URLSearchParams({ q: query, vault, limit: "20" })}`, { signal: ctrl.signal });
    } catch { return; } // a completion that failed is no completion; the message box still works
    if (ctrl !== mention.ctrl || mention.at?.query !== query) return;
    const files = data.hits.map((hit) => ({ kind: "file", path: hit.path, title: hit.title }));
    showMenu([...foldersOf(data.hits, query), ...files].slice(0, 12), vault);
  }

  function showMenu(items, vault) {
    mention.items = items.map((item) => ({ ...item, vault }));
    mention.active = items.length ? 0 : -1;
    menu.replaceChildren(...mention.items.map((item, i) => h("li", {
      role: "option", id: `as-mention-${i}`, class: `mention-option mention-${item.kind}`,
      onmousedown: (e) => { e.preventDefault(); choose(i); },
    }, icon(item.kind === "folder" ? "folder" : "note", "icon mention-icon"),
    h("span", { class: "mention-title" }, item.title),
    h("span", { class: "mention-path muted" }, item.kind === "folder" ? `${item.path}/` : item.path))));
    if (!items.length) menu.append(h("li", { class: "mention-none muted", role: "option", "aria-disabled": "true" }, t("assistant.mention.none")));
    menu.hidden = false;
    highlight();
  }

  function highlight() {
    menu.querySelectorAll("[role=option]").forEach((li, i) => li.setAttribute("aria-selected", String(i === mention.active)));
    if (mention.active >= 0) {
      input.setAttribute("aria-activedescendant", `as-mention-${mention.active}`);
      menu.children[mention.active]?.scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  }

  function closeMenu() {
    menu.hidden = true;
    mention.items = [];
    mention.active = -1;
    input.removeAttribute("aria-activedescendant");
  }

  /** Keys of the completion list while it is open; true when the key was its. */
  function mentionKey(e) {
    if (menu.hidden) return false;
    const n = mention.items.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (n) mention.active = (mention.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      highlight();
    } else if ((e.key === "Enter" || e.key === "Tab") && !e.ctrlKey && !e.metaKey && mention.active >= 0) {
      choose(mention.active);
    } else if (e.key === "Escape") {
      closeMenu();
      e.stopPropagation();
    } else return false;
    e.preventDefault();
    return true;
  }

  function choose(i) {
    const item = mention.items[i];
    const at = mention.at;
    closeMenu();
    if (!item || !at) return;
    const end = input.selectionStart;
    input.value = input.value.slice(0, at.start) + input.value.slice(end); // the "@words" become the chip
    input.setSelectionRange(at.start, at.start);
    input.focus();
    if (!state.chips.some((c) => c.vault === item.vault && c.path === item.path)) {
      state.chips.push({ vault: item.vault, kind: item.kind, path: item.path });
      drawChips();
    }
  }

  function drawChips() {
    chips.replaceChildren(...state.chips.map((c) => h("li", { class: `chip chip-${c.kind}` },
      h("span", { class: "chip-label", title: c.path }, c.kind === "folder" ? `${c.path}/` : c.path),
      h("button", { type: "button", class: "chip-remove", "aria-label": t("assistant.mention.remove", { path: c.path }),
        onclick: () => { state.chips = state.chips.filter((x) => x !== c); drawChips(); input.focus(); } }, "✕"))));
    chips.hidden = !state.chips.length;
    mentionsMode.disabled = !state.chips.length;
    if (state.chips.length && !mode.dataset.mentioned) mode.value = "mentions"; // the first chip: "these files"
    mode.dataset.mentioned = state.chips.length ? "1" : "";
    if (!state.chips.length && mode.value === "mentions") mode.value = "directory";
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
        else if (name === "done") setConversation(data.conversation_id || state.conversationId);
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
      if (!conversations.hidden) listConversations(); // a new or longer conversation shows at once
    }
  }

  function stop() {
    state.controller?.abort();
  }

  /** The request's context: the mode, and the chips as "these files" or as @-mentions added to another mode. */
  function contextFields(ctx) {
    const chosen = state.chips.filter((c) => c.vault === ctx.vault);
    const files = chosen.filter((c) => c.kind === "file").map((c) => c.path);
    const folders = chosen.filter((c) => c.kind === "folder").map((c) => c.path);
    const extras = { extra_files: files, extra_directories: folders };
    if (mode.value === "mentions") {
      if (files.length) return { mode: "files", files, extra_directories: folders };
      if (folders.length) return { mode: "directory", directory: folders[0], extra_directories: folders.slice(1) };
      return { mode: "general" };
    }
    if (mode.value === "files") return ctx.files?.length ? { mode: "files", files: ctx.files, ...extras } : { mode: "general", ...extras };
    if (mode.value === "directory") return { mode: "directory", directory: ctx.directory || "", ...extras };
    return { mode: "general", ...extras };
  }

  function ask() {
    const message = input.value.trim();
    if (!message) return;
    input.value = "";
    closeMenu();
    log.append(h("div", { class: "msg user" }, message));
    const ctx = context() || {};
    const body = {
      message, language: language(),
      vault: ctx.vault || undefined,
      ...contextFields(ctx),
      provider: provider.value || undefined,
      model: model.value || undefined,
      conversation_id: state.conversationId || undefined,
    };
    const turn = turnView();
    log.append(turn.view);
    stream(state.agent ? "/api/ai/bookslm/agent" : "/api/ai/bookslm/chat", body, turn);
  }

  loadModels().then(() => {
    const last = session.get();
    if (last && !state.conversationId && !log.childElementCount) openConversation(last, { quiet: true });
  });
  // busy(): a request is streaming (the shell waits for it to end before redrawing the panel in a new language)
  return { newConversation, openConversation, busy: () => Boolean(state.controller) };
}
