// Tickable tasks in reading view (issue 19 item 1): a click (or Space on the focused box) toggles the item's
// source line between `[ ]` and `[x]` (a custom status such as `[/]` unticks to `[ ]`, as Obsidian does) and saves
// through the app's save path with its conflict check (save-source.js). Only the note's own boxes are
// tickable, not those of an embedded note.
import { splitFrontmatter } from "./frontmatter.js";
import { editSource } from "./save-source.js";

const ITEM = /^((?:\s*>)*\s*(?:[-*+]|\d+[.)])\s+\[)([^\]\n])(\].*)$/; // also inside quotes and callouts

/**
 * The source with the task on body line `line` (0-based; its text as shown was `shown`) set to `status`
 * (" " or "x"); the line is looked for by its text when lines moved since. null when it cannot be found.
 */
export function toggleTaskLine(source, line, shown, status) {
  const { bodyLine } = splitFrontmatter(source);
  const lines = source.split("\n");
  let at = bodyLine + line;
  if (lines[at] !== shown) {
    const same = lines.map((l, i) => (l === shown && i >= bodyLine ? i : -1)).filter((i) => i >= 0);
    if (same.length !== 1) return null;
    at = same[0];
  }
  const m = ITEM.exec(lines[at]);
  if (!m) return null;
  lines[at] = m[1] + status + m[3];
  return lines.join("\n");
}

/**
 * Makes the task boxes of `body` (rendered from note.content) tickable. note: {vault, path, version, content}
 * (version is updated after each save); ui: {t, dialog, onError(err), reload()}.
 */
export function tickableTasks(body, note, ui) {
  const lines = note.content.replace(/\r\n/g, "\n").split("\n");
  for (const box of body.querySelectorAll("input.task-list-item-checkbox[data-line]")) {
    if (box.closest(".embed-note")) continue;
    const li = box.closest("li");
    box.disabled = false;
    box.setAttribute("aria-label", li ? li.textContent.trim().slice(0, 200) || ui.t("render.task") : ui.t("render.task"));
    box.addEventListener("change", () => tick(box, li, lines, note, ui));
  }
}

async function tick(box, li, lines, note, ui) {
  const line = Number(box.dataset.line);
  const shown = lines[line];
  const status = box.checked ? "x" : " ";
  box.disabled = true;
  box.setAttribute("aria-busy", "true");
  try {
    const result = await editSource(note, (src) => toggleTaskLine(src, line, shown, status), ui);
    if (result.status === "saved") {
      note.version = result.version;
      lines[line] = shown.replace(ITEM, (_m, a, _c, b) => a + status + b);
      if (li) {
        li.dataset.task = status === "x" ? "x" : "";
        li.classList.toggle("is-checked", status === "x");
      }
    } else {
      box.checked = !box.checked;
      if (result.status === "reload") ui.reload();
    }
  } catch (err) {
    box.checked = !box.checked;
    ui.onError(err);
  } finally {
    box.disabled = false;
    box.removeAttribute("aria-busy");
    if (box.isConnected) box.focus({ preventScroll: true });
  }
}
