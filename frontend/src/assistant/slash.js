// The assistant's slash commands (docs/assistant.md "Slash commands"): typed in the message box, completed from a
// list that pops up on "/", run here in the browser and answered in the conversation (never sent to a model, not
// kept in the conversation's history). /help and /skill for everyone; /providers, /provider, /model and /keys for
// admins (others get a refusal; the server refuses their writes too). The rules are commands.js's.
import * as api from "../api/index.js";
import { h } from "./h.js";
import { COMMANDS, SKILL_OFF, enterPicks, findSkill, keyRows, parseSlash, providerRows, slashItems, usage } from "./commands.js";

const QUIET = { quiet: true, auth401: false };

/** `say(kind, text, rows)`: a command's answer in the conversation `log`; `kind` "ok" or "error"; `rows`: lines. */
export function sayer(log) {
  return (kind, text, rows = null) => {
    const box = kind === "error"
      ? h("div", { class: "error slash-out", role: "alert" }, text)
      : h("div", { class: "slash-out", role: "status" }, h("div", {}, text));
    if (rows?.length) box.append(h("ul", { class: "slash-rows" }, ...rows.map((r) => h("li", {}, ...[r].flat()))));
    log.append(box);
    log.scrollTop = log.scrollHeight;
    return box;
  };
}

/** What each command does, by name: `(arg, command) => Promise`; `isAdmin()` resolves whether the person is one. */
function runners(c, { t, say, skills, models, isAdmin }) {
  const usageError = (command) => say("error", t("slash.usage", { usage: usage(command) }));

  return {
    async help() {
      const admin = await isAdmin();
      say("ok", t("slash.help.title"), COMMANDS.map((cmd) => [h("code", {}, usage(cmd)), ` ${t(`slash.cmd.${cmd.name}`)}`,
        cmd.admin && !admin ? h("span", { class: "badge" }, t("slash.adminOnly")) : ""]));
      say("ok", t("slash.skills"), skills.all().map((s) => [h("code", {}, `/skill ${s.id}`), ` ${s.icon} ${s.description}`]));
      say("ok", t("slash.escape"));
    },
    async skill(arg, command) {
      if (!arg) {
        const on = skills.current();
        say("ok", on ? t("slash.skill.current", { id: on }) : t("slash.skill.noneOn"));
        usageError(command);
        return;
      }
      if (SKILL_OFF.includes(arg.toLowerCase())) { skills.select(null); say("ok", t("slash.skill.off")); return; }
      const found = findSkill(skills.all(), arg);
      if (!found) { say("error", t("slash.skill.unknown", { id: arg, ids: skills.all().map((s) => s.id).join(", ") })); return; }
      skills.select(found.id);
      say("ok", t("slash.skill.set", { label: `${found.icon} ${found.id}` }));
    },
    async providers() {
      const status = await api.aiStatus(QUIET);
      say("ok", t("slash.providers.title"), providerRows(status).map((p) => [
        h("span", { class: p.ok ? "slash-ok" : "slash-bad", "aria-label": t(p.ok ? "slash.providers.ok" : "slash.providers.bad") }, p.ok ? "✓" : "✕"),
        ` ${p.label} (${p.name})`, p.isDefault ? ` · ${t("slash.providers.default")}` : "",
        p.model ? ` · ${t("slash.providers.model", { model: p.model })}` : "", p.problem ? h("div", { class: "muted" }, p.problem) : ""]));
    },
    async provider(arg, command) {
      if (!arg) { usageError(command); return; }
      const status = await api.aiStatus(QUIET);
      const entry = status.providers.find((p) => p.name === arg.toLowerCase());
      if (!entry) { say("error", t("slash.provider.unknown", { name: arg, names: status.providers.map((p) => p.name).join(", ") })); return; }
      await api.setConfig({ ai_default_provider: entry.name }, QUIET);
      await models.load(); // the pickers show the new default, which the next message uses
      say("ok", t("slash.provider.set", { label: entry.label, name: entry.name }));
      if (!entry.configured) say("error", t("slash.provider.notConfigured", { problem: entry.problem }));
    },
    async model(arg, command) {
      if (!arg || /\s/.test(arg)) { usageError(command); return; }
      const provider = c.provider.value;
      await api.setConfig({ ai_default_models: { [provider]: arg } }, QUIET);
      await models.load();
      c.provider.value = provider; // stay on the provider the panel had
      models.fill(arg);
      say("ok", t("slash.model.set", { provider, model: arg }));
    },
    async keys() {
      const status = await api.aiStatus(QUIET);
      say("ok", t("slash.keys.title"), keyRows(status).map((k) => [`${k.label} (${k.name}): `,
        k.key ? h("code", {}, k.key) : h("span", { class: "muted" }, t(k.required ? "slash.keys.none" : "slash.keys.notNeeded")),
        k.key ? ` · ${t(`slash.keys.source.${k.source}`, { name: k.env })}` : ""]));
    },
  };
}

/**
 * Wire the commands to the panel's controls `c` (input, form, log, provider, model).
 * deps: `t`, `say` (sayer(c.log)), `skills` (skillsPart), `models` ({load, fill}: the panel's pickers).
 * Returns `{take(line)}`: true when `line` is a command (it is then run and the box cleared), false for a message.
 */
export function slashPart(c, { t, say, skills, models }) {
  const { input } = c;
  const menu = h("ul", { class: "slash-menu", id: "as-slash", role: "listbox", hidden: true, "aria-label": t("slash.menu") });
  c.form.prepend(menu);
  const list = { items: [], active: -1, moved: false }; // moved: an arrow chose the item, Enter picks it
  let me = null; // GET /api/auth/me, asked once

  async function isAdmin() {
    if (!me) me = api.me(QUIET).catch(() => null);
    return Boolean((await me)?.is_admin);
  }
  isAdmin(); // known before the first completion
  const commands = runners(c, { t, say, skills, models, isAdmin });

  // ---- completion --------------------------------------------------------------------------------------
  function context() {
    return {
      skills: skills.all(),
      providers: [...c.provider.options].map((o) => ({ name: o.value, label: o.textContent })),
      models: [...c.model.options].map((o) => o.value),
    };
  }

  async function refresh() {
    const value = input.value;
    const atEnd = input.selectionStart === value.length;
    const ctx = { ...context(), admin: await isAdmin() };
    if (input.value !== value) return; // typed on meanwhile: that input event redraws
    const items = atEnd ? slashItems(value, ctx) : null;
    if (!items?.length) { close(); return; }
    list.items = items;
    list.active = 0;
    list.moved = false;
    menu.replaceChildren(...items.map((item, i) => h("li", {
      role: "option", id: `as-slash-${i}`, class: "slash-option",
      onmousedown: (e) => { e.preventDefault(); choose(i); },
    }, h("span", { class: "slash-label" }, item.label),
    h("span", { class: "muted" }, item.command ? t(`slash.cmd.${item.command}`) : item.detail || ""),
    item.admin && !ctx.admin ? h("span", { class: "badge" }, t("slash.adminOnly")) : null)));
    menu.hidden = false;
    highlight();
  }

  function highlight() {
    menu.querySelectorAll("[role=option]").forEach((li, i) => li.setAttribute("aria-selected", String(i === list.active)));
    if (list.active >= 0) {
      input.setAttribute("aria-activedescendant", `as-slash-${list.active}`);
      menu.children[list.active]?.scrollIntoView({ block: "nearest" });
    }
  }

  function close() {
    if (menu.hidden) return;
    menu.hidden = true;
    list.items = [];
    list.active = -1;
    input.removeAttribute("aria-activedescendant");
  }

  function choose(i) {
    const item = list.items[i];
    if (!item) return;
    input.value = item.value;
    input.setSelectionRange(item.value.length, item.value.length);
    input.focus();
    close();
    if (item.value.endsWith(" ")) refresh(); // the command's arguments come next
  }

  /** Keys of the message box while it holds a command or the list is open (captured before the @-mentions'). */
  function onKey(e) {
    const enter = e.key === "Enter" && !e.shiftKey && !e.isComposing;
    const consume = () => { e.preventDefault(); e.stopImmediatePropagation(); };
    if (!menu.hidden) {
      const n = list.items.length;
      const item = list.items[list.active];
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        list.active = (list.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
        list.moved = true;
        highlight();
        consume();
      } else if (e.key === "Escape") {
        close();
        consume();
      } else if (e.key === "Tab" && item) {
        choose(list.active);
        consume();
      } else if (enter && item && (list.moved || enterPicks(input.value, list.items))) {
        choose(list.active); // a whole command runs at once; one that takes an argument lists its arguments
        if (!item.value.endsWith(" ")) take(input.value);
        consume();
      } else if (enter && parseSlash(input.value)) {
        take(input.value); // a whole command name, with or without arguments: runs as typed
        consume();
      }
      return;
    }
    // Enter on a command line runs it (a command is one line; Shift+Enter still breaks the line)
    if (enter && parseSlash(input.value)) { take(input.value); consume(); }
  }

  input.addEventListener("keydown", onKey, { capture: true }); // before the @-mentions' own keys
  input.addEventListener("input", refresh);
  input.addEventListener("blur", () => setTimeout(close, 150)); // a click on an option lands first

  // ---- running -----------------------------------------------------------------------------------------
  /** Run `line` if it is a command; true when it was one (the box is then cleared). */
  function take(line) {
    const parsed = parseSlash(line);
    if (!parsed) return false;
    input.value = "";
    close();
    c.log.append(h("div", { class: "msg user slash-echo" }, line.trim()));
    run(parsed).catch((err) => say("error", `${err.code || "error"}: ${err.message}`));
    return true;
  }

  async function run({ name, arg, command }) {
    if (!command) { say("error", t("slash.unknown", { cmd: `/${name}` })); return; }
    if (command.admin && !(await isAdmin())) { say("error", t("slash.refused", { cmd: `/${name}` })); return; }
    await commands[name](arg, command);
  }

  return { take };
}
