"""Issue 3's benchmark harness: every performance target of ObsiGate measured in one run (``make bench``).

Usage (from the repository root)::

    python -m bench.harness                                # 10k notes, seed 42 (≈ 2-3 min on 2 cores)
    python -m bench.harness --notes 10000 --notes 100000   # both sizes, one after the other (100k: ≈ 8 min)
    python -m bench.harness --notes 50 --reps 3 --phases build,serve   # quick look at some phases

Per size, on a seeded vault from :mod:`bench.genvault` (with ``--hubs`` hub notes, so backlinks have real
fan-in; cached in ``bench/out/vault-N-SEED-hubsH``), each phase in its own process so RSS and CPU figures are
not mixed:

``build`` (child process)
    ``Indexer.refresh_all`` into an empty ``VaultIndex`` (:func:`bench.search_engines.worker_vi_build`):
    seconds, notes/s, CPU seconds, ``ru_maxrss`` and a ``/proc/self/status`` sample (anonymous vs
    file-backed memory; tantivy's mmapped segments count in ``ru_maxrss`` but are reclaimable).
``serve`` (child process, the built index opened in-process)
    * search: each query of :data:`QUERIES` ``--reps`` times warm (top 20 with snippets + exact total);
      rare words, common words (in most or all notes), phrases (a hyphenated piece is a phrase in
      ``VaultIndex``; quotes are not syntax) and multi-word natural queries, plus one tag-filtered query;
    * backlinks (``VaultIndex.backlinks(vault, path, limit=50)``, if it exists yet) of the hub notes and of
      random notes;
    * own write: ``VaultIndex.upsert_note`` (parsing done before the clock starts) → ``search`` finds the new
      word; and the whole ``Indexer.refresh_path`` (stat, read, redact, parse, upsert) → ``search``;
    * external edit: ``Indexer.start()`` (its watchfiles watcher, default debounce), then a note is written
      on disk and ``search`` is polled every 5 ms until the new word is found.
``grep`` (subprocesses)
    ``grep -r -i -l`` (and ``rg -i -l`` when installed) for the same words, on the same vault, page cache
    warm: the scan reference. Multi-word queries chain one grep per word through ``xargs`` (AND, like
    ours); phrases are searched as fixed strings. ``grep`` matches substrings and does not fold accents, so its
    file counts differ a little from ours; the ratio printed is grep's median time / our search p50.
``mcp`` (the real server: ``obsigate serve --no-auth`` on a free loopback port, empty data dir)
    * ``initialize`` (2025-11-25, raw JSON-RPC over Streamable HTTP) every 0.2 s from the moment
      ``/api/health`` answers until the index is ready (so it is measured while the first build runs),
      then 30 more once it is ready;
    * ``tools/call read_file`` on different notes, one client after another: p50/p95;
    * sustained: ``--clients`` concurrent sessions calling ``read_file`` for ``--sustain`` seconds: calls/s
      (the clients run in this process, on the same 2 cores as the server);
    * the server's ``VmHWM`` (peak RSS: its own start-up build included) and current RSS.
    The per-identity tool rate limit is lifted for the run (``OBSIGATE_TOOL_RATE_LIMIT``).

Raw JSON: ``bench/out/harness-N-SEED.json`` (or ``--out``), with the machine, load averages at start and end,
and every sample statistic. The table on stdout puts each figure next to its target.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Self

from bench.search_engines import (
    OUT,
    ROOT,
    _child,
    _pct,
    _peak_mb,
    _rss_mb,
    machine,
    worker_vi_build,
)

VAULT = "bench"
PHASES = ("build", "serve", "grep", "mcp")

# (category, label, query text, tag filter or None). Category = the target line the query counts toward.
QUERIES: list[tuple[str, str, str, str | None]] = [
    ("rare", "planted word 'zanzibarite'", "zanzibarite", None),
    ("rare", "pseudo-word + common word", "kelmor the", None),
    ("common", "'the' (every note)", "the", None),
    ("common", "'the of' (two in ~every note)", "the of", None),
    ("common", "'database' (~half the notes)", "database", None),
    ("phrase", "phrase action-items", "action-items", None),
    ("phrase", "phrase database-backup", "database-backup", None),
    ("natural", "database backup procedure", "database backup procedure", None),
    ("natural", "weekly review of the release pipeline", "weekly review of the release pipeline", None),
    ("natural", "notes from the team meeting about the budget", "notes from the team meeting about the budget", None),
    ("filter", "'report' with tag=project", "report", "project"),
]

TARGETS = {
    "search_p95_ms": {10_000: 5.0, 100_000: 20.0},
    "backlinks_p95_ms": 2.0,
    "read_file_p50_ms": 5.0,
    "build_s_100k": 60.0,
    "own_write_ms": 50.0,
    "external_edit_ms": 1000.0,
    "initialize_ms": 100.0,
    "rss_mb": 300.0,
}


def search_target(notes: int) -> float:
    """≤ 5 ms at 10k, ≤ 20 ms at 100k; in between, interpolated on a log scale; below 10k, 5 ms."""
    if notes <= 10_000:
        return 5.0
    if notes >= 100_000:
        return 20.0
    import math

    return 5.0 * 4 ** (math.log10(notes / 10_000))


def stats(xs: list[float]) -> dict[str, float]:
    """p50/p95/max/mean/n of a latency sample (ms)."""
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "p50": _pct(xs, 50), "p95": _pct(xs, 95), "max": max(xs), "mean": sum(xs) / len(xs)}


def timed(fn: Any, reps: int, budget_s: float = 1.5) -> tuple[list[float], list[float]]:
    """Call ``fn()`` ``reps`` times (at least 3; fewer if ``budget_s`` runs out): wall and CPU ms per call."""
    lat, cpu = [], []
    start = time.perf_counter()
    for i in range(max(3, reps)):
        if i >= 3 and time.perf_counter() - start > budget_s:
            break
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        lat.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return lat, cpu


def proc_status(pid: int | str = "self") -> dict[str, float]:
    """VmRSS, VmHWM (peak RSS), RssAnon, RssFile of a process, in MB (``/proc/<pid>/status``)."""
    out: dict[str, float] = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                    out[key] = int(rest.split()[0]) / 1024
    except OSError:
        pass
    return out


class Sampler:
    """Samples a process's ``/proc/<pid>/status`` (default: this one) every ``period`` s and keeps the maxima."""

    def __init__(self, period: float = 0.02, pid: int | str = "self") -> None:
        self.period = period
        self.pid = pid
        self.peak: dict[str, float] = {}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for k, v in proc_status(self.pid).items():
                if v > self.peak.get(k, 0.0):
                    self.peak[k] = v
            self._stop.wait(self.period)

    def __enter__(self) -> Self:
        self._t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._t.join()


def vault_dir(root: Path, notes: int, seed: int, hubs: int) -> Path:
    return root / f"vault-{notes}-{seed}-hubs{hubs}"


def note_paths(root: Path) -> list[str]:
    """Vault-relative paths of every visible ``.md`` file, sorted (the same set the indexer walks)."""
    out = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if not d.startswith("."))
        for fn in sorted(fns):
            if not fn.startswith(".") and fn.endswith(".md"):
                out.append((Path(dp) / fn).relative_to(root).as_posix())
    return out


# ---------------------------------------------------------------------------------------- child: build


def worker_build(vault: Path, work: Path) -> dict:
    with Sampler() as s:
        r = worker_vi_build(vault, work)
    notes = r["stats"].get("indexed", 0)
    r["notes_per_s"] = notes / r["build_s"] if r["build_s"] else 0.0
    r["status_peak_mb"] = s.peak  # VmRSS / RssAnon / RssFile maxima of the build process
    return r


# ---------------------------------------------------------------------------------------- child: serve


def worker_serve(vault: Path, work: Path, reps: int, seed: int, writes: int) -> dict:
    from obsigate.domain.index.vault_index import VaultIndex
    from obsigate.domain.index.watcher import Indexer
    from obsigate.domain.markdown.note import parse_note
    from obsigate.domain.vault import Vault

    manifest = json.loads((vault / ".genvault.json").read_text())
    paths = note_paths(vault)
    rng = random.Random(seed)
    out: dict[str, Any] = {"rss_before_mb": _rss_mb()}
    sampler = Sampler(0.05).__enter__()
    t = time.perf_counter()
    ix = VaultIndex(work / "vi" / "index.sqlite3")
    ix.search("zanzibarite", vaults=[VAULT])
    out["open_first_query_ms"] = (time.perf_counter() - t) * 1000

    # --- search, settled index
    out["queries"] = {}
    for cat, label, text, tag in QUERIES:
        page = ix.search(text, vaults=[VAULT], tag=tag)
        lat, cpu = [], []
        for _ in range(reps):
            c0, t0 = time.process_time(), time.perf_counter()
            ix.search(text, vaults=[VAULT], tag=tag)
            lat.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        out["queries"][label] = {
            "category": cat,
            "text": text,
            "tag": tag,
            "total": page.total,
            **stats(lat),
            "cpu": stats(cpu),
        }
    out["rss_after_queries_mb"] = _rss_mb()

    # --- backlinks
    if hasattr(VaultIndex, "backlinks"):
        bl: dict[str, Any] = {"hubs": {}, "random": {}}
        hubs = [h["path"] for h in manifest.get("hubs", [])]
        randoms = rng.sample(paths, min(20, len(paths)))
        for group, targets in (("hubs", hubs), ("random", randoms)):
            lat, cpu = [], []
            for p in targets:
                items, total = ix.backlinks(VAULT, p, limit=50)
                one, one_cpu = timed(lambda p=p: ix.backlinks(VAULT, p, limit=50), reps // 2)
                lat += one
                cpu += one_cpu
                bl[group][p] = {"total": total, "returned": len(items), **stats(one)}
            bl[group + "_all"] = {**stats(lat), "cpu": stats(cpu)}
        if hubs:  # a deep page of the biggest hub
            items, total = ix.backlinks(VAULT, hubs[0], limit=50)
            off = max(0, min(total - 50, 1000))
            lat, cpu = timed(lambda: ix.backlinks(VAULT, hubs[0], limit=50, offset=off), reps // 2)
            bl["hub0_offset"] = {"offset": off, **stats(lat), "cpu": stats(cpu)}
        out["backlinks"] = bl
    else:
        out["backlinks"] = None

    # --- own write: upsert_note → visible (parsing before the clock), 50 ms apart so commits interleave
    lat = []
    for i in range(writes):
        rel = paths[rng.randrange(len(paths))]
        word = f"ownwrite{i}x{seed}"
        text = (vault / rel).read_text("utf-8") + f"\n{word}\n"
        parsed = parse_note(text)
        t0 = time.perf_counter()
        # size -1: the file on disk is unchanged, so the next incremental refresh re-indexes it from disk
        ix.upsert_note(VAULT, rel, text, parsed, size=-1, mtime_ns=0)
        page = ix.search(word, vaults=[VAULT])
        lat.append((time.perf_counter() - t0) * 1000)
        assert page.total == 1 and page.hits[0].path == rel, (word, page.total)
        time.sleep(0.05)
    out["own_write_upsert"] = stats(lat)

    # --- own write through the whole Indexer.refresh_path (file written first, not timed)
    indexer = Indexer(ix, {VAULT: Vault(VAULT, vault)})
    originals: dict[str, bytes] = {}
    lat = []
    try:
        for i in range(writes):
            rel = paths[rng.randrange(len(paths))]
            p = vault / rel
            originals.setdefault(rel, p.read_bytes())
            word = f"refreshpath{i}x{seed}"
            p.write_bytes(p.read_bytes() + f"\n{word}\n".encode())
            t0 = time.perf_counter()
            indexer.refresh_path(VAULT, rel)
            page = ix.search(word, vaults=[VAULT])
            lat.append((time.perf_counter() - t0) * 1000)
            assert page.total == 1, (word, page.total)
            time.sleep(0.05)
    finally:
        for rel, data in originals.items():
            (vault / rel).write_bytes(data)
            indexer.refresh_path(VAULT, rel)
    out["own_write_refresh_path"] = stats(lat)
    ix.flush()

    # --- external edit: the watcher notices a file written on disk
    out["external_edit"] = external_edits(ix, vault, paths, rng, seed, writes)
    out["rss_end_mb"] = _rss_mb()
    out["peak_rss_mb"] = _peak_mb()
    ix.close()
    sampler.__exit__()
    out["status_peak_mb"] = sampler.peak
    return out


def external_edits(ix: Any, vault: Path, paths: list[str], rng: random.Random, seed: int, n: int) -> dict:
    from obsigate.domain.index.watcher import Indexer
    from obsigate.domain.vault import Vault

    indexer = Indexer(ix, {VAULT: Vault(VAULT, vault)})
    t0 = time.perf_counter()
    asyncio.run(indexer.start())
    while indexer.state != "ready":
        time.sleep(0.01)
        if time.perf_counter() - t0 > 600:
            raise RuntimeError("indexer did not become ready")
    r: dict[str, Any] = {"start_until_ready_s": time.perf_counter() - t0}
    time.sleep(0.3)
    originals: dict[str, bytes] = {}
    lat, missed = [], 0
    try:
        for i in range(n):
            rel = paths[rng.randrange(len(paths))]
            p = vault / rel
            data = p.read_bytes()
            originals.setdefault(rel, data)
            word = f"extedit{i}x{seed}"
            t0 = time.perf_counter()
            p.write_bytes(data + f"\n{word}\n".encode())
            while True:
                if ix.search(word, vaults=[VAULT]).total >= 1:
                    lat.append((time.perf_counter() - t0) * 1000)
                    break
                if time.perf_counter() - t0 > 5:
                    missed += 1
                    break
                time.sleep(0.005)
            time.sleep(0.3)
    finally:
        for rel, data in originals.items():
            (vault / rel).write_bytes(data)
        time.sleep(0.5)  # let the watcher re-index the originals before stopping
        asyncio.run(indexer.stop())
    r.update(stats(lat))
    r["not_seen_within_5s"] = missed
    return r


# ------------------------------------------------------------------------------------------ grep / rg


def grep_commands(tool: str, text: str, root: Path) -> str:
    """A shell pipeline listing the files that contain every word of ``text`` (AND), case-insensitively.

    A hyphenated piece (``action-items``) is the phrase ``action items``, as in ``VaultIndex``.
    """
    pieces = [p.replace("-", " ") for p in text.split()]
    if tool == "grep":
        first = "grep -r -i -l -Z -F --include='*.md' -e {w} {root}"
        then = "xargs -0 -r grep -i -l -Z -F -e {w}"
    else:
        first = "rg -i -l -0 -F --glob '*.md' -e {w} {root}"
        then = "xargs -0 -r rg -i -l -0 -F -e {w}"

    def quote(s: str) -> str:
        return "'" + s.replace("'", "'\\''") + "'"

    cmds = [first.format(w=quote(pieces[0]), root=quote(str(root)))]
    cmds += [then.format(w=quote(w)) for w in pieces[1:]]
    return " | ".join(cmds)


def run_scan(tool: str, text: str, root: Path, reps: int) -> dict:
    cmd = grep_commands(tool, text, root)
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    lat, files = [], 0
    for _ in range(reps):
        t0 = time.perf_counter()
        r = subprocess.run(["bash", "-c", cmd], capture_output=True, env=env, check=False)
        lat.append((time.perf_counter() - t0) * 1000)
        files = len([x for x in r.stdout.split(b"\0") if x])
    return {"cmd": cmd, "files": files, **stats(lat)}


def phase_grep(vault: Path, notes: int) -> dict:
    reps = 5 if notes <= 20_000 else 3
    out: dict[str, Any] = {"tools": ["grep"] + (["rg"] if shutil.which("rg") else []), "queries": {}}
    subprocess.run(["bash", "-c", grep_commands("grep", "zanzibarite", vault)], capture_output=True, check=False)
    for _cat, label, text, tag in QUERIES:  # page cache warm (the line above read every note once)
        if tag:
            continue  # no grep equivalent of a tag filter
        out["queries"][label] = {t: run_scan(t, text, vault, reps) for t in out["tools"]}
    return out


# ------------------------------------------------------------------------------------------------ MCP

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PROTOCOL = "2025-11-25"


def _rpc_result(resp: Any) -> dict:
    """The JSON-RPC message of a Streamable HTTP answer (plain JSON or one SSE ``data:`` event)."""
    if resp.status_code != 200:
        raise RuntimeError(f"HTTP {resp.status_code}: {resp.text[:300]}")
    if resp.headers.get("content-type", "").startswith("text/event-stream"):
        for line in resp.text.splitlines():
            if line.startswith("data:"):
                msg = json.loads(line[5:])
                if "id" in msg:
                    return msg
        raise RuntimeError(f"no JSON-RPC answer in the event stream: {resp.text[:300]}")
    return resp.json()


def _init_body(i: int) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": i,
        "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
    }


def _read_body(i: int, path: str) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": i,
        "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"vault": VAULT, "path": path}},
    }


def _check_read(msg: dict, path: str) -> None:
    res = msg.get("result") or {}
    if "error" in msg or res.get("isError") or (res.get("structuredContent") or {}).get("path") != path:
        raise RuntimeError(f"read_file {path!r} failed: {json.dumps(msg)[:300]}")


def initialize(http: Any, url: str, i: int) -> tuple[float, float, str]:
    """One legacy handshake; returns (initialize ms, initialize + notifications/initialized ms, session id)."""
    t0 = time.perf_counter()
    r = http.post(url, json=_init_body(i), headers=ACCEPT)
    msg = _rpc_result(r)
    t1 = time.perf_counter()
    if msg.get("result", {}).get("protocolVersion") != PROTOCOL:
        raise RuntimeError(f"unexpected initialize answer: {json.dumps(msg)[:300]}")
    sid = r.headers["mcp-session-id"]
    h = {**ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL}
    r2 = http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
    if r2.status_code not in (200, 202):
        raise RuntimeError(f"notifications/initialized: HTTP {r2.status_code}")
    return (t1 - t0) * 1000, (time.perf_counter() - t0) * 1000, sid


def close_session(http: Any, url: str, sid: str) -> None:
    import httpx2

    with contextlib.suppress(httpx2.HTTPError):  # a session left open only costs the server a little memory
        http.delete(url, headers={"mcp-session-id": sid, "mcp-protocol-version": PROTOCOL})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def obsigate_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "obsigate"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "obsigate"]


def phase_mcp(vault: Path, work: Path, seed: int, clients: int, sustain_s: float, calls: int, inits: int) -> dict:
    import httpx2

    data = work / "server-data"
    shutil.rmtree(data, ignore_errors=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"{base}/mcp"
    log_path = work / "server.log"
    env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000000"}
    cmd = [
        *obsigate_cmd(),
        "serve",
        "--vault",
        f"{VAULT}={vault}",
        "--no-auth",
        "--data-dir",
        str(data),
        "--port",
        str(port),
    ]
    out: dict[str, Any] = {"cmd": " ".join(cmd), "port": port}
    paths = note_paths(vault)
    rng = random.Random(seed + 1)
    with open(log_path, "wb") as log:
        t_spawn = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    sampler = Sampler(0.1, proc.pid).__enter__()
    try:
        with httpx2.Client(timeout=30) as http:
            health = None
            while time.perf_counter() - t_spawn < 60:
                if proc.poll() is not None:
                    raise RuntimeError(f"server exited with {proc.returncode}; see {log_path}")
                try:
                    health = http.get(f"{base}/api/health").json()
                    break
                except httpx2.TransportError:
                    time.sleep(0.02)
            if health is None:
                raise RuntimeError("server did not answer /api/health within 60 s")
            out["spawn_to_health_s"] = time.perf_counter() - t_spawn

            # initialize while the first index build runs (probe every 0.2 s), then when ready. /api/health
            # counts the index's rows (≈ 25 ms at 100k notes), so it is asked only every 10th probe: the probes
            # before a health answer saying "indexing" ran during the build; those before "ready" are dropped.
            during: list[float] = []
            during_total: list[float] = []
            pending: list[tuple[float, float]] = []
            i = 0
            h = health
            t_poll = time.perf_counter()
            while h["index"]["state"] != "ready":
                i += 1
                ms, total_ms, sid = initialize(http, url, i)
                close_session(http, url, sid)
                pending.append((ms, total_ms))
                if i % 10 == 0:
                    h = http.get(f"{base}/api/health").json()
                    if h["index"]["state"] != "ready":
                        during += [x[0] for x in pending]
                        during_total += [x[1] for x in pending]
                    pending = []
                if time.perf_counter() - t_poll > 900:
                    raise RuntimeError("server index not ready after 900 s")
                time.sleep(0.2)
            out["server_index"] = h["index"]
            out["health_to_ready_s"] = time.perf_counter() - t_poll
            out["initialize_during_build"] = stats(during)
            out["handshake_during_build"] = stats(during_total)
            ready, ready_total = [], []
            for _ in range(inits):
                i += 1
                ms, total_ms, sid = initialize(http, url, i)
                close_session(http, url, sid)
                ready.append(ms)
                ready_total.append(total_ms)
                time.sleep(0.02)
            out["initialize_ready"] = stats(ready)
            out["handshake_ready"] = stats(ready_total)

            # read_file, one call after another, different notes
            _, _, sid = initialize(http, url, 0)
            h = {**ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL}
            sample = [paths[rng.randrange(len(paths))] for _ in range(calls + 10)]
            lat = []
            for j, p in enumerate(sample):
                t0 = time.perf_counter()
                msg = _rpc_result(http.post(url, json=_read_body(j, p), headers=h))
                dt = (time.perf_counter() - t0) * 1000
                _check_read(msg, p)
                if j >= 10:  # the first ten warm the server's caches and the connection
                    lat.append(dt)
            close_session(http, url, sid)
            out["read_file"] = stats(lat)

            # context for the figure above: the same client's loopback floor, and the same tool over REST
            floor, rest = [], []
            for p in sample[: min(100, len(sample))]:
                t0 = time.perf_counter()
                http.get(f"{base}/api/health").raise_for_status()
                floor.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                r = http.get(f"{base}/api/file/{VAULT}", params={"path": p})
                rest.append((time.perf_counter() - t0) * 1000)
                if r.status_code != 200:
                    raise RuntimeError(f"GET /api/file: HTTP {r.status_code}: {r.text[:200]}")
            out["health_get"] = stats(floor[3:])
            out["rest_read_file"] = stats(rest[3:])

        out["sustained"] = asyncio.run(sustained(url, paths, clients, sustain_s, seed))
        out["server_status_mb"] = proc_status(proc.pid)  # VmHWM = peak RSS of the serving process
        sampler.__exit__()
        out["server_status_peak_mb"] = sampler.peak  # maxima of 0.1 s samples: RssAnon vs RssFile at peak
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        out["server_cpu_s"] = (int(fields[11]) + int(fields[12])) / tick
    finally:
        sampler.__exit__()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    out["server_exit_code"] = proc.returncode
    return out


async def sustained(url: str, paths: list[str], clients: int, seconds: float, seed: int) -> dict:
    import httpx2

    done: list[float] = []
    errors = 0

    async def client(k: int) -> None:
        nonlocal errors
        rng = random.Random(seed * 100 + k)
        async with httpx2.AsyncClient(timeout=30) as http:
            r = await http.post(url, json=_init_body(1), headers=ACCEPT)
            _rpc_result(r)
            sid = r.headers["mcp-session-id"]
            h = {**ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL}
            await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
            opened.append(k)
            await start.wait()
            j = 0
            while time.perf_counter() < deadline:
                j += 1
                p = paths[rng.randrange(len(paths))]
                t0 = time.perf_counter()
                try:
                    _check_read(_rpc_result(await http.post(url, json=_read_body(j, p), headers=h)), p)
                    done.append((time.perf_counter() - t0) * 1000)
                except (RuntimeError, httpx2.HTTPError):
                    errors += 1
            await http.delete(url, headers={"mcp-session-id": sid, "mcp-protocol-version": PROTOCOL})

    start = asyncio.Event()
    deadline = float("inf")
    opened: list[int] = []
    tasks = [asyncio.create_task(client(k)) for k in range(clients)]
    while len(opened) < clients and not any(t.done() for t in tasks):  # every session open before the clock
        await asyncio.sleep(0.01)
    t0 = time.perf_counter()
    deadline = t0 + seconds
    start.set()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    return {
        "clients": clients,
        "seconds": elapsed,
        "calls": len(done),
        "errors": errors,
        "calls_per_s": len(done) / elapsed,
        "latency": stats(done),
    }


# ----------------------------------------------------------------------------------------------- main


def git_state() -> dict:
    """The commit measured and any uncommitted change under ``src/`` (the code measured may differ from HEAD)."""

    def git(*args: str) -> str:
        r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return r.stdout.strip()

    return {
        "head": git("rev-parse", "--short", "HEAD"),
        "dirty_src": git("status", "--short", "--", "src").splitlines(),
    }


def run_size(a: argparse.Namespace, notes: int) -> dict:
    from bench.genvault import generate

    vault = vault_dir(a.dir, notes, a.seed, a.hubs)
    work = a.dir / f"harness-work-{notes}-{a.seed}"
    work.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "machine": machine(),
        "git": git_state(),
        "notes": notes,
        "seed": a.seed,
        "reps": a.reps,
        "errors": {},
    }
    if not (vault / ".genvault.json").exists():
        t = time.perf_counter()
        generate(vault, notes=notes, seed=a.seed, hubs=a.hubs)
        report["generate_s"] = time.perf_counter() - t
        print(f"# generated {vault} in {report['generate_s']:.1f}s", file=sys.stderr)
    report["vault"] = json.loads((vault / ".genvault.json").read_text())
    common = [
        "--vault",
        str(vault),
        "--work",
        str(work),
        "--reps",
        str(a.reps),
        "--seed",
        str(a.seed),
        "--writes",
        str(a.writes),
    ]
    phases = a.phases.split(",")
    for phase in PHASES:
        if phase not in phases:
            continue
        print(f"# {notes} notes: {phase} (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
        t = time.perf_counter()
        try:
            if phase in ("build", "serve"):
                report[phase] = _child(["--worker", phase, *common], module="bench.harness")
            elif phase == "grep":
                report[phase] = phase_grep(vault, notes)
            else:
                report[phase] = phase_mcp(vault, work, a.seed, a.clients, a.sustain, a.calls, a.inits)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 — one failing phase must not lose the others
            report["errors"][phase] = f"{type(exc).__name__}: {exc}"
            print(f"# {phase} failed: {exc}", file=sys.stderr)
        report.setdefault("phase_seconds", {})[phase] = time.perf_counter() - t
    report["machine"]["loadavg_at_end"] = os.getloadavg()
    return report


def _f(x: float | None, unit: str = "ms", nd: int = 2) -> str:
    return "—" if x is None else f"{x:.{nd}f} {unit}".strip()


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "n/a"
    if value <= target:
        return "PASS"
    return f"MISS (+{value - target:.3g}, {value / target:.1f}×)"


def print_report(r: dict) -> None:
    n = r["notes"]
    m = r["machine"]
    g = r.get("git", {})
    print(
        f"\n== {n:,} notes (seed {r['seed']}, reps {r['reps']}) — {m['date']}, Python {m['python']}, "
        f"{m['cpus']} CPUs, load {m['loadavg_at_start'][0]:.2f} → {m['loadavg_at_end'][0]:.2f}; "
        f"commit {g.get('head')}{' + uncommitted src changes' if g.get('dirty_src') else ''}"
    )
    rows: list[tuple[str, str, str, str]] = []

    def row(name: str, value: str, target: str, v: str) -> None:
        rows.append((name, value, target, v))

    st = search_target(n)
    s = r.get("serve")
    if s:
        for cat in ("rare", "common", "phrase", "natural", "filter"):
            qs = {k: q for k, q in s["queries"].items() if q["category"] == cat}
            worst = max(qs.items(), key=lambda kv: kv[1]["p95"])
            cpu95 = max(q.get("cpu", {}).get("p95", 0.0) for q in qs.values())
            row(
                f"search p95, {cat} (worst: {worst[0]}; worst CPU p95 {cpu95:.2f})",
                _f(worst[1]["p95"]),
                f"≤ {st:g} ms",
                verdict(worst[1]["p95"], st),
            )
        bl = s.get("backlinks")
        if bl is None:
            row("backlinks p95", "n/a (not built yet)", "≤ 2 ms", "n/a")
        else:
            for g in ("hubs", "random"):
                a = bl.get(g + "_all", {})
                row(
                    f"backlinks p95, {g} notes (p50 {_f(a.get('p50'))}, CPU p95 {_f(a.get('cpu', {}).get('p95'))})",
                    _f(a.get("p95")),
                    "≤ 2 ms",
                    verdict(a.get("p95"), TARGETS["backlinks_p95_ms"]),
                )
            if "hub0_offset" in bl:
                a = bl["hub0_offset"]
                row(
                    f"backlinks p95, biggest hub at offset {a['offset']}",
                    _f(a.get("p95")),
                    "≤ 2 ms",
                    verdict(a.get("p95"), TARGETS["backlinks_p95_ms"]),
                )
        o = s["own_write_upsert"]
        row(
            f"own write upsert_note → visible, p95 (p50 {_f(o['p50'])})",
            _f(o["p95"]),
            "≤ 50 ms",
            verdict(o["p95"], TARGETS["own_write_ms"]),
        )
        o = s["own_write_refresh_path"]
        row(
            f"own write refresh_path → visible, p95 (p50 {_f(o['p50'])})",
            _f(o["p95"]),
            "≤ 50 ms",
            verdict(o["p95"], TARGETS["own_write_ms"]),
        )
        e = s["external_edit"]
        row(
            f"external edit (watcher) → visible, p95 (p50 {_f(e.get('p50'), nd=0)}, max {_f(e.get('max'), nd=0)})",
            _f(e.get("p95"), nd=0),
            "≤ 1000 ms",
            verdict(e.get("p95"), TARGETS["external_edit_ms"])
            if not e.get("not_seen_within_5s")
            else f"MISS ({e['not_seen_within_5s']} not seen in 5 s)",
        )
    mcp = r.get("mcp")
    if mcp:
        d, rd = mcp["initialize_during_build"], mcp["initialize_ready"]
        if d.get("n"):
            row(
                f"MCP initialize while indexing, p95 (n {d['n']}, max {_f(d['max'], nd=1)})",
                _f(d["p95"], nd=1),
                "≤ 100 ms",
                verdict(d["p95"], TARGETS["initialize_ms"]),
            )
        else:
            row("MCP initialize while indexing", "n/a (index ready before the first probe)", "≤ 100 ms", "n/a")
        row(
            f"MCP initialize, index ready, p95 (max {_f(rd['max'], nd=1)})",
            _f(rd["p95"], nd=1),
            "≤ 100 ms",
            verdict(rd["p95"], TARGETS["initialize_ms"]),
        )
        rf = mcp["read_file"]
        row(
            f"MCP tools/call read_file p50 (p95 {_f(rf['p95'])})",
            _f(rf["p50"]),
            "≤ 5 ms",
            verdict(rf["p50"], TARGETS["read_file_p50_ms"]),
        )
        if "rest_read_file" in mcp:
            row(
                f"  for comparison: REST GET /api/file p50 (GET /api/health p50 {_f(mcp['health_get']['p50'])})",
                _f(mcp["rest_read_file"]["p50"]),
                "—",
                "",
            )
        su = mcp["sustained"]
        row(
            f"MCP read_file sustained, {su['clients']} clients (p50 {_f(su['latency'].get('p50'))}, "
            f"p95 {_f(su['latency'].get('p95'))}, errors {su['errors']})",
            f"{su['calls_per_s']:.0f} calls/s",
            "—",
            "",
        )
    b = r.get("build")
    if b:
        scaled = TARGETS["build_s_100k"] * n / 100_000
        tgt = "≤ 60 s" if n == 100_000 else f"≤ {scaled:.3g} s (60 s × N/100k)"
        row(
            f"index build ({b['notes_per_s']:.0f} notes/s, CPU {b['cpu_s_main_process']:.0f}+"
            f"{b['cpu_s_parse_workers']:.0f} s)",
            _f(b["build_s"], "s", 1),
            tgt,
            verdict(b["build_s"], scaled),
        )
        sp = b.get("status_peak_mb", {})
        row(
            f"build peak RSS (RssAnon {sp.get('RssAnon', 0):.0f} + RssFile {sp.get('RssFile', 0):.0f} MB; "
            f"parse worker {b.get('worker_peak_rss_mb', 0):.0f} MB)",
            _f(b["peak_rss_mb"], "MB", 0),
            "≤ 300 MB",
            verdict(b["peak_rss_mb"], TARGETS["rss_mb"]),
        )
    if s:
        row(
            f"in-process serving peak RSS (after queries {s['rss_after_queries_mb']:.0f} MB)",
            _f(s["peak_rss_mb"], "MB", 0),
            "≤ 300 MB",
            verdict(s["peak_rss_mb"], TARGETS["rss_mb"]),
        )
    if mcp:
        ss, sp = mcp["server_status_mb"], mcp.get("server_status_peak_mb", {})
        row(
            f"obsigate serve peak RSS, own build included (RssAnon max {sp.get('RssAnon', 0):.0f}, RssFile max "
            f"{sp.get('RssFile', 0):.0f}; at end {ss.get('VmRSS', 0):.0f} MB)",
            _f(ss.get("VmHWM"), "MB", 0),
            "≤ 300 MB",
            verdict(ss.get("VmHWM"), TARGETS["rss_mb"]),
        )
    w = [max((len(x[i]) for x in rows), default=0) for i in range(4)]
    for x in rows:
        print(f"  {x[0]:<{w[0]}}  {x[1]:>{w[1]}}  {x[2]:<{w[2]}}  {x[3]}")
    if s:
        print(
            "\n  search detail (ms)                                  p50     p95     max  CPU p95   total   "
            "grep p50 (files)   grep/ours"
        )
        g = (r.get("grep") or {}).get("queries", {})
        for label, q in s["queries"].items():
            ref = g.get(label, {})
            gr = ref.get("grep")
            extra = ""
            if gr:
                extra = f"{gr['p50']:9.1f} ({gr['files']:>6})  {gr['p50'] / q['p50']:7.0f}×"
                if "rg" in ref:
                    extra += f"   rg {ref['rg']['p50']:.1f} ms ({ref['rg']['p50'] / q['p50']:.0f}×)"
            cpu = q.get("cpu", {}).get("p95", float("nan"))
            print(
                f"  {label:<50}{q['p50']:6.2f}  {q['p95']:6.2f}  {q['max']:6.2f}  {cpu:7.2f}  {q['total']:>6}  {extra}"
            )
    if r["errors"]:
        print(f"  errors: {r['errors']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.harness", description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, action="append", help="vault size (repeatable; default 10000)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--hubs", type=int, default=10, help="hub notes in the generated vault (backlink fan-in)")
    ap.add_argument("--reps", type=int, default=60, help="repetitions per search query")
    ap.add_argument("--writes", type=int, default=30, help="own writes (each kind) and external edits")
    ap.add_argument("--calls", type=int, default=300, help="sequential MCP read_file calls")
    ap.add_argument("--inits", type=int, default=30, help="MCP initialize calls once the index is ready")
    ap.add_argument("--clients", type=int, default=4, help="concurrent MCP clients for the sustained rate")
    ap.add_argument("--sustain", type=float, default=5.0, help="seconds of sustained MCP load")
    ap.add_argument("--phases", default=",".join(PHASES), help=f"comma-separated subset of {','.join(PHASES)}")
    ap.add_argument("--dir", type=Path, default=OUT, help="where vaults, work files and reports go (bench/out)")
    ap.add_argument("--out", type=Path, help="JSON report (default DIR/harness-N-SEED.json)")
    ap.add_argument("--worker", choices=["build", "serve"], help=argparse.SUPPRESS)
    ap.add_argument("--vault", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.worker:
        a.work.mkdir(parents=True, exist_ok=True)
        if a.worker == "build":
            r = worker_build(a.vault, a.work)
        else:
            r = worker_serve(a.vault, a.work, a.reps, a.seed, a.writes)
        print(json.dumps(r, default=str))
        return 0

    sizes = a.notes or [10_000]
    if "serve" in a.phases.split(",") and "build" not in a.phases.split(","):
        for n in sizes:
            if not (a.dir / f"harness-work-{n}-{a.seed}" / "vi").exists():
                ap.error(f"--phases without build needs an earlier build at {n} notes")
    a.dir.mkdir(parents=True, exist_ok=True)
    reports = []
    for n in sizes:
        r = run_size(a, n)
        out = (
            a.out
            if a.out and len(sizes) == 1
            else (a.out.with_name(f"{a.out.stem}-{n}{a.out.suffix}") if a.out else a.dir / f"harness-{n}-{a.seed}.json")
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(r, indent=1, default=str))
        r["json"] = str(out)
        reports.append(r)
        print_report(r)
        print(f"  raw JSON: {out}")
    return 1 if any(r["errors"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
