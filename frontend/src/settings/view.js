// Placeholder: this view is being built (issue 11); main.js loads it on demand through show(main, route, app).
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";

export async function show(main) {
  clear(main, el("section.search-view", el("p.muted", t("app.loading"))));
}
