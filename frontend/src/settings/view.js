// Settings (issue 11 item 8), #/settings?tab=prefs|files|ai|vaults|users.
// Everyone: language, theme, editor options (kept in this browser); their own files (files.js). Admins (and the local owner when auth is
// off, whom the server treats as admin): the AI providers (#cfg-ai: keys masked, set/replace/remove, base URL,
// default model, a Test call), the default provider and model with capability badges, the per-vault switch of
// dangerous AI tools, users and API keys. Every admin change goes to the server at once and applies to the
// next request there; nothing secret is kept in the page (a new API key is shown once, then dropped).
import * as api from "../api/index.js";
import { el, clear } from "../dom.js";
import { confirmDialog } from "../dialog.js";
import { t, getLang, setLang, LANGUAGES, formatDate } from "../i18n.js";
import { viewHref } from "../router.js";
import { toast, showError } from "../toast.js";
import { THEMES, FONT_SIZES, getTheme, setTheme, editorPrefs, setEditorPrefs } from "./prefs.js";
import { filesSection } from "./files.js";

const TABS = [["prefs", false], ["files", false], ["ai", true], ["vaults", true], ["users", true]];
const saved = () => toast(t("settings.saved"), { kind: "info", timeout: 2500 });

export async function show(main, route, app) {
  document.title = `${t("top.settings")} - ${t("app.name")}`;
  // With auth off there is no user: the server treats the local owner as admin (auth/principal.ANONYMOUS).
  const admin = app.health?.auth ? Boolean(app.user?.is_admin) : true;
  const tabs = TABS.filter(([, adminOnly]) => admin || !adminOnly).map(([name]) => name);
  const tab = tabs.includes(route.params?.get("tab")) ? route.params.get("tab") : "prefs";
  const body = el("div.settings-body");
  const nav = tabs.length > 1
    ? el("nav.settings-tabs", { "aria-label": t("settings.sections") }, tabs.map((name) =>
      el("a.settings-tab", { href: viewHref("settings", { tab: name }), id: `settings-tab-${name}`, "aria-current": name === tab ? "page" : null },
        t(`settings.tab.${name}`))))
    : null;
  clear(main, el("section.settings-view", { "aria-labelledby": "settings-title" },
    el("h1", { id: "settings-title" }, t("settings.title")), nav, body));
  if (tab === "prefs") return preferences(body);
  try {
    if (tab === "files") await filesSection(body);
    else if (tab === "ai") await aiSection(body);
    else if (tab === "vaults") await vaultsSection(body);
    else if (tab === "users") await usersSection(body, app);
  } catch (err) {
    body.append(el("p.settings-error", { role: "alert" }, err.message || String(err)));
  }
  return undefined;
}

// ---- small builders --------------------------------------------------------------------------------------

/** A labelled control: `<div class="field"><label for=id>…</label>control[hint]</div>`. */
function field(label, control, hint) {
  return el("div.field", el("label", { for: control.id }, label), control, hint ? el("p.field-hint", hint) : null);
}

function checkbox(id, label, checked, onchange, attrs = {}) {
  const box = el("input", { type: "checkbox", id, checked, ...attrs });
  if (onchange) box.addEventListener("change", () => onchange(box.checked, box));
  return el("label.check", { for: id }, box, el("span", label));
}

function radios(name, legend, options, current, onchange) {
  return el("fieldset.field.radio-group", el("legend", legend), options.map(([value, label]) => {
    const input = el("input", { type: "radio", name, id: `${name}-${value}`, value, checked: value === current });
    input.addEventListener("change", () => { if (input.checked) onchange(value); });
    return el("label.check", { for: input.id }, input, el("span", label));
  }));
}

function button(label, attrs = {}, onclick) {
  const b = el("button.button", { type: "button", ...attrs }, label);
  if (onclick) b.addEventListener("click", () => busy(b, onclick));
  return b;
}

/** Run `fn` with `b` disabled; an API error was already shown by the API client, anything else is shown here. */
async function busy(b, fn) {
  b.disabled = true;
  try { await fn(); } catch (err) { if (!err?.status && err?.code !== "network") showError(err); } finally { b.disabled = false; }
}

/** After a redraw, put the focus back on the control that had it (same id). */
function refocus(id) {
  if (id) document.getElementById(id)?.focus();
}

/** The capability flags a model has, as badges (the assistant panel's look and words). */
export function badges(capabilities) {
  return el("span.badges", { role: "group", "aria-label": t("settings.ai.capabilities") },
    Object.entries(capabilities || {}).filter(([, on]) => on).map(([flag]) => el("span.badge", t(`capability.${flag}`))));
}

// ---- preferences (everyone) ------------------------------------------------------------------------------

function preferences(body) {
  const prefs = editorPrefs();
  const theme = radios("pref-theme", t("settings.theme"), THEMES.map((n) => [n, t(`settings.theme.${n}`)]), getTheme(), setTheme);
  const language = radios("pref-lang", t("settings.language"), LANGUAGES, getLang(), setLang); // main.js redraws on change
  const font = el("select", { id: "pref-font" }, FONT_SIZES.map((n) => el("option", { value: n, selected: n === prefs.fontSize }, `${n} px`)));
  font.addEventListener("change", () => { setEditorPrefs({ fontSize: Number(font.value) }); saved(); });
  body.append(
    el("section.settings-section", { id: "cfg-prefs", "aria-labelledby": "cfg-prefs-title" },
      el("h2", { id: "cfg-prefs-title" }, t("settings.prefs.title")),
      el("p.muted", t("settings.prefs.intro")),
      language, theme,
      el("fieldset.field", el("legend", t("settings.editor")),
        checkbox("pref-wrap", t("settings.editor.wrap"), prefs.lineWrapping, (on) => { setEditorPrefs({ lineWrapping: on }); saved(); }),
        checkbox("pref-lines", t("settings.editor.lineNumbers"), prefs.lineNumbers, (on) => { setEditorPrefs({ lineNumbers: on }); saved(); }),
        field(t("settings.editor.fontSize"), font),
        el("p.field-hint", t("settings.editor.hint")))));
  // the top bar's theme button changes it too: keep the choice shown here in step
  const follow = () => { const input = document.getElementById(`pref-theme-${getTheme()}`); if (input) input.checked = true; };
  window.addEventListener("obsigate:theme", follow);
  return () => window.removeEventListener("obsigate:theme", follow);
}

// ---- AI providers (admin) --------------------------------------------------------------------------------

async function aiSection(body) {
  const section = el("section.settings-section", { id: "cfg-ai", "aria-labelledby": "cfg-ai-title" });
  body.append(section);
  const draw = async (focusId) => {
    const [config, models] = await Promise.all([api.config(), api.aiModels()]);
    clear(section,
      el("h2", { id: "cfg-ai-title" }, t("settings.ai.title")),
      el("p.muted", t("settings.ai.intro")),
      defaultsCard(config, models, draw),
      el("div.provider-grid", config.status.providers.map((p) =>
        providerCard(p, config, models.providers.find((m) => m.name === p.name), draw))));
    refocus(focusId);
  };
  await draw();
}

function defaultsCard(config, models, draw) {
  const status = config.status;
  const providerSelect = el("select", { id: "ai-default-provider" }, models.providers.map((p) =>
    el("option", { value: p.name, selected: p.name === status.default_provider },
      p.configured ? p.label : `${p.label} (${t("assistant.not_configured")})`)));
  const modelSelect = el("select", { id: "ai-default-model" });
  const caps = el("div.caps", { "aria-live": "polite" });
  const fillModels = () => {
    const p = models.providers.find((x) => x.name === providerSelect.value);
    clear(modelSelect, (p?.models || []).map((m) => el("option", { value: m.name, selected: m.name === p.default_model }, m.name)));
    showCaps();
  };
  const showCaps = () => {
    const p = models.providers.find((x) => x.name === providerSelect.value);
    clear(caps, badges(p?.models.find((m) => m.name === modelSelect.value)?.capabilities));
  };
  providerSelect.addEventListener("change", fillModels);
  modelSelect.addEventListener("change", showCaps);
  fillModels();
  const current = status.providers.find((p) => p.name === status.default_provider);
  const save = button(t("settings.ai.saveDefaults"), { id: "ai-save-defaults", class: "button primary" }, async () => {
    const body = { ai_default_provider: providerSelect.value };
    if (modelSelect.value) body.ai_default_models = { [providerSelect.value]: modelSelect.value };
    await api.setConfig(body);
    saved();
    await draw("ai-save-defaults");
  });
  return el("div.settings-card.ai-defaults", { "aria-labelledby": "ai-defaults-title", role: "group" },
    el("h3", { id: "ai-defaults-title" }, t("settings.ai.defaults")),
    el("p.muted", { id: "ai-default-now" }, t("settings.ai.defaultNow", {
      provider: current?.label || status.default_provider, model: current?.default_model || "—",
    }), status.default_configured ? null : el("span.chip.warn", t("assistant.not_configured"))),
    el("div.field-row", field(t("settings.ai.provider"), providerSelect), field(t("settings.ai.model"), modelSelect), el("div.actions", save)),
    caps);
}

/** Where a key the server did not store comes from (GET /api/ai/status `key_source`). */
const KEY_SOURCE = { env: "settings.ai.fromEnv", dotenv: "settings.ai.fromDotenv" };

function providerCard(p, config, listed, draw) {
  const id = (what) => `${what}-${p.name}`;
  const keyInput = el("input", { type: "password", id: id("key"), autocomplete: "off", spellcheck: "false", placeholder: t(p.key ? "settings.ai.keyReplace" : "settings.ai.keyNew") });
  const urlInput = el("input", { type: "url", id: id("url"), value: config.ai_base_urls[p.name] || "", placeholder: p.base_url || "https://…/v1", spellcheck: "false" });
  const modelInput = el("input", { type: "text", id: id("model"), value: config.ai_default_models[p.name] || "", placeholder: p.default_model || "", list: id("models"), spellcheck: "false" });
  const known = el("datalist", { id: id("models") }, (listed?.models || []).map((m) => el("option", { value: m.name })));
  const result = el("output.test-result", { id: id("test-result"), for: id("test"), "aria-live": "polite" });
  const post = async (body, focusId) => { await api.setConfig(body); saved(); await draw(focusId); };

  const keyState = p.key
    ? el("span", el("code.key-mask", p.key), " ", el("span.muted", KEY_SOURCE[p.key_source] ? t(KEY_SOURCE[p.key_source], { name: p.env.api_key }) : t("settings.ai.stored")))
    : el("span.muted", p.key_required ? t("settings.ai.noKey") : t("settings.ai.noKeyOptional"));
  const saveKey = button(t("settings.ai.keySave"), { id: id("key-save") }, async () => {
    if (!keyInput.value.trim()) { keyInput.focus(); return; }
    const value = keyInput.value;
    keyInput.value = ""; // the key leaves the page with this request
    await post({ api_keys: { [p.name]: value } }, id("key-save"));
  });
  const removeKey = p.key_source === "file" ? button(t("settings.ai.keyRemove"), { id: id("key-remove"), class: "button danger" }, async () => {
    if (!(await confirmDialog({ title: t("settings.ai.keyRemoveTitle"), message: t("settings.ai.keyRemoveAsk", { provider: p.label }), ok: t("settings.ai.keyRemove") }))) return;
    await post({ api_keys: { [p.name]: null } }, id("test"));
  }) : null;
  const saveSettings = button(t("settings.save"), { id: id("save") }, () =>
    post({ ai_base_urls: { [p.name]: urlInput.value.trim() || null }, ai_default_models: { [p.name]: modelInput.value.trim() || null } }, id("save")));
  const test = button(t("settings.ai.test"), { id: id("test"), class: "button primary" }, async () => {
    result.className = "test-result";
    result.textContent = t("settings.ai.testing");
    const r = await api.testProvider({ provider: p.name });
    result.classList.add(r.ok ? "ok" : "fail");
    result.textContent = r.ok
      ? t("settings.ai.testOk", { ms: r.latency_ms, model: r.model })
      : t("settings.ai.testFailed", { code: r.code, message: r.message });
  });

  return el("article.settings-card.provider-card", { id: id("provider"), "data-provider": p.name, "aria-labelledby": id("title") },
    el("header.card-head",
      el("h3", { id: id("title") }, p.label),
      el(p.configured ? "span.chip.ok" : "span.chip.warn", p.configured ? t("settings.ai.ready") : t("assistant.not_configured"))),
    p.problem ? el("p.field-hint.problem", p.problem) : null,
    el("div.field",
      el("label", { for: keyInput.id }, t("settings.ai.key")),
      el("p.key-state", { id: id("key-state") }, keyState),
      el("div.inline", keyInput, saveKey, removeKey)),
    field(t("settings.ai.baseUrl"), urlInput, p.base_url_source === "env" ? t("settings.ai.fromEnv", { name: p.env.base_url }) : null),
    field(t("settings.ai.defaultModel"), modelInput, p.model_source === "env" ? t("settings.ai.fromEnv", { name: p.env.model }) : null),
    known,
    badges(listed?.models.find((m) => m.name === (p.default_model || ""))?.capabilities),
    el("div.actions", saveSettings, test),
    el("p.field-hint", t("settings.ai.testHint")),
    result);
}

// ---- vaults (admin) --------------------------------------------------------------------------------------

async function vaultsSection(body) {
  const config = await api.config();
  body.append(el("section.settings-section", { id: "cfg-vaults", "aria-labelledby": "cfg-vaults-title" },
    el("h2", { id: "cfg-vaults-title" }, t("settings.vaults.title")),
    el("p.muted", t("settings.vaults.intro")),
    el("ul.vault-list", config.vaults.map((v) => el("li.settings-card.vault-row", { "data-vault": v.name },
      el("div.vault-name", el("strong", v.name), v.read_only ? el("span.chip", t("settings.vaults.readOnly")) : null),
      checkbox(`destructive-${v.name}`, t("settings.vaults.destructive"), v.destructive_tools, async (on, box) => {
        box.disabled = true;
        try {
          await api.setConfig({ ai_destructive_tools: { [v.name]: on } });
          toast(t(on ? "settings.vaults.on" : "settings.vaults.off", { vault: v.name }), { kind: "info", timeout: 3000 });
        } catch {
          box.checked = !on; // not saved: show what is in force
        } finally {
          box.disabled = false;
        }
      }, { role: "switch" }))))));
}

// ---- users and API keys (admin) --------------------------------------------------------------------------

async function usersSection(body, app) {
  // titled from the start: the list loads after (a section named by a missing title has no role)
  const section = el("section.settings-section", { id: "cfg-users", "aria-labelledby": "cfg-users-title" },
    el("h2", { id: "cfg-users-title" }, t("settings.users.title")));
  body.append(section);
  const draw = async (focusId) => {
    const data = await api.users();
    clear(section,
      el("h2", { id: "cfg-users-title" }, t("settings.users.title")),
      app.health?.auth ? null : el("p.notice", { role: "note" }, t("settings.users.authOff")),
      newUserForm(data.vaults, draw),
      el("ul.user-list", { "aria-label": t("settings.users.list") }, data.users.map((u) => userCard(u, data, draw))),
      data.users.length ? null : el("p.muted", t("settings.users.none")));
    refocus(focusId);
    return section;
  };
  await draw();
}

/** Vault checkboxes: "All vaults" (`*`) and one per declared vault; `value()` is what the API takes. */
function vaultPicker(prefix, declared, granted, onchange) {
  const all = granted === null;
  const boxes = declared.map((name) => el("input", { type: "checkbox", id: `${prefix}-v-${name}`, value: name, checked: all || granted.includes(name), disabled: all }));
  const star = el("input", { type: "checkbox", id: `${prefix}-v-all`, checked: all });
  const value = () => (star.checked ? ["*"] : boxes.filter((b) => b.checked).map((b) => b.value));
  star.addEventListener("change", () => { for (const b of boxes) { b.disabled = star.checked; if (star.checked) b.checked = true; } onchange?.(value()); });
  for (const b of boxes) b.addEventListener("change", () => onchange?.(value()));
  const node = el("fieldset.field.vault-picker", el("legend", t("settings.users.vaults")),
    el("label.check", { for: star.id }, star, el("span", t("settings.users.allVaults"))),
    boxes.map((b) => el("label.check", { for: b.id }, b, el("span", b.value))));
  return { node, value };
}

function newUserForm(declared, draw) {
  const name = el("input", { id: "new-user-name", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true, maxlength: "64" });
  const pass = el("input", { id: "new-user-pass", type: "password", autocomplete: "new-password", required: true, minlength: "8" });
  const admin = checkbox("new-user-admin", t("settings.users.admin"), false);
  const vaults = vaultPicker("new-user", declared, [], null);
  const submit = el("button.button.primary", { type: "submit", id: "new-user-create" }, t("settings.users.create"));
  const form = el("form.settings-card.new-user", { "aria-labelledby": "new-user-title" },
    el("h3", { id: "new-user-title" }, t("settings.users.new")),
    el("div.field-row", field(t("settings.users.name"), name), field(t("settings.users.password"), pass, t("settings.users.passwordHint"))),
    admin, vaults.node, el("div.actions", submit));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!name.value.trim() || pass.value.length < 8) { (name.value.trim() ? pass : name).focus(); return; }
    busy(submit, async () => {
      await api.createUser({
        name: name.value.trim(), password: pass.value, admin: admin.querySelector("input").checked, vaults: vaults.value(),
      });
      toast(t("settings.users.created", { name: name.value.trim() }), { kind: "info", timeout: 3000 });
      await draw("new-user-name");
    });
  });
  return form;
}

function userCard(u, data, draw) {
  const me = u.name.toLowerCase() === String(data.me).toLowerCase();
  const slug = `user-${u.name}`;
  const patch = async (body) => { await api.updateUser(u.name, body); saved(); };
  const admin = checkbox(`${slug}-admin`, t("settings.users.admin"), u.admin, async (on, box) => {
    try { await patch({ admin: on }); } catch { box.checked = !on; }
  }, { disabled: me, title: me ? t("settings.users.notYourself") : null });
  const vaults = vaultPicker(slug, data.vaults, u.vaults, async (value) => {
    try { await patch({ vaults: value }); } catch { await draw(); }
  });
  const remove = button(t("settings.users.delete"), { id: `${slug}-delete`, class: "button danger", disabled: me, title: me ? t("settings.users.notYourself") : null }, async () => {
    if (!(await confirmDialog({ title: t("settings.users.deleteTitle"), message: t("settings.users.deleteAsk", { name: u.name }), ok: t("settings.users.delete") }))) return;
    await api.deleteUser(u.name);
    toast(t("settings.users.deleted", { name: u.name }), { kind: "info", timeout: 3000 });
    await draw();
  });
  const label = el("input", { id: `${slug}-key-label`, maxlength: "100", placeholder: t("settings.keys.labelHint") });
  const create = button(t("settings.keys.create"), { id: `${slug}-key-create` }, async () => {
    const made = await api.createKey(u.name, { label: label.value.trim() });
    const section = await draw();
    section.querySelector(`[data-user="${CSS.escape(u.name)}"] .keys`)?.prepend(keyOnce(made.key));
  });
  return el("li.settings-card.user-card", { "data-user": u.name, "aria-labelledby": `${slug}-title` },
    el("header.card-head",
      el("h3", { id: `${slug}-title` }, u.name, me ? el("span.muted", ` (${t("settings.users.you")})`) : null),
      u.admin ? el("span.chip.ok", t("settings.users.admin")) : null,
      el("span.muted.created", t("settings.users.since", { date: formatDate(u.created_at) }))),
    admin, vaults.node,
    el("div.keys", { role: "group", "aria-labelledby": `${slug}-keys-title` },
      el("h4", { id: `${slug}-keys-title` }, t("settings.keys.title")),
      u.keys.length ? el("ul.key-list", u.keys.map((k) => keyRow(u, k, draw))) : el("p.muted", t("settings.keys.none")),
      el("div.inline", field(t("settings.keys.label"), label), create)),
    el("div.actions", remove));
}

function keyRow(u, k, draw) {
  const expired = k.expires_at && Date.parse(k.expires_at) <= Date.now();
  const state = k.revoked_at ? t("settings.keys.revoked", { date: formatDate(k.revoked_at) })
    : expired ? t("settings.keys.expired", { date: formatDate(k.expires_at) })
    : k.expires_at ? t("settings.keys.expires", { date: formatDate(k.expires_at) }) : t("settings.keys.noExpiry");
  const revoke = k.revoked_at ? null : button(t("settings.keys.revoke"), { class: "button danger", "aria-label": t("settings.keys.revokeNamed", { id: k.key_id }) }, async () => {
    if (!(await confirmDialog({ title: t("settings.keys.revokeTitle"), message: t("settings.keys.revokeAsk", { label: k.label || k.key_id, name: u.name }), ok: t("settings.keys.revoke") }))) return;
    await api.deleteKey(u.name, k.key_id);
    toast(t("settings.keys.revokedNow"), { kind: "info", timeout: 3000 });
    await draw();
  });
  return el(`li.key-row${k.revoked_at || expired ? ".inactive" : ""}`, { "data-key": k.key_id },
    el("div.key-main", el("strong", k.label || t("settings.keys.noLabel")), " ", el("code", k.key_id)),
    el("div.key-meta.muted", t("settings.keys.created", { date: formatDate(k.created_at) }), " · ",
      k.last_used_at ? t("settings.keys.lastUsed", { date: formatDate(k.last_used_at) }) : t("settings.keys.neverUsed"), " · ", state),
    revoke);
}

/** A new key, shown this once with a Copy button; Done (or leaving the page) drops it. */
function keyOnce(key) {
  const value = el("input.key-value", { readonly: true, value: key, id: "new-key-value", spellcheck: "false", "aria-label": t("settings.keys.newKey") });
  const box = el("div.key-once", { role: "status" },
    el("p", el("strong", t("settings.keys.onceTitle")), " ", t("settings.keys.once")),
    el("div.inline", value,
      button(t("settings.keys.copy"), { id: "new-key-copy" }, async () => {
        value.select();
        try {
          await navigator.clipboard.writeText(key);
          toast(t("settings.keys.copied"), { kind: "info", timeout: 2500 });
        } catch {
          toast(t("settings.keys.copyByHand"), { kind: "info", timeout: 5000 });
        }
      }),
      button(t("settings.keys.done"), { id: "new-key-done" }, () => box.remove())));
  queueMicrotask(() => value.select());
  return box;
}
