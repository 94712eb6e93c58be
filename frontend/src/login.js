// Sign-in form: POST /api/auth/session sets an HttpOnly SameSite=Strict cookie; nothing is stored here.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** Shows the form in `root`; resolves with the user once signed in. */
export function signIn(root, { expired = false } = {}) {
  return new Promise((resolve) => {
    const user = el("input", { id: "login-user", name: "username", autocomplete: "username", required: true, autocapitalize: "none", spellcheck: "false" });
    const pass = el("input", { id: "login-pass", name: "password", type: "password", autocomplete: "current-password", required: true });
    const submit = el("button.button.primary", { type: "submit" }, t("login.submit"));
    const msg = el("p.login-error", { role: "alert", hidden: true });
    const form = el("form.login-card", { "aria-labelledby": "login-title", novalidate: true },
      el("div.login-logo", el("img", { src: "/static/favicon.svg", alt: "", width: "40", height: "40" })),
      el("h1", { id: "login-title" }, t("login.title")),
      expired ? el("p.notice", { role: "status" }, t("login.expired")) : null,
      el("label", { for: "login-user" }, t("login.username")), user,
      el("label", { for: "login-pass" }, t("login.password")), pass,
      msg, submit);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!user.value || !pass.value) { (user.value ? pass : user).focus(); return; }
      submit.disabled = true;
      submit.textContent = t("login.busy");
      msg.hidden = true;
      try {
        const data = await api("/api/auth/session", {
          method: "POST", body: { username: user.value, password: pass.value }, quiet: true, auth401: false,
        });
        root.hidden = true;
        root.replaceChildren();
        resolve(data?.user || null);
      } catch (err) {
        msg.hidden = false;
        msg.textContent = err.status === 401 ? t("login.failed")
          : err.status === 429 && err.retryAfter != null ? t("error.rateLimited", { s: err.retryAfter }) : err.message;
        pass.value = "";
        pass.focus();
      } finally {
        submit.disabled = false;
        submit.textContent = t("login.submit");
      }
    });
    root.replaceChildren(el("main.login-page", form));
    root.hidden = false;
    user.focus();
  });
}
