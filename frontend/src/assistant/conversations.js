// The assistant panel's conversation list: list, resume (also after a reload: this tab's open conversation is
// kept in sessionStorage), delete, new. The open conversation's id is the panel's state (state.js). A reopened
// conversation shows each request's tool steps and answer as it streamed (turn.js), and the approval card of a
// run still waiting (the panel's `restore`).
import { confirmDialog } from "../dialog.js";
import * as api from "../api/index.js";
import { h } from "./h.js";
import { storedImages } from "./images.js";
import { restoredTurn } from "./state.js";
import { turnView } from "./turn.js";

const QUIET = { quiet: true, auth401: false }; // the panel shows its errors itself (onError)
const CURRENT = "obsigate.assistant.conversation"; // this tab's open conversation, reopened after a reload
const session = {
  get() { try { return sessionStorage.getItem(CURRENT); } catch { return null; } },
  set(id) { try { if (id) sessionStorage.setItem(CURRENT, id); else sessionStorage.removeItem(CURRENT); } catch { /* storage off */ } },
};

/**
 * Wire the list to the panel's controls `c` (list, conversations, historyBtn, log, provider, input).
 * deps: `t`, `render`, `onError`, `language()`, `state()`, `dispatch(action)`, `fillModels(wanted)`,
 * `restore(view, steps, text, waiting)` (the last request becomes the open turn; `waiting`: its run's card).
 * Returns `{drawConversation, newConversation, toggle, list, open, reopen}`.
 */
export function conversationsPart(c, { t, render, onError, language, state, dispatch, fillModels, restore }) {
  function drawConversation() {
    session.set(state().conversationId);
    for (const b of c.list.querySelectorAll("button.conv-open")) {
      if (b.dataset.id === state().conversationId) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  }

  function newConversation() {
    dispatch({ type: "conversation", id: null });
    session.set(null);
    c.log.replaceChildren();
  }

  async function toggleConversations(open = c.conversations.hidden) {
    c.conversations.hidden = !open;
    c.historyBtn.setAttribute("aria-expanded", String(open));
    if (open) await listConversations();
  }

  async function listConversations() {
    let data;
    try { data = await api.conversations({ limit: 100 }, QUIET); } catch (err) { onError(err); return; }
    const when = (s) => new Date(s * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
    c.list.replaceChildren(...data.conversations.map((conv) => h("li", { class: "conversation" },
      h("button", { type: "button", class: "conv-open", "data-id": conv.id, "aria-current": conv.id === state().conversationId ? "true" : null,
        onclick: () => openConversation(conv.id) },
        h("span", { class: "conv-title" }, conv.title || conv.id),
        h("span", { class: "conv-meta muted" }, `${when(conv.updated)} · ${t("assistant.messages", { n: conv.messages })}`)),
      h("button", { type: "button", class: "icon conv-delete", "aria-label": t("assistant.delete", { title: conv.title }),
        title: t("assistant.delete", { title: conv.title }), onclick: () => deleteConversation(conv) }, "✕"))));
    if (!data.conversations.length) c.list.append(h("li", { class: "muted" }, t("assistant.no_conversations")));
  }

  async function deleteConversation(conv) {
    const ok = await confirmDialog({ title: t("assistant.deleteTitle"), message: t("assistant.deleteMessage", { title: conv.title }), ok: t("assistant.deleteOk") });
    if (!ok) return;
    try { await api.deleteConversation(conv.id, QUIET); } catch (err) { onError(err); return; }
    if (conv.id === state().conversationId) newConversation();
    await listConversations();
  }

  /** Show a conversation's messages; the next message continues it. `quiet`: a stale id is only forgotten. */
  async function openConversation(id, { quiet = false } = {}) {
    let conv;
    try { conv = await api.conversation(id, QUIET, { language: language() }); } catch (err) {
      if (err.status === 404) session.set(null);
      if (!quiet) onError(err);
      return;
    }
    dispatch({ type: "conversation", id });
    session.set(id);
    toggleConversations(false);
    c.log.replaceChildren();
    const last = drawMessages(conv, id);
    if (last) restore(last.view, last.steps, last.texts.join("\n\n"), conv.waiting);
    if (conv.provider && [...c.provider.options].some((o) => o.value === conv.provider)) {
      c.provider.value = conv.provider;
      fillModels(conv.model);
    }
    c.log.scrollTop = c.log.scrollHeight;
    if (!quiet) c.input.focus();
  }

  /** Each request as it streamed: the person's message, then one turn view (its steps, its answers' text, a
   * blank line between model turns). Returns the last request's `{view, steps, texts}`, or null. */
  function drawMessages(conv, id) {
    const stepsAt = new Map((conv.steps || []).map((g) => [g.message, g.steps]));
    let last = null;
    const draw = () => last?.view.draw(restoredTurn(last.steps, last.texts.join("\n\n")));
    const open = (steps) => {
      draw();
      last = { view: turnView(t, render), steps, texts: [] };
      c.log.append(last.view.view);
    };
    conv.messages.forEach((m, i) => {
      const text = typeof m.content === "string" ? m.content : "";
      if (m.role === "user") {
        c.log.append(h("div", { class: "msg user" }, text, storedImages(m.images, id)));
        open(stepsAt.get(i) || []);
      } else if (m.role === "assistant" && text) {
        if (!last) open([]);
        last.texts.push(text);
      }
    });
    draw();
    return last;
  }

  /** After the models are known: reopen this tab's last conversation, unless one was started meanwhile. */
  function reopen() {
    const last = session.get();
    if (last && !state().conversationId && !c.log.childElementCount) openConversation(last, { quiet: true });
  }

  return { drawConversation, newConversation, toggle: toggleConversations, list: listConversations, open: openConversation, reopen };
}
