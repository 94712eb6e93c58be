// The assistant panel's @-mentions: typing "@words" in the message box lists matching notes and folders
// (a listbox under the box, arrow keys, Enter/Tab, Escape); a choice becomes a chip, and the first chip
// switches the context to "these files". The person's own image files ("Your files", docs/files.md) are listed
// after them: one becomes an attached image named by its file_id. The rules are state.js's (mentionAt,
// mentionItems, the chips) and image-rules.js's (userFileItems).
import { icon } from "../dom.js";
import * as api from "../api/index.js";
import { h } from "./h.js";
import { mentionAt, mentionItems } from "./state.js";
import { isImagePath, userFileItems } from "./image-rules.js";

/**
 * Wire the completion to the panel's controls `c` (input, menu, chips, mode, mentionsMode).
 * deps: `t`, `context()` (its vault is where names are looked up), `state()` (the panel's state: its chips),
 * `dispatch(action)`, `attachImage(item)` (an image file chosen: attached as an image, not as context).
 * Returns `{drawChips(), close()}`.
 */
export function mentionsPart(c, { t, context, state, dispatch, attachImage }) {
  const { input, menu, chips, mode, mentionsMode } = c;
  const mention = { at: null, items: [], active: -1, ctrl: null, timer: 0 };

  function onInput() {
    mention.at = mentionAt(input.value, input.selectionStart);
    clearTimeout(mention.timer);
    if (!mention.at?.query) { close(); return; }
    mention.timer = setTimeout(() => lookup(mention.at.query), 80);
  }

  async function lookup(query) {
    const vault = context()?.vault;
    if (!vault) return;
    mention.ctrl?.abort();
    const ctrl = (mention.ctrl = new AbortController());
    const opts = { signal: ctrl.signal, quiet: true, auth401: false };
    const mine = attachImage ? api.userFiles({ limit: 200 }, opts).catch(() => null) : null; // no file space: none
    let data;
    try {
      data = await api.treeSearch({ q: query, vault, limit: 20 }, opts);
    } catch { return; } // a completion that failed is no completion; the message box still works
    const files = await mine;
    if (ctrl !== mention.ctrl || mention.at?.query !== query) return;
    show([...mentionItems(data.hits, query), ...userFileItems(files?.files, query)], vault);
  }

  function show(items, vault) {
    mention.items = items.map((item) => ({ ...item, vault }));
    mention.active = items.length ? 0 : -1;
    menu.replaceChildren(...mention.items.map((item, i) => h("li", {
      role: "option", id: `as-mention-${i}`, class: `mention-option mention-${item.kind}`,
      onmousedown: (e) => { e.preventDefault(); choose(i); },
    }, icon(item.kind === "folder" ? "folder" : item.kind === "userfile" || isImagePath(item.path) ? "image" : "note", "icon mention-icon"),
    h("span", { class: "mention-title" }, item.title),
    h("span", { class: "mention-path muted" },
      item.kind === "folder" ? `${item.path}/` : item.kind === "userfile" ? t("assistant.mention.yourFile") : item.path))));
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

  function close() {
    menu.hidden = true;
    mention.items = [];
    mention.active = -1;
    input.removeAttribute("aria-activedescendant");
  }

  /** Keys of the completion list while it is open; true when the key was its. */
  function onKey(e) {
    if (menu.hidden) return false;
    const n = mention.items.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (n) mention.active = (mention.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      highlight();
    } else if ((e.key === "Enter" || e.key === "Tab") && !e.ctrlKey && !e.metaKey && mention.active >= 0) {
      choose(mention.active);
    } else if (e.key === "Escape") {
      close();
      e.stopPropagation();
    } else return false;
    e.preventDefault();
    return true;
  }

  function choose(i) {
    const item = mention.items[i];
    const at = mention.at;
    close();
    if (!item || !at) return;
    const end = input.selectionStart;
    input.value = input.value.slice(0, at.start) + input.value.slice(end); // the "@words" become the chip
    input.setSelectionRange(at.start, at.start);
    input.focus();
    if (item.kind === "userfile" || (item.kind === "file" && attachImage && isImagePath(item.path))) attachImage(item);
    else dispatch({ type: "chip", chip: item });
  }

  function drawChips() {
    const chosen = state().chips;
    chips.replaceChildren(...chosen.map((chip) => h("li", { class: `chip chip-${chip.kind}` },
      h("span", { class: "chip-label", title: chip.path }, chip.kind === "folder" ? `${chip.path}/` : chip.path),
      h("button", { type: "button", class: "chip-remove", "aria-label": t("assistant.mention.remove", { path: chip.path }),
        onclick: () => { dispatch({ type: "unchip", chip }); input.focus(); } }, "✕"))));
    chips.hidden = !chosen.length;
    mentionsMode.disabled = !chosen.length;
    if (chosen.length && !mode.dataset.mentioned) mode.value = "mentions"; // the first chip: "these files"
    mode.dataset.mentioned = chosen.length ? "1" : "";
    if (!chosen.length && mode.value === "mentions") mode.value = "directory";
  }

  input.addEventListener("keydown", (e) => {
    if (onKey(e)) return;
    // Enter sends, as in every chat app (Ctrl/Cmd+Enter too); Shift+Enter starts a new line
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.isComposing) { e.preventDefault(); c.form.requestSubmit(); }
  });
  input.addEventListener("input", onInput);
  input.addEventListener("click", onInput);
  input.addEventListener("focus", onInput);
  // a click on an option lands first; focus back in the box by then (a redraw took it a moment) keeps the list
  input.addEventListener("blur", () => setTimeout(() => { if (document.activeElement !== input) close(); }, 150));
  return { drawChips, close };
}
