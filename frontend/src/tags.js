// Tags page (GET /api/tags): every tag of the vault with its note count; a tag opens its search.
import * as api from "./api/index.js";
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import { searchHref } from "./router.js";

export async function showTags(main, vault) {
  document.title = `${t("tags.title")} - ${t("app.name")}`;
  const list = el("ul.tag-cloud");
  const status = el("p.search-status", { role: "status" }, t("app.loading"));
  clear(main, el("section.search-view", { "aria-labelledby": "tags-title" },
    el("h1.note-title", { id: "tags-title", tabindex: "-1" }, t("tags.title")), status, list));
  let offset = 0;
  let total;
  do {
    const data = await api.tags({ vault, limit: 500, offset });
    total = data.total;
    for (const { tag, count } of data.tags) {
      // the accessible name starts with the visible text "#tag 2" (WCAG 2.5.3)
      list.append(el("li", el("a.tag", { href: searchHref(`#${tag}`, vault), "aria-label": `#${tag} ${t(count === 1 ? "tree.count.one" : "tree.count", { n: count })}` },
        `#${tag} `, el("span.tag-count", String(count)))));
    }
    offset = data.next_offset;
  } while (offset != null && offset < 5000);
  status.textContent = total ? t("tags.count", { n: total }) : t("tags.none");
}
