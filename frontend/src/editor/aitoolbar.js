// The editor's AI toolbar (issue 18 item 1): on a selection, an "AI" button opens the 16 actions (translate,
// tone and custom ask for their field first); the answer streams in (Stop aborts the request, and the server
// closes the provider's), then shows as a word diff against the selection with Accept / Reject. Nothing is
// replaced before Accept; Accept is one editor transaction (Ctrl/Cmd+Z undoes it) and the panel's Undo puts the
// selection back. The text sent is redacted by the server before any model sees it.

import { EditorView } from "@codemirror/view";
import { el, clear } from "../dom.js";
import { getLang } from "../i18n.js";
import * as api from "../api/index.js";
import { ACTIONS, actionById, compose, wordDiff } from "./aiactions.js";
import en from "../i18n/aitoolbar.en.json";
import fr from "../i18n/aitoolbar.fr.json";

// This feature's strings load with the editor chunk, not with the first page.
const CATALOGS = { en, fr };
function L(key, vars) {
  const s = CATALOGS[getLang()]?.[key] ?? en[key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}
const actionLabel = (id) => L(`aitoolbar.action.${id}`);

const head = (r) => el("header.ai-head", el("strong", L("aitoolbar.result", { action: actionLabel(r.action.id) })));
const btn = (cls, label, onclick) => el(`button.button${cls}`, { type: "button", onclick }, label);

/** The floating bar: the AI button, its menu of actions, the field an action with one asks for. */
function buildBar() {
  const openBtn = el("button.ai-open", {
    type: "button", id: "ai-open", "aria-haspopup": "true", "aria-expanded": "false",
    "aria-label": L("aitoolbar.openLabel"), title: L("aitoolbar.openLabel"),
  }, L("aitoolbar.open"));
  const menu = el("div.ai-menu", { role: "menu", "aria-label": L("aitoolbar.menu"), hidden: true },
    ACTIONS.map((a) => el("button.ai-item", { type: "button", role: "menuitem", dataset: { action: a.id } }, actionLabel(a.id))));
  const input = el("input.ai-input", { type: "text", id: "ai-field", maxlength: 2000 });
  const fieldLabel = el("label", { for: "ai-field" });
  const form = el("form.ai-field", { hidden: true }, fieldLabel, input,
    el("button.button.primary", { type: "submit" }, L("aitoolbar.run")));
  return { bar: el("div.ai-toolbar", { hidden: true }, openBtn, menu, form), openBtn, menu, form, input, fieldLabel };
}

/** Put `node` under the line of `pos`, inside `container`; false when `pos` is not drawn (off screen). */
function placeUnder(view, container, node, pos, { left = true } = {}) {
  const at = view.coordsAtPos(pos);
  if (!at) return false;
  const box = container.getBoundingClientRect();
  node.style.top = `${Math.round(at.bottom - box.top + 4)}px`;
  // the whole of `node` (the bar with its menu open) stays inside the box, right edge included
  if (left) node.style.left = `${Math.round(Math.max(0, Math.min(at.left - box.left, box.width - node.offsetWidth)))}px`;
  return true;
}

/**
 * The toolbar of one editor, drawn inside `container` (the editor's box). Returns `{extension, attach(view),
 * destroy()}`: `extension` goes into the editor's state (it follows the selection), `attach` once the view exists.
 */
export function aiToolbar(container) {
  let view = null;
  let run = null; // the action on screen: {action, from, to, original, ctrl, text, proposed?, applied?}

  const { bar, openBtn, menu, form, input, fieldLabel } = buildBar();
  const panel = el("section.ai-result", { hidden: true, "aria-live": "polite" });
  container.classList.add("has-ai");
  container.append(bar, panel);
  bar.addEventListener("mousedown", (e) => { if (e.target !== input) e.preventDefault(); }); // keep the selection

  let pending = null; // the action waiting for its field
  openBtn.addEventListener("click", () => { setMenu(menu.hidden); sync(); });
  menu.addEventListener("click", (e) => {
    const action = actionById(e.target.closest("[data-action]")?.dataset.action);
    if (!action) return;
    if (!action.needs) { start(action, null); return; }
    pending = action;
    menu.hidden = true;
    fieldLabel.textContent = L(`aitoolbar.field.${action.needs}`);
    input.placeholder = L(`aitoolbar.field.${action.needs}Placeholder`);
    input.value = "";
    form.hidden = false;
    sync();
    input.focus();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (pending && input.value.trim()) start(pending, input.value.trim());
  });
  bar.addEventListener("keydown", (e) => { if (e.key === "Escape") { setMenu(false); view?.focus(); } });

  const setMenu = (open) => { menu.hidden = !open; form.hidden = true; openBtn.setAttribute("aria-expanded", String(open)); };

  const place = (node, pos, opts) => placeUnder(view, container, node, pos, opts);

  function sync(update) {
    if (run && update?.docChanged && !run.applied) { // the selection's place follows the edits around it
      // text typed at either edge stays outside it: Accept then still finds the selection as it was sent
      run.from = update.changes.mapPos(run.from, 1);
      run.to = Math.max(run.from, update.changes.mapPos(run.to, -1));
    }
    const sel = view.state.selection.main;
    const show = !run && !sel.empty;
    if (!show) { bar.hidden = true; setMenu(false); }
    else { bar.hidden = !place(bar, sel.head); if (update?.selectionSet) setMenu(false); }
    if (run) panel.hidden = !place(panel, run.applied ? run.applied.to : run.to, { left: false });
  }

  async function start(action, value) {
    const sel = view.state.selection.main;
    if (sel.empty) return;
    const original = view.state.sliceDoc(sel.from, sel.to);
    const r = { action, from: sel.from, to: sel.to, original, ctrl: new AbortController(), text: "" };
    run = r;
    sync();
    streaming(r);
    const body = { text: original };
    if (action.needs) body[action.needs] = value;
    try {
      await api.aiAction(action.id, body, (name, data) => onEvent(r, name, data), { signal: r.ctrl.signal, quiet: true });
      if (run === r && !r.proposed && !r.failed) failed(r, L("aitoolbar.empty"));
    } catch (err) {
      if (run !== r) return;
      if (err.name === "AbortError") note(r, L("aitoolbar.stopped"));
      else failed(r, err.message);
    }
  }

  function onEvent(r, name, data) {
    if (run !== r) return;
    if (name === "delta") {
      r.text += data.text;
      panel.querySelector(".ai-stream").textContent = r.text;
    } else if (name === "done") {
      if (!data.text.trim()) { failed(r, L("aitoolbar.empty")); return; }
      r.proposed = compose(r.original, data.text, data.placement || r.action.placement);
      review(r);
    } else if (name === "error") {
      failed(r, data.message);
    }
  }

  function draw(r, ...children) {
    clear(panel, head(r), ...children);
    panel.setAttribute("aria-label", L("aitoolbar.result", { action: actionLabel(r.action.id) }));
    sync();
    panel.scrollIntoView?.({ block: "nearest" });
  }

  function streaming(r) {
    draw(r, el("p.ai-status.muted", L("aitoolbar.writing")), el("div.ai-stream"),
      el("div.ai-buttons", btn(".ai-stop", L("aitoolbar.stop"), () => r.ctrl.abort())));
  }

  function review(r) {
    const diff = el("div.ai-diff", wordDiff(r.original, r.proposed).map((p) =>
      p.op === "eq" ? p.text : el(p.op === "del" ? "del" : "ins", p.text)));
    draw(r, diff, el("div.ai-buttons",
      btn(".primary.ai-accept", L("aitoolbar.accept"), () => accept(r)),
      btn(".ai-reject", L("aitoolbar.reject"), () => close())));
  }

  const note = (r, message, ...extra) =>
    draw(r, el("p.ai-status", message), el("div.ai-buttons", ...extra, btn(".ai-close", L("aitoolbar.close"), () => close())));

  function failed(r, message) {
    r.failed = true;
    note(r, L("aitoolbar.failed", { message }));
    panel.querySelector(".ai-status").classList.add("error");
  }

  function accept(r) {
    if (view.state.sliceDoc(r.from, r.to) !== r.original) { note(r, L("aitoolbar.changed")); return; }
    view.dispatch({
      changes: { from: r.from, to: r.to, insert: r.proposed },
      selection: { anchor: r.from, head: r.from + r.proposed.length },
      userEvent: "input.ai", scrollIntoView: true,
    });
    r.applied = { from: r.from, to: r.from + r.proposed.length };
    note(r, L("aitoolbar.accepted"), btn(".primary.ai-undo", L("aitoolbar.undo"), () => undo(r)));
  }

  function undo(r) {
    const { from, to } = r.applied;
    if (view.state.sliceDoc(from, to) !== r.proposed) { note(r, L("aitoolbar.changed")); return; }
    view.dispatch({ changes: { from, to, insert: r.original }, selection: { anchor: from, head: from + r.original.length }, userEvent: "input.ai" });
    r.applied = { from, to: from + r.original.length };
    note(r, L("aitoolbar.undone"));
  }

  function close() {
    run?.ctrl.abort();
    run = null;
    panel.hidden = true;
    clear(panel);
    view.focus();
    sync();
  }

  return {
    extension: EditorView.updateListener.of((update) => {
      if (view && (update.selectionSet || update.docChanged || update.geometryChanged || update.focusChanged)) sync(update);
    }),
    attach(v) { view = v; sync(); },
    destroy() { run?.ctrl.abort(); run = null; bar.remove(); panel.remove(); },
  };
}
