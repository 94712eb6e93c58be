// The server's routes, one function each: the only module that writes an `/api` URL (docs/api.md lists the
// routes). Every function takes `opts` last, passed to http.js `request`: {signal, quiet, auth401}; a failed
// call throws ApiError (shown as a toast unless quiet). Path segments (vault, user, ids) are URI-encoded here.
import { json, bytes, events } from "./http.js";
import { qs } from "./wire.js";

export { ApiError, setUnauthenticatedHandler } from "./http.js";

const seg = encodeURIComponent;
const get = (path, params, opts) => json(path, { ...opts, params });
const send = (method, path, body, opts) => json(path, { ...opts, method, body });

// ---- server, session ------------------------------------------------------------------------------------
export const health = (opts) => get("/api/health", null, opts);
export const me = (opts) => get("/api/auth/me", null, opts);
/** Sign in ({username, password}): the server sets the session cookie. */
export const signIn = (body, opts) => send("POST", "/api/auth/session", body, opts);
export const signOut = (opts) => send("DELETE", "/api/auth/session", undefined, opts);
export const vaults = (opts) => get("/api/vaults", null, opts);

// ---- reading a vault ------------------------------------------------------------------------------------
/** A folder's entries, paged: params {path, limit, offset}. */
export const browse = (vault, params, opts) => get(`/api/browse/${seg(vault)}`, params, opts);
/** Every file of the vault, paged: params {limit, offset}. */
export const vaultFiles = (vault, params, opts) => get(`/api/vault/${seg(vault)}/files`, params, opts);
/** The vault's own Obsidian settings (.obsidian/), defaults filled in (see vault-config.js). */
export const vaultConfig = (vault, opts) => get(`/api/vault/${seg(vault)}/config`, null, opts);
/** Paths and titles matching `q` (quick switcher, `[[` and `@` completion): params {q, vault, limit}. */
export const treeSearch = (params, opts) => get("/api/tree-search", params, opts);
/** read_file (a chunk of a note's body): params {path, offset}. */
export const readFile = (vault, params, opts) => get(`/api/file/${seg(vault)}`, params, opts);
/** The whole file as stored, what the editor edits. */
export const fileSource = (vault, path, opts) => get(`/api/file/${seg(vault)}/source`, { path }, opts);
/** The link to a file's bytes (images, downloads, embeds). */
export const rawUrl = (vault, path) => `/api/file/${seg(vault)}/raw${qs({ path })}`;
/** A file's bytes, or null over `max` bytes. */
export const rawBytes = (vault, path, max, opts) => bytes(rawUrl(vault, path), max, opts);
/** params {path, limit, unlinked}. */
export const backlinks = (vault, params, opts) => get(`/api/backlinks/${seg(vault)}`, params, opts);
/** params {q, vault, tag, limit, offset}. */
export const search = (params, opts) => get("/api/search", params, opts);
/** The exact search: params an object or URLSearchParams (repeated include_paths/exclude_paths). */
export const searchAdvanced = (params, opts) => get("/api/search/advanced", params, opts);
/** params {vault, limit, offset}. */
export const tags = (params, opts) => get("/api/tags", params, opts);
/** A note's neighbourhood: params {path, depth, scope, tag, limit}. */
export const graph = (vault, params, opts) => get(`/api/graph/${seg(vault)}`, params, opts);
/** The whole vault's graph: params {tag}. */
export const graphExport = (vault, params, opts) => get(`/api/graph/${seg(vault)}/export`, params, opts);
/** One view of a base (a .base file, or a note's ```base block): params {path, view, this, block}. */
export const baseView = (vault, params, opts) => get(`/api/base/${seg(vault)}`, params, opts);
/** The same as a URL (params {tag}), for the graph's worker, which fetches and parses it off the main thread. */
export const graphExportUrl = (vault, params) => `/api/graph/${seg(vault)}/export${qs(params)}`;

// ---- writing a vault ------------------------------------------------------------------------------------
/** Create a file ({path, content}; never overwrites). */
export const createFile = (vault, body, opts) => send("POST", `/api/file/${seg(vault)}`, body, opts);
/** Save the whole file over `version` ({path, content, version}; 409 when it changed since). */
export const saveFile = (vault, body, opts) => send("POST", `/api/file/${seg(vault)}/save`, body, opts);
/** {path, new_name}. */
export const renameFile = (vault, body, opts) => send("POST", `/api/file/${seg(vault)}/rename`, body, opts);
export const deleteFile = (vault, path, opts) => json(`/api/file/${seg(vault)}`, { ...opts, method: "DELETE", params: { path } });
export const createDirectory = (vault, path, opts) => send("POST", `/api/directory/${seg(vault)}`, { path }, opts);
/** {path, new_name}. */
export const renameDirectory = (vault, body, opts) => send("PATCH", `/api/directory/${seg(vault)}`, body, opts);
export const deleteDirectory = (vault, path, opts) =>
  json(`/api/directory/${seg(vault)}`, { ...opts, method: "DELETE", params: { path, recursive: true } });
/** {source_path, destination_dir}. */
export const move = (vault, body, opts) => send("POST", `/api/move/${seg(vault)}`, body, opts);

// ---- backups and trash ----------------------------------------------------------------------------------
/** params {path, limit, offset}. */
export const backups = (vault, params, opts) => get(`/api/file/${seg(vault)}/backups`, params, opts);
/** params {path, version, compare_with}. */
export const backupDiff = (vault, params, opts) => get(`/api/file/${seg(vault)}/diff`, params, opts);
/** {path, version}. */
export const restoreBackup = (vault, body, opts) => send("POST", `/api/file/${seg(vault)}/restore`, body, opts);
/** params {limit, offset}. */
export const trash = (vault, params, opts) => get(`/api/trash/${seg(vault)}`, params, opts);
/** {path, kind: "file"|"folder"}. */
export const restoreTrash = (vault, body, opts) => send("POST", `/api/trash/${seg(vault)}/restore`, body, opts);

// ---- settings and users (admin) -------------------------------------------------------------------------
export const config = (opts) => get("/api/config", null, opts);
export const setConfig = (body, opts) => send("POST", "/api/config", body, opts);
export const aiModels = (opts) => get("/api/config/ai-models", null, opts);
/** Try a provider ({provider}). */
export const testProvider = (body, opts) => send("POST", "/api/ai/test", body, opts);
export const users = (opts) => get("/api/admin/users", null, opts);
export const createUser = (body, opts) => send("POST", "/api/admin/users", body, opts);
export const updateUser = (name, body, opts) => send("PATCH", `/api/admin/users/${seg(name)}`, body, opts);
export const deleteUser = (name, opts) => send("DELETE", `/api/admin/users/${seg(name)}`, undefined, opts);
/** A new API key ({label}); its secret is in the answer, once. */
export const createKey = (name, body, opts) => send("POST", `/api/admin/users/${seg(name)}/keys`, body, opts);
export const deleteKey = (name, keyId, opts) => send("DELETE", `/api/admin/users/${seg(name)}/keys/${seg(keyId)}`, undefined, opts);

// ---- the assistant --------------------------------------------------------------------------------------
/** params {limit}. */
export const conversations = (params, opts) => get("/api/ai/conversations", params, opts);
export const conversation = (id, opts, params = null) => get(`/api/ai/conversations/${seg(id)}`, params, opts);
/** The link to an image kept with one of your conversations (agent/images.py). */
export const conversationImageUrl = (id, imageId) => `/api/ai/conversations/${seg(id)}/images/${seg(imageId)}`;
/** The context gauge of one of your conversations (docs/assistant.md "Context gauge"). */
export const conversationContext = (id, opts) => get(`/api/ai/conversations/${seg(id)}/context`, null, opts);
export const deleteConversation = (id, opts) => send("DELETE", `/api/ai/conversations/${seg(id)}`, undefined, opts);
/** A conversation's plan (issue 21): read it, or send the person's edit with the revision it was made on. */
export const conversationPlan = (id, opts) => get(`/api/ai/conversations/${seg(id)}/plan`, null, opts);
export const editConversationPlan = (id, body, opts) => send("PUT", `/api/ai/conversations/${seg(id)}/plan`, body, opts);
/** Stream an answer: `agent` true for the agent (tools, confirmations; a resume is {run_id, confirm_all}), false for a plain chat. */
export const ask = (agent, body, onEvent, opts) => events(agent ? "/api/ai/bookslm/agent" : "/api/ai/bookslm/chat", body, onEvent, opts);
/** Undo every file change of one of your agent runs ({force}: also files changed since). */
export const undoRun = (runId, body, opts) => send("POST", `/api/ai/runs/${seg(runId)}/undo`, body, opts);
/** The providers, which are configured, the defaults; keys masked (any signed-in user). */
export const aiStatus = (opts) => get("/api/ai/status", null, opts);
/** The built-in skills and the caller's own: {skills: [{id, icon, description, prompt, builtin}]}. */
export const skills = (opts) => get("/api/ai/skills", null, opts);
/** Create or replace one of the caller's skills ({id, icon?, description, prompt}). */
export const saveSkill = (body, opts) => send("POST", "/api/ai/skills", body, opts);
export const deleteSkill = (id, opts) => send("DELETE", `/api/ai/skills/${seg(id)}`, undefined, opts);
/** An editor AI text action on a selection ({text, target_lang?, tone?, instruction?}), the answer streamed (delta, done, error). */
export const aiAction = (action, body, onEvent, opts) => events(`/api/ai/${seg(action)}`, body, onEvent, opts);

// ---- the person's own file space (docs/files.md) ----------------------------------------------------------
/** {files: [{file_id, name, mime_type, size, created_at, created_by_tool}], total, next_offset, used_bytes, quota_bytes} */
export const userFiles = (params, opts) => get("/api/files", params, opts);
/** Upload one File (multipart); `conversation`: the assistant conversation it belongs to (then it expires with it). */
export const uploadUserFile = (file, conversation, opts) => {
  const form = new FormData();
  form.append("file", file, file.name);
  if (conversation) form.append("conversation", conversation);
  return json("/api/files", { ...opts, method: "POST", form });
};
export const deleteUserFile = (fileId, opts) => json(`/api/files/${seg(fileId)}`, { ...opts, method: "DELETE" });
/** The bytes of one of the person's files (images, PDF and text shown inline; `download`: as an attachment). */
export const userFileUrl = (fileId, download = false) => `/api/files/${seg(fileId)}/content${download ? qs({ download: "true" }) : ""}`;
