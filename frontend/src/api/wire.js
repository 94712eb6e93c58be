// The HTTP wire details of the API client that need no browser: query strings, the Retry-After wait and the
// Server-Sent Events line format. Pure functions (no DOM, no fetch), covered by `node --test` (tests/web/js).

/**
 * `?a=1&b=x` from `params` (an object or a URLSearchParams); null, undefined and "" values are left out, an
 * array value repeats its key (`include_paths=a&include_paths=b`). "" when nothing is left.
 */
export function qs(params) {
  const u = params instanceof URLSearchParams ? new URLSearchParams(params) : new URLSearchParams();
  if (!(params instanceof URLSearchParams)) {
    for (const [k, v] of Object.entries(params || {})) {
      if (Array.isArray(v)) { for (const x of v) if (x != null && x !== "") u.append(k, String(x)); }
      else if (v != null && v !== "") u.set(k, String(v));
    }
  }
  const s = u.toString();
  return s ? `?${s}` : "";
}

/**
 * Seconds to wait before asking again, for a 429 answer; null for any other status or when nothing says.
 * `header`: the Retry-After value (delta-seconds or an HTTP date, RFC 9110 §10.2.3); without one, a number of
 * seconds written in the error body's message or hint ("try again in 30 s"). A date in the past is 1 s.
 * `now`: the clock in ms (Date.now()).
 */
export function retryAfterSeconds(status, header, body, now = Date.now()) {
  if (status !== 429) return null;
  const h = header?.trim();
  if (h && /^\d+$/.test(h)) return Number(h);
  if (h) {
    const when = Date.parse(h);
    if (!Number.isNaN(when)) return Math.max(1, Math.ceil((when - now) / 1000));
  }
  const m = /(\d+)\s*(?:s\b|sec|second)/i.exec(`${body?.message || ""} ${body?.hint || ""}`);
  return m ? Number(m[1]) : null;
}

/** `text` as JSON, or null when it is empty or not JSON (an error page from a proxy). */
export function parseJson(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/**
 * An SSE reader (the WHATWG rules for the lines we receive: `event:` and `data:` fields, `:` comments, a blank
 * line ends an event, CRLF, LF or CR line ends): feed it text as it arrives, in chunks cut anywhere; it calls
 * `onEvent(name, data)` for each complete event, `data` parsed as JSON ("message" when no `event:` field).
 */
export function sseReader(onEvent) {
  let buffer = "";
  let name = "message";
  let data = [];
  const line = (text) => {
    if (text === "") {
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
      name = "message";
      data = [];
    } else if (!text.startsWith(":")) {
      const colon = text.indexOf(":");
      const field = colon < 0 ? text : text.slice(0, colon);
      let val = colon < 0 ? "" : text.slice(colon + 1);
      if (val.startsWith(" ")) val = val.slice(1);
      if (field === "event") name = val;
      else if (field === "data") data.push(val);
    }
  };
  return (chunk) => {
    buffer += chunk;
    let cut;
    // a lone CR at the very end may be the first half of a CRLF still in flight: wait for the next chunk
    while ((cut = buffer.search(/\r\n|\n|\r(?!$)/)) >= 0) {
      line(buffer.slice(0, cut));
      buffer = buffer.slice(cut + (buffer.startsWith("\r\n", cut) ? 2 : 1));
    }
  };
}
