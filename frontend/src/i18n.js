// FR/EN from one catalog per language; the browser's language by default, the choice kept in localStorage.
import en from "./i18n/en.json";
import fr from "./i18n/fr.json";
// One file per feature beside the shell's catalog (i18n/<feature>.<lang>.json), so features do not share one file;
// the lazily loaded screens' catalogs come with their entry in views.js.
import treeEn from "./i18n/tree.en.json";
import treeFr from "./i18n/tree.fr.json";
import viewerEn from "./i18n/viewer.en.json";
import viewerFr from "./i18n/viewer.fr.json";
import searchEn from "./i18n/search.en.json";
import searchFr from "./i18n/search.fr.json";
import assistantEn from "./i18n/assistant.en.json";
import assistantFr from "./i18n/assistant.fr.json";
import skillsEn from "./i18n/skills.en.json";
import skillsFr from "./i18n/skills.fr.json";
import basesEn from "./i18n/bases.en.json";
import basesFr from "./i18n/bases.fr.json";
import canvasEn from "./i18n/canvas.en.json";
import canvasFr from "./i18n/canvas.fr.json";
import commandsEn from "./i18n/commands.en.json";
import commandsFr from "./i18n/commands.fr.json";
import navEn from "./i18n/nav.en.json";
import navFr from "./i18n/nav.fr.json";
import renderEn from "./i18n/render.en.json";
import renderFr from "./i18n/render.fr.json";
import liveeditEn from "./i18n/liveedit.en.json"; // edit in place: the note view's commands, the editor's buttons
import liveeditFr from "./i18n/liveedit.fr.json";
import panesEn from "./i18n/panes.en.json"; // tabs and split, bookmarks, the tags tree
import panesFr from "./i18n/panes.fr.json";
import planEn from "./i18n/plan.en.json"; // the assistant panel's plan box (assistant/plan.js)
import planFr from "./i18n/plan.fr.json";
import gaugeEn from "./i18n/gauge.en.json"; // the assistant's context gauge (assistant/gauge.js)
import gaugeFr from "./i18n/gauge.fr.json";

import { VIEWS } from "./views.js";

const CATALOGS = {
  en: { ...en, ...treeEn, ...viewerEn, ...searchEn, ...assistantEn },
  fr: { ...fr, ...treeFr, ...viewerFr, ...searchFr, ...assistantFr },
};
Object.assign(CATALOGS.en, skillsEn); // the assistant's skills and slash commands
Object.assign(CATALOGS.fr, skillsFr);
Object.assign(CATALOGS.en, basesEn); // Obsidian Bases (bases/view.js)
Object.assign(CATALOGS.fr, basesFr);
Object.assign(CATALOGS.en, canvasEn); // the canvas board (canvas/board.js, opened from the note view)
Object.assign(CATALOGS.fr, canvasFr);
Object.assign(CATALOGS.en, commandsEn, navEn); // the commands' names; the palette, switcher, daily notes (nav/)
Object.assign(CATALOGS.fr, commandsFr, navFr);
Object.assign(CATALOGS.en, renderEn); // the reading view's properties, tasks and previews (render/)
Object.assign(CATALOGS.fr, renderFr);
Object.assign(CATALOGS.en, liveeditEn);
Object.assign(CATALOGS.fr, liveeditFr);
Object.assign(CATALOGS.en, panesEn);
Object.assign(CATALOGS.fr, panesFr);
Object.assign(CATALOGS.en, planEn);
Object.assign(CATALOGS.fr, planFr);
Object.assign(CATALOGS.en, gaugeEn);
Object.assign(CATALOGS.fr, gaugeFr);
for (const view of Object.values(VIEWS)) for (const lang of Object.keys(CATALOGS)) Object.assign(CATALOGS[lang], view.i18n[lang]);
export const LANGUAGES = [["en", "English"], ["fr", "Français"]];
const KEY = "obsigate.lang";
let lang = pick();
const listeners = new Set();

function pick() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage off */ }
  if (saved && CATALOGS[saved]) return saved;
  const nav = globalThis.navigator; // none outside a browser (node --test)
  for (const l of nav?.languages || [nav?.language || "en"]) {
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
