// Where the assistant panel lives in the shell and how it opens and closes (issue 19 item 5). Part of the first
// page load (small): the panel itself (panel.js) still loads on first open.
// - Opening moves focus into it (the message box); Esc closes it and gives focus back to what opened it.
// - A shortcut reaches the message box from anywhere: Ctrl+Shift+A (Cmd+Shift+A on a Mac), opening the panel
//   if needed. Not one of Obsidian's default hotkeys (shared/reference/obsidian-app.md §6.3), nor the app's.
// - Wide screens (>= DOCK_MIN_PX): the panel is a column beside the note, which narrows (styles/assistant.css);
//   narrower it lies over the note; on a phone (<= PHONE_MAX_PX) it covers the screen and closes on navigation.

/** Narrowest viewport (CSS px) where the panel sits beside the note instead of over it. */
export const DOCK_MIN_PX = 1000;
/** Widest viewport (CSS px) treated as a phone: the panel closes when the route changes. */
export const PHONE_MAX_PX = 700;

/** Whether keydown `e` is the panel's shortcut (Ctrl or Cmd, Shift, A; no Alt). */
export const isAssistantShortcut = (e) =>
  (e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && (e.code === "KeyA" || e.key?.toLowerCase() === "a");

/**
 * Wire the panel's pane. deps: `pane` (the aside), `button` (the top bar's toggle), `shell` (gets
 * data-assistant="open|closed"), `mount()` (loads and mounts the panel once; a promise). Returns
 * `{open(), close({restoreFocus}), toggle(), focusInput()}`.
 */
export function assistantDock({ pane, button, shell, mount }) {
  let opener = null; // what had focus when the panel opened: it gets it back on Esc

  const input = () => pane.querySelector(".assistant-compose textarea");
  const setOpen = (open) => {
    pane.hidden = !open;
    shell.dataset.assistant = open ? "open" : "closed";
    button.setAttribute("aria-expanded", String(open));
  };

  async function open() {
    if (pane.hidden) {
      const from = document.activeElement;
      opener = from && from !== document.body && !pane.contains(from) ? from : button;
      setOpen(true);
    }
    await mount();
    focusInput();
  }

  function focusInput() {
    const box = input();
    if (box && !pane.hidden) box.focus();
  }

  function close({ restoreFocus = true } = {}) {
    if (pane.hidden) return;
    const hadFocus = pane.contains(document.activeElement);
    setOpen(false);
    if (restoreFocus && hadFocus) (opener?.isConnected ? opener : button).focus();
    opener = null;
  }

  const toggle = () => (pane.hidden ? open() : close());

  // Esc anywhere in the panel closes it, unless a list inside it (mentions, commands) used the key first.
  pane.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !e.defaultPrevented && !e.isComposing) { e.preventDefault(); close(); }
  });
  document.addEventListener("keydown", (e) => {
    if (!isAssistantShortcut(e) || !shell.isConnected) return;
    e.preventDefault();
    open();
  });
  window.addEventListener("hashchange", () => {
    if (window.matchMedia(`(max-width: ${PHONE_MAX_PX}px)`).matches) close({ restoreFocus: false });
  });
  button.setAttribute("aria-keyshortcuts", "Control+Shift+A Meta+Shift+A"); // the title says it (i18n top.assistant)
  setOpen(false);
  return { open, close, toggle, focusInput };
}
