// Where the assistant panel lives in the shell and how it opens and closes (issue 19 item 5). Part of the first
// page load (small): the panel itself (panel.js) still loads on first open.
// - Opening moves focus into it (the message box); Esc closes it and gives focus back to what opened it.
// - A shortcut reaches the message box from anywhere: Mod+Shift+A (Ctrl, or Cmd on a Mac), opening the panel
//   if needed; the command "assistant:open" of the app's registry (commands/registry.js: the palette lists it).
//   Not one of Obsidian's default hotkeys (shared/reference/obsidian-app.md §6.3), nor the app's.
// - Wide screens (>= DOCK_MIN_PX): the panel is a column beside the note, which narrows (styles/assistant.css);
//   narrower it lies over the note; on a phone (<= PHONE_MAX_PX) it covers the screen and closes on navigation.

import { registerCommand, formatHotkey } from "../commands/registry.js";
import { t, onLangChange } from "../i18n.js";

/** The panel's hotkey, in the registry's notation. */
export const ASSISTANT_HOTKEY = "Mod+Shift+A";
/** Narrowest viewport (CSS px) where the panel sits beside the note instead of over it. */
export const DOCK_MIN_PX = 1000;
/** Widest viewport (CSS px) treated as a phone: the panel closes when the route changes. */
export const PHONE_MAX_PX = 700;

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
  // a newer shell (after signing in again) replaces this one's command: same id
  registerCommand({ id: "assistant:open", name: () => t("assistant.command.open"), hotkeys: [ASSISTANT_HOTKEY],
    section: "view", when: () => shell.isConnected, run: () => open() });
  window.addEventListener("hashchange", () => {
    if (window.matchMedia(`(max-width: ${PHONE_MAX_PX}px)`).matches) close({ restoreFocus: false });
  });
  // the title shows the hotkey as this platform writes it; after a language switch the shell sets the title
  // back to the plain label first, hence the microtask
  const showKeys = () => { button.title = `${t("top.assistant")} (${formatHotkey(ASSISTANT_HOTKEY)})`; };
  onLangChange(() => queueMicrotask(showKeys));
  showKeys();
  button.setAttribute("aria-keyshortcuts", /Mac|iPhone|iPad/.test(navigator.platform || "") ? "Meta+Shift+A" : "Control+Shift+A");
  setOpen(false);
  return { open, close, toggle, focusInput };
}
