// Full-text search results (GET /api/search) as the main view. Snippets are plain text with
// <mark>…</mark> around matches: split on the markers and build text nodes + <mark> elements.
import { api } from "./api.js";
import { el, clear, icon } from "./dom.js";
import { t } from "./i18n.js";
import { noteHref, searchHref } from "./router.js";

const PAGE = 20;

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

export class SearchView {
  constructor(main) {
    this.main = main;
    this.ctrl = null;
  }

  async show(q, vault) {
    this.ctrl?.abort();
    document.title = `${q} - ${t("app.name")}`;
    const list = el("ol.search-hits");
    const status = el("p.search-status", { role: "status" }, q.trim() ? t("search.searching") : "");
    clear(this.main, el("section.search-view", { "aria-labelledby": "search-title" },
      el("h1.note-title", { id: "search-title", tabindex: "-1" }, t("search.results")),
      status, list));
    if (q.trim()) await this.page(q, vault, 0, list, status);
  }

  async page(q, vault, offset, list, status) {
    const ctrl = (this.ctrl = new AbortController());
    let data;
    try {
      data = await api("/api/search", { params: { q, vault, limit: PAGE, offset }, signal: ctrl.signal });
    } catch (e) {
      if (e.name !== "AbortError") status.textContent = e.message;
      return;
    }
    if (ctrl !== this.ctrl) return;
    status.textContent = data.total ? t("search.count", { n: data.total }) : t("search.none");
    if (data.warning) status.append(el("span.muted", ` (${data.warning})`));
    list.querySelector(":scope > .search-more")?.remove();
    for (const hit of data.hits) {
      list.append(el("li.search-hit",
        el("a.hit-title", { href: noteHref(hit.vault, hit.path, null, firstMatch(hit.snippet)) }, icon("note"), hit.title || hit.path),
        el("div.hit-path.muted", `${hit.vault} / ${hit.path}`),
        hit.snippet ? el("p.hit-snippet", highlight(hit.snippet)) : null,
        hit.tags?.length ? el("div.hit-tags", hit.tags.map((tag) => el("a.tag", { href: searchHref(`#${tag}`, hit.vault) }, `#${tag}`))) : null));
    }
    if (data.next_offset != null) {
      list.append(el("li.search-more", el("button.button", {
        type: "button", onclick: () => this.page(q, vault, data.next_offset, list, status),
      }, t("search.more"))));
    }
  }
}
