// `node --import ./setup.mjs --test …`: the hooks above, and a Web Storage in memory (localStorage,
// sessionStorage) for the modules that keep things in the browser's storage.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);

/** A Storage like the browser's: its items are its own enumerable keys (Object.keys lists them). */
class MemoryStorage {
  getItem(k) { return Object.hasOwn(this, k) ? this[k] : null; }
  setItem(k, v) { this[k] = String(v); }
  removeItem(k) { delete this[k]; }
  clear() { for (const k of Object.keys(this)) delete this[k]; }
  get length() { return Object.keys(this).length; }
}
globalThis.localStorage = new MemoryStorage();
globalThis.sessionStorage = new MemoryStorage();
