// A small WAI-ARIA tree (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/) shared by the nested tags and the
// bookmarks: li[role=treeitem] rows, focus roving on them (one tab stop), children in ul[role=group] next to their
// parent's row and owned by it (aria-owns): inside it, their text would be part of the row's visible text, which its
// name does not contain (WCAG 2.5.3, axe's label-content-name-mismatch).
// Keys: Up/Down move, Right opens or goes to the first child, Left closes or goes to the parent, Home/End,
// Enter/Space activate, "*" opens every sibling (the pattern's optional key). A row's link (tabindex -1) makes
// the mouse work like any link (Mod+click and middle click open it in a new tab: panes.js).
import { el, icon } from "../dom.js";

let groups = 0; // numbers the groups: ids unique in the page, for aria-owns
const GROUPS = new WeakMap(); // a parent li -> its ul[role=group]

/**
 * treeItem({label, count, href, level, children, expanded, aria, icon}) -> li[role=treeitem], or for a parent a
 * DocumentFragment: its li, then an li[role=none] holding its ul[role=group] of `children`.
 * `label` the visible name; `aria` the accessible name (it must contain `label`, then the count); `href` what the
 * row opens (null: a group that only opens and closes); `children` an array of what treeItem returns (null for a leaf).
 */
export function treeItem({ label, count = null, href = null, level, children = null, expanded = false, aria, iconName = null, external = false }) {
  const parent = !!children?.length;
  const chevron = parent ? icon("chevron", "icon tt-chevron") : el("span.tt-spacer", { "aria-hidden": "true" });
  const text = el("span.tt-label", label);
  const attrs = href ? { href, tabindex: "-1", ...(external ? { target: "_blank", rel: "noopener noreferrer" } : null) } : null;
  const body = href ? el("a.tt-link", attrs, iconName ? icon(iconName) : null, text) : el("span.tt-link", iconName ? icon(iconName) : null, text);
  // the space keeps the label and the count apart in the visible text the accessible name must contain
  const row = el("div.tt-row", chevron, body, count != null ? [" ", el("span.tt-count", { "aria-hidden": "true" }, String(count))] : null);
  row.style.setProperty("--level", String(level - 1)); // through the CSSOM: the page's CSP refuses style attributes
  const li = el("li.tt-item", { role: "treeitem", tabindex: "-1", "aria-level": level, "aria-label": aria || label,
    dataset: href ? { href } : {} }, row);
  if (!parent) return li;
  const group = el("ul.tt-group", { role: "group", id: `tt-group-${++groups}`, hidden: !expanded }, children);
  li.setAttribute("aria-expanded", String(expanded));
  li.setAttribute("aria-owns", group.id);
  GROUPS.set(li, group);
  const both = document.createDocumentFragment();
  both.append(li, el("li.tt-sub", { role: "none" }, group));
  return both;
}

/** Open or close a parent item. */
export function setExpanded(li, open) {
  if (!li.hasAttribute("aria-expanded")) return;
  li.setAttribute("aria-expanded", String(open));
  GROUPS.get(li).hidden = !open;
}

/** Wire the keyboard and clicks of `root` (ul[role=tree]; once: call it again after refilling the tree, it only
 * gives the first item the tab stop then). `activate(li)`: Enter/Space or a click on an item without a link. */
export function wireTree(root, { activate = () => {} } = {}) {
  const first = root.querySelector('[role="treeitem"]');
  if (first && !root.querySelector('[role="treeitem"][tabindex="0"]')) first.setAttribute("tabindex", "0");
  if (root.dataset.wired) return;
  root.dataset.wired = "1";
  const visible = () => [...root.querySelectorAll('[role="treeitem"]')].filter((li) => !li.parentElement.closest("ul[hidden]"));
  const focus = (li) => {
    if (!li) return;
    root.querySelectorAll('[role="treeitem"][tabindex="0"]').forEach((n) => n.setAttribute("tabindex", "-1"));
    li.setAttribute("tabindex", "0");
    li.focus();
  };
  root.addEventListener("click", (e) => {
    const li = e.target.closest('[role="treeitem"]');
    if (!li || !root.contains(li)) return;
    focus(li);
    if (e.target.closest(".tt-chevron") || !li.dataset.href) { // the chevron, or a group's row: open or close
      e.preventDefault();
      if (li.hasAttribute("aria-expanded")) setExpanded(li, li.getAttribute("aria-expanded") !== "true");
      else activate(li);
    }
  });
  root.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return; // Mod+Enter: open in a new tab (a command)
    const li = e.target.closest('[role="treeitem"]');
    if (!li) return;
    const items = visible();
    const i = items.indexOf(li);
    const open = li.getAttribute("aria-expanded");
    const group = li.closest('[role="group"]');
    const parentItem = group && root.querySelector(`[aria-owns="${group.id}"]`);
    switch (e.key) {
      case "ArrowDown": focus(items[i + 1]); break;
      case "ArrowUp": focus(items[i - 1]); break;
      case "Home": focus(items[0]); break;
      case "End": focus(items[items.length - 1]); break;
      case "ArrowRight": if (open === "false") setExpanded(li, true); else if (open === "true") focus(items[i + 1]); break;
      case "ArrowLeft": if (open === "true") setExpanded(li, false); else focus(parentItem); break;
      case "*": for (const s of li.parentElement.children) setExpanded(s, true); break;
      case "Enter": case " ":
        if (li.dataset.href) li.querySelector(":scope > .tt-row a")?.click();
        else if (open !== null) setExpanded(li, open !== "true");
        else activate(li);
        break;
      default: return;
    }
    e.preventDefault();
  });
}
