// Property types as Obsidian's properties view has them: the vault's .obsidian/types.json (obsidian-app.md §3.7,
// served as vaultConfig().property_types) first, else inferred from the value. Pure (unit-tested in node).

const LIST_NAMES = new Set(["tags", "tag", "aliases", "alias", "cssclasses"]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Widget kinds: "text", "list", "number", "checkbox", "date", "datetime", "object" (shown, not edited). */
export function propertyType(name, value, declared = {}) {
  const d = declared[name] ?? declared[String(name).toLowerCase()];
  if (d === "multitext" || d === "tags" || d === "aliases") return "list";
  if (d === "text" || d === "number" || d === "checkbox" || d === "date" || d === "datetime") return d;
  if (LIST_NAMES.has(String(name).toLowerCase())) return "list";
  if (Array.isArray(value)) return value.every((v) => v === null || typeof v !== "object") ? "list" : "object";
  if (value && typeof value === "object") return "object";
  if (typeof value === "boolean") return "checkbox";
  if (typeof value === "number") return "number";
  if (typeof value === "string" && DATE.test(value) && isRealDate(value)) return "date";
  if (typeof value === "string" && DATETIME.test(value) && isRealDate(value)) return "datetime";
  return "text";
}

/** `value` coerced to what a `type` widget edits (a list of strings, a boolean, "yyyy-mm-dd"…). */
export function asWidgetValue(type, value) {
  if (type === "list") return value == null || value === "" ? [] : (Array.isArray(value) ? value : [value]).map((v) => (v == null ? "" : String(v)));
  if (type === "checkbox") return value === true || value === "true";
  if (type === "number") return typeof value === "number" ? String(value) : value == null ? "" : String(value);
  if (type === "date") return typeof value === "string" ? value.slice(0, 10) : "";
  if (type === "datetime") return typeof value === "string" ? value.replace(" ", "T").slice(0, 16) : "";
  return value == null ? "" : String(value);
}

/** What a `type` widget's `raw` value is saved as in the YAML (a number, a list, null for an empty field…). */
export function fromWidgetValue(type, raw) {
  if (type === "list") return raw.map((s) => s.trim()).filter(Boolean);
  if (type === "checkbox") return Boolean(raw);
  if (type === "number") {
    if (String(raw).trim() === "") return null;
    const n = Number(raw);
    return Number.isFinite(n) ? n : String(raw);
  }
  if (type === "datetime") return raw ? (raw.length === 16 ? `${raw}:00` : raw) : null;
  return raw === "" ? null : raw;
}

/** True when `s` starts with a yyyy-mm-dd date that exists (2024-02-30 does not). */
export function isRealDate(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(s));
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A number field's text that is no number a note can hold (1e400 is Infinity): refused, never saved. */
export const badNumber = (raw) => String(raw).trim() !== "" && !Number.isFinite(Number(raw));

/**
 * The widget a `type` value is edited with: its own, or "text" when the value does not fit it (an impossible
 * date, a number field holding words): a date or number input would show such a value empty, and a save lose it.
 */
export function editAs(type, value) {
  if (value == null || value === "") return type;
  if (type === "date" || type === "datetime") return isRealDate(asWidgetValue(type, value)) ? type : "text";
  if (type === "number") return badNumber(asWidgetValue(type, value)) ? "text" : type;
  return type;
}
