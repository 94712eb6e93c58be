// Server-Sent Events over fetch (POST bodies, AbortController for Stop): the WHATWG parsing rules for the
// lines we receive — `event:` and `data:` fields, `:` comments, blank line ends an event, CRLF or LF.
// EventSource cannot POST, and @microsoft/fetch-event-source is unmaintained (ui-search.md §1.2).

/**
 * POST `body` as JSON to `url` and call `onEvent(name, data)` for each event (data parsed as JSON).
 * Resolves when the stream ends; rejects with an Error carrying `.status` and `.body` (the JSON error) when
 * the server answers without a stream (4xx/5xx), or with an AbortError when `signal` aborts.
 */
export async function postEvents(url, body, onEvent, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  const type = response.headers.get("content-type") || "";
  if (!type.startsWith("text/event-stream")) {
    let payload = null;
    try {
      payload = await response.json();
    } catch {
      payload = { code: "http_error", message: `HTTP ${response.status}` };
    }
    const error = new Error(payload.message || `HTTP ${response.status}`);
    error.status = response.status;
    error.body = payload;
    throw error;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let name = "message";
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + (buffer.startsWith("\r\n", cut) ? 2 : 1));
      if (line === "") {
        if (data.length) onEvent(name, JSON.parse(data.join("\n")));
        name = "message";
        data = [];
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? "" : line.slice(colon + 1);
        if (val.startsWith(" ")) val = val.slice(1);
        if (field === "event") name = val;
        else if (field === "data") data.push(val);
      }
    }
  }
}
