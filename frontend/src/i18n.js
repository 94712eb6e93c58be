// FR/EN from one catalog per language; the browser's language by default, the choice kept in localStorage.
import en from "./i18n/en.json";
import fr from "./i18n/fr.json";

const CATALOGS = { en, fr };
export const LANGUAGES = [["en", "English"], ["fr", "Français"]];
const KEY = "obsigate.lang";
let lang = pick();
const listeners = new Set();

function pick() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage off */ }
  if (saved && CATALOGS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (CATALOGS[base]) return base;
  }
  return "en";
}

export function getLang() { return lang; }

export function setLang(next) {
  if (!CATALOGS[next] || next === lang) return;
  lang = next;
  try { localStorage.setItem(KEY, next); } catch { /* storage off */ }
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

/** Calls fn(lang) after each switch; returns the function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** t("search.count", {n: 3}) -> "3 results" ({name} placeholders; the key itself when missing). */
export function t(key, vars) {
  const s = CATALOGS[lang][key] ?? CATALOGS.en[key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}

export function formatDate(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}
