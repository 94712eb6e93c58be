// The graph's search box, its show/hide switches and its groups (issue 19 item 6), as Obsidian's graph has them:
// the search lights the notes it matches (the rest dims), groups colour the notes matching their query (the
// first group wins), switches hide orphans (no link at all), attachments and links to notes not created yet.
// Queries: graph/query.js. Groups are kept per vault in localStorage; `tag:` terms ask the server which notes
// carry the tag (the vault's graph export filtered by tag, cached by the server until the vault changes).
import * as api from "../api/index.js";
import { el, clear, debounce } from "../dom.js";
import { t } from "../i18n.js";
import { GROUP_COLORS, assignGroups, matches, parseQuery, queryError, readGroups, tagsOf, writeGroups } from "./query.js";

const store = (() => { try { return localStorage; } catch { return null; } })();

/**
 * Fill `box` with the controls for the graph of `model` (view.js's model) and keep the worker told:
 * light(indexes | null) lights nodes, hide(Uint8Array | null) hides them, post(msg) sends a look message.
 * Returns {point(indexes | null)}: the node list's pointed rows, lit over the search's matches while pointed.
 */
export function displayPanel(box, { model, degree, here, light, hide, post }) {
  const n = model.labels.length;
  const tagSets = new Map(); // tag -> Set of paths, or a Promise while asked
  const tagged = (tag) => (tagSets.get(tag) instanceof Set ? tagSets.get(tag) : null);
  const needTags = async (tags) => {
    const missing = tags.filter((tag) => !tagSets.has(tag));
    for (const tag of missing) {
      tagSets.set(tag, api.graphExport(here.vault, { tag }, { quiet: true })
        .then((data) => tagSets.set(tag, new Set(data.notes)))
        .catch(() => tagSets.set(tag, new Set())));
    }
    await Promise.all(tags.map((tag) => tagSets.get(tag)));
    return missing.length > 0;
  };

  // ---- search
  const search = el("input.graph-search", {
    type: "search", id: "graph-search", autocomplete: "off", spellcheck: "false",
    "aria-label": t("graph.search"), placeholder: t("graph.searchPlaceholder"), "aria-describedby": "graph-search-count",
  });
  const count = el("span.graph-search-count.muted", { id: "graph-search-count", role: "status" });
  let found = null;
  let pointed = null;
  const relight = () => light(pointed ?? found);
  const runSearch = async () => {
    const terms = parseQuery(search.value);
    if (!terms.length) { found = null; count.textContent = ""; relight(); return; }
    const bad = queryError(terms); // a broken /regex/: said as the search box says it, nothing lit
    if (bad) {
      found = [];
      count.textContent = t("graph.searchBadRegex", bad);
      count.classList.add("is-error");
      delete box.dataset.matches;
      relight();
      return;
    }
    count.classList.remove("is-error");
    await needTags(tagsOf(terms));
    const hits = [];
    for (let i = 0; i < n; i++) if (!hidden?.[i] && matches(terms, model.paths[i], model.labels[i], tagged)) hits.push(i);
    found = hits;
    count.textContent = t("graph.searchCount", { n: hits.length.toLocaleString() });
    box.dataset.matches = String(hits.length);
    relight();
  };
  search.addEventListener("input", debounce(runSearch, 150));
  search.addEventListener("keydown", (e) => { if (e.key === "Escape" && search.value) { e.stopPropagation(); search.value = ""; runSearch(); } });

  // ---- show / hide
  let hidden = null;
  const has = (kind) => model.kinds.some((k) => k === kind);
  const show = { orphans: true, attachments: true, unresolved: true };
  const switchBox = (key, label) => {
    const input = el("input", { type: "checkbox", id: `graph-show-${key}`, checked: true });
    input.addEventListener("change", () => { show[key] = input.checked; applyHidden(); });
    return el("label.graph-check", input, el("span", label));
  };
  const applyHidden = () => {
    const mask = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      const kind = model.kinds[i];
      const off = i !== model.center && ((!show.orphans && degree[i] === 0) || (!show.attachments && kind === "attachment")
        || (!show.unresolved && kind === "unresolved"));
      if (off) { mask[i] = 1; any = true; }
    }
    hidden = any ? mask : null;
    box.dataset.hidden = String(mask.reduce((a, b) => a + b, 0));
    hide(hidden);
    if (found) runSearch();
  };

  // ---- groups
  let groups = readGroups(store, here.vault);
  const rows = el("ol.graph-groups", { id: "graph-groups" });
  const recolor = async () => {
    await needTags(tagsOf(groups.flatMap((g) => parseQuery(g.query))));
    const group = groups.length ? assignGroups(groups, model.paths, model.labels, tagged) : null;
    box.dataset.grouped = String(group ? group.reduce((a, b) => a + (b > 0), 0) : 0);
    post({ type: "look", group, groupColors: groups.map((g) => g.color) });
  };
  const save = debounce(() => { writeGroups(store, here.vault, groups); recolor(); }, 250);
  const drawRows = () => clear(rows, groups.map((g, i) => {
    const query = el("input.graph-group-query", { type: "text", value: g.query, "aria-label": t("graph.groupQuery", { n: i + 1 }), placeholder: t("graph.searchPlaceholder") });
    const color = el("input.graph-group-color", { type: "color", value: g.color, "aria-label": t("graph.groupColor", { n: i + 1 }) });
    const remove = el("button.graph-zoom-btn.graph-group-remove", { type: "button", "aria-label": t("graph.groupRemove", { n: i + 1 }), title: t("graph.groupRemove", { n: i + 1 }) }, "×");
    query.addEventListener("input", () => { g.query = query.value; save(); });
    color.addEventListener("input", () => { g.color = color.value; save(); });
    remove.addEventListener("click", () => {
      groups.splice(i, 1);
      drawRows();
      save();
      (rows.querySelectorAll(".graph-group-query")[Math.min(i, groups.length - 1)] || add).focus();
    });
    return el("li.graph-group", color, query, remove);
  }));
  const add = el("button.button.graph-group-add", { type: "button", id: "graph-add-group" }, t("graph.groupAdd"));
  add.addEventListener("click", () => {
    groups.push({ query: "", color: GROUP_COLORS[groups.length % GROUP_COLORS.length] });
    drawRows();
    rows.querySelector("li:last-child .graph-group-query").focus();
  });
  drawRows();
  if (groups.length) recolor();

  const options = el("details.graph-options", { id: "graph-options" },
    el("summary", t("graph.options")),
      el("div.graph-options-body",
        el("fieldset.graph-show", el("legend", t("graph.show")),
          switchBox("orphans", t("graph.showOrphans")),
          has("attachment") ? switchBox("attachments", t("graph.showAttachments")) : null,
          has("unresolved") ? switchBox("unresolved", t("graph.showUnresolved")) : null),
        el("fieldset.graph-group-set", el("legend", t("graph.groups")), rows, add,
          el("p.muted.graph-help", t("graph.queryHelp")))));
  options.addEventListener("keydown", (e) => { // an open panel over the picture: Esc closes it, focus back on its summary
    if (e.key !== "Escape" || !options.open) return;
    e.stopPropagation();
    options.open = false;
    options.querySelector("summary").focus();
  });
  clear(box, el("label.graph-field.graph-search-field", el("span", t("graph.searchLabel")), search), count, options);
  return {
    point(list) { pointed = list && list.length ? list : null; relight(); },
  };
}
