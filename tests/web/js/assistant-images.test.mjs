// assistant/image-rules.js: which files are images, the scale of a large paste, the request's `images` field.
import { test } from "node:test";
import assert from "node:assert/strict";

const r = await import("../../../frontend/src/assistant/image-rules.js");

test("image files are told by their extension, in any case", () => {
  for (const p of ["a.png", "Pics/b.JPG", "c.jpeg", "d.webp", "e.gif"]) assert.equal(r.isImagePath(p), true, p);
  for (const p of ["a.svg", "b.md", "png", "c.png.md", "", null]) assert.equal(r.isImagePath(p), false, String(p));
});

test("a large image is scaled to its longest side, a small one is left alone", () => {
  assert.equal(r.fitScale(4096, 1024), 0.5);
  assert.equal(r.fitScale(1000, 3000, 1500), 0.5);
  assert.equal(r.fitScale(800, 600), 1);
  assert.equal(r.fitScale(0, 0), 1);
});

test("the request's images: data URLs with their names, vault images by path, at most MAX_IMAGES", () => {
  const pasted = { url: "data:image/png;base64,AA==", name: "clip.png", src: "x" };
  const vault = { vault: "notes", path: "Pics/a.png", name: "a.png", src: "y" };
  assert.deepEqual(r.wireImages([pasted, vault]), [{ url: pasted.url, name: "clip.png" }, { path: "Pics/a.png", vault: "notes" }]);
  assert.equal(r.wireImages(Array(9).fill(vault)).length, r.MAX_IMAGES);
});

test("one of the person's files travels as its file_id only, and is attached once", () => {
  const mine = { file_id: "U_alice_C_none_T_1_x", name: "shot.png", src: "/api/files/U_alice_C_none_T_1_x/content" };
  assert.deepEqual(r.wireImages([mine]), [{ file_id: mine.file_id }]);
  assert.equal(r.canAttach([mine], { file_id: mine.file_id }), false);
  assert.equal(r.canAttach([mine], { file_id: "U_alice_C_none_T_2_y" }), true);
  assert.equal(r.canAttach([mine], { vault: undefined, path: undefined }), true); // a vault image is not a file
});

test("the @ completion's Your files rows: images whose name holds the query, any case, at most five", () => {
  const files = [
    { file_id: "a", name: "Chart.PNG", mime_type: "image/png" },
    { file_id: "b", name: "chart notes.txt", mime_type: "text/plain" },
    { file_id: "c", name: "old chart.svg", mime_type: "image/svg+xml" },
    ...Array.from({ length: 7 }, (_, i) => ({ file_id: `d${i}`, name: `chart ${i}.jpg`, mime_type: "image/jpeg" })),
  ];
  const rows = r.userFileItems(files, "CHART");
  assert.equal(rows.length, 5);
  assert.deepEqual(rows[0], { kind: "userfile", file_id: "a", title: "Chart.PNG", path: "Chart.PNG" });
  assert.ok(rows.every((row) => !["b", "c"].includes(row.file_id)));
  assert.deepEqual(r.userFileItems(undefined, "x"), []);
});

test("an image is attached once, and only up to MAX_IMAGES", () => {
  const a = { vault: "notes", path: "a.png" };
  assert.equal(r.canAttach([a], { vault: "notes", path: "a.png" }), false);
  assert.equal(r.canAttach([a], { vault: "other", path: "a.png" }), true);
  assert.equal(r.canAttach([{ url: "data:1" }], { url: "data:1" }), false);
  const full = Array.from({ length: r.MAX_IMAGES }, (_, i) => ({ vault: "n", path: `${i}.png` }));
  assert.equal(r.canAttach(full, { vault: "n", path: "new.png" }), false);
});

test("an image is told by its first bytes: PNG, JPEG, WebP, GIF; a text file named .png is not one", () => {
  const bytes = (...parts) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((ch) => ch.charCodeAt(0)) : [p])));
  assert.equal(r.imageTypeOf(bytes(0x89, "PNG\r\n", 0x1a, "\n", 0, 0, 0, 13)), "image/png");
  assert.equal(r.imageTypeOf(bytes(0xff, 0xd8, 0xff, 0xe0)), "image/jpeg");
  assert.equal(r.imageTypeOf(bytes("RIFF", 1, 2, 3, 4, "WEBPVP8 ")), "image/webp");
  assert.equal(r.imageTypeOf(bytes("GIF89a", 1, 0)), "image/gif");
  assert.equal(r.imageTypeOf(bytes("RIFF", 1, 2, 3, 4, "WAVE")), null); // a sound, not a picture
  assert.equal(r.imageTypeOf(bytes("not a picture")), null);
  assert.equal(r.imageTypeOf(new Uint8Array(0)), null);
  assert.ok(r.SNIFF_BYTES >= 12);
});
