// Sign-in form: POST /api/auth/session sets an HttpOnly SameSite=Strict cookie; nothing is stored here.
import * as api from "./api/index.js";
import { el } from "./dom.js";
import { t, getLang, setLang, onLangChange, LANGUAGES } from "./i18n.js";

/** Shows the form in `root`; resolves with the user once signed in. */
export function signIn(root, { expired = false } = {}) {
  return new Promise((resolve) => {
    const user = el("input", { id: "login-user", name: "username", autocomplete: "username", required: true, autocapitalize: "none", spellcheck: "false" });
    const pass = el("input", { id: "login-pass", name: "password", type: "password", autocomplete: "current-password", required: true });
    const submit = el("button.button.primary", { type: "submit" }, t("login.submit"));
    const msg = el("p.login-error", { role: "alert", hidden: true });
    const lang = el("select.lang-select.login-lang", { "aria-label": t("top.language") },
      LANGUAGES.map(([code, name]) => el("option", { value: code, selected: code === getLang(), lang: code }, name)));
    lang.addEventListener("change", () => setLang(lang.value));
    const title = el("h1", { id: "login-title" }, t("login.title"));
    const notice = expired ? el("p.notice", { role: "status" }, t("login.expired")) : null;
    const userLabel = el("label", { for: "login-user" }, t("login.username"));
    const passLabel = el("label", { for: "login-pass" }, t("login.password"));
    const stop = onLangChange(() => { // the form follows the language, typed text kept
      title.textContent = t("login.title");
      if (notice) notice.textContent = t("login.expired");
      userLabel.textContent = t("login.username");
      passLabel.textContent = t("login.password");
      if (!submit.disabled) submit.textContent = t("login.submit");
      lang.setAttribute("aria-label", t("top.language"));
      lang.value = getLang();
    });
    const form = el("form.login-card", { "aria-labelledby": "login-title", novalidate: true },
      lang,
      el("div.login-logo", el("img", { src: "/static/favicon.svg", alt: "", width: "40", height: "40" })),
      title, notice, userLabel, user, passLabel, pass, msg, submit);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!user.value || !pass.value) { (user.value ? pass : user).focus(); return; }
      submit.disabled = true;
      submit.textContent = t("login.busy");
      msg.hidden = true;
      try {
        const data = await api.signIn({ username: user.value, password: pass.value }, { quiet: true, auth401: false });
        root.hidden = true;
        root.replaceChildren();
        stop();
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
