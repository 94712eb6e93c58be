// Every call to the server. The session is an HttpOnly cookie (same-origin fetch sends it); no token is
// ever kept in the page. Errors are {"code","message","hint"} objects shown by toast() unless quiet.
import { showError } from "./toast.js";
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body?.message || t("error.unknown", { status }));
    this.status = status;
    this.code = body?.code || `http_${status}`;
    this.hint = body?.hint || null;
    this.retryAfter = retryAfter;
  }
}

let onUnauthenticated = () => {};
/** Called once per 401 (session ended): the app shows the sign-in form. */
export function setUnauthenticatedHandler(fn) { onUnauthenticated = fn; }

export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v != null && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : "";
}

/**
 * api("/api/search", {params: {q}}) -> parsed JSON.
 * opts: method, body (JSON), params, signal, quiet (no toast), auth401 (false: a 401 is the caller's business).
 */
export async function api(path, opts = {}) {
  const { method = "GET", body, params, signal, quiet = false, auth401 = true } = opts;
  const headers = { Accept: "application/json" };
  // Writes always say JSON (the server refuses other bodies: no form can write cross-site), even without a body.
  if (body !== undefined || method !== "GET") headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path + qs(params), {
      method, headers, signal, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    const e = new ApiError(0, { code: "network", message: t("error.network") });
    if (!quiet) showError(e);
    throw e;
  }
  if (res.status === 204) return null;
  let data = null;
  const text = await res.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (res.ok) return data;
  const retry = retryAfterSeconds(res, data);
  const e = new ApiError(res.status, data, retry);
  if (res.status === 401 && auth401) {
    onUnauthenticated(e);
    throw e;
  }
  if (!quiet) showError(e);
  throw e;
}

function retryAfterSeconds(res, data) {
  if (res.status !== 429) return null;
  const h = res.headers.get("Retry-After");
  if (h && /^\d+$/.test(h.trim())) return Number(h.trim());
  if (h) {
    const when = Date.parse(h);
    if (!Number.isNaN(when)) return Math.max(1, Math.ceil((when - Date.now()) / 1000));
  }
  const m = /(\d+)\s*(?:s\b|sec|second)/i.exec(`${data?.message || ""} ${data?.hint || ""}`);
  return m ? Number(m[1]) : null;
}

export const rawUrl = (vault, path) => `/api/file/${encodeURIComponent(vault)}/raw${qs({ path })}`;
