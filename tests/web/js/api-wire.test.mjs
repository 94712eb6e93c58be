// api/wire.js: the API client's query strings, Retry-After reading and SSE parsing.
import { test } from "node:test";
import assert from "node:assert/strict";

const { qs, retryAfterSeconds, parseJson, sseReader } = await import("../../../frontend/src/api/wire.js");

test("query strings leave out empty values and repeat array ones", () => {
  assert.equal(qs({ q: "a b", vault: "notes", tag: null, x: undefined, y: "", n: 0, on: false }), "?q=a+b&vault=notes&n=0&on=false");
  assert.equal(qs({ include_paths: ["a/*", "", "b"] }), "?include_paths=a%2F*&include_paths=b");
  assert.equal(qs(new URLSearchParams([["k", "1"], ["k", "2"]])), "?k=1&k=2");
  assert.equal(qs(null), "");
});

test("Retry-After: seconds, an HTTP date, the error's own words, or nothing", () => {
  const now = Date.parse("2026-12-03T10:00:00Z");
  assert.equal(retryAfterSeconds(429, " 30 ", null, now), 30);
  assert.equal(retryAfterSeconds(429, "Thu, 03 Dec 2026 10:00:42 GMT", null, now), 42);
  assert.equal(retryAfterSeconds(429, "Thu, 03 Dec 2026 09:00:00 GMT", null, now), 1); // already past: ask in 1 s
  assert.equal(retryAfterSeconds(429, null, { message: "rate limited", hint: "try again in 12 s" }, now), 12);
  assert.equal(retryAfterSeconds(429, null, { message: "wait 5 seconds" }, now), 5);
  assert.equal(retryAfterSeconds(429, "soon", { message: "slow down" }, now), null);
  assert.equal(retryAfterSeconds(503, "30", null, now), null); // only a 429 is a rate limit
});

test("bodies that are not JSON read as null", () => {
  assert.deepEqual(parseJson('{"code":"x"}'), { code: "x" });
  assert.equal(parseJson("<html>bad gateway</html>"), null);
  assert.equal(parseJson(""), null);
});

test("SSE: events cut anywhere, CRLF, comments, multi-line data, default name", () => {
  const got = [];
  const feed = sseReader((name, data) => got.push([name, data]));
  const stream = ': keep-alive\r\nevent: delta\r\ndata: {"text":"a"}\r\n\r\nevent: tool\ndata: {"id":1,\ndata: "risk":"read"}\n\ndata: 7\n\n';
  for (let i = 0; i < stream.length; i += 3) feed(stream.slice(i, i + 3));
  assert.deepEqual(got, [["delta", { text: "a" }], ["tool", { id: 1, risk: "read" }], ["message", 7]]);
});
