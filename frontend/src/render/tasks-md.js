// markdown-it plugin: Obsidian's task list items (obsidian-app.md §4 "tasks"). `- [ ]` is an open task; any
// other single character in the brackets is a checked box whose character is kept as the item's data-task
// (`[/]` in progress, `[-]` cancelled, `[>]` deferred…), the markup themes and Obsidian's API use:
//   <ul class="contains-task-list"><li class="task-list-item is-checked" data-task="x">
//     <input type="checkbox" class="task-list-item-checkbox" data-line="N" checked disabled> text
// data-line is the item's 0-based line in the text given to renderMarkdown (env.lineMap maps the comment-free
// text back to it), so reading view can tick the right source line (render/tasks.js).

const TASK = /^\[([^\]\n])\](?=\s|$)/u;

function parentList(tokens, index) {
  const level = tokens[index].level - 1;
  for (let i = index - 1; i >= 0; i--) if (tokens[i].level === level && tokens[i].nesting === 1) return tokens[i];
  return null;
}

/** The plugin (md.use(taskItems)); the renderer's `task_checkbox` rule draws the box. */
export function taskItems(md) {
  md.core.ruler.after("inline", "obsidian_tasks", (state) => {
    const tokens = state.tokens;
    const lineMap = state.env?.lineMap;
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i];
      if (inline.type !== "inline" || tokens[i - 1].type !== "paragraph_open" || tokens[i - 2].type !== "list_item_open") continue;
      const m = TASK.exec(inline.content);
      const first = inline.children?.[0];
      if (!m || !first || first.type !== "text" || !TASK.test(first.content)) continue;
      const status = m[1] === " " ? "" : m[1];
      first.content = first.content.slice(3).replace(/^[ \t]/, "");
      const box = new state.Token("task_checkbox", "input", 0);
      const item = tokens[i - 2];
      const line = item.map ? item.map[0] : null;
      box.meta = { status, line: line == null ? null : (lineMap ? lineMap[line] : line) };
      inline.children.unshift(box);
      item.attrSet("data-task", status);
      item.attrJoin("class", status ? "task-list-item is-checked" : "task-list-item");
      const list = parentList(tokens, i - 2);
      if (list && !/contains-task-list/.test(list.attrGet("class") || "")) list.attrJoin("class", "contains-task-list");
    }
  });
  md.renderer.rules.task_checkbox = (tokens, idx) => {
    const { status, line } = tokens[idx].meta;
    return `<input type="checkbox" class="task-list-item-checkbox" disabled${status ? " checked" : ""}${line == null ? "" : ` data-line="${line}"`}>`;
  };
}
