// Errors in the assistant's thread (issue 19 item 5): a failure is a turn of the conversation, worded in the
// person's language from its stable code (services/error_codes.toml, i18n assistant.error.<code>), never a
// toast over Send. A code the catalog does not know shows the server's own message; the code itself is shown
// small under it (what to quote to an admin).
import { h } from "./h.js";

/**
 * The words for a failure `err` ({code, message, retryAfter} as api/http.js throws it, or an SSE `error`
 * event's data): `assistant.error.<code>` when the catalog has it ({s}: seconds to wait), else `err.message`.
 */
export function errorText(t, err) {
  const key = `assistant.error.${err?.code}`;
  const known = t(key, { s: err?.retryAfter ?? err?.details?.retry_after ?? "?" });
  if (known !== key) return known;
  return err?.message || t("assistant.error.unknown");
}

/** One error turn (a `div.error` with role alert): the words, then the code. Text nodes only. */
export function errorTurn(t, err) {
  const code = err?.code && err.code !== "network" ? err.code : null;
  return h("div", { class: "error error-turn", role: "alert" },
    h("p", { class: "error-text" }, errorText(t, err)),
    code ? h("p", { class: "error-code" }, t("assistant.error.code", { code })) : null);
}
