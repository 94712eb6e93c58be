// Tabs and a split view in the main area, as in Obsidian: each pane has its own tab strip and shows its active
// tab; the focused pane receives navigation and the URL always shows its active tab (deep links, reload and
// back/forward keep working: a tab holds a location of the app, a hash). The layout is kept per vault in
// localStorage. The data and its rules are layout.js; this module draws them and keeps them in step with the URL.
//
// How main.js uses it: `new Panes(main, {views, outline, backlinks, home})`, then at each route
// `panes.sync(location.hash, vault)` -> {redirect} | the focused pane {body, note, search, leave}, whose body the
// route draws into. Every pane has its own NoteView and SearchView (views(body, outline, backlinks)) and its own
// outline and backlinks boxes, shown in the side panel while that pane has the focus.
import { el, icon } from "../dom.js";
import { t } from "../i18n.js";
import { parseRoute, go, noteHref } from "../router.js";
import * as L from "./layout.js";

const KEY = "obsigate.panes."; // + vault: that vault's layout
const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* storage off: tabs last this page only */ } },
};

/** Whether `hash` is a vault's home (or the app's): the place a reload without a note lands on. */
const isHome = (hash) => { const r = parseRoute(hash); return r.view === "home" || (r.view === "note" && !r.path); };

/** A tab's title from its location: the note's name, or the screen's. */
export function tabTitle(hash) {
  const r = parseRoute(hash);
  if (r.view === "note") return r.path ? r.path.split("/").pop().replace(/\.md$/i, "") : t("panes.newTab");
  if (r.view === "search") return r.q ? t("panes.searchFor", { q: r.q }) : t("panes.search");
  if (r.view === "history" && r.path) return t("panes.historyOf", { name: r.path.split("/").pop().replace(/\.md$/i, "") });
  const names = { tags: "top.tags", graph: "top.graph", trash: "top.trash", settings: "top.settings", history: "panes.history" };
  return names[r.view] ? t(names[r.view]) : t("panes.newTab");
}

export class Panes {
  /** `main`: the <main> the panes go in. `views(body, outline, backlinks)` -> {note, search}: one pane's views.
   * `outline`, `backlinks`: the side panel's boxes (#outline, #backlinks): each pane has its own, put in their
   * place (with their ids) while it has the focus.
   * `vault()`: the open vault (for a new tab's home and for the tree's items opened in a new tab).
   * `onFocus(hash)`: another pane took the focus without being drawn again (the tree shows its file). */
  constructor(main, { views, outline, backlinks, vault, onFocus = () => {} }) {
    this.onFocus = onFocus;
    this.main = main;
    this.views = views;
    this.hosts = { outline, backlinks };
    this.vaultOf = vault;
    this.vault = undefined; // the vault whose layout is loaded (undefined: none yet)
    this.layout = L.emptyLayout("#/"); // until the first route: then the vault's stored layout
    this.fresh = false; // a stored layout just came back: its other pane is drawn at the next route
    this.closed = []; // closed tabs, the last one last (Mod+Shift+T)
    this.recs = []; // one per pane, in order: {el, list, body, note, search, outline, backlinks, shown, leave}
    this.group = el("div.pane-group");
    main.classList.add("has-panes");
    main.append(this.group);
    this.fit();
    this.listen();
  }

  get focused() { return this.recs[this.layout.focus]; }

  /** The hash of a new tab: the open vault's home. */
  home() { const v = this.vaultOf(); return v ? noteHref(v, null) : "#/"; }

  /** The URL is at `hash` and the open vault is `vault`: the focused pane follows (see layout.navigate). On the
   * first route of a vault its stored layout comes back: a home URL then shows the stored active tab ({redirect});
   * another URL opens in a new tab beside the stored ones. Returns the focused pane, whose body the route fills. */
  sync(hash, vault) {
    hash = hash && hash !== "#" ? hash : "#/";
    if (vault !== this.vault) {
      this.vault = vault;
      let saved = null;
      try { saved = L.parseLayout(JSON.parse(store.get(KEY + vault) || "null")); } catch { /* not JSON: start anew */ }
      this.layout = saved || L.emptyLayout(hash);
      this.fresh = !!saved;
      this.fit();
      if (this.fresh && isHome(hash) && L.activeHash(this.layout) !== hash) return { redirect: L.activeHash(this.layout) };
      L.navigate(this.layout, hash, { newTab: this.fresh && !isHome(hash) });
    } else L.navigate(this.layout, hash);
    this.focused.shown = hash;
    this.save();
    this.draw();
    if (this.fresh) this.recs.forEach((rec, i) => { if (i !== this.layout.focus) this.background(rec, i); });
    this.fresh = false;
    return this.focused;
  }

  /** As many pane elements as the layout has panes; each pane's own outline and backlinks boxes. */
  fit() {
    while (this.recs.length < this.layout.panes.length) {
      const i = this.recs.length;
      const body = el("div.pane-body", { id: `pane-body-${i}`, role: "tabpanel", tabindex: "-1" });
      const list = el("div.tab-list", { role: "tablist" });
      const newTab = el("button.icon-btn.tab-new", { type: "button", "aria-label": t("panes.newTab"), title: t("panes.newTab") }, icon("plus"));
      const split = el("button.icon-btn.tab-split", { type: "button", "aria-label": t("panes.splitRight"), title: t("panes.splitRight") }, icon("panel"));
      newTab.addEventListener("click", () => { this.focus(this.recs.indexOf(rec)); this.newTab(); });
      split.addEventListener("click", () => { this.focus(this.recs.indexOf(rec)); this.split(); });
      const outline = el("div.side-body");
      const backlinks = el("div.side-body");
      const rec = { el: el("section.pane", el("div.tab-strip", list, newTab, split), body), list, body, newTab, split, outline, backlinks,
        shown: null, leave: null, scrolls: new Map(), ...this.views(body, outline, backlinks) };
      // A tab shown again comes back where it was scrolled to, once its note is drawn (the note view marks the
      // body aria-busy while it loads); a link to a heading scrolls there instead.
      new MutationObserver(() => {
        const top = rec.scrolls.get(rec.shown);
        if (top == null || body.hasAttribute("aria-busy")) return;
        rec.scrolls.delete(rec.shown);
        if (!parseRoute(rec.shown).heading) body.scrollTop = top;
      }).observe(body, { attributes: true, attributeFilter: ["aria-busy"] });
      rec.el.addEventListener("pointerdown", () => this.focus(this.recs.indexOf(rec)), true);
      // (not while an unfocused pane draws itself: a view focusing its own title must not steal the focus)
      rec.el.addEventListener("focusin", () => { if (!rec.drawing) this.focus(this.recs.indexOf(rec)); });
      list.addEventListener("keydown", (e) => this.onTabKey(e, rec));
      list.addEventListener("click", (e) => this.onTabClick(e, rec));
      this.recs.push(rec);
      this.group.append(rec.el);
    }
    while (this.recs.length > this.layout.panes.length) {
      const rec = this.recs.pop();
      rec.leave?.();
      rec.note.leave?.();
      rec.el.remove();
    }
  }

  /** The tab strips, the focused pane marked, its side boxes in the side panel, ids only in the focused pane. */
  draw() {
    this.main.dataset.panes = String(this.recs.length);
    this.recs.forEach((rec, i) => {
      const pane = this.layout.panes[i];
      const focused = i === this.layout.focus;
      rec.el.classList.toggle("is-focused", focused);
      rec.list.setAttribute("aria-label", this.recs.length > 1 ? t(i ? "panes.tabsRight" : "panes.tabsLeft") : t("panes.tabs"));
      rec.split.hidden = this.recs.length >= L.MAX_PANES;
      // drawn again only when they changed: a click's pointerdown focuses the pane, its tab must still be there
      const sig = JSON.stringify([i, pane.tabs, pane.active, t("panes.close")]);
      if (rec.sig !== sig) rec.sig = sig;
      else return this.sideAndIds(rec, focused);
      rec.list.replaceChildren(...pane.tabs.map((hash, j) => {
        const title = tabTitle(hash);
        const on = j === pane.active;
        return el("button.tab", {
          type: "button", role: "tab", id: `pane-${i}-tab-${j}`, "aria-selected": String(on), "aria-controls": rec.body.id,
          tabindex: on ? "0" : "-1", title, dataset: { index: String(j) },
        }, el("span.tab-title", title), el("span.tab-close", { "aria-hidden": "true", title: t("panes.close") }, icon("x")));
      }));
      rec.body.setAttribute("aria-labelledby", `pane-${i}-tab-${pane.active}`);
      return this.sideAndIds(rec, focused);
    });
  }

  sideAndIds(rec, focused) {
    if (!focused) { this.hideIds(rec); return; }
    this.showIds(rec);
    for (const key of ["outline", "backlinks"]) { // the focused pane's box takes the side panel's place and id
      const shown = this.hosts[key];
      if (shown === rec[key]) continue;
      shown.removeAttribute("id");
      shown.replaceWith(rec[key]);
      rec[key].id = key;
      this.hosts[key] = rec[key];
    }
  }

  save() { if (this.vault !== undefined && this.layout) store.set(KEY + this.vault, JSON.stringify(this.layout)); }

  /** An unfocused pane shows its active tab: a note is drawn (into its own boxes: the side panel is not touched);
   * another screen waits for the pane to be focused, with a button that does it. */
  background(rec, i) {
    const hash = this.layout.panes[i].tabs[this.layout.panes[i].active];
    if (rec.shown === hash) return;
    rec.shown = hash;
    rec.leave?.();
    rec.leave = null;
    const r = parseRoute(hash);
    if (r.view === "note" && r.path && r.vault) {
      rec.note.current = null;
      rec.drawing = true;
      rec.note.open(r.vault, r.path, r.heading).finally(() => {
        rec.drawing = false;
        if (this.recs[this.layout.focus] !== rec) this.hideIds(rec);
      });
      return;
    }
    rec.note.leave();
    const show = el("button.button", { type: "button" }, t("panes.show", { title: tabTitle(hash) }));
    show.addEventListener("click", () => this.focus(this.recs.indexOf(rec)));
    rec.body.replaceChildren(el("div.pane-placeholder", show));
  }

  /** Element ids live only in the focused pane (two notes side by side would repeat "note-title"...): the other
   * pane keeps them as data-pane-id until it is focused again. */
  hideIds(rec) {
    for (const n of rec.body.querySelectorAll("[id]")) { n.dataset.paneId = n.id; n.removeAttribute("id"); }
    for (const n of rec.body.querySelectorAll("[aria-labelledby]")) { n.dataset.paneLabelledby = n.getAttribute("aria-labelledby"); n.removeAttribute("aria-labelledby"); }
  }

  showIds(rec) {
    for (const n of rec.body.querySelectorAll("[data-pane-id]")) { n.id = n.dataset.paneId; delete n.dataset.paneId; }
    for (const n of rec.body.querySelectorAll("[data-pane-labelledby]")) { n.setAttribute("aria-labelledby", n.dataset.paneLabelledby); delete n.dataset.paneLabelledby; }
  }

  /** Pane `i` takes the focus: the URL shows its active tab (replacing the entry: focusing is not a navigation). */
  focus(i) {
    if (i < 0 || !this.layout || i === this.layout.focus) return;
    this.layout.focus = i;
    this.save();
    this.draw();
    this.show({ replace: true });
  }

  /** The URL goes to the focused pane's active tab; its body is drawn again when it shows something else. */
  show({ replace = false } = {}) {
    const hash = L.activeHash(this.layout);
    const rec = this.focused;
    if (rec.shown && rec.shown !== hash && rec.body.scrollTop) { // the tab left: where it was scrolled to
      rec.scrolls.set(rec.shown, rec.body.scrollTop);
      if (rec.scrolls.size > L.MAX_TABS) rec.scrolls.delete(rec.scrolls.keys().next().value);
    }
    if (location.hash !== hash) {
      if (replace && this.focused.shown === hash) {
        history.replaceState(null, "", hash);
        document.title = `${tabTitle(hash)} - ${t("app.name")}`;
        this.onFocus(hash);
      } else go(hash, { replace });
    } else if (this.focused.shown !== hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  }

  // ---- the actions (commands, the strip, links) -------------------------------------------------------------
  openInNewTab(hash) { L.openTab(this.layout, hash); this.save(); this.draw(); this.show(); }

  newTab() { this.openInNewTab(this.home()); }

  activate(j) {
    const pane = this.layout.panes[this.layout.focus];
    if (j < 0 || j >= pane.tabs.length) return;
    pane.active = j;
    this.save();
    this.draw();
    this.show();
  }

  close(pane = this.layout.focus, index = this.layout.panes[pane].active) {
    const before = this.recs.length;
    this.closed.push(L.closeTab(this.layout, pane, index, this.home()));
    if (this.closed.length > 20) this.closed.shift();
    if (this.recs.length !== this.layout.panes.length) {
      const gone = this.recs.splice(pane, 1)[0];
      gone.leave?.();
      gone.el.remove();
      this.recs.forEach((r, i) => { r.body.id = `pane-body-${i}`; r.sig = null; });
    }
    this.save();
    this.draw();
    this.show({ replace: true });
    if (before !== this.recs.length || document.activeElement === document.body) this.focusActiveTab();
  }

  reopen() {
    const closed = this.closed.pop();
    if (!closed) return;
    L.reopenTab(this.layout, closed);
    this.save();
    this.draw();
    this.show();
  }

  cycle(delta) { L.cycleTab(this.layout, delta); this.save(); this.draw(); this.show(); }

  goto(n) { if (L.gotoTab(this.layout, n)) { this.save(); this.draw(); this.show(); } }

  split() {
    if (!L.splitRight(this.layout)) return;
    this.fit();
    const moved = this.recs.splice(this.recs.length - 1, 1)[0]; // the new pane goes right of the focused one
    this.recs.splice(this.layout.focus, 0, moved);
    this.recs.forEach((r, i) => { r.body.id = `pane-body-${i}`; r.sig = null; this.group.append(r.el); });
    this.save();
    this.draw();
    this.show({ replace: true });
  }

  /** Tabs follow their files when the tree moves or deletes some: `tree.refresh(moved)` (tree-ops.js settle:
   * `moved(path)` -> the new path, or null once deleted) also relocates the tabs. The focused tab is left to
   * settle, which sends the URL after its file (a deleted one: the vault's home). */
  followMoves(tree) {
    const refresh = tree.refresh.bind(tree);
    tree.refresh = (moved) => {
      if (moved && this.vault) this.relocate(moved);
      return refresh(moved);
    };
  }

  relocate(moved) {
    const current = L.activeHash(this.layout);
    const move = (hash) => {
      const r = parseRoute(hash);
      if (r.view !== "note" || !r.path || r.vault !== this.vault) return hash;
      const now = moved(r.path);
      if (now === r.path) return hash;
      return now ? noteHref(r.vault, now, r.heading) : hash === current ? hash : null;
    };
    if (!L.relocate(this.layout, move)) return;
    this.save();
    this.draw();
    this.recs.forEach((rec, i) => { if (i !== this.layout.focus) this.background(rec, i); });
  }

  focusActiveTab() { this.focused.list.querySelector('[aria-selected="true"]')?.focus(); }

  /** Language changed: titles and labels again; every pane's note is drawn again when shown. */
  relabel() {
    for (const rec of this.recs) {
      rec.note.current = null;
      rec.shown = null;
      rec.sig = null;
      for (const [b, key] of [[rec.newTab, "panes.newTab"], [rec.split, "panes.splitRight"]]) { b.setAttribute("aria-label", t(key)); b.title = t(key); }
    }
    if (this.layout) this.draw();
  }

  onTabClick(e, rec) {
    const tab = e.target.closest('[role="tab"]');
    if (!tab) return;
    const i = this.recs.indexOf(rec);
    const j = Number(tab.dataset.index);
    if (e.target.closest(".tab-close")) { this.close(i, j); return; }
    this.focus(i);
    this.activate(j);
  }

  /** The WAI-ARIA tabs pattern: arrows (wrapping), Home/End move and activate; Delete closes. */
  onTabKey(e, rec) {
    const tab = e.target.closest('[role="tab"]');
    if (!tab) return;
    const n = this.layout.panes[this.recs.indexOf(rec)].tabs.length;
    const j = Number(tab.dataset.index);
    const to = { ArrowRight: (j + 1) % n, ArrowLeft: (j - 1 + n) % n, Home: 0, End: n - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      this.activate(to);
      this.focusActiveTab();
    } else if (e.key === "Delete") {
      e.preventDefault();
      this.close(this.recs.indexOf(rec), j);
      this.focusActiveTab();
    }
  }

  /** Where a link or a file of the tree points (a hash of the app), or null. */
  target(node) {
    if (!(node instanceof Element) || node.closest(".tab-strip")) return null;
    const item = node.closest('[role="treeitem"][data-href^="#/"]'); // a row of the tags or bookmarks tree
    if (item) return item.dataset.href;
    const a = node.closest('a[href^="#/"]');
    if (a && !a.classList.contains("is-unresolved") && a.closest("#app")) return a.getAttribute("href");
    const li = node.closest('#tree [role="treeitem"]');
    const v = this.vaultOf();
    if (li && li.dataset.type !== "dir" && li.dataset.path && v && !node.closest(".tree-menu-btn")) return noteHref(v, li.dataset.path);
    return null;
  }

  /** Mod+click and middle click on a link or a file of the tree open it in a new tab; a middle click on a tab
   * closes it. Capture phase: before the tree's and the note's own click handlers, which would navigate. */
  listen() {
    document.addEventListener("click", (e) => {
      if (e.button !== 0 || !(e.ctrlKey || e.metaKey) || !this.layout) return;
      const hash = this.target(e.target);
      if (!hash) return;
      e.preventDefault();
      e.stopPropagation();
      this.openInNewTab(hash);
    }, true);
    document.addEventListener("mousedown", (e) => { // no autoscroll on a middle click we handle
      if (e.button === 1 && (this.target(e.target) || e.target.closest?.('.tab-strip [role="tab"]'))) e.preventDefault();
    }, true);
    document.addEventListener("auxclick", (e) => {
      if (e.button !== 1 || !this.layout) return;
      const tab = e.target.closest?.('.tab-strip [role="tab"]');
      const hash = tab ? null : this.target(e.target);
      if (!tab && !hash) return;
      e.preventDefault();
      e.stopPropagation();
      if (tab) this.close(this.recs.findIndex((r) => r.list.contains(tab)), Number(tab.dataset.index));
      else this.openInNewTab(hash);
    }, true);
    // A phone (<= 700 px) shows one pane: the focused one (styles/panes.css); nothing else changes.
  }
}
