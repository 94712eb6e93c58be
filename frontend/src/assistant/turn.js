// One request's view in the assistant panel: its tool steps folded into "N steps", its answer rendered as
// sanitised markdown (the app's `render`: markdown.js and DOMPurify; links to notes open them), and a footer
// slot for what belongs to this message (the confirmation cards; others may add their buttons there).
// Drawn from the reducer's turn (state.js); a resumed run keeps drawing into the same view.

import { h } from "./h.js";
import { STATUS_ICON, answerText, stepsSummary } from "./state.js";

/** How often a streaming answer is rendered again, at most (ms); a long answer whose render costs more waits
 * RENDER_SHARE times its last render's cost, so rendering never takes more than 1/RENDER_SHARE of the page's
 * time while it streams (a 17 KB answer costs tens of ms per render on a loaded 2-core machine). */
export const RENDER_EVERY_MS = 120;
export const RENDER_SHARE = 5;

/** The icon's spoken name: the step's state when the catalog has one (rejected, not run...), else its status. */
function stepName(t, s) {
  const key = `step.${s.state}`;
  const named = s.state ? t(key) : key;
  return named !== key ? named : t(`step.${s.status}`);
}

/** Only our own same-origin paths are used as a part's URL (the server gives `/api/...`); anything else is none. */
const ownUrl = (url) => (typeof url === "string" && url.startsWith("/api/") ? url : null);

/** A part's text line, as the model reads it: `image/png 1568×784, name` (size in px, else in KB). */
function partLine(p) {
  const size = p.width && p.height ? ` ${p.width}×${p.height}` : p.size ? ` ${Math.max(1, Math.round(p.size / 1024))} KB` : "";
  return `${p.mime_type}${size}${p.name ? `, ${p.name}` : ""}`;
}

/**
 * A step's parts (issue 21): an image inline (a link to it around it), a PDF or a file as a link that downloads
 * it; a part with no URL (not kept: over the caps) as its text line. The bytes come from the server by URL.
 */
export function partsView(t, parts) {
  const items = parts.map((p) => {
    const url = ownUrl(p.url);
    const line = partLine(p);
    if (p.kind === "image" && url) {
      const img = h("img", { src: url, alt: p.name || line, loading: "lazy", width: p.width || null, height: p.height || null });
      return h("a", { class: "step-part step-image", href: url, target: "_blank", rel: "noopener", title: line }, img);
    }
    if (url) {
      const label = p.kind === "pdf" ? t("assistant.part.pdf", { name: p.name || "PDF" }) : t("assistant.part.file", { name: p.name || line });
      // downloaded, not opened: the server sends a result's bytes under a sandboxing CSP (no PDF viewer there)
      const download = (p.name || "").split("/").pop() || true;
      return h("a", { class: `step-part step-${p.kind}`, href: url, download, title: line }, label);
    }
    return h("span", { class: "step-part muted" }, p.note ? `${line} (${p.note})` : line);
  });
  return h("div", { class: "step-parts" }, ...items);
}

/**
 * A request's view. `render(markdown) -> Node` (sanitised; without it, text); `painted()` after each render of
 * the answer (the panel keeps the log scrolled to its end). Returns `{view, footer, draw}`:
 * `draw(turn)` after each change of the turn (the answer's re-render is throttled to RENDER_EVERY_MS while it
 * streams, immediate once it ended), `footer` the message's slot for cards and buttons.
 */
export function turnView(t, render, painted = null) {
  const steps = h("ul", { class: "steps" });
  const summary = h("summary", {});
  const fold = h("details", { class: "steps-fold", hidden: true }, summary, steps);
  const answer = h("div", { class: "msg assistant streaming" });
  const footer = h("div", { class: "turn-footer" });
  const view = h("div", { class: "turn" }, fold, answer, footer);
  const rows = new Map();
  let drawnSteps = null;
  let shown = null; // the text the answer shows
  let wanted = "";
  let timer = null;
  let last = 0;
  let cost = 0; // the last render's duration (ms)

  const paint = () => {
    timer = null;
    if (wanted === shown) return;
    const start = Date.now();
    shown = wanted;
    answer.replaceChildren(render ? render(wanted) : document.createTextNode(wanted));
    last = Date.now();
    cost = last - start;
    painted?.();
  };

  const draw = (turn) => {
    if (turn.steps !== drawnSteps) {
      for (const s of turn.steps) {
        let li = rows.get(s.id);
        if (!li) { li = h("li", {}); rows.set(s.id, li); steps.append(li); }
        li.className = `step step-${s.status}${s.state ? ` step-state-${s.state}` : ""}`;
        li.replaceChildren(h("span", { class: "step-icon", "aria-label": stepName(t, s) }, STATUS_ICON[s.status] || "·"),
          " ", s.label, ...(s.summary ? [h("span", { class: "muted" }, ` — ${s.summary}`)] : []),
          ...(s.parts?.length ? [partsView(t, s.parts)] : []));
        if (s.parts?.some((p) => p.kind === "image" && ownUrl(p.url)) && !fold.dataset.shown) {
          fold.open = true; // a result's image is shown as it comes (once: the person may fold it again)
          fold.dataset.shown = "1";
        }
      }
      fold.hidden = !turn.steps.length;
      summary.textContent = stepsSummary(turn, t);
      drawnSteps = turn.steps;
    }
    wanted = answerText(turn);
    answer.hidden = !wanted && turn.ended;
    answer.classList.toggle("streaming", !turn.ended);
    if (turn.ended) { clearTimeout(timer); paint(); } else if (!timer && wanted !== shown) {
      timer = setTimeout(paint, Math.max(0, last + Math.max(RENDER_EVERY_MS, cost * RENDER_SHARE) - Date.now()));
    }
  };
  return { view, footer, draw };
}
