// Hover preview of an internal link (Obsidian's Page preview): pointing at a link or focusing it for ~300 ms
// shows a popover with the start of the target note rendered; the pointer may move into the popover (to
// scroll it or follow a link in it); leaving both, blurring the link or Esc closes it (focus stays on the
// link). One popover at a time; the same link does not redraw it (no flicker).
import { el } from "../dom.js";

const SHOW_MS = 300;
const HIDE_MS = 200;
const LINK = "a.internal-link[data-path]:not(.is-unresolved), a.backlink-title[data-path]";

/**
 * Attaches the preview to the links inside each of `roots`. render(path, subpath) -> Promise<Node> (the preview's
 * content); label(path) -> the popover's accessible name. Returns {hide()}.
 */
export function hoverPreview(roots, { render, label }) {
  let timer = 0;
  let hideTimer = 0;
  let link = null; // the link shown (or about to be)
  let seq = 0;
  const pop = el("div.hover-popover", { role: "dialog", "aria-modal": "false", hidden: true, tabindex: "-1" });
  document.body.append(pop);

  const hide = () => {
    clearTimeout(timer);
    clearTimeout(hideTimer);
    seq++;
    link = null;
    pop.hidden = true;
    pop.replaceChildren();
    document.removeEventListener("keydown", onKey, true);
  };
  const onKey = (e) => {
    if (e.key !== "Escape" || pop.hidden) return;
    e.preventDefault();
    e.stopPropagation();
    const back = link;
    hide();
    if (back && pop.contains(document.activeElement)) back.focus();
  };
  const place = (a) => {
    const r = a.getBoundingClientRect();
    const w = Math.min(420, window.innerWidth - 16);
    pop.style.width = `${w}px`;
    pop.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - w - 8))}px`;
    const below = window.innerHeight - r.bottom;
    const h = Math.min(320, Math.max(below, r.top) - 16);
    pop.style.maxHeight = `${h}px`;
    pop.style.top = below >= 200 || below >= r.top ? `${r.bottom + 6}px` : `${Math.max(8, r.top - 6 - h)}px`;
  };
  const show = async (a) => {
    const mine = ++seq;
    let content;
    try {
      content = await render(a.dataset.path, a.dataset.subpath || null);
    } catch {
      return;
    }
    if (mine !== seq || link !== a || !a.isConnected) return;
    pop.replaceChildren(content);
    pop.setAttribute("aria-label", label(a.dataset.path));
    pop.hidden = false;
    pop.scrollTop = 0;
    place(a);
    document.addEventListener("keydown", onKey, true);
  };
  const enter = (a) => {
    clearTimeout(hideTimer);
    if (a === link) return;
    clearTimeout(timer);
    if (!pop.hidden) hide();
    link = a;
    timer = setTimeout(() => show(a), SHOW_MS);
  };
  const leave = () => {
    clearTimeout(timer);
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, HIDE_MS);
  };

  for (const root of roots) {
    root.addEventListener("mouseover", (e) => { const a = e.target.closest?.(LINK); if (a && root.contains(a)) enter(a); });
    root.addEventListener("mouseout", (e) => { const a = e.target.closest?.(LINK); if (a && !a.contains(e.relatedTarget)) leave(); });
    root.addEventListener("focusin", (e) => { const a = e.target.closest?.(LINK); if (a) enter(a); });
    root.addEventListener("focusout", (e) => { if (e.target.closest?.(LINK) && !pop.contains(e.relatedTarget)) leave(); });
  }
  pop.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  pop.addEventListener("mouseleave", leave);
  pop.addEventListener("focusout", (e) => { if (!pop.contains(e.relatedTarget) && e.relatedTarget !== link) leave(); });
  pop.addEventListener("click", (e) => { if (e.target.closest("a")) hide(); });
  window.addEventListener("hashchange", hide);
  return { hide };
}

/** The start of a note for a preview: whole lines up to ~`max` characters (a fence left open is closed). */
export function previewSource(content, max = 3000) {
  if (content.length <= max) return content;
  let cut = content.lastIndexOf("\n", max);
  if (cut < max / 2) cut = max;
  let text = content.slice(0, cut);
  const fences = (text.match(/^\s*(```|~~~)/gm) || []).length;
  if (fences % 2) text += "\n```";
  return `${text}\n\n…`;
}
