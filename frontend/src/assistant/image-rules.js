// The rules of the assistant's images (docs/assistant.md "Images"), apart from the DOM (images.js): which files
// are images, the caps the server applies (agent/images.py), how far a large paste is scaled down, and the
// shape an image takes in a chat/agent request. No DOM: covered by `node --test`.

/** The types the server accepts (checked there by their magic bytes). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
/** The most images one message may carry (the server's MAX_IMAGES). */
export const MAX_IMAGES = 4;
/**
 * A pasted or dropped image over this many bytes is scaled down before sending: four of them, base64-encoded
 * (4/3), must fit the 8 MiB request body with the message. The server's own cap is 5 MiB per image.
 */
export const SEND_BYTES = 1.25 * 1024 * 1024;
/** The longest side of a scaled-down image, in pixels. */
export const MAX_SIDE = 2048;

/** True when `path` names an image the assistant can be given (by its extension; the server checks the bytes). */
export function isImagePath(path) {
  return /\.(png|jpe?g|webp|gif)$/i.test(path || "");
}

/** How many first bytes imageTypeOf needs. */
export const SNIFF_BYTES = 12;

/**
 * The image type `bytes` (a file's first SNIFF_BYTES, Uint8Array) start with: "image/png", "image/jpeg",
 * "image/webp", "image/gif", or null. The same magic numbers the server checks (agent/images.py), so a text file
 * named x.png with type image/png is refused in the browser, not shown as a broken thumbnail.
 */
export function imageTypeOf(bytes) {
  const at = (offset, sig) => [...sig].every((ch, i) => bytes[offset + i] === (typeof ch === "number" ? ch : ch.charCodeAt(0)));
  if (at(0, [0x89, "P", "N", "G", 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (at(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (at(0, "RIFF") && at(8, "WEBP")) return "image/webp";
  if (at(0, "GIF87a") || at(0, "GIF89a")) return "image/gif";
  return null;
}

/** The scale (≤ 1) that brings a `width`×`height` image's longest side to `max` pixels at most. */
export function fitScale(width, height, max = MAX_SIDE) {
  const side = Math.max(width, height, 1);
  return Math.min(1, max / side);
}

/**
 * The request's `images` field from the attached images: a pasted one `{url, name}` (its data URL), a vault one
 * `{path, vault}`, one of the person's files `{file_id}` (its bytes stay on the server). Order kept; nothing
 * beyond MAX_IMAGES (the panel never attaches more).
 */
export function wireImages(attached) {
  return attached.slice(0, MAX_IMAGES).map((a) => (a.url ? { url: a.url, name: a.name }
    : a.file_id ? { file_id: a.file_id } : { path: a.path, vault: a.vault }));
}

/** Whether `attached` (the chips) can take one more image; `a` is not added twice (same vault path, same
 * file_id or same data). */
export function canAttach(attached, a) {
  if (attached.length >= MAX_IMAGES) return false;
  const same = (x) => (a.url ? x.url === a.url : a.file_id ? x.file_id === a.file_id : !x.file_id && x.vault === a.vault && x.path === a.path);
  return !attached.some(same);
}

/**
 * The person's image files (`GET /api/files` records) whose name holds `query` (any case), at most `max`:
 * the `@` completion's "Your files" rows, `{kind: "userfile", file_id, title, path}`.
 */
export function userFileItems(files, query, max = 5) {
  const q = (query || "").toLowerCase();
  return (files || [])
    .filter((f) => IMAGE_TYPES.includes(f.mime_type) && String(f.name || "").toLowerCase().includes(q))
    .slice(0, max)
    .map((f) => ({ kind: "userfile", file_id: f.file_id, title: f.name, path: f.name }));
}
