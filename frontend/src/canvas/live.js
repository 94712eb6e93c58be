// Live canvas: while a board is shown, the files it shows are polled every few seconds (read_file's version;
// a big file is asked at its end, an empty chunk while nothing changed) and the board is drawn again
// when a version moved. The web app has no push channel from the server (the index's file watcher stays in the
// server), so this is the smallest way to follow edits made in Obsidian or by an agent; only a visible tab polls.
import * as api from "../api/index.js";

export const EVERY_MS = 3000;
const MAX_FILES = 40; // files polled per round (the canvas first): a huge canvas follows only its first notes

/**
 * Poll until `alive()` is false. `versions()` gives the current {path -> {version, probe}}; `onChange()` is
 * awaited when one differs (a new version, or the file now missing or back), then polling goes on.
 */
export function watchVersions({ vault, alive, versions, onChange, every = EVERY_MS }) {
  const tick = async () => {
    if (!alive()) return;
    if (document.visibilityState === "visible" && (await changed(vault, versions()))) {
      if (!alive()) return;
      try { await onChange(); } catch { /* drawn again at the next change */ }
    }
    if (alive()) setTimeout(tick, every);
  };
  setTimeout(tick, every);
}

async function changed(vault, seen) {
  const entries = [...seen.entries()].slice(0, MAX_FILES);
  const now = await Promise.all(entries.map(async ([path, { probe }]) => {
    try {
      return (await api.readFile(vault, { path, offset: probe }, { quiet: true })).version;
    } catch (e) {
      return `!${e.code}`; // gone, or shorter than the probe offset (a 400): either way not what was drawn
    }
  }));
  return entries.some(([, { version }], i) => now[i] !== version && !(now[i] === "!network"));
}
