// The assistant panel's skills (docs/assistant.md "Skills"): a picker in the bar (the skill sent with the next
// messages, kept for this tab), and a manager that lists the built-in skills and the person's own with a form
// to create, edit and delete theirs. The server keeps each person's skills apart (GET/POST/DELETE /api/ai/skills).
import { confirmDialog } from "../dialog.js";
import * as api from "../api/index.js";
import { h } from "./h.js";

const QUIET = { quiet: true, auth401: false }; // the panel shows its errors itself
const CURRENT = "obsigate.assistant.skill"; // this tab's chosen skill (the panel is redrawn on a language switch)
const session = {
  get() { try { return sessionStorage.getItem(CURRENT) || null; } catch { return null; } },
  set(id) { try { if (id) sessionStorage.setItem(CURRENT, id); else sessionStorage.removeItem(CURRENT); } catch { /* storage off */ } },
};
const ID_PATTERN = "[a-z0-9][a-z0-9_\\-]{0,39}"; // agent/skills.py ID_PATTERN

/** The form of one skill (new, or `skill` to edit). `save(body)` resolves true once saved. */
function skillForm(t, skill, { save, cancel }) {
  const field = (name, control, help) => h("label", { class: "skill-field" }, h("span", {}, t(`skills.${name}`)), control,
    help ? h("small", { class: "muted" }, help) : null);
  const id = h("input", { name: "id", required: true, pattern: ID_PATTERN, maxlength: "40", autocomplete: "off",
    spellcheck: "false", value: skill?.id || "", readonly: Boolean(skill) });
  const icon = h("input", { name: "icon", maxlength: "16", value: skill?.icon || "", placeholder: "✨", class: "skill-icon-input" });
  const description = h("input", { name: "description", required: true, maxlength: "200", value: skill?.description || "" });
  const prompt = h("textarea", { name: "prompt", required: true, maxlength: "4000", rows: "5" });
  prompt.value = skill?.prompt || "";
  const problem = h("p", { class: "error", role: "alert", hidden: true });
  const form = h("form", { class: "skill-form", "aria-label": skill ? t("skills.editTitle", { id: skill.id }) : t("skills.new") },
    h("div", { class: "skill-row" }, field("id", id, t("skills.idHelp")), field("icon", icon)),
    field("description", description), field("prompt", prompt), problem,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary" }, t("skills.save")),
      h("button", { type: "button", onclick: cancel }, t("skills.cancel"))));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const body = { id: id.value.trim(), description: description.value, prompt: prompt.value };
    if (icon.value.trim()) body.icon = icon.value.trim();
    const err = await save(body);
    if (err) { problem.textContent = err.message; problem.hidden = false; }
  });
  return { form, focus: () => (skill ? description : id).focus() };
}

/**
 * Wire the skills to the panel's controls `c` (model: the picker goes after it; conversations: the manager
 * goes after it). deps: `t`, `onError(err)`, `say(kind, text)` (a line in the conversation: "ok" or "error").
 * Returns `{load, ready, current, select, all, toggle, refused}` (`ready()`: the first load's promise;
 * `refused(err)`: see there).
 */
export function skillsPart(c, { t, onError, say }) {
  let skills = [];
  let selected = session.get();

  const picker = h("select", { id: "as-skill", "aria-label": t("skills.label"), title: t("skills.label"),
    onchange: () => select(picker.value || null) });
  const manageBtn = h("button", { type: "button", id: "as-skills", "aria-expanded": "false", "aria-controls": "as-skills-manager",
    onclick: () => toggle() }, t("skills.manage"));
  const own = h("ul", { class: "skill-list", "aria-label": t("skills.mine") });
  const builtins = h("ul", { class: "skill-list" });
  const formSlot = h("div", { class: "skill-form-slot" });
  const newBtn = h("button", { type: "button", class: "primary", id: "as-skill-new", onclick: () => edit(null) }, t("skills.new"));
  const manager = h("section", { class: "skills-manager", id: "as-skills-manager", hidden: true, "aria-label": t("skills.manage") },
    h("div", { class: "skills-head" }, h("h3", {}, t("skills.mine")), newBtn),
    formSlot, own,
    h("details", { class: "skills-builtin" }, h("summary", {}, t("skills.builtin")), builtins));
  c.model.after(picker);
  picker.after(manageBtn);
  c.conversations.after(manager);

  function label(s) { return `${s.icon} ${s.id}`; }

  function draw() {
    if (selected && !skills.some((s) => s.id === selected)) select(null); // deleted meanwhile
    picker.replaceChildren(h("option", { value: "" }, t("skills.none")),
      ...skills.map((s) => h("option", { value: s.id, title: s.description, selected: s.id === selected }, label(s))));
    picker.value = selected || "";
    picker.classList.toggle("on", Boolean(selected));
    const mine = skills.filter((s) => !s.builtin);
    own.replaceChildren(...mine.map((s) => h("li", { class: "skill", "data-id": s.id },
      h("span", { class: "skill-icon", "aria-hidden": "true" }, s.icon),
      h("span", { class: "skill-text" }, h("strong", {}, s.id), h("span", { class: "muted" }, s.description)),
      h("button", { type: "button", class: "skill-edit", "aria-label": t("skills.editTitle", { id: s.id }), onclick: () => edit(s) }, t("skills.edit")),
      h("button", { type: "button", class: "icon skill-delete", "aria-label": t("skills.delete", { id: s.id }),
        title: t("skills.delete", { id: s.id }), onclick: () => remove(s) }, "✕"))));
    if (!mine.length) own.append(h("li", { class: "muted" }, t("skills.empty")));
    builtins.replaceChildren(...skills.filter((s) => s.builtin).map((s) => h("li", { class: "skill" },
      h("span", { class: "skill-icon", "aria-hidden": "true" }, s.icon),
      h("span", { class: "skill-text" }, h("strong", {}, s.id), h("span", { class: "muted" }, s.description)))));
  }

  /** Fetch the skills again (resolves once drawn; a failure is shown and leaves the list as it was). */
  async function load() {
    try { skills = (await api.skills(QUIET)).skills; } catch (err) { onError(err); return; }
    draw();
  }

  /** Use skill `id` for the next messages (null: none); returns the skill, or null. */
  function select(id) {
    const skill = id ? skills.find((s) => s.id === id) || null : null;
    selected = skill ? skill.id : null;
    session.set(selected);
    picker.value = selected || "";
    picker.classList.toggle("on", Boolean(selected));
    return skill;
  }

  /**
   * A request the server refused (`err`: ApiError): when it refused the chosen skill (deleted meanwhile, in another
   * tab or by the server: `invalid_argument` on field "skill", agent/skills.py), the picker goes back to no skill,
   * the list is fetched again and the conversation says why. True when it was that refusal (it is then shown).
   */
  function refused(err) {
    if (err?.code !== "invalid_argument" || err.details?.field !== "skill") return false;
    const id = selected;
    select(null);
    say("error", t("assistant.skillGone", { id: id || "?" }));
    load();
    return true;
  }

  function toggle(open = manager.hidden) {
    manager.hidden = !open;
    manageBtn.setAttribute("aria-expanded", String(open));
    if (!open) formSlot.replaceChildren();
  }

  function edit(skill) {
    const { form, focus } = skillForm(t, skill, {
      save: async (body) => {
        try { await api.saveSkill(body, QUIET); } catch (err) { return err; }
        formSlot.replaceChildren();
        await load();
        say("ok", t("skills.saved", { id: body.id }));
        return null;
      },
      cancel: () => formSlot.replaceChildren(),
    });
    formSlot.replaceChildren(form);
    focus();
  }

  async function remove(skill) {
    const ok = await confirmDialog({ title: t("skills.deleteTitle"), message: t("skills.deleteMessage", { id: skill.id }), ok: t("skills.deleteOk"), danger: true });
    if (!ok) return;
    try { await api.deleteSkill(skill.id, QUIET); } catch (err) { onError(err); return; }
    await load();
    say("ok", t("skills.deleted", { id: skill.id }));
  }

  const ready = load();
  return { load, ready: () => ready, current: () => selected, select, all: () => skills, toggle, refused };
}
