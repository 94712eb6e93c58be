// The panel's empty state when the default AI provider is not configured (issue 19 item 5): what to do, in the
// thread. The default one is what a message goes to unless picked otherwise; a keyless local provider (Ollama)
// counts as configured by the server even when nothing runs there, so "any configured" would hide the card.
// An admin gets a link to the AI settings (#/settings?tab=ai); anyone else is told to ask an admin. The
// admin flag comes from GET /api/me (with auth off everyone is admin, as the server treats them).
import * as api from "../api/index.js";
import { h } from "./h.js";

const QUIET = { quiet: true, auth401: false };

/** The default provider of the models list (GET /api/config/ai-models) when it is not configured, else null
 * (configured, or no list: its error is already in the conversation). */
export const unconfiguredDefault = (models) =>
  models?.providers?.find((p) => p.name === models.default_provider && !p.configured) || null;

/**
 * The empty-state card for `log` (the conversation), or null when a provider is configured. `onLink()` runs
 * when the admin follows the settings link (the shell closes the panel on a phone). Resolves the card.
 */
export async function emptyState(t, models, onLink) {
  const provider = unconfiguredDefault(models);
  if (!provider) return null;
  let admin = false;
  try { admin = Boolean((await api.me(QUIET))?.is_admin); } catch { /* signed out: not an admin */ }
  return h("section", { class: "assistant-empty", "aria-labelledby": "as-empty-title" },
    h("h2", { id: "as-empty-title" }, t("assistant.empty.title")),
    h("p", {}, t("assistant.empty.body", { provider: provider.label })),
    admin
      ? h("p", {}, h("a", { href: "#/settings?tab=ai", class: "assistant-empty-link", onclick: () => onLink?.() }, t("assistant.empty.admin")))
      : h("p", { class: "muted" }, t("assistant.empty.user")));
}

/** Put the empty state (if any: see emptyState) at the top of the conversation `log`. */
export async function showEmptyState(log, t, models) {
  const card = await emptyState(t, models);
  if (card) log.prepend(card);
}
