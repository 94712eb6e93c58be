// The assistant's slash commands as rules, apart from their view (slash.js): the command table, how a line is
// read, what the completion list offers, and the few lines /providers and /keys print. No DOM: `node --test`.

/** The commands: `args` is the usage's argument (none: the command takes none); `admin`: admins only. */
export const COMMANDS = [
  { name: "help", args: "", admin: false },
  { name: "skill", args: "<id|off>", admin: false },
  { name: "providers", args: "", admin: true },
  { name: "provider", args: "<name>", admin: true },
  { name: "model", args: "<id>", admin: true },
  { name: "keys", args: "", admin: true },
];

/** The words that turn the skill off: `/skill off`. */
export const SKILL_OFF = ["off", "none"];

/**
 * A line the person typed, read as a command: `{name, arg, command}` (`command`: the table's entry, or null for
 * an unknown name), or null when it is a message. A line starting with "//" is a message that starts with "/".
 */
export function parseSlash(line) {
  const text = line.trim();
  if (!text.startsWith("/") || text.startsWith("//")) return null;
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(text);
  const name = m[1].toLowerCase();
  return { name, arg: m[2].trim(), command: COMMANDS.find((c) => c.name === name) || null };
}

/** The message to send for `line`: "//x" is sent as "/x"; any other line as it is. */
export function messageOf(line) {
  const text = line.trim();
  return text.startsWith("//") ? text.slice(1) : text;
}

/** `/name args` as the help and the errors show it. */
export function usage(command) {
  return command.args ? `/${command.name} ${command.args}` : `/${command.name}`;
}

/**
 * What the completion list offers while `value` is typed in the message box (the caret at its end), or null:
 * the commands whose name starts with what follows "/", then the arguments of /skill, /provider and /model.
 * `ctx`: `{skills: [{id, icon, description}], providers: [{name, label}], models: [string], admin: bool}`.
 * Items: `{value, label, detail, command?, admin?}` (`value`: the line the choice leaves in the box; `command`:
 * the name of a command item, whose description the view shows).
 */
export function slashItems(value, ctx) {
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\n")) return null;
  const m = /^\/(\S*)(\s+(\S*))?$/.exec(value);
  if (!m) return null;
  const [, typed, spaced, argTyped = ""] = m;
  if (!spaced) {
    const name = typed.toLowerCase();
    return COMMANDS.filter((c) => c.name.startsWith(name)).map((c) => ({
      value: c.args ? `/${c.name} ` : `/${c.name}`, label: usage(c), detail: null, command: c.name, admin: c.admin,
    }));
  }
  const want = argTyped.toLowerCase();
  const starts = (s) => String(s).toLowerCase().startsWith(want);
  const name = typed.toLowerCase();
  if (name === "skill") {
    const found = (ctx.skills || []).filter((s) => starts(s.id))
      .map((s) => ({ value: `/skill ${s.id}`, label: `${s.icon} ${s.id}`, detail: s.description }));
    return starts("off") ? [...found, { value: "/skill off", label: "off", detail: null }] : found;
  }
  if (!ctx.admin) return null; // an admin command's arguments are not offered to others
  if (name === "provider") {
    return (ctx.providers || []).filter((p) => starts(p.name))
      .map((p) => ({ value: `/provider ${p.name}`, label: p.name, detail: p.label }));
  }
  if (name === "model") {
    return (ctx.models || []).filter(starts).map((id) => ({ value: `/model ${id}`, label: id, detail: null }));
  }
  return null;
}

/**
 * Whether Enter on `value` picks the completion list's highlighted item (true) or runs the line as typed (false),
 * `items` being what the list offers (slashItems). Only an unfinished word picks: a name that is no command yet
 * (`/pro`), or an argument that is the start of an offered one (`/skill p`). A whole command name, alone or with
 * a space (`/provider`, `/skill   `), or an argument that is itself offered, runs as typed and gets its own
 * answer (a usage error included). docs/assistant.md §5: "Enter on a command line runs it".
 */
export function enterPicks(value, items) {
  const parsed = parseSlash(value);
  if (!parsed || !items?.length) return false;
  if (!parsed.command) return true;
  if (!parsed.arg) return false;
  const typed = `/${parsed.name} ${parsed.arg}`.toLowerCase();
  return !items.some((i) => i.value.trim().toLowerCase() === typed);
}

/** The skill named `arg` among `skills` (ids are lower case; what is typed is matched as such), or null. */
export function findSkill(skills, arg) {
  const id = arg.trim().toLowerCase();
  return skills.find((s) => s.id === id) || null;
}

/**
 * /providers as lines: `{name, label, ok, isDefault, model, problem}` per provider of `status`
 * (GET /api/ai/status), the default first.
 */
export function providerRows(status) {
  const rows = status.providers.map((p) => ({
    name: p.name, label: p.label, ok: Boolean(p.configured), isDefault: p.name === status.default_provider,
    model: p.default_model || null, problem: p.configured ? null : p.problem,
  }));
  return [...rows.filter((r) => r.isDefault), ...rows.filter((r) => !r.isDefault)];
}

/** /keys as rows: `{name, label, key, source, env, required}`; `key` is what the server shows (masked) or null. */
export function keyRows(status) {
  return status.providers.map((p) => ({
    name: p.name, label: p.label, key: p.key || null, source: p.key ? p.key_source : null,
    env: p.env?.api_key || null, required: Boolean(p.key_required),
  }));
}
