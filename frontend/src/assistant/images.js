// The assistant panel's images (issue 18 item 3): an image pasted into the message box or dropped on the panel,
// or a vault image picked with @ (mentions.js hands it here), becomes a thumbnail chip with a remove button; the
// next message sends them (`images` in the request) and shows them in the conversation, and a reopened
// conversation shows its stored images again. The rules (types, caps, request shape) are image-rules.js.
import * as api from "../api/index.js";
import { h } from "./h.js";
import { IMAGE_TYPES, MAX_IMAGES, MAX_SIDE, SEND_BYTES, SNIFF_BYTES, canAttach, fitScale, imageTypeOf, wireImages } from "./image-rules.js";

/** A Blob as a data URL. */
function dataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * `file` as it will be sent: unchanged when small enough, else redrawn as a JPEG (longest side MAX_SIDE, then
 * smaller) until it is under SEND_BYTES; null when it cannot be (the browser cannot decode it).
 */
async function shrink(file) {
  if (file.size <= SEND_BYTES) return file;
  let bitmap;
  try { bitmap = await createImageBitmap(file); } catch { return null; }
  let scale = fitScale(bitmap.width, bitmap.height, MAX_SIDE);
  for (let i = 0; i < 6; i++, scale *= 0.7) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const g = canvas.getContext("2d");
    g.fillStyle = "#fff"; // JPEG has no transparency: a transparent screenshot gets a white background, not black
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    if (blob && blob.size <= SEND_BYTES) return blob;
  }
  return null;
}

/** Thumbnails of a message's images: `[{src, name}]` → a list, or null when there are none. */
function thumbs(items) {
  if (!items.length) return null;
  return h("ul", { class: "msg-images" }, ...items.map(({ src, name }) => h("li", {},
    h("img", { src, alt: name, title: name, loading: "lazy", decoding: "async" }))));
}

/** A stored user message's images (`images`: the server's references) in conversation `cid`, or null. */
export function storedImages(images, cid) {
  return thumbs((images || []).map((ref) => ({ src: api.conversationImageUrl(cid, ref.id), name: ref.name || "" })));
}

/**
 * Wire paste, drop and the chips to the panel's controls `c` (section, form, input, chips). deps: `t`.
 * Returns `{blocked(caps), attachVault(vault, path), attachFile(fileId, name), take()}`: `take()` empties the chips and gives `{body, view}`,
 * the request's `images` field (undefined when none) and the thumbnails to show in the sent message.
 */
export function imagesPart(c, { t }) {
  let attached = []; // {url, name, src} pasted, {vault, path, name, src} from the vault, {file_id, name, src} a file
  const list = h("ul", { class: "image-chips", hidden: true, "aria-label": t("assistant.images.chosen") });
  const problem = h("p", { class: "image-error", role: "alert", hidden: true });
  c.form.insertBefore(problem, c.chips);
  c.form.insertBefore(list, c.chips);

  function say(text) {
    problem.textContent = text || "";
    problem.hidden = !text;
  }

  function draw() {
    list.replaceChildren(...attached.map((a) => h("li", { class: "image-chip" },
      h("img", { src: a.src, alt: "" }),
      h("span", { class: "chip-label", title: a.path || a.name }, a.name),
      h("button", { type: "button", class: "chip-remove", "aria-label": t("assistant.mention.remove", { path: a.name }),
        onclick: () => { attached = attached.filter((x) => x !== a); draw(); say(""); c.input.focus(); } }, "✕"))));
    list.hidden = !attached.length;
  }

  function add(a) {
    if (attached.length >= MAX_IMAGES) { say(t("assistant.images.tooMany", { n: MAX_IMAGES })); return; }
    if (!canAttach(attached, a)) return;
    attached = [...attached, a];
    say("");
    draw();
  }

  async function addFiles(files) {
    for (const file of files) {
      const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()); // its bytes, not its name or type
      if (!IMAGE_TYPES.includes(file.type) || !imageTypeOf(head)) { say(t("assistant.images.badType", { name: file.name || file.type })); continue; }
      const blob = await shrink(file);
      if (!blob) { say(t("assistant.images.tooLarge", { name: file.name })); continue; }
      const url = await dataUrl(blob);
      add({ url, src: url, name: file.name || "image" });
    }
  }

  const imageFiles = (transfer) => [...(transfer?.files || [])].filter((f) => f.type.startsWith("image/"));

  c.input.addEventListener("paste", (e) => {
    const files = imageFiles(e.clipboardData);
    if (!files.length) return; // text pastes as usual
    e.preventDefault();
    addFiles(files);
  });
  c.section.addEventListener("dragover", (e) => {
    if (![...(e.dataTransfer?.types || [])].includes("Files")) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  c.section.addEventListener("drop", (e) => {
    const files = [...(e.dataTransfer?.files || [])];
    if (!files.length) return;
    e.preventDefault();
    addFiles(files);
  });

  return {
    /** True (and said) when images are attached and `caps` (the model's flags; null: unknown) has no vision. */
    blocked(caps) {
      if (!attached.length || !caps || caps.vision) return false;
      say(t("assistant.images.noVision"));
      return true;
    },
    /** Attach one of the person's files (an @-mention of "Your files"): named by file_id, never re-sent. */
    attachFile(fileId, name) {
      add({ file_id: fileId, name, src: api.userFileUrl(fileId) });
      c.input.focus();
    },
    /** Attach a vault image (an @-mention of an image file). */
    attachVault(vault, path) {
      add({ vault, path, name: path.split("/").pop(), src: api.rawUrl(vault, path) });
      c.input.focus();
    },
    take() {
      const taken = attached;
      attached = [];
      draw();
      say("");
      return { body: taken.length ? wireImages(taken) : undefined, view: thumbs(taken.map((a) => ({ src: a.src, name: a.name }))) };
    },
  };
}
