// Search results as the main view (issue 11 item 5). Plain words go to the full-text index (GET /api/search:
// BM25, ranked snippets; a tag filter too); a filter full-text cannot express (regex, case, whole word, path
// globs, dates, a sort, or no words at all) switches to the exact search (GET /api/search/advanced). The
// filters live in the route (#/search?q=…&v=…&tag=…&re=1…) so reload and back/forward keep them.
// Snippets are plain text with <mark>…</mark> around matches: split on the markers and build text nodes +
// <mark> elements (never parsed as HTML).
// Obsidian's operators (tag:, path:, "phrase", -x, OR, /re/ …, issue 19) are parsed by the server from the same
// box; a query that does not parse is shown with its faulty character marked. Keyboard (search/keys.js): Down
// from the box enters the hits, Up/Down/Home/End move, Esc or Up on the first goes back to the box.
import * as api from "./api/index.js";
import { showError } from "./toast.js";
import { el, icon, debounce } from "./dom.js";
import { t, getLang, formatDate } from "./i18n.js";
import { go, noteHref, searchHref } from "./router.js";
import { nextFocus, errorParts } from "./search/keys.js";

const PAGE = 20;
const TEXTS = ["tag", "inc", "exc"]; // tag, include / exclude path globs
const DATES = ["ma", "mb", "ca", "cb"]; // modified after / before, created after / before
const SWITCHES = ["re", "cs", "ww"]; // regex, case-sensitive, whole word
const SORTS = ["path", "modified", "created", "size"]; // "" = relevance
/** The route's filter keys (router.js searchHref carries them). */
export const FILTER_KEYS = [...TEXTS, ...DATES, ...SWITCHES, "sort"];

/** "a <mark>b</mark> c" -> [text "a ", <mark>b</mark>, text " c"] (never parsed as HTML). */
export function highlight(snippet) {
  const out = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  let m;
  while ((m = re.exec(snippet))) {
    if (m.index > last) out.push(snippet.slice(last, m.index));
    out.push(el("mark", m[1]));
    last = re.lastIndex;
  }
  if (last < snippet.length) out.push(snippet.slice(last));
  return out;
}

/** The first highlighted words of a snippet: the note opens scrolled to them. */
function firstMatch(snippet) {
  const m = /<mark>([\s\S]*?)<\/mark>/.exec(snippet || "");
  return m ? m[1].trim().slice(0, 100) : null;
}

/** The route's filters that are set: {tag: "x", re: "1", …}. */
export function readFilters(params) {
  const f = {};
  for (const k of FILTER_KEYS) {
    const v = params?.get(k)?.trim();
    if (v) f[k] = v;
  }
  return f;
}

/** "Projects/**, {a,b}/*.md" -> ["Projects/**", "{a,b}/*.md"]: a comma inside braces belongs to its glob. */
export function splitGlobs(text) {
  const out = [];
  let depth = 0;
  let cur = "";
  for (const c of text || "") {
    if (c === "," && !depth) { out.push(cur); cur = ""; continue; }
    if (c === "{") depth++;
    else if (c === "}" && depth) depth--;
    cur += c;
  }
  out.push(cur);
  return out.map((g) => g.trim()).filter(Boolean);
}

const tagOf = (f) => f.tag?.replace(/^#/, "") || null;

/** Full-text knows words and a tag; anything else needs the exact search. */
function exact(q, f) {
  return !q.trim() || [...SWITCHES, ...DATES, "inc", "exc", "sort"].some((k) => f[k]);
}

function exactParams(q, vault, f, offset) {
  const p = new URLSearchParams({ q, limit: String(PAGE), offset: String(offset) });
  const set = (k, v) => { if (v) p.append(k, v); };
  set("vault", vault);
  set("tag", tagOf(f));
  set("sort", f.sort);
  set("regex", f.re && "true");
  set("case_sensitive", f.cs && "true");
  set("whole_word", f.ww && "true");
  for (const g of splitGlobs(f.inc)) p.append("include_paths", g);
  for (const g of splitGlobs(f.exc)) p.append("exclude_paths", g);
  set("modified_after", f.ma);
  set("modified_before", f.mb);
  set("created_after", f.ca);
  set("created_before", f.cb);
  return p;
}

/** Operators listed under "Search syntax": [example, i18n key under search.syntax.]. */
const SYNTAX = [
  ["tag:#work", "tag"], ["path:Projects", "path"], ["file:2024", "file"], ['"exact words"', "phrase"],
  ["-word", "not"], ["a OR b", "or"], ["(a b) OR c", "group"], ["line:(a b)", "line"], ["section:(a b)", "section"],
  ["task-todo:call", "task"], ["/\\d{4}/", "regex"], ["match-case:Bob", "case"],
];

/** The error box's content: a query that does not parse shows where (its faulty character marked). */
function errorContent(e, q) {
  const head = [el("strong", t("search.error")), " ", e.message, el("code.muted", ` ${e.code || ""}`)];
  if (e.code === "invalid_query" && e.details?.position != null) {
    const [before, at, after] = errorParts(e.details.query ?? q, e.details.position);
    return [...head, el("div.search-error-query", `${t("search.errorAt", { n: e.details.position + 1 })} `,
      el("code", before, el("mark.search-error-at", at), after))];
  }
  return [...head, ...(e.hint ? [el("div.muted", e.hint)] : [])]; // replaceChildren would write a null as "null"
}

export class SearchView {
  constructor(main) {
    this.main = main;
    this.ctrl = null;
    this.view = null;
    this.tagsFor = null;
    // The top bar's search box belongs to the shell; Down there enters the hits while they are on screen.
    document.addEventListener("keydown", (e) => {
      if (e.target?.id !== "search" || e.altKey || e.ctrlKey || e.metaKey || !this.onScreen()) return;
      this.moveFocus(-1, e);
    });
  }

  onScreen() {
    return Boolean(this.view && this.main.contains(this.view.root));
  }

  /** The hits' title links, in order. */
  hitLinks() {
    return [...this.view.list.querySelectorAll(":scope > .search-hit > a.hit-title")];
  }

  /** Apply a key from hit `index` (-1: the box) per search/keys.js nextFocus. */
  moveFocus(index, e) {
    const links = this.hitLinks();
    const to = nextFocus(index, e.key, links.length);
    if (to === null) return;
    e.preventDefault();
    if (to < 0) document.getElementById("search")?.focus();
    else links[to].focus();
  }

  async show(q, vault, params) {
    this.ctrl?.abort();
    this.q = q;
    this.vault = vault;
    this.filters = readFilters(params);
    document.title = `${q.trim() || t("search.results")} - ${t("app.name")}`;
    // Changing a filter only changes the route: the same form stays (focus and caret kept), the hits refresh.
    if (!this.view || !this.main.contains(this.view.root) || this.view.lang !== getLang()) {
      this.view = this.build();
      this.main.replaceChildren(this.view.root);
    }
    this.fill();
    this.loadTags(vault);
    const { list, status, error } = this.view;
    delete this.view.root.dataset.shown; // set to the query once its results (or error) are on screen
    list.replaceChildren();
    error.hidden = true;
    if (!q.trim() && !Object.keys(this.filters).length) {
      status.textContent = t("search.prompt");
      return;
    }
    status.textContent = t("search.searching");
    await this.page(0);
  }

  build() {
    const id = (k) => `sf-${k}`;
    const inputs = {};
    for (const k of TEXTS) {
      inputs[k] = el("input", { id: id(k), name: k, type: "text", autocomplete: "off", spellcheck: "false",
        placeholder: t(`search.placeholder.${k}`), list: k === "tag" ? "sf-tags" : null,
        "aria-describedby": k === "tag" ? null : "sf-glob-hint" });
    }
    for (const k of DATES) inputs[k] = el("input", { id: id(k), name: k, type: "date" });
    for (const k of SWITCHES) inputs[k] = el("input", { id: id(k), name: k, type: "checkbox" });
    inputs.sort = el("select", { id: id("sort"), name: "sort" },
      el("option", { value: "" }, t("search.sort.relevance")),
      SORTS.map((s) => el("option", { value: s }, t(`search.sort.${s}`))));
    const field = (k) => el("div.sf-field", el("label", { for: id(k) }, t(`search.filter.${k}`)), inputs[k]);

    const apply = (f) => go(searchHref(this.q, this.vault, f), { replace: true });
    const typed = debounce(() => apply(this.read()), 350);
    const form = el("form.sf-form", { "aria-label": t("search.filters") },
      el("div.sf-grid", field("tag"), field("inc"), field("exc"), field("sort")),
      el("p.sf-hint.muted", { id: "sf-glob-hint" }, t("search.globHint")),
      el("div.sf-grid", DATES.map(field)),
      el("div.sf-switches",
        SWITCHES.map((k) => el("label.sf-switch", inputs[k], t(`search.filter.${k}`))),
        el("button.button.sf-clear", { type: "button", onclick: () => apply({}) }, t("search.clear"))),
      el("datalist", { id: "sf-tags" }));
    form.addEventListener("submit", (e) => { e.preventDefault(); apply(this.read()); });
    form.addEventListener("input", (e) => { if (e.target.type === "text") typed(); });
    form.addEventListener("change", (e) => { if (e.target.type !== "text") apply(this.read()); });

    const count = el("span.sf-count");
    const details = el("details.search-filters", { open: Object.keys(this.filters).length > 0 },
      el("summary", icon("filter"), el("span", t("search.filters")), count), form);
    const status = el("p.search-status", { role: "status" });
    const error = el("div.search-error", { role: "alert", hidden: true });
    const list = el("ol.search-hits", { "aria-label": t("search.results") });
    list.addEventListener("keydown", (e) => {
      const index = this.hitLinks().indexOf(e.target);
      if (index >= 0) this.moveFocus(index, e);
    });
    const syntax = el("details.search-syntax",
      el("summary", t("search.syntax.title")),
      el("dl.search-syntax-list", SYNTAX.map(([code, key]) => [el("dt", el("code", code)), el("dd", t(`search.syntax.${key}`))])));
    const root = el("section.search-view", { "aria-labelledby": "search-title" },
      el("h1.note-title", { id: "search-title", tabindex: "-1" }, t("search.results")),
      details, syntax, status, error, list);
    return { root, inputs, count, details, status, error, list, lang: getLang() };
  }

  /** The form's filters (what is set). */
  read() {
    const f = {};
    for (const [k, input] of Object.entries(this.view.inputs)) {
      const v = input.type === "checkbox" ? (input.checked ? "1" : "") : input.value.trim();
      if (v) f[k] = v;
    }
    return f;
  }

  /** The form shows the route's filters (not the field being typed in: its caret stays put). */
  fill() {
    const f = this.filters;
    for (const [k, input] of Object.entries(this.view.inputs)) {
      if (input.type === "checkbox") input.checked = Boolean(f[k]);
      else if (input !== document.activeElement) input.value = f[k] || "";
    }
    const n = Object.keys(f).length;
    this.view.count.textContent = n ? ` (${n})` : "";
  }

  loadTags(vault) {
    if (this.tagsFor === vault) return;
    this.tagsFor = vault;
    const list = this.view.root.querySelector("#sf-tags");
    api.tags({ vault, limit: 500 }, { quiet: true })
      .then((data) => list.replaceChildren(...data.tags.map(({ tag, count }) => el("option", { value: tag, label: `#${tag} (${count})` }))))
      .catch(() => { this.tagsFor = null; }); // suggestions only: the field still works without them
  }

  async page(offset) {
    const { q, vault, filters: f } = this;
    const { list, status, error } = this.view;
    const ctrl = (this.ctrl = new AbortController());
    const isExact = exact(q, f);
    let data;
    try {
      // quiet: a bad regex, glob or date (400) is the person's typo, said once under the form, never a toast
      // per keystroke; anything else (rate limit, network) is also the app's usual toast
      data = isExact
        ? await api.searchAdvanced(exactParams(q, vault, f, offset), { signal: ctrl.signal, quiet: true })
        : await api.search({ q, vault, tag: tagOf(f), limit: PAGE, offset }, { signal: ctrl.signal, quiet: true });
    } catch (e) {
      if (e.name === "AbortError" || ctrl !== this.ctrl) return;
      if (e.status !== 400) showError(e);
      status.textContent = "";
      error.replaceChildren(...errorContent(e, q));
      error.hidden = false;
      this.view.root.dataset.shown = q;
      return;
    }
    if (ctrl !== this.ctrl) return;
    error.hidden = true;
    list.querySelector(":scope > .search-more")?.remove();
    const first = data.hits.map((hit) => this.hit(hit, isExact));
    list.append(...first);
    const shown = list.querySelectorAll(":scope > .search-hit").length;
    const parts = [data.total ? t("search.count", { n: data.total }) : t("search.none")];
    if (data.total > shown) parts.push(t("search.shown", { n: shown }));
    parts.push(t(isExact ? "search.engine.exact" : "search.engine.fulltext"));
    if (data.warning) parts.push(data.warning);
    if (data.timed_out) parts.push(t("search.timedOut"));
    status.textContent = parts.join(" · ");
    this.view.root.dataset.shown = q; // bench/ui.py's search measure waits for it
    if (data.next_offset != null) {
      list.append(el("li.search-more", el("button.button", {
        type: "button",
        onclick: async () => {
          const before = list.querySelectorAll(":scope > .search-hit").length;
          await this.page(data.next_offset);
          list.querySelectorAll(":scope > .search-hit")[before]?.querySelector("a")?.focus(); // keyboard: on to the new hits
        },
      }, t("search.more"))));
    }
  }

  hit(hit, isExact) {
    const meta = [`${hit.vault} / ${hit.path}`];
    if (isExact && hit.matches) meta.push(t("search.matches", { n: hit.matches }));
    if (isExact && hit.modified) meta.push(t("search.modifiedOn", { date: formatDate(hit.modified) }));
    return el("li.search-hit",
      el("a.hit-title", { href: noteHref(hit.vault, hit.path, null, firstMatch(hit.snippet)) }, icon("note"), hit.title || hit.path),
      el("div.hit-path.muted", meta.join(" · ")),
      hit.snippet ? el("p.hit-snippet", highlight(hit.snippet)) : null,
      hit.tags?.length ? el("div.hit-tags", hit.tags.map((tag) => el("a.tag", { href: searchHref("", hit.vault, { tag }) }, `#${tag}`))) : null);
  }
}
