// The assistant panel (issue 11 item 9) over the assistant's SSE API (docs/assistant.md): chat / agent
// toggle, context mode (this folder, this note, these files picked with @, general), provider and model with
// capability badges, tokens as they stream, tool steps folded into "N steps", one confirmation card with ONE
// "Approve all (N)" and a Reject, Stop, and the conversation list (resume, delete, new).
// Issue 18 item 7: a resumed run streams into the same message (one "N steps" count); the tree and the open
// note refresh after each applied change (debounced); a reopened conversation shows its steps and the approval
// card of a run still waiting, and approving there resumes it.
// This module is the view: the panel's state and its rules are state.js (a reducer, tested without a browser),
// one request's view is turn.js. Server text is only ever inserted as text nodes; answers go through the app's
// `render` (markdown.js, DOMPurify).
// Slots for other parts of the panel: `c.inputSlot` (above the input: pickers, chips, warnings) and each
// message's `footer` (turn.js: cards and buttons of that answer).

import * as api from "../api/index.js";
import { h } from "./h.js";
import { conversationsPart } from "./conversations.js";
import { mentionsPart } from "./mentions.js";
import { askWithActions } from "./run-actions.js";
import { imagesPart } from "./images.js";
import { skillsPart } from "./skills.js";
import { sayer, slashPart } from "./slash.js";
import { messageOf } from "./commands.js";
import { contextFields, diffKind, initialState, reduce, restoredTurn } from "./state.js";
import { turnView } from "./turn.js";
import { errorTurn } from "./errors.js";
import { showEmptyState } from "./onboarding.js";
import { planPart } from "./plan.js";
import { gaugePart } from "./gauge.js";

// The panel handles its API errors itself (options.onError), and a 401 there is an error like another.
const QUIET = { quiet: true, auth401: false };
/** The wait after an applied change before the tree and the open note are refreshed (ms): a run that applies
 * several changes in a row refreshes once, still long before it ends. */
export const WRITE_DEBOUNCE_MS = 250;

/** A unified diff as lines with +/- classes (text only). */
function diffView(diff) {
  const pre = h("pre", { class: "diff", tabindex: "0" });
  for (const line of (diff || "").split("\n")) pre.append(h("span", { class: `diff-${diffKind(line)}` }, line), "\n");
  return pre;
}

/** The panel's controls (no behaviour beyond building them; `on` holds the handlers). */
function controls(t, on) {
  const c = {};
  c.agentToggle = h("input", { type: "checkbox", role: "switch", checked: true, id: "as-agent", onchange: (e) => on.agent(e.target.checked) });
  c.mentionsMode = h("option", { value: "mentions", disabled: true }, t("assistant.mode.mentions"));
  c.mode = h("select", { "aria-label": t("assistant.mode"), id: "as-mode" },
    h("option", { value: "directory" }, t("assistant.mode.directory")),
    h("option", { value: "files" }, t("assistant.mode.files")),
    c.mentionsMode,
    h("option", { value: "general" }, t("assistant.mode.general")));
  c.provider = h("select", { "aria-label": t("assistant.provider"), onchange: () => on.provider() });
  c.model = h("select", { "aria-label": t("assistant.model"), onchange: () => on.model() });
  c.badges = h("span", { class: "badges", "aria-live": "polite" });
  c.log = h("div", { class: "assistant-log", role: "log", "aria-live": "polite" });
  c.input = h("textarea", { rows: "3", "aria-label": t("assistant.input"), placeholder: t("assistant.prompt"),
    "aria-autocomplete": "list", "aria-haspopup": "listbox", "aria-controls": "as-mentions" });
  c.send = h("button", { type: "submit", class: "primary" }, t("assistant.send"));
  c.historyBtn = h("button", { type: "button", id: "as-history", "aria-expanded": "false", "aria-controls": "as-conversations",
    onclick: () => on.history() }, t("assistant.history"));
  c.list = h("ul", { class: "conversation-list", "aria-label": t("assistant.conversations") });
  c.conversations = h("section", { class: "conversations", id: "as-conversations", hidden: true, "aria-label": t("assistant.conversations") }, c.list);
  c.chips = h("ul", { class: "mention-chips", hidden: true, "aria-label": t("assistant.mention.chosen") });
  c.menu = h("ul", { class: "mention-menu", id: "as-mentions", role: "listbox", hidden: true, "aria-label": t("assistant.mention.list") });
  c.inputSlot = h("div", { class: "assistant-input-slot" }); // other parts' controls above the input
  c.form = h("form", { class: "assistant-input", onsubmit: (e) => { e.preventDefault(); on.submit(); } },
    c.menu, c.chips, c.inputSlot, h("div", { class: "assistant-compose" }, c.input, c.send));
  c.section = h("section", { class: "assistant", "aria-label": t("assistant.title") },
    h("div", { class: "assistant-bar" },
      h("label", { for: "as-agent", class: "switch" }, c.agentToggle, " ", t("assistant.agent")),
      c.mode, c.provider, c.model, c.badges,
      c.historyBtn,
      h("button", { type: "button", id: "as-new", "aria-label": t("assistant.newConversation"), title: t("assistant.newConversation"),
        onclick: () => on.newConversation() }, t("assistant.new"))),
    c.conversations, c.log, c.form);
  return c;
}

/** A notice, an error or "Stopped." of the stream, as a line of the conversation. */
function postView(t, { kind, data }) {
  if (kind === "notice") return h("div", { class: "notice", role: "status" }, data.message);
  if (kind === "error") return errorTurn(t, data);
  return h("div", { class: "notice" }, t("assistant.stopped"));
}

/** The card of a confirmation's `actions` ({label, paths, diff}): `{card, approve, reject}` (the two buttons). */
function cardView(t, actions) {
  const n = actions.length;
  const approve = h("button", { type: "button", class: "primary" }, t("assistant.approve_all", { n }));
  const reject = h("button", { type: "button" }, t("assistant.reject"));
  const card = h("div", { class: "confirm-card", role: "group", "aria-label": t("assistant.confirm_title") },
    h("h3", {}, t("assistant.confirm_title")),
    h("ol", {}, ...actions.map((a) => h("li", {},
      h("div", { class: "action-label" }, a.label), h("div", { class: "muted" }, a.paths.join(", ")),
      h("details", { open: n <= 3 }, h("summary", {}, t("assistant.diff")), diffView(a.diff))))),
    h("div", { class: "actions" }, approve, reject));
  return { card, approve, reject };
}

/**
 * Answer a card's buttons (`cardView`): the card shows the answer at once, and `send(yes)` runs once `after()`
 * (the request that brought the card, maybe still closing) has ended; until then `hold.current` is set to
 * take the answer back (Stop: the card as it was, nothing sent, the run still waiting).
 */
function wireCard({ card, approve, reject }, { after, send, hold }) {
  const answer = (yes) => {
    approve.disabled = reject.disabled = true;
    card.classList.add(yes ? "approved" : "rejected");
    const folded = [...card.querySelectorAll("details")].filter((d) => d.open);
    for (const d of folded) d.open = false; // answered: the run's next words show
    let taken = false;
    const takeBack = () => {
      taken = true;
      hold.current = null;
      approve.disabled = reject.disabled = false;
      card.classList.remove("approved", "rejected");
      for (const d of folded) d.open = true;
    };
    hold.current = takeBack;
    after().then(() => {
      if (taken) return;
      if (hold.current === takeBack) hold.current = null;
      send(yes);
    });
  };
  approve.addEventListener("click", () => answer(true));
  reject.addEventListener("click", () => answer(false));
}

/** The provider and model pickers with the model's capability badges. Returns `{load, fill, badges}`. */
function modelsPart(c, t, onError) {
  let models = null;

  async function loadModels() {
    try {
      models = await api.aiModels(QUIET);
      c.provider.replaceChildren(...models.providers.map((p) =>
        h("option", { value: p.name, selected: p.name === models.default_provider },
          p.configured ? p.label : `${p.label} (${t("assistant.not_configured")})`)));
      fillModels();
    } catch (err) { onError(err); }
  }

  function fillModels(wanted) {
    const p = models?.providers.find((x) => x.name === c.provider.value);
    if (!p) return;
    const names = p.models.map((m) => m.name);
    if (wanted && !names.includes(wanted)) names.push(wanted); // a resumed conversation's model, even if not listed
    c.model.replaceChildren(...names.map((name) => h("option", { value: name, selected: name === (wanted || p.default_model) }, name)));
    showBadges();
  }

  function showBadges() {
    const p = models?.providers.find((x) => x.name === c.provider.value);
    const m = p?.models.find((x) => x.name === c.model.value);
    // "chat" is left out: every model listed here chats, and the badge read as "chat only" beside Agent
    c.badges.replaceChildren(...Object.entries(m?.capabilities || {}).filter(([flag, on]) => on && flag !== "chat")
      .map(([flag]) => h("span", { class: "badge", title: t(`capability.${flag}`) }, t(`capability.${flag}`))));
  }
  /** The chosen model's capability flags, or null when the list does not know it (the server decides). */
  const capabilities = () => models?.providers.find((x) => x.name === c.provider.value)?.models.find((x) => x.name === c.model.value)?.capabilities || null;
  return { load: loadModels, fill: fillModels, badges: showBadges, capabilities, data: () => models };
}

/**
 * Mount the panel in `root`.
 * options: `t(key, vars)` (the app's catalog), `render(markdown) -> Node` (sanitised), `context()` ->
 * `{vault, directory, files}` (what "this folder / these files" mean now), `onWrite(paths)` (refresh the
 * tree and the open note), `language()` ("fr"/"en"). Errors are shown in the conversation (errors.js).
 */
export function mountAssistant(root, options) {
  const { t, render, context, onWrite, language } = options;
  const onError = (err) => { if (err?.name !== "AbortError") { c.log.append(errorTurn(t, err)); c.log.scrollTop = c.log.scrollHeight; } };
  let state = initialState();
  let controller = null;
  let streaming = Promise.resolve(); // the request now streaming, if any: a confirmation's answer waits for its end
  const answering = { current: null }; // an answer given, its request waiting for that end: Stop takes it back
  let turn = null; // the streaming request's view
  let postsDrawn = 0;
  let writeTimer = null; // a refresh of the tree and the open note, waiting (WRITE_DEBOUNCE_MS)

  const c = controls(t, {
    agent: (on) => dispatch({ type: "agent", on }),
    provider: () => models.fill(),
    model: () => models.badges(),
    history: () => convs.toggle(),
    submit: () => (answering.current ? answering.current() : controller ? controller.abort() : ask()),
    newConversation: () => { convs.newConversation(); c.input.focus(); },
  });
  const plan = planPart(c, { t, onError, conversationId: () => state.conversationId }); // the plan box (issue 21)
  const mentions = mentionsPart(c, { t, context, state: () => state, dispatch, attachImage: (item) => (item.file_id ? images.attachFile(item.file_id, item.title) : images.attachVault(item.vault, item.path)) });
  const images = imagesPart(c, { t });
  const models = modelsPart(c, t, onError);
  const convs = conversationsPart(c, {
    t, render, onError, language, state: () => state, dispatch, fillModels: (w) => models.fill(w), restore,
  });
  const say = sayer(c.log), gauge = gaugePart(c, { t }); // skills and slash commands answer in the conversation; the context gauge
  const skills = skillsPart(c, { t, onError, say });
  const slash = slashPart(c, { t, say, skills, models });
  root.replaceChildren(c.section);

  /** Apply an action, then draw what it changed. */
  function dispatch(action) {
    const before = state;
    state = reduce(state, action);
    if (state.conversationId !== before.conversationId) { convs.drawConversation(); gauge.load(state.conversationId); }
    for (const part of [plan, gauge]) part.follow(action, state.conversationId); // `plan`/`context` events, a request's end
    if (state.chips !== before.chips) mentions.drawChips();
    if (turn && state.turn && state.turn !== before.turn) turn.draw(state.turn);
    if (state.turn && state.turn.applied > (before.turn?.applied ?? 0)) wroteSoon();
    for (; postsDrawn < state.posts.length; postsDrawn++) drawPost(state.posts[postsDrawn]);
  }

  /** Refresh the tree and the open note shortly after an applied change (once for several in a row). */
  function wroteSoon() {
    clearTimeout(writeTimer);
    writeTimer = setTimeout(wroteNow, WRITE_DEBOUNCE_MS);
  }
  function wroteNow() {
    clearTimeout(writeTimer);
    writeTimer = null;
    if (onWrite) onWrite(state.turn?.written || []);
  }

  function drawPost(post) {
    if (post.kind === "confirmation") (turn ? turn.footer : c.log).append(confirmationCard(post.data));
    else c.log.append(postView(t, post));
  }

  // ---- asking, streaming, confirming --------------------------------------------------------------

  /** The card of a `confirmation` (or of a restored waiting run), in the message of the open turn: its answer
   * resumes the run into that message (a card of an older message, if any, starts a new one). */
  function confirmationCard(ev) {
    const owner = turn;
    const view = cardView(t, ev.actions);
    wireCard(view, {
      after: () => streaming, hold: answering,
      send: (yes) => stream(true, { run_id: ev.run_id, confirm_all: yes }, ev.actions.flatMap((a) => a.paths), { resume: owner === turn }),
    });
    return view.card;
  }

  /** Stream one request; `resume`: it continues the open turn (a confirmation's answer), in the same view. */
  function stream(agent, body, written = [], options = {}) {
    streaming = streamNow(agent, body, written, options);
    return streaming;
  }
  async function streamNow(agent, body, written, { resume = false }) {
    controller = new AbortController();
    if (!resume || !turn) {
      turn = turnView(t, render, () => { if (controller) c.log.scrollTop = c.log.scrollHeight; });
      c.log.append(turn.view);
    }
    dispatch({ type: "start", written, resume });
    c.send.textContent = t("assistant.stop");
    c.send.classList.add("danger");
    try {
      await askWithActions(agent, body, (name, data) => {
        dispatch({ type: "event", name, data });
        c.log.scrollTop = c.log.scrollHeight;
      }, { ...QUIET, signal: controller.signal }, { t, onWrite, onError, footer: () => turn.footer, resend: () => stream(agent, { ...body, accept_large_context: true }, written) });
    } catch (err) {
      if (err.name === "AbortError") dispatch({ type: "stopped" });
      else if (!skills.refused(err)) onError(err); // a deleted skill: said in the conversation, picker reset
    } finally {
      dispatch({ type: "end" });
      controller = null;
      c.send.textContent = t("assistant.send");
      c.send.classList.remove("danger");
      if (writeTimer) wroteNow(); // a refresh still waiting happens now, not after the debounce
      if (!c.conversations.hidden) convs.list(); // a new or longer conversation shows at once
    }
  }

  function ask() {
    const line = c.input.value.trim();
    if (!line || slash.take(line)) return; // a /command runs in the panel
    if (images.blocked(models.capabilities())) return; // images for a model that cannot see: said, kept
    const message = messageOf(line); // "//x" sends "/x"
    c.input.value = "";
    mentions.close();
    // a new message supersedes a confirmation still waiting (the server declines it): its card is done
    for (const b of c.log.querySelectorAll(".confirm-card:not(.approved):not(.rejected) button")) b.disabled = true;
    const pics = images.take();
    c.log.append(h("div", { class: "msg user" }, message, pics.view));
    const ctx = context() || {};
    stream(state.agent, {
      message, language: language(), images: pics.body,
      vault: ctx.vault || undefined,
      ...contextFields(c.mode.value, state.chips, ctx),
      provider: c.provider.value || undefined,
      model: c.model.value || undefined,
      skill: skills.current() || undefined,
      conversation_id: state.conversationId || undefined,
    });
  }

  /**
   * A reopened conversation's last request (`view`: its turn view, already in the log; `steps`, `text`) becomes
   * the open turn, and the run waiting for approval (`waiting`: {run_id, actions}) gets its card back there:
   * approving it resumes the run into that message.
   */
  function restore(view, steps, text, waiting) {
    turn = view;
    dispatch({ type: "restore", turn: restoredTurn(steps, text) });
    if (waiting?.actions?.length) turn.footer.append(confirmationCard(waiting));
  }

  models.load().then(() => { convs.reopen(); showEmptyState(c.log, t, models.data()); }); // no provider: how to set one up
  // busy(): a request is streaming (the shell waits for it to end before redrawing the panel in a new language)
  return { newConversation: convs.newConversation, openConversation: convs.open, busy: () => Boolean(controller) };
}
