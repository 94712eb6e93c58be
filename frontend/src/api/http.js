// The one fetch wrapper: every call to the server goes through `request` (JSON answers, raw bytes and the
// assistant's event streams alike), so there is one error type and one reading of Retry-After. The session is
// an HttpOnly cookie (same-origin fetch sends it); no token is ever kept in the page. Error answers are
// {"code","message","hint"} objects, shown by toast() unless the call is quiet.
import { showError } from "../toast.js";
import { t } from "../i18n.js";
import { parseJson, qs, retryAfterSeconds, sseReader } from "./wire.js";

/** A failed call: `status` (0: no answer), `code` (the server's, or `http_<status>`/`network`), `hint`, `retryAfter` (s). */
export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super(body?.message || t("error.unknown", { status }));
    this.status = status;
    this.code = body?.code || `http_${status}`;
    this.hint = body?.hint || null;
    this.details = body?.details || null;
    this.retryAfter = retryAfter;
  }
}

let onUnauthenticated = () => {};
/** Called once per 401 (session ended): the app shows the sign-in form. */
export function setUnauthenticatedHandler(fn) { onUnauthenticated = fn; }

/**
 * fetch `path` + `params`, and the Response when it is a success (2xx).
 * opts: method, body (sent as JSON), form (a FormData, sent as multipart: file uploads), params (query), signal, accept (the Accept header), quiet (no toast),
 * auth401 (false: a 401 is the caller's business, not a return to the sign-in form).
 * Throws ApiError (after the toast, unless quiet) for an error answer or no answer; AbortError when aborted.
 */
export async function request(path, opts = {}) {
  const { method = "GET", body, form, params, signal, accept = "application/json", quiet = false, auth401 = true } = opts;
  const headers = { Accept: accept };
  // Writes always say JSON (the server refuses other bodies: no form can write cross-site), even without a body;
  // a file upload (`form`, a FormData) is multipart, with the header a cross-site form cannot send.
  if (form) headers["X-ObsiGate-Upload"] = "1";
  else if (body !== undefined || method !== "GET") headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path + qs(params), {
      method, headers, signal, credentials: "same-origin",
      body: form || (body === undefined ? undefined : JSON.stringify(body)),
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw fail(new ApiError(0, { code: "network", message: t("error.network") }), quiet);
  }
  if (res.ok) return res;
  const data = parseJson(await res.text());
  const e = new ApiError(res.status, data, retryAfterSeconds(res.status, res.headers.get("Retry-After"), data));
  if (res.status === 401 && auth401) {
    onUnauthenticated(e);
    throw e;
  }
  throw fail(e, quiet);
}

function fail(e, quiet) {
  if (!quiet) showError(e);
  return e;
}

/** `request`, then the answer parsed as JSON (null for 204 or an empty body). */
export async function json(path, opts) {
  const res = await request(path, opts);
  return res.status === 204 ? null : parseJson(await res.text());
}

/** `request`, then the body's bytes (ArrayBuffer), or null when it is over `max` bytes (the download stops as soon as that is known). */
export async function bytes(path, max, opts = {}) {
  const ctrl = new AbortController();
  opts.signal?.addEventListener("abort", () => ctrl.abort());
  const res = await request(path, { ...opts, accept: "*/*", signal: ctrl.signal });
  if (Number(res.headers.get("Content-Length") || 0) > max) { ctrl.abort(); return null; }
  const buffer = await res.arrayBuffer();
  return buffer.byteLength > max ? null : buffer;
}

/**
 * POST `body` to `path` and call `onEvent(name, data)` for each Server-Sent Event (EventSource cannot POST).
 * Resolves when the stream ends; an answer that is not a stream (4xx/5xx, or JSON) rejects with ApiError.
 * opts: as `request` (signal: Stop).
 */
export async function events(path, body, onEvent, opts = {}) {
  const res = await request(path, { ...opts, method: "POST", body, accept: "text/event-stream" });
  if (!(res.headers.get("content-type") || "").startsWith("text/event-stream")) {
    const data = parseJson(await res.text());
    throw fail(new ApiError(res.status, data || { code: "http_error", message: `HTTP ${res.status}` }), opts.quiet);
  }
  const feed = sseReader(onEvent);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    feed(value);
  }
}
