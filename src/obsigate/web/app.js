// Minimal read-only browser for ObsiGate's REST API. Every value from the server is inserted as text,
// except search snippets, whose only markup (<mark>) is rebuilt from escaped text.
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem("obsigate-token") || "";

async function api(path) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await fetch(path, { headers });
  // An error body is ObsiGate's {"code", "message"}, but a proxy may answer anything: never fail on it.
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const code = body.code || `http_${res.status}`;
    const message = body.message || res.statusText || "request failed";
    throw Object.assign(new Error(`${code}: ${message}`), { status: res.status, code });
  }
  return body;
}

// Shows a failed request in the page (the error element is cleared by the next success).
function showError(err) {
  $("error").textContent = err.message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function item(text, onClick, extra) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.className = "link";
  b.textContent = text;
  b.onclick = onClick;
  li.append(b);
  if (extra) li.append(extra);
  return li;
}

function snippetNode(snippet) {
  const p = document.createElement("div");
  p.className = "muted";
  for (const [i, part] of snippet.split(/<\/?mark>/).entries()) {
    const node = i % 2 ? document.createElement("mark") : document.createElement("span");
    node.textContent = part;
    p.append(node);
  }
  return p;
}

async function openNote(vault, path) {
  const note = await api(`/api/file/${encodeURIComponent(vault)}?path=${encodeURIComponent(path)}`);
  $("title").textContent = path;
  $("meta").textContent = `${vault} · ${note.size} bytes · tags: ${note.tags.join(", ") || "none"} · ${note.links.length} links`;
  $("content").hidden = false;
  $("content").textContent = note.content;
}

async function browse(vault, path = "") {
  const listing = await api(`/api/browse/${encodeURIComponent(vault)}?path=${encodeURIComponent(path)}`);
  const ul = $("hits");
  ul.replaceChildren();
  $("count").textContent = `${vault}/${path}`;
  for (const e of listing.entries) {
    ul.append(item(e.type === "dir" ? `📁 ${e.name}` : e.name, () => (e.type === "dir" ? browse(vault, e.path) : openNote(vault, e.path)).catch(showError)));
  }
}

async function loadVaults() {
  try {
    const { vaults } = await api("/api/vaults");
    $("auth").style.display = "none";
    $("vaults").replaceChildren(...vaults.map((v) => item(`${v.name} (${v.notes} notes)`, () => browse(v.name).catch(showError))));
  } catch (err) {
    if (err.status === 401) $("auth").style.display = "block";
    else showError(err);
  }
}

let timer;
$("q").addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const q = $("q").value.trim();
    if (!q) return;
    let res;
    try {
      res = await api(`/api/search?q=${encodeURIComponent(q)}&limit=20`);
    } catch (err) {
      showError(err); // e.g. "rate_limited: ..." on HTTP 429
      $("count").textContent = ""; // the hits shown were for another query
      $("hits").replaceChildren();
      return;
    }
    clearError();
    $("count").textContent = `${res.total} notes${res.index.complete ? "" : " (index still building)"}`;
    $("hits").replaceChildren(...res.hits.map((h) => item(`${h.vault} · ${h.path}`, () => openNote(h.vault, h.path).catch(showError), snippetNode(h.snippet))));
  }, 200);
});

$("token").addEventListener("change", () => {
  token = $("token").value.trim();
  sessionStorage.setItem("obsigate-token", token);
  loadVaults();
});

$("mcpurl").textContent = `${location.origin}/mcp`;
api("/api/health").then((h) => {
  $("status").textContent = `v${h.version} · index ${h.index.state}`;
}).catch(() => ($("status").textContent = "offline"));
loadVaults();
