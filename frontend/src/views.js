// The screens whose code loads on first use, in ONE place: main.js shows them (`load()` gives a module that
// exports show(main, route, app) -> optional clean-up, see main.js appContext()), router.js parses their
// routes (#/<name>?v=…&p=…), i18n.js merges their catalogs. Adding a screen: frontend/README.md.
// Each screen's style sheet is imported here too (it is part of app.css: a lazy chunk's CSS would not load).
import "./styles/graph.css";
import "./styles/backups.css";
import "./styles/settings.css";
import "./styles/bases.css"; // Obsidian Bases (bases/view.js): a .base file or an embed in any note
import graphEn from "./i18n/graph.en.json";
import graphFr from "./i18n/graph.fr.json";
import backupsEn from "./i18n/backups.en.json";
import backupsFr from "./i18n/backups.fr.json";
import settingsEn from "./i18n/settings.en.json";
import settingsFr from "./i18n/settings.fr.json";

const backups = { en: backupsEn, fr: backupsFr }; // the history and the trash share one catalog

/** name -> {load() -> Promise<module>, i18n: {en, fr}} */
export const VIEWS = {
  graph: { load: () => import("./graph/view.js"), i18n: { en: graphEn, fr: graphFr } },
  history: { load: () => import("./backups/history.js"), i18n: backups },
  trash: { load: () => import("./backups/trash.js"), i18n: backups },
  settings: { load: () => import("./settings/view.js"), i18n: { en: settingsEn, fr: settingsFr } },
};

/** Whether `name` (a route's first segment) is one of these screens. */
export const isView = (name) => Object.hasOwn(VIEWS, name);
