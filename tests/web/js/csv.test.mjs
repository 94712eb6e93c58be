// csv.js parseCsv: RFC 4180 quoting, the separator sniffed from the first line, CRLF/LF/CR rows.
import { test } from "node:test";
import assert from "node:assert/strict";

const { parseCsv } = await import("../../../frontend/src/csv.js");

test("quotes, doubled quotes and newlines inside quotes", () => {
  assert.deepEqual(parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",3\n'), [["a", "b"], ["x, y", 'say "hi"'], ["two\nlines", "3"]]);
});

test("the separator is the one the first line uses most; blank lines are dropped", () => {
  assert.deepEqual(parseCsv("a;b;c\r\n1;2,5;3\r\n\r\n"), [["a", "b", "c"], ["1", "2,5", "3"]]);
  assert.deepEqual(parseCsv("a\tb\r1\t2"), [["a", "b"], ["1", "2"]]);
  assert.deepEqual(parseCsv(""), []);
});
