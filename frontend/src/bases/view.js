// A base (Obsidian Bases, read-only): a .base file opened in the note pane, or embedded in a note by
// ![[x.base]] / ![[x.base#View]] or a ```base block. The server runs the view (GET /api/base/{vault}); this draws
// it as a table (columns in the file's order, sortable by a click or Enter on a header, groups when the view
// groups), cards or a list, with a view switcher, and keeps it live: a poll every POLL_MS while the page is
// visible costs a 304 until the vault's index version changes (the graph export's ETag scheme).
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { t, getLang } from "../i18n.js";
import { noteHref } from "../router.js";
import { cardImage, cellText, readChosenView, sortRows, writeChosenView } from "./model.js";

const POLL_MS = 4000;
let uid = 0; // one number per drawn base: stable ids for its controls (focus comes back to them after a redraw)

/** Opens a .base file in the note view `nv` (its breadcrumb and history/graph links reused). */
export function showBaseFile(nv, vault, path) {
  const name = path.split("/").pop().replace(/\.base$/i, "");
  const box = el("div.base-host");
  clear(nv.main, el("article.note.base-file", { "aria-labelledby": "note-title" },
    nv.breadcrumb(vault, path),
    el("div.note-head", el("h1.note-title", { id: "note-title", tabindex: "-1" }, name), el("div.note-actions", nv.viewLinks(vault, path))),
    box));
  clear(nv.outline, el("p.muted", t("side.noHeadings")));
  nv.loadBacklinks(vault, path, nv.seq); // the notes embedding this base
  mountBase(box, { vault, path, name });
}

/** Fills every not yet filled base embed of a rendered note (`.embed-base` boxes written by markdown.js). */
export function fillBases(root) {
  for (const box of root.querySelectorAll(".embed-base:not([data-filled])")) {
    box.dataset.filled = "1";
    const d = box.dataset;
    const name = (d.path || d.note || "").split("/").pop().replace(/\.(base|md)$/i, "");
    mountBase(box, { vault: d.vault, path: d.path || d.note, thisPath: d.this, block: d.path ? null : Number(d.block || 0), view: d.view || null, name, embedded: true });
  }
}

/** Draws the base at `path` into `box` and keeps it up to date while `box` stays in the page. */
export function mountBase(box, { vault, path, thisPath = null, block = null, view = null, name = "", embedded = false }) {
  // the view chosen last time for this base file comes back (a reload, or the file opened again); an embed or a
  // block shows the view it names, else the first, so a choice made on the file does not change every note embedding it
  const remembers = !embedded && !view;
  const remembered = remembers ? readChosenView(globalThis.localStorage, vault, path, block) : null;
  const state = { view: view || remembered, sort: null, version: null, data: null, id: ++uid };
  const region = el("section.base-view", { role: "region", "aria-label": t("bases.label", { name }), "aria-busy": "true" });
  clear(box, region);
  region.append(el("p.muted", t("app.loading")));
  const params = () => ({ path, view: state.view, this: thisPath, block });
  const load = async (poll) => {
    let data;
    try {
      data = await api.baseView(vault, params(), { quiet: true, auth401: !poll }); // a poll never sends anyone to sign in
    } catch (e) {
      if (poll) return; // a failed poll keeps what is shown; the next one tries again
      if (remembered && state.view === remembered && e.code === "not_found" && !state.data) { // that view is gone
        writeChosenView(globalThis.localStorage, vault, path, block, null);
        state.view = null;
        load(false);
        return;
      }
      region.removeAttribute("aria-busy");
      // a base that cannot be read, or a filter or formula that does not parse: one message for the view
      const says = e.code === "invalid_base" ? t("bases.invalid", { error: e.message }) : e.message;
      clear(region, el("p.notice", { role: "alert" }, says), e.hint ? el("p.muted", e.hint) : null);
      return;
    }
    if (poll && data.version === state.version && data.view.name === state.data?.view.name) return;
    state.version = data.version;
    state.data = data;
    draw(region, state, vault, embedded, (next) => {
      state.view = next; state.sort = null;
      if (remembers) writeChosenView(globalThis.localStorage, vault, path, block, next);
      load(false);
    });
  };
  load(false);
  const timer = setInterval(() => {
    if (!box.isConnected) { clearInterval(timer); return; }
    if (!document.hidden && state.data) load(true);
  }, POLL_MS);
}

function draw(region, state, vault, embedded, switchView) {
  const { data } = state;
  const v = data.view;
  const hadFocus = region.contains(document.activeElement) ? document.activeElement.id : null;
  region.removeAttribute("aria-busy");
  const count = v.shown < v.total ? t("bases.shownOf", { shown: v.shown, total: v.total }) : t(v.total === 1 ? "bases.result" : "bases.results", { n: v.total });
  const bar = el("div.base-toolbar", data.views.length > 1 ? switcher(data, switchView, embedded, state.id) : el("span.base-view-name", v.name),
    el("span.base-count.muted", { "aria-live": "polite" }, count));
  const notes = [
    v.shown_as !== v.type ? el("p.notice", { role: "note" }, t("bases.asTable", { type: v.type })) : null,
    v.filter_errors ? el("p.notice", { role: "note" }, t("bases.filterErrors", { n: v.filter_errors })) : null,
    v.errors.length ? el("p.notice.base-errors", { role: "note" }, t("bases.errors", { list: v.errors.join(" · ") })) : null,
  ];
  let body;
  if (!v.total) body = el("p.muted.base-empty", t("bases.empty"));
  else if (v.shown_as === "cards") body = cards(v, vault);
  else if (v.shown_as === "list") body = list(v, vault);
  else body = table(v, vault, state, () => draw(region, state, vault, embedded, switchView));
  clear(region, bar, notes, body);
  if (hadFocus) document.getElementById(hadFocus)?.focus();
}

function switcher(data, switchView, embedded, n) {
  const id = `base-${n}-view`;
  const select = el("select.base-switch", { id }, data.views.map((x) => el("option", { value: x.name, selected: x.name === data.view.name }, x.name)));
  select.addEventListener("change", () => switchView(select.value));
  return el("label.base-switch-label", { for: id }, el("span", embedded ? t("bases.viewShort") : t("bases.view")), select);
}

/** One cell as DOM: links to notes, chips for lists, checkboxes for booleans, dates in the app's language. */
export function cellNode(cell, vault, label) {
  if (cell == null) return "";
  if (Array.isArray(cell)) return el("span.base-chips", cell.map((c) => el("span.base-chip", cellNode(c, vault, label))));
  if (typeof cell === "boolean") return el("input", { type: "checkbox", checked: cell, disabled: true, "aria-label": `${label}: ${cell ? t("bases.yes") : t("bases.no")}` });
  if (typeof cell !== "object") return String(cell);
  if (cell.$ === "link") {
    return cell.path
      ? el("a.internal-link", { href: noteHref(vault, cell.path), dataset: { path: cell.path } }, cell.text)
      : el("span.internal-link.is-unresolved", { title: t("note.unresolved", { target: cell.text }) }, cell.text);
  }
  if (cell.$ === "date") return el("time", { datetime: cell.v }, formatCellDate(cell.v));
  if (cell.$ === "error") return el("span.base-error", { title: cell.v }, `⚠ ${cell.v}`);
  if (cell.$ === "image" && cell.v && !/^[a-z][a-z0-9+.-]*:/i.test(cell.v)) return el("img.base-image", { src: api.rawUrl(vault, cell.v), alt: cell.v, loading: "lazy" });
  return cellText(cell);
}

function formatCellDate(iso) {
  const time = iso.includes("T");
  const d = new Date(time ? iso : `${iso}T00:00`);
  if (Number.isNaN(d.getTime())) return iso;
  return time ? d.toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" }) : d.toLocaleDateString(getLang(), { dateStyle: "medium" });
}

function groupLabel(g, vault) {
  return g.key == null ? t("bases.none") : cellNode(g.key, vault, "");
}

function summaryRow(sums, columns, vault, cls = "tr.base-summary") {
  if (!Object.keys(sums || {}).length) return null;
  return el(cls, columns.map((c) => el("td", c.id in sums ? [el("span.base-summary-name", t("bases.summary")), " ", cellNode(sums[c.id], vault, c.label)] : "")));
}

function table(v, vault, state, redraw) {
  const head = el("tr", v.columns.map((c, i) => {
    const sorted = state.sort?.col === i;
    const btn = el("button.base-sort", { type: "button", id: `base-${state.id}-col-${i}` }, c.label);
    btn.addEventListener("click", () => {
      state.sort = { col: i, dir: sorted ? -state.sort.dir : 1 };
      redraw();
    });
    return el("th", { scope: "col", "aria-sort": sorted ? (state.sort.dir > 0 ? "ascending" : "descending") : "none" }, btn);
  }));
  const bodies = v.groups.map((g) => {
    const rows = state.sort ? sortRows(g.rows, state.sort.col, state.sort.dir) : g.rows;
    return el("tbody",
      v.grouped ? el("tr.base-group", el("th", { scope: "colgroup", colspan: v.columns.length }, groupLabel(g, vault), el("span.base-group-count.muted", ` ${g.rows.length}`))) : null,
      v.grouped ? summaryRow(g.summaries, v.columns, vault) : null,
      rows.map((r) => el("tr", r.cells.map((c, i) => el("td", cellNode(c, vault, v.columns[i].label))))));
  });
  return el("div.base-table-wrap", { tabindex: "0", role: "group", "aria-label": v.name },
    el("table.base-table", el("thead", head), bodies, v.grouped ? null : el("tfoot", summaryRow(v.summaries, v.columns, vault))));
}

function cards(v, vault) {
  return el("ul.base-cards", v.groups.flatMap((g) => g.rows.map((r) => {
    const img = cardImage(r.image);
    const [first, ...rest] = r.cells;
    let picture = null;
    if (img?.path) picture = el("img.base-card-image", { src: api.rawUrl(vault, img.path), alt: "", loading: "lazy" });
    else if (img?.colour) {
      picture = el("div.base-card-image.base-card-colour");
      picture.style.background = img.colour; // through the CSSOM: the CSP refuses style attributes
    }
    return el("li.base-card", picture,
      el("div.base-card-title", cellNode(first, vault, v.columns[0].label)),
      rest.length ? el("dl.base-card-props", rest.map((c, i) => c == null || c === "" ? null
        : [el("dt", v.columns[i + 1].label), el("dd", cellNode(c, vault, v.columns[i + 1].label))])) : null);
  })));
}

function list(v, vault) {
  return el("ul.base-list", v.groups.flatMap((g) => g.rows.map((r) => {
    const [first, ...rest] = r.cells;
    const extra = rest.map((c, i) => (c == null || c === "" ? null : [" · ", cellNode(c, vault, v.columns[i + 1].label)]));
    return el("li", cellNode(first, vault, v.columns[0].label), extra);
  })));
}
