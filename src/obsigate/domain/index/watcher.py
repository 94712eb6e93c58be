"""Background indexing: initial build, incremental refresh by (size, mtime_ns), and a file watcher.

:meth:`Indexer.start` launches one daemon thread running a private event loop (``anyio.run``), so the
server's loop never does file IO for indexing and start/stop work from any task. In that loop:

1. the watcher (``watchfiles.awatch`` on every vault root; debounced; hidden paths and editor temp files
   filtered out) starts first and queues changes;
2. :meth:`Indexer.refresh_all` runs in a worker thread (``anyio.to_thread``); when it ends the state becomes
   ``ready``;
3. queued and later changes are applied with :meth:`Indexer.refresh_path` in a worker thread, in groups.

Per-file work (stat → read → decode → parse → write) holds a per-path lock, so the watcher, the initial
build and callers of ``refresh_path`` (e.g. the services after their own writes) never interleave on one
file. A failing file is logged (and, when it is the file's fault, recorded as a diagnostic); it never stops
the build or the watcher.

The watcher watches each real folder of a vault on its own (not recursively; a new folder restarts it with
that folder added): a symlinked folder is never looked through, like everywhere else in ObsiGate, and hidden
folders and names that are not valid UTF-8 are not watched. Limits: notes larger than :data:`MAX_NOTE_BYTES` are
listed as files with a ``too_large`` diagnostic, not indexed as text.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import UTC, datetime
from typing import Any

import anyio
import anyio.to_thread
from watchfiles import Change, awatch

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.markdown.note import parse_note
from obsigate.domain.redaction import redact_note
from obsigate.domain.storage import vault_fs
from obsigate.domain.text import nfc
from obsigate.domain.vault import (
    FileEntry,
    Vault,
    created_ns,
    decode_note,
    is_editor_temp,
    is_hidden,
    is_note,
    is_servable_name,
    walk,
)

__all__ = ["MAX_NOTE_BYTES", "PARALLEL_AFTER", "Indexer"]

log = logging.getLogger(__name__)

BUILD_SWITCH_INTERVAL_S = 0.0005  # GIL switch interval while the first build runs (see Indexer._main)
MAX_NOTE_BYTES = 16 * 1024 * 1024
PARALLEL_AFTER = 2000  # notes parsed in-process before a big refresh starts worker processes
_LOCK_STRIPES = 64


def _iso(t: float | None) -> str | None:
    return None if t is None else datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _root_readable(vault: Vault) -> bool:
    try:
        vault_fs.lstat(vault.root, "")
        return True
    except OSError:
        return False


def _is_folder(roots: Iterable[str], path: str) -> bool:
    """True if ``path`` (absolute, a vault root or below one of ``roots``) is a real folder now, asked through
    ``vault_fs`` (a symlink to one, or a path through one, is not)."""
    for root in roots:
        if path == root or path.startswith(root + os.sep):
            rel = path[len(root) + 1 :].replace(os.sep, "/")
            try:
                if rel:
                    return vault_fs.kind(root, rel) == "dir"
                with vault_fs.folder(root):
                    return True
            except OSError:  # gone, or a symlink on the way (OutsideVault)
                return False
    return False


def _all_are(exc: BaseException, test: Callable[[BaseException], bool]) -> bool:
    """True if ``exc``, or every exception an exception group of it holds (``awatch`` runs in a task group),
    passes ``test``."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_all_are(e, test) for e in exc.exceptions)
    return test(exc)


def _prepare(root: str, disk_rel: str, size: int) -> tuple:
    """Read, decode and parse one note file, ``disk_rel`` of the vault at ``root``, through ``vault_fs`` (runs
    in this process or in a worker process).

    Returns ``(kind, payload, stat)``: kind ``"note"`` (payload: ParsedNote), ``"gone"`` (a symlink now),
    ``"invalid_utf8"`` (byte offset),
    ``"too_large"``, ``"unreadable"`` (message) or ``"parse_error"`` (message); ``stat`` = ``(size, mtime_ns, created_ns)``
    of the file as it was read (``None`` if not opened). Picklable.
    """
    if size > MAX_NOTE_BYTES:
        return ("too_large", None, None)
    try:
        raw, st = vault_fs.read_file(root, disk_rel, max_bytes=MAX_NOTE_BYTES)
    except vault_fs.FileTooLarge:
        return ("too_large", None, None)
    except vault_fs.OutsideVault:  # swapped for a symlink since the walk: not a vault file any more
        return ("gone", None, None)
    except OSError as exc:  # gone, unreadable, or swapped for a symlink since the walk
        return ("unreadable", str(exc), None)
    seen = (st.st_size, st.st_mtime_ns, created_ns(st))
    try:
        text = decode_note(raw)
    except UnicodeDecodeError as exc:
        return ("invalid_utf8", exc.start, seen)
    text = nfc(text)
    try:
        # The index only ever holds redacted text: snippets cannot show a secret, and searching for one
        # (or a prefix of it) finds nothing. Parsed first, so a secret cannot break the link it sits in.
        parsed = redact_note(parse_note(text), text)
        return ("note", parsed, seen)
    except Exception as exc:  # noqa: BLE001 — a parser bug must not stop indexing
        return ("parse_error", f"{type(exc).__name__}: {exc}", seen)


def _prepare_chunk(items: list[tuple[str, str, int]]) -> list[tuple]:
    return [_prepare(root, disk_rel, size) for root, disk_rel, size in items]


class _Pool:
    """Parse notes in worker processes during big builds (the GIL makes threads useless for this).

    Starts only after :data:`PARALLEL_AFTER` notes were handled in-process, so small refreshes never pay
    the process start-up (~0.5 s). Results are written in walk order by the calling thread, after checking
    that the file did not change since it was walked (else it is redone in-process).
    """

    CHUNK = 64
    WINDOW = 6  # chunks in flight

    def __init__(self, owner: Indexer, stop: threading.Event) -> None:
        self.owner = owner
        self.stop = stop
        self.seen = 0
        self.ex: ProcessPoolExecutor | None = None
        self.broken = False
        self.buf: list[tuple[Vault, FileEntry, str]] = []
        self.inflight: deque[tuple[list[tuple[Vault, FileEntry, str]], Future]] = deque()

    def take(self, vault: Vault, entry: FileEntry, path: str, stats: dict[str, int]) -> bool:
        """Queue a note for a worker; False = handle it in-process."""
        self.seen += 1
        if self.broken or self.seen <= PARALLEL_AFTER:
            return False
        if self.ex is None:
            try:
                self.ex = ProcessPoolExecutor(self.owner._workers, mp_context=multiprocessing.get_context("spawn"))
            except Exception:  # pragma: no cover - e.g. no /dev/shm
                log.exception("cannot start indexing worker processes; parsing in-process")
                self.broken = True
                return False
        self.buf.append((vault, entry, path))
        if len(self.buf) >= self.CHUNK:
            self._submit()
            while len(self.inflight) > self.WINDOW:
                self._finish_one(stats)
        return True

    def _submit(self) -> None:
        assert self.ex is not None
        items, self.buf = self.buf, []
        self.inflight.append((items, self.ex.submit(_prepare_chunk, [(str(v.root), p, e.size) for v, e, p in items])))

    def drain(self, stats: dict[str, int], *, block: bool) -> None:
        if self.buf:
            self._submit()
        while self.inflight and (block or self.inflight[0][1].done()):
            self._finish_one(stats)

    def _finish_one(self, stats: dict[str, int]) -> None:
        items, fut = self.inflight.popleft()
        owner = self.owner
        try:
            results = fut.result() if not self.stop.is_set() else None
        except Exception:
            if not self.broken:
                log.exception("indexing worker processes failed; parsing in-process from now on")
            self.broken = True
            results = None
        touched = owner._touched
        for i, (vault, entry, path) in enumerate(items):
            if self.stop.is_set():
                return
            with owner._lock(vault.name, entry.path):
                if (vault.name, entry.path) in touched:
                    ok = True  # refresh_path re-indexed it meanwhile, from newer content: keep that
                elif results is not None:
                    ok = owner._store(vault, entry, results[i])
                else:  # worker failure: redo it here
                    ok = owner._index_file(vault, entry, path)
            stats["indexed" if ok else "errors"] += 1
            owner._indexed += 1

    def close(self) -> None:
        if self.ex is not None:
            self.ex.shutdown(wait=True, cancel_futures=True)
            self.ex = None


class Indexer:
    """Keeps a :class:`VaultIndex` in step with the vault folders.

    Args:
        index: the index to write to (shared with the services, which read from it).
        vaults: vault name → :class:`Vault`; the index is built for exactly these (rows of other vaults are
            dropped by :meth:`refresh_all`).
        debounce_ms: the watcher groups filesystem events for at most this long before applying them.
        workers: processes that parse notes during big refreshes (more than :data:`PARALLEL_AFTER` notes to
            read); default one per core minus one (max 4); 0 = always parse in-process.
    """

    def __init__(
        self,
        index: VaultIndex,
        vaults: Mapping[str, Vault],
        *,
        debounce_ms: int = 200,
        workers: int | None = None,
    ) -> None:
        self._index = index
        cpus = os.cpu_count() or 1
        self._workers = max(0, min(cpus - 1, 4) if workers is None else workers)
        self._vaults = dict(vaults)
        self._debounce_ms = max(1, int(debounce_ms))
        self._locks = [threading.Lock() for _ in range(_LOCK_STRIPES)]
        self._refresh_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = False
        self._started_at: float | None = None
        self._ready_at: float | None = None
        self._indexed = 0
        self._pending = 0
        self._last: dict[str, Any] | None = None
        self._error: str | None = None
        self._touched: set[tuple[str, str]] = set()  # paths refresh_path handled during a running refresh

    # ----------------------------------------------------------------------------------------- state

    @property
    def state(self) -> str:
        """``"indexing"`` until the first full refresh of every vault finished, then ``"ready"``."""
        return "ready" if self._ready else "indexing"

    def status(self) -> dict:
        """Progress and counts for health/status endpoints.

        Returns ``{"state", "notes", "files", "indexed", "pending", "diagnostics", "started_at", "ready_at",
        "last_refresh"}``: ``notes``/``files``/``diagnostics`` are index totals (``None`` once the index is
        closed), ``indexed`` = files (re)indexed by the running or last refresh, ``pending`` = watcher changes
        queued but not applied yet, timestamps are ISO 8601 UTC or ``None``, ``last_refresh`` = the counts
        returned by the last :meth:`refresh_all` (or ``None``). ``error`` is present if the build or watcher
        failed, or if full-text commits are failing.
        """
        notes: int | None
        files: int | None
        diags: int | None
        try:
            notes, files, diags = self._index.note_count(), self._index.file_count(), self._index.diagnostic_count()
        except RuntimeError:  # index closed during shutdown
            notes = files = diags = None
        out: dict[str, Any] = {
            "state": self.state,
            "notes": notes,
            "files": files,
            "indexed": self._indexed,
            "pending": self._pending,
            "diagnostics": diags,
            "started_at": _iso(self._started_at),
            "ready_at": _iso(self._ready_at),
            "last_refresh": self._last,
        }
        err = self._error or getattr(self._index, "commit_error", None)
        if err:
            out["error"] = err
        return out

    # ------------------------------------------------------------------------------------ refreshing

    def _lock(self, vault: str, path: str) -> threading.Lock:
        return self._locks[hash((vault, path)) % _LOCK_STRIPES]

    def refresh_all(self, *, full: bool = False) -> dict:
        """Bring the index in line with every vault folder; blocking (call it from a worker thread).

        Incremental by default: files whose ``(size, mtime_ns)`` equal the indexed ones are skipped.
        ``full=True`` re-reads and re-indexes every file (search keeps answering meanwhile). Both remove rows of
        files that are gone (or now hidden/temporary) and of vaults no longer configured, then wait until the
        full-text index has committed everything.

        Returns:
            ``{"vaults", "scanned", "indexed", "unchanged", "removed", "errors", "removed_vaults", "full",
            "seconds"}`` (``indexed`` counts files written, notes and other files; ``errors`` = unreadable files).
        """
        return self._refresh_all(full=full, stop=threading.Event())

    def _refresh_all(self, *, full: bool, stop: threading.Event) -> dict:
        with self._refresh_lock:
            t0 = time.monotonic()
            self._indexed = 0
            total = {"vaults": 0, "scanned": 0, "indexed": 0, "unchanged": 0, "removed": 0, "errors": 0}
            removed_vaults = 0
            for name in self._index.vault_names():
                if name not in self._vaults:
                    self._index.delete_vault(name)
                    removed_vaults += 1
            self._touched = set()
            for vault in self._vaults.values():
                if stop.is_set():
                    break
                stats = self._refresh_vault(vault, full=full, stop=stop)
                total["vaults"] += 1
                for k, v in stats.items():
                    total[k] += v
            self._index.flush(timeout=300)
            out = {**total, "removed_vaults": removed_vaults, "full": full, "seconds": round(time.monotonic() - t0, 3)}
            self._last = out
            return out

    def _refresh_vault(
        self, vault: Vault, *, full: bool, under: str = "", stop: threading.Event | None = None, bulk: bool = True
    ) -> dict[str, int]:
        """Refresh one vault (or its folder ``under``). ``bulk`` = write through ``VaultIndex.batch()``
        (fast, visible at the next commit); otherwise each write is visible at once (refresh_path)."""
        stop = stop or threading.Event()
        idx = self._index
        states = idx.file_states(vault.name, under=under or None)
        stats = {"scanned": 0, "indexed": 0, "unchanged": 0, "removed": 0, "errors": 0}
        seen: set[str] = set()
        completed = False
        pool = _Pool(self, stop) if self._workers > 0 else None
        try:
            with idx.batch() if bulk else contextlib.nullcontext():
                for entry, path in walk(vault, under):
                    if stop.is_set():
                        break
                    seen.add(entry.path)
                    stats["scanned"] += 1
                    if not full and states.get(entry.path) == (entry.size, entry.mtime_ns):
                        stats["unchanged"] += 1
                        continue
                    if pool is not None and is_note(entry.path) and pool.take(vault, entry, path, stats):
                        continue
                    with self._lock(vault.name, entry.path):
                        ok = self._index_file(vault, entry, path)
                    stats["indexed" if ok else "errors"] += 1
                    self._indexed += 1
                else:
                    completed = True
                if pool is not None:
                    pool.drain(stats, block=True)
                if completed:  # an interrupted walk must not drop what it did not see
                    for gone in states.keys() - seen:
                        with self._lock(vault.name, gone):
                            idx.delete(vault.name, gone)
                        stats["removed"] += 1
        finally:
            if pool is not None:
                pool.close()
        return stats

    def _index_file(self, vault: Vault, entry: FileEntry, path: str) -> bool:
        """(Re)index one walked file in this process; returns False if it could not be read."""
        if not is_note(entry.path):
            try:
                self._index.upsert_file(
                    vault.name, entry.path, size=entry.size, mtime_ns=entry.mtime_ns, created_ns=entry.created_ns
                )
            except RuntimeError:
                raise  # index closed
            except Exception:
                log.exception("vault %s: indexing %s failed", vault.name, entry.path)
                return False
            return True
        return self._store(vault, entry, _prepare(str(vault.root), path, entry.size))

    def _store(self, vault: Vault, entry: FileEntry, result: tuple) -> bool:
        """Write the outcome of :func:`_prepare` for one note; returns False if the note could not be read."""
        idx, name, kind = self._index, vault.name, result[0]
        if result[2] is not None and result[2][:2] != (entry.size, entry.mtime_ns):
            entry = FileEntry(entry.path, *result[2])  # changed since the walk: record what was read
        try:
            if kind == "note":
                parsed = result[1]
                idx.upsert_note(
                    name, entry.path, "", parsed, size=entry.size, mtime_ns=entry.mtime_ns, created_ns=entry.created_ns
                )
                if parsed.frontmatter_error:
                    idx.record_diagnostic(name, entry.path, "invalid_frontmatter", str(parsed.frontmatter_error))
                return True
            if kind == "gone":
                idx.delete(name, entry.path)
                return True
            if kind == "unreadable":
                log.warning("vault %s: cannot read %s: %s", name, entry.path, result[1])
                return False
            idx.upsert_file(name, entry.path, size=entry.size, mtime_ns=entry.mtime_ns, created_ns=entry.created_ns)
            if kind == "invalid_utf8":
                msg = f"not valid UTF-8 (byte {result[1]}); not searchable"
            elif kind == "too_large":
                msg = f"note is {entry.size} bytes; notes over {MAX_NOTE_BYTES} are not indexed"
            else:
                log.error("vault %s: parsing %s failed: %s", name, entry.path, result[1])
                msg = f"could not parse: {result[1]}"
            idx.record_diagnostic(name, entry.path, kind, msg)
            return True
        except RuntimeError:
            raise  # index closed
        except Exception:
            log.exception("vault %s: indexing %s failed", name, entry.path)
            return False

    def refresh_path(self, vault: str, path: str) -> None:
        """Re-index one vault-relative path now, or forget it if it is gone, hidden, temporary or outside.

        A folder path refreshes everything below it (and forgets indexed files below it that are gone): a
        renamed or deleted folder is reported by watchers as one event. Blocking; thread-safe.

        Raises:
            KeyError: ``vault`` is not one of the indexer's vaults.
        """
        v = self._vaults[vault]
        rel = nfc(path).strip("/")
        segs = rel.split("/")
        if not rel or not all(is_servable_name(seg) for seg in segs) or is_editor_temp(segs[-1]):
            return  # not a path a vault file can have (hidden, temp, '..', absolute): never indexed
        if self._refresh_lock.locked():
            self._touched.add((vault, rel))  # a running refresh must not overwrite this with older content
        try:
            st: os.stat_result | None = vault_fs.lstat(v.root, rel)
        except OSError:  # gone, or a symlink (never followed: forgotten like a deleted file)
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            self._refresh_vault(v, full=False, under=rel, bulk=False)
            return
        with self._lock(vault, rel):
            if st is not None and stat.S_ISREG(st.st_mode):
                self._index_file(v, FileEntry(rel, st.st_size, st.st_mtime_ns, created_ns(st)), rel)
                return
            self._index.delete(vault, rel)
        for gone in self._index.file_states(vault, under=rel):  # files below a folder that disappeared
            with self._lock(vault, gone):
                self._index.delete(vault, gone)

    # ------------------------------------------------------------------------------------- watching

    async def start(self) -> None:
        """Start the background build and the watcher; returns at once. A second call is a no-op."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._started_at = time.time()
        self._thread = threading.Thread(target=self._thread_main, name="obsigate-indexer", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Stop the watcher and any running build (between two files), and wait for the thread to end."""
        self._stop.set()
        t = self._thread
        if t is not None:
            await anyio.to_thread.run_sync(t.join, 30.0)
            if t.is_alive():
                log.warning("indexer thread did not stop within 30 s")
        self._thread = None

    def _thread_main(self) -> None:
        try:
            anyio.run(self._main)
        except Exception as exc:  # pragma: no cover - last resort, keep the server up
            log.exception("indexer stopped")
            self._error = f"indexer stopped: {exc}"

    async def _main(self) -> None:
        send, recv = anyio.create_memory_object_stream[set[tuple[str, str]]](max_buffer_size=math.inf)
        ready = anyio.Event()
        async with anyio.create_task_group() as tg:
            watching = anyio.Event()
            tg.start_soon(self._watch, send, watching)
            with anyio.move_on_after(30):  # its folders listed (one read per folder), so it starts before the walk
                await watching.wait()
            tg.start_soon(self._consume, recv, ready)
            await anyio.sleep(0.05)  # let the watcher register before the walk starts
            # The build thread is CPU-bound Python: with the default 5 ms GIL switch interval the server's event
            # loop waits up to 5 ms at each hand-over, and `initialize` at 100k notes took 340 ms at worst.
            switch = sys.getswitchinterval()
            sys.setswitchinterval(min(switch, BUILD_SWITCH_INTERVAL_S))
            try:
                stats = await anyio.to_thread.run_sync(lambda: self._refresh_all(full=False, stop=self._stop))
                log.info("index ready: %s", stats)
            except Exception as exc:
                log.exception("initial index build failed")
                self._error = f"initial build failed: {exc}"
            finally:
                sys.setswitchinterval(switch)
            if not self._stop.is_set():
                self._ready = True
                self._ready_at = time.time()
            ready.set()

    def _roots(self) -> dict[str, str]:
        return {str(v.root): name for name, v in self._vaults.items() if _root_readable(v)}

    def _map(self, roots: dict[str, str], abs_path: str) -> tuple[str, str] | None:
        for root, name in roots.items():
            if abs_path.startswith(root + os.sep):
                rel = abs_path[len(root) + 1 :].replace(os.sep, "/")
                if is_hidden(rel) or is_editor_temp(rel.rsplit("/", 1)[-1]):
                    return None
                return name, nfc(rel)
        return None

    def _folders(self, roots: dict[str, str]) -> list[str]:
        """Every real folder of the vaults (roots included) as an absolute path: the ones the watcher watches,
        each on its own (not recursively), so a symlinked folder is never looked through (the OS would report
        what changes behind it, and a name there can be anything) and hidden or undecodable folders are left out.
        One directory read per folder, no stat per file (the kinds come from the directory entries)."""
        out: list[str] = []
        for root in roots:
            out.append(root)
            todo = [""]
            while todo:
                rel = todo.pop()
                try:
                    listed = vault_fs.list_folder(root, rel)
                except OSError:  # gone or swapped for a symlink since its parent was read
                    continue
                for name, kind in listed:
                    if kind == "dir" and is_servable_name(name) and rel.count("/") < vault_fs.MAX_DEPTH:
                        sub = f"{rel}/{name}" if rel else name
                        out.append(os.path.join(root, sub))
                        todo.append(sub)
        return out

    async def _watch(self, send: Any, watching: anyio.Event) -> None:
        roots = self._roots()
        async with send:
            if not roots:
                watching.set()
                return
            force_polling = None
            catch_up = False  # after a restart: what changed while no watch ran is found by an incremental scan
            while not self._stop.is_set():
                folders = await anyio.to_thread.run_sync(self._folders, roots)
                watching.set()
                notify = awatch(
                    *folders,
                    watch_filter=lambda _c, p: self._map(roots, p) is not None,
                    debounce=self._debounce_ms,
                    step=min(50, self._debounce_ms),
                    stop_event=self._stop,
                    rust_timeout=1000,
                    yield_on_timeout=True,  # an empty batch: the watch is up (the catch-up scan may start)
                    force_polling=force_polling,
                    poll_delay_ms=300,
                    recursive=False,
                    ignore_permission_denied=True,
                )
                try:
                    async with contextlib.aclosing(notify):
                        async for changes in notify:
                            if catch_up:
                                catch_up = False
                                await anyio.to_thread.run_sync(lambda: self._refresh_all(full=False, stop=self._stop))
                            items = {m for _c, p in changes if (m := self._map(roots, p)) is not None}
                            if items:
                                self._pending += len(items)
                                await send.send(items)
                            if any(c == Change.added and _is_folder(roots, p) for c, p in changes):
                                catch_up = True
                                break  # a new folder: watch it too (the consumer scans what it already holds)
                except Exception as exc:  # noqa: BLE001 — whatever stops notify, the watcher goes on
                    if self._stop.is_set():
                        break
                    catch_up = True
                    if _all_are(exc, lambda e: isinstance(e, FileNotFoundError)) and all(
                        _is_folder(roots, r) for r in roots
                    ):
                        continue  # a folder went away between the walk and the watch: walk again
                    if _all_are(
                        exc, lambda e: type(e).__name__ == "WatchfilesRustInternalError" and "decode path" in str(e)
                    ):
                        # Trigger: a file whose name is not valid UTF-8 changed (never a vault file, see
                        # is_servable_name) and notify dropped that batch. Outcome: watch again at once (no
                        # polling); the catch-up scan finds the batch's other changes.
                        log.info("file watcher: skipped a change to a name that is not valid UTF-8 (%s)", exc)
                        await anyio.sleep(self._debounce_ms / 1000)
                        continue
                    # Trigger: notify gave up (e.g. out of inotify watches). Outcome: retry with polling, and catch
                    # up with an incremental scan each time, so edits are never lost while the watcher is down.
                    log.warning("file watcher failed (%s); rescanning and restarting with polling in 5 s", exc)
                    force_polling = True
                    await anyio.sleep(5)

    async def _consume(self, recv: Any, ready: anyio.Event) -> None:
        await ready.wait()
        async with recv:
            async for first in recv:
                items, n = set(first), len(first)
                while True:  # merge everything already queued into one pass
                    try:
                        more = recv.receive_nowait()
                    except (anyio.WouldBlock, anyio.EndOfStream):
                        break
                    items |= more
                    n += len(more)
                if self._stop.is_set():
                    break
                try:
                    await anyio.to_thread.run_sync(self._apply, items)
                finally:
                    self._pending = max(0, self._pending - n)

    def _apply(self, items: Iterable[tuple[str, str]]) -> None:
        for vault, path in sorted(items):
            if self._stop.is_set():
                return
            try:
                self.refresh_path(vault, path)
            except Exception:
                log.exception("vault %s: refreshing %s failed", vault, path)
