// A file's line endings as stored. The editor and the reading view's edits work on LF text (CodeMirror and the
// YAML edits hold "\n" breaks); a save puts the file's own breaks back, so a CRLF note stays CRLF byte for byte.

/** "\r\n" when most of `text`'s line breaks are CRLF (all of them, in a file written on Windows), else "\n". */
export function eolOf(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const all = (text.match(/\n/g) || []).length;
  return crlf > 0 && crlf * 2 >= all ? "\r\n" : "\n";
}

/** `text` with every CRLF as LF. */
export const toLF = (text) => text.replace(/\r\n/g, "\n");

/** LF `text` written with the line breaks `eol` ("\n" or "\r\n"). */
export const withEol = (text, eol) => (eol === "\r\n" ? toLF(text).replace(/\n/g, "\r\n") : text);

/**
 * `next` (LF text, an edit of `original` as stored) in `original`'s shape: its line breaks, and no final newline
 * added when `original` had none (an edit of one line must not touch the end of the file).
 */
export function inShapeOf(original, next) {
  let out = next;
  if (original !== "" && !/\n$/.test(original) && out.endsWith("\n")) out = out.slice(0, -1);
  return withEol(out, eolOf(original));
}
