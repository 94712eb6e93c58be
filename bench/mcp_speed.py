"""Issue 20's MCP speed targets, each figure beside its floor measured in the same run (``make bench-mcp``).

Usage (from the repository root)::

    python -m bench.mcp_speed                      # every phase, 10k-note build (≈ 2-3 min on 2 cores)
    python -m bench.mcp_speed --phases read --rounds 5
    python -m bench.mcp_speed --quick              # few calls, a 2k-note build: a smoke run (≈ 40 s)

The machine this runs on is shared and noisy, so no figure is read alone: each is measured with its floor in
the same run, interleaved call by call where it can be, and the report gives both and their difference.

The floor is a **bare SDK server**: the official ``mcp`` SDK's low-level ``Server`` with one trivial tool
(``echo``, one text block) and a ``/health`` route answering a constant JSON object, served by
``Server.streamable_http_app()`` (the SDK's defaults: SSE answers, sessions) under uvicorn with the options
``obsigate serve`` uses, in its own process (``python -m bench.mcp_speed --bare-server PORT``). ObsiGate is
the real ``obsigate serve --no-auth`` in its own process (tool rate limit lifted), on a seeded vault from
:mod:`bench.genvault` (seed 42, cached in ``bench/out/vault-N-42-hubs0``). The client speaks raw JSON-RPC
over Streamable HTTP with one keep-alive ``httpx2`` connection per server, protocol 2025-11-25 (``initialize``,
``notifications/initialized``, ``Mcp-Session-Id``), as ``bench.harness`` does.

Phases (``--phases``, default all):

``read`` — target (a): ``tools/call read_file`` p50 within 1 ms of the bare server's ``tools/call echo``.
    ``--rounds`` rounds of ``--calls`` calls (after 20 warm-up calls), alternating one bare call and one
    ObsiGate call (a different note each time, 200-note vault), so both see the same load. Also the
    server's CPU time per call (``/proc/<pid>/stat``, user + system, all threads), which contention inflates
    far less than wall time. The verdict is on the median across rounds of ``p50(obsigate) - p50(bare)``.
``build`` — targets (b) and (c): ``obsigate serve`` starts on a ``--notes`` vault with an empty data dir
    (its first index build). Until its ``/api/health`` says ``ready``, every ``--probe-every`` seconds: an
    ObsiGate ``initialize`` (+ ``DELETE`` of the session, untimed), a ``GET /api/health``, then the same two
    against the bare server (its ``initialize`` and ``/health``). A probe counts as "during the build" when the
    health answer of its round still says ``indexing``. Then 30 more rounds with the index ready.
``writes`` — target (c): while a writer process runs ``--writers`` MCP sessions doing
    ``propose_append_to_file`` + ``apply_append_to_file`` back to back on shared notes (each apply: journal,
    backup, atomic write, fsyncs, re-index), ``GET /api/health`` on ObsiGate and ``/health`` on the bare
    server every 50 ms, interleaved. The writer's count of applied appends is reported (its throughput).

``stdio`` — target (d): ``tools/call read_file`` p50 ≤ 2 ms over ``obsigate mcp stdio --no-auth`` (its own
    data dir, the 200-note vault), newline-delimited JSON-RPC on the pipes, beside the bare server's ``echo``
    served by the SDK's ``stdio_server`` (``--bare-stdio``), alternating call by call as in ``read``.

"Never blocks the event loop" is read as: ``/api/health`` answers during a build or heavy writes in about the
time the bare server's ``/health`` takes at the same moment (p95 and max beside the floor's), not in the time
of a build step or a write.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.harness import _rpc_result, git_state, note_paths, stats

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
VAULT = "demo"
PROTOCOL = "2025-11-25"
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PHASES = ("read", "build", "writes", "stdio")
#: The issue-20 targets, in ms.
TARGETS = {"read_delta_p50_ms": 1.0, "initialize_build_p95_ms": 100.0, "stdio_read_p50_ms": 2.0}


# ------------------------------------------------------------------------------------------- the floor


def bare_server(port: int) -> None:
    """Serve the floor: the SDK's low-level ``Server`` with one trivial tool, ``echo``, and ``GET /health``,
    on ``127.0.0.1:port`` (SDK defaults: SSE answers and sessions; uvicorn as ``obsigate serve`` runs it)."""
    import uvicorn
    from mcp.server import Server
    from mcp_types import CallToolResult, ListToolsResult, TextContent, Tool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[Tool(name="echo", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: Any) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text="ok")])

    async def health(request: Any) -> JSONResponse:
        return JSONResponse({"status": "ok", "index": {"state": "ready"}})

    server = Server("bare", on_list_tools=list_tools, on_call_tool=call_tool)
    app = server.streamable_http_app(custom_starlette_routes=[Route("/health", health)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", proxy_headers=False)


def bare_stdio() -> None:
    """The floor over stdio: the same bare ``Server`` under the SDK's ``stdio_server``."""
    import anyio
    from mcp.server import Server
    from mcp.server.stdio import stdio_server
    from mcp_types import CallToolResult, ListToolsResult, TextContent, Tool

    async def list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[Tool(name="echo", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: Any) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text="ok")])

    server = Server("bare", on_list_tools=list_tools, on_call_tool=call_tool)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


# ------------------------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """A server subprocess on a loopback port; ``health`` is the path that says it answers."""

    def __init__(self, cmd: list[str], port: int, health: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.url = f"{self.base}/mcp"
        self.health_url = f"{self.base}{health}"
        self.log = log
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)

    def wait_up(self, http: Any, timeout: float = 60) -> dict[str, Any]:
        """The first answer of the health route (polled every 20 ms)."""
        import httpx2

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                return dict(http.get(self.health_url).json())
            except httpx2.TransportError:
                time.sleep(0.02)
        raise RuntimeError(f"no answer from {self.health_url} within {timeout} s; see {self.log}")

    def cpu_s(self) -> float:
        """User + system CPU seconds of the process so far (every thread)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_bare(work: Path) -> Proc:
    port = free_port()
    return Proc(
        [sys.executable, "-m", "bench.mcp_speed", "--bare-server", str(port)], port, "/health", work / "bare.log"
    )


def start_obsigate(vault: Path, data: Path, work: Path, name: str) -> Proc:
    port = free_port()
    shutil.rmtree(data, ignore_errors=True)
    env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000000"}
    cmd = [sys.executable, "-m", "obsigate", "serve", "--vault", f"{VAULT}={vault}", "--no-auth"]
    cmd += ["--data-dir", str(data), "--port", str(port)]
    return Proc(cmd, port, "/api/health", work / f"{name}.log", env)


# --------------------------------------------------------------------------------------------- client


class Session:
    """One legacy MCP session (2025-11-25) over one keep-alive connection."""

    def __init__(self, http: Any, url: str) -> None:
        self.http = http
        self.url = url
        self.headers = dict(ACCEPT)
        self.next_id = 1
        self.open()

    def open(self) -> float:
        """``initialize`` + ``notifications/initialized``; returns the ``initialize`` round trip in ms."""
        ms, sid = initialize(self.http, self.url)
        self.headers = {**ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL}
        r = self.http.post(
            self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers
        )
        if r.status_code not in (200, 202):
            raise RuntimeError(f"notifications/initialized: HTTP {r.status_code}")
        return ms

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """``tools/call``; the result's ``structuredContent`` (an error result raises)."""
        self.next_id += 1
        body = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": args},
        }
        msg = _rpc_result(self.http.post(self.url, json=body, headers=self.headers))
        result = msg.get("result") or {}
        if "error" in msg or result.get("isError"):
            raise RuntimeError(f"{name} failed: {json.dumps(msg)[:300]}")
        return dict(result.get("structuredContent") or {})

    def close(self) -> None:
        close_session(self.http, self.url, self.headers.get("mcp-session-id"))


def initialize(http: Any, url: str) -> tuple[float, str]:
    """One ``initialize`` POST: (round trip ms, session id)."""
    body = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
    }
    t0 = time.perf_counter()
    r = http.post(url, json=body, headers=ACCEPT)
    msg = _rpc_result(r)
    ms = (time.perf_counter() - t0) * 1000
    if (msg.get("result") or {}).get("protocolVersion") != PROTOCOL:
        raise RuntimeError(f"unexpected initialize answer: {json.dumps(msg)[:300]}")
    return ms, r.headers["mcp-session-id"]


def close_session(http: Any, url: str, sid: str | None) -> None:
    import httpx2

    if sid:
        with contextlib.suppress(httpx2.HTTPError):
            http.delete(url, headers={"mcp-session-id": sid, "mcp-protocol-version": PROTOCOL})


def timed_get(http: Any, url: str) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    r = http.get(url)
    ms = (time.perf_counter() - t0) * 1000
    r.raise_for_status()
    return ms, dict(r.json())


# ------------------------------------------------------------------------------------------------ phases


def phase_read(vault: Path, work: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Target (a): ObsiGate ``read_file`` and the bare ``echo``, alternating call by call (see the module doc)."""
    import httpx2

    paths = note_paths(vault)
    bare = start_bare(work)
    og = start_obsigate(vault, work / "data-read", work, "obsigate-read")
    rounds: list[dict[str, Any]] = []
    try:
        with httpx2.Client(timeout=30) as hb, httpx2.Client(timeout=30) as ho:
            bare.wait_up(hb)
            while og.wait_up(ho)["index"]["state"] != "ready":
                time.sleep(0.1)
            sb, so = Session(hb, bare.url), Session(ho, og.url)
            for _ in range(20):  # warm-up: connections, caches, the first call's imports
                sb.call("echo", {})
                so.call("read_file", {"vault": VAULT, "path": paths[0]})
            rounds += alternating_rounds(sb.call, bare.cpu_s, so.call, og.cpu_s, paths, a, "read")
            sb.close()
            so.close()
    finally:
        og.stop()
        bare.stop()
    return rounds_summary(rounds, len(paths), a.calls)


def rounds_summary(rounds: list[dict[str, Any]], notes: int, calls: int) -> dict[str, Any]:
    """The rounds of :func:`alternating_rounds` and, for each figure, its median across them (ms)."""
    out: dict[str, Any] = {"rounds": rounds, "notes": notes, "calls_per_round": calls}
    for key in ("delta_p50_ms", "bare_cpu_ms_per_call", "obsigate_cpu_ms_per_call"):
        out[key] = statistics.median(r[key] for r in rounds)
    for key in ("bare_echo", "obsigate_read_file"):
        out[key] = {s: statistics.median(r[key][s] for r in rounds) for s in ("p50", "p95", "mean")}
    return out


def alternating_rounds(
    bare_call: Callable[[str, dict[str, Any]], dict[str, Any]],
    bare_cpu: Callable[[], float],
    og_call: Callable[[str, dict[str, Any]], dict[str, Any]],
    og_cpu: Callable[[], float],
    paths: list[str],
    a: argparse.Namespace,
    label: str,
) -> list[dict[str, Any]]:
    """``a.rounds`` rounds of ``a.calls`` calls, alternating call by call between the bare server's ``echo`` and
    ObsiGate's ``read_file`` (over ``paths`` in turn), so both see the same load; each round's latency stats (ms)
    and each server's CPU per call (ms, from ``*_cpu``: seconds of its process).

    Raises:
        RuntimeError: ``read_file`` answered for another path.
    """
    rounds: list[dict[str, Any]] = []
    for r in range(a.rounds):
        lb: list[float] = []
        lo: list[float] = []
        cpu_b = cpu_o = 0.0
        for i in range(a.calls):
            c0, t0 = bare_cpu(), time.perf_counter()
            bare_call("echo", {})
            lb.append((time.perf_counter() - t0) * 1000)
            cpu_b += bare_cpu() - c0
            path = paths[(r * a.calls + i) % len(paths)]
            c0, t0 = og_cpu(), time.perf_counter()
            got = og_call("read_file", {"vault": VAULT, "path": path})
            lo.append((time.perf_counter() - t0) * 1000)
            cpu_o += og_cpu() - c0
            if got.get("path") != path:
                raise RuntimeError(f"read_file answered {got.get('path')!r} for {path!r}")
        sb_, so_ = stats(lb), stats(lo)
        rounds.append(
            {
                "bare_echo": sb_,
                "obsigate_read_file": so_,
                "delta_p50_ms": so_["p50"] - sb_["p50"],
                "bare_cpu_ms_per_call": cpu_b / a.calls * 1000,
                "obsigate_cpu_ms_per_call": cpu_o / a.calls * 1000,
            }
        )
        print(f"  {label} round {r + 1}: {_round_line(rounds[-1])}", flush=True)
    return rounds


def _round_line(r: dict[str, Any]) -> str:
    b, o = r["bare_echo"], r["obsigate_read_file"]
    return (
        f"bare echo p50 {b['p50']:.2f} p95 {b['p95']:.2f} ms ({r['bare_cpu_ms_per_call']:.2f} CPU-ms/call) | "
        f"read_file p50 {o['p50']:.2f} p95 {o['p95']:.2f} ms ({r['obsigate_cpu_ms_per_call']:.2f} CPU-ms/call) | "
        f"Δp50 {r['delta_p50_ms']:+.2f} ms"
    )


def phase_build(vault: Path, work: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Targets (b) and (c) during the first index build (see the module doc)."""
    import httpx2

    bare = start_bare(work)
    with httpx2.Client(timeout=60) as hb:
        bare.wait_up(hb)
    t_spawn = time.perf_counter()
    og = start_obsigate(vault, work / "data-build", work, "obsigate-build")
    probes: dict[str, dict[str, list[float]]] = {
        phase: {k: [] for k in ("og_initialize", "og_health", "bare_initialize", "bare_health")}
        for phase in ("during", "ready")
    }
    out: dict[str, Any] = {"notes": a.notes}
    try:
        with httpx2.Client(timeout=60) as hb, httpx2.Client(timeout=60) as ho:
            state = og.wait_up(ho)["index"]["state"]
            out["spawn_to_health_s"] = time.perf_counter() - t_spawn
            t_build = time.perf_counter()
            ready_rounds = 0
            while ready_rounds < 30:
                if time.perf_counter() - t_build > 900:
                    raise RuntimeError("index not ready after 900 s")
                ms_init, sid = initialize(ho, og.url)
                close_session(ho, og.url, sid)
                ms_health, body = timed_get(ho, og.health_url)
                b_init, b_sid = initialize(hb, bare.url)
                close_session(hb, bare.url, b_sid)
                b_health, _ = timed_get(hb, bare.health_url)
                phase = "during" if state != "ready" and body["index"]["state"] != "ready" else "ready"
                if body["index"]["state"] == "ready" and state != "ready":
                    out["build_s"] = time.perf_counter() - t_build
                state = body["index"]["state"]
                for key, ms in (
                    ("og_initialize", ms_init), ("og_health", ms_health), ("bare_initialize", b_init),
                    ("bare_health", b_health),
                ):  # fmt: skip
                    probes[phase][key].append(ms)
                ready_rounds += phase == "ready"
                time.sleep(a.probe_every)
            out["server_index"] = body["index"]
            out["server_cpu_s"] = og.cpu_s()
    finally:
        og.stop()
        bare.stop()
    for phase, series in probes.items():
        out[phase] = {k: stats(v) for k, v in series.items()}
    return out


def writer(url: str, vault: str, paths: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` sessions doing propose+apply ``append_to_file`` on ``paths`` for ``seconds``: counts."""
    import httpx2

    done: list[float] = []
    errors: list[str] = []
    end = time.monotonic() + seconds

    def run(k: int) -> None:
        rng = random.Random(k)
        with httpx2.Client(timeout=60) as http:
            s = Session(http, url)
            while time.monotonic() < end:
                path = paths[rng.randrange(len(paths))]
                t0 = time.perf_counter()
                try:
                    args = {"vault": vault, "path": path, "content": f"- appended by writer {k} at {time.time():.6f}"}
                    token = s.call("propose_append_to_file", args)["confirmation_token"]
                    s.call("apply_append_to_file", {"confirmation_token": token})
                    done.append((time.perf_counter() - t0) * 1000)
                except RuntimeError as exc:  # a conflict between writers is an answer, not a failure
                    errors.append(str(exc)[:200])
            s.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"applied": len(done), "errors": len(errors), "first_errors": errors[:3], "propose_apply_ms": stats(done)}


def phase_writes(vault: Path, work: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Target (c) under heavy writes (see the module doc)."""
    import httpx2

    copy = work / "vault-writes"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(vault, copy)
    paths = note_paths(copy)[:20]  # shared notes: writers meet on them
    bare = start_bare(work)
    og = start_obsigate(copy, work / "data-writes", work, "obsigate-writes")
    out: dict[str, Any] = {"writers": a.writers, "seconds": a.write_seconds}
    series: dict[str, list[float]] = {"og_health": [], "bare_health": []}
    quiet: dict[str, list[float]] = {"og_health": [], "bare_health": []}
    try:
        with httpx2.Client(timeout=60) as hb, httpx2.Client(timeout=60) as ho:
            bare.wait_up(hb)
            while og.wait_up(ho)["index"]["state"] != "ready":
                time.sleep(0.1)
            for _ in range(40):  # the same probes with no writer, for scale
                quiet["og_health"].append(timed_get(ho, og.health_url)[0])
                quiet["bare_health"].append(timed_get(hb, bare.health_url)[0])
                time.sleep(0.02)
            result_file = work / "writer.json"
            cmd = [sys.executable, "-m", "bench.mcp_speed", "--writer", og.url, "--writers", str(a.writers)]
            cmd += ["--write-seconds", str(a.write_seconds), "--writer-out", str(result_file), "--writer-paths"]
            cmd += paths
            w = subprocess.Popen(cmd, cwd=ROOT)
            time.sleep(1.0)  # sessions open, writes under way
            while w.poll() is None:
                series["og_health"].append(timed_get(ho, og.health_url)[0])
                series["bare_health"].append(timed_get(hb, bare.health_url)[0])
                time.sleep(0.05)
            if w.returncode != 0:
                raise RuntimeError(f"writer exited with {w.returncode}")
            out["writer"] = json.loads(result_file.read_text())
    finally:
        og.stop()
        bare.stop()
    out["during"] = {k: stats(v) for k, v in series.items()}
    out["quiet"] = {k: stats(v) for k, v in quiet.items()}
    return out


class StdioSession:
    """A legacy MCP session over a subprocess's stdin/stdout (one JSON-RPC message a line)."""

    def __init__(self, cmd: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = open(log, "wb")  # closed in close()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=env, cwd=ROOT
        )
        self.next_id = 0
        body = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        if self.request("initialize", body)["result"].get("protocolVersion") != PROTOCOL:
            raise RuntimeError("unexpected initialize answer over stdio")
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read lines until its answer (notifications and logs in between skipped)."""
        assert self.proc.stdout is not None
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"stdio server closed its output; see {self.log.name}")
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                return dict(msg)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        msg = self.request("tools/call", {"name": name, "arguments": args})
        result = msg.get("result") or {}
        if "error" in msg or result.get("isError"):
            raise RuntimeError(f"{name} failed over stdio: {json.dumps(msg)[:300]}")
        return dict(result.get("structuredContent") or {})

    def cpu_s(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # end of input: the server stops
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def phase_stdio(vault: Path, work: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Target (d): ``read_file`` over ``obsigate mcp stdio`` beside the bare stdio ``echo`` (see the module doc)."""
    paths = note_paths(vault)
    data = work / "data-stdio"
    shutil.rmtree(data, ignore_errors=True)
    env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000000"}
    og_cmd = [sys.executable, "-m", "obsigate", "mcp", "stdio", "--vault", f"{VAULT}={vault}", "--no-auth"]
    og_cmd += ["--data-dir", str(data)]
    bare = StdioSession([sys.executable, "-m", "bench.mcp_speed", "--bare-stdio"], work / "bare-stdio.log")
    og = StdioSession(og_cmd, work / "obsigate-stdio.log", env)
    rounds: list[dict[str, Any]] = []
    try:
        time.sleep(2.0)  # the 200-note start-up index build is over (≈ 0.3 s quiet)
        for _ in range(20):
            bare.call("echo", {})
            og.call("read_file", {"vault": VAULT, "path": paths[0]})
        rounds += alternating_rounds(bare.call, bare.cpu_s, og.call, og.cpu_s, paths, a, "stdio")
    finally:
        og.close()
        bare.close()
    return rounds_summary(rounds, len(paths), a.calls)


# ------------------------------------------------------------------------------------------------ report


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def print_report(r: dict[str, Any]) -> None:
    print(f"\n== MCP speed (issue 20), {r['started']} — load {r['load_start']} → {r['load_end']} ==")
    rd = r.get("read")
    if rd:
        ok = rd["delta_p50_ms"] <= TARGETS["read_delta_p50_ms"]
        b, o = rd["bare_echo"], rd["obsigate_read_file"]
        print(
            f"(a) tools/call p50: read_file {_f(o['p50'])} ms vs bare echo {_f(b['p50'])} ms → "
            f"Δ {rd['delta_p50_ms']:+.2f} ms (target ≤ 1.00) {'met' if ok else 'MISSED'}; "
            f"server CPU/call {rd['obsigate_cpu_ms_per_call']:.2f} vs {rd['bare_cpu_ms_per_call']:.2f} ms"
        )
    bd = r.get("build")
    if bd:
        d, rdy = bd["during"], bd["ready"]
        p95 = d["og_initialize"].get("p95")
        ok = p95 is not None and p95 <= TARGETS["initialize_build_p95_ms"]
        print(
            f"(b) initialize during a {bd['notes']}-note build (n={d['og_initialize'].get('n', 0)}): p95 {_f(p95)} "
            f"max {_f(d['og_initialize'].get('max'))} ms; bare floor p95 {_f(d['bare_initialize'].get('p95'))} ms; "
            f"ready p95 {_f(rdy['og_initialize'].get('p95'))} ms → {'met' if ok else 'MISSED'}"
        )
        print(
            f"(c) /api/health during the build: p50 {_f(d['og_health'].get('p50'))} p95 {_f(d['og_health'].get('p95'))} "
            f"max {_f(d['og_health'].get('max'))} ms; bare /health p95 {_f(d['bare_health'].get('p95'))} "
            f"max {_f(d['bare_health'].get('max'))} ms (build {_f(bd.get('build_s'))} s)"
        )
    wr = r.get("writes")
    if wr:
        d, q = wr["during"], wr["quiet"]
        print(
            f"(c) /api/health under {wr['writers']} writers ({wr['writer']['applied']} appends applied in "
            f"{wr['seconds']} s): p50 {_f(d['og_health'].get('p50'))} p95 {_f(d['og_health'].get('p95'))} max "
            f"{_f(d['og_health'].get('max'))} ms; bare /health p95 {_f(d['bare_health'].get('p95'))} max "
            f"{_f(d['bare_health'].get('max'))} ms; quiet p95 {_f(q['og_health'].get('p95'))} / "
            f"{_f(q['bare_health'].get('p95'))} ms"
        )
    if r.get("stdio"):
        _print_stdio(r["stdio"])


def _print_stdio(st: dict[str, Any]) -> None:
    o, b = st["obsigate_read_file"], st["bare_echo"]
    ok = o["p50"] <= TARGETS["stdio_read_p50_ms"]
    print(
        f"(d) stdio read_file p50 {_f(o['p50'])} ms p95 {_f(o['p95'])} (target ≤ 2.00) {'met' if ok else 'MISSED'}; "
        f"bare stdio echo p50 {_f(b['p50'])} p95 {_f(b['p95'])} ms → Δ {st['delta_p50_ms']:+.2f} ms; server "
        f"CPU/call {st['obsigate_cpu_ms_per_call']:.2f} vs {st['bare_cpu_ms_per_call']:.2f} ms"
    )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.mcp_speed", description=__doc__.splitlines()[0])
    ap.add_argument("--phases", default=",".join(PHASES), help=f"comma-separated, of {', '.join(PHASES)}")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", type=int, default=300, help="timed calls per server and round (read)")
    ap.add_argument("--notes", type=int, default=10_000, help="vault size of the build phase")
    ap.add_argument("--probe-every", type=float, default=0.1, help="seconds between probe rounds (build)")
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--write-seconds", type=float, default=8.0)
    ap.add_argument("--quick", action="store_true", help="1 round of 60 calls, a 2k-note build, 3 s of writes")
    ap.add_argument("--out", type=Path, default=OUT / "mcp-speed.json")
    ap.add_argument("--vaults", type=Path, default=OUT, help="where the seeded vaults are cached")
    ap.add_argument("--bare-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    ap.add_argument("--bare-stdio", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--writer", metavar="URL", help=argparse.SUPPRESS)
    ap.add_argument("--writer-out", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--writer-paths", nargs="*", default=[], help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.bare_server:
        bare_server(a.bare_server)
        return 0
    if a.bare_stdio:
        bare_stdio()
        return 0
    if a.writer:
        result = writer(a.writer, VAULT, a.writer_paths, a.writers, a.write_seconds)
        a.writer_out.write_text(json.dumps(result))
        return 0
    if a.quick:
        a.rounds, a.calls, a.notes, a.write_seconds = 1, 60, 2000, 3.0
    phases = [p for p in a.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        ap.error(f"unknown phase(s): {', '.join(sorted(unknown))}")

    from bench.genvault import generate

    a.vaults.mkdir(parents=True, exist_ok=True)

    def vault(n: int) -> Path:
        path = a.vaults / f"vault-{n}-42-hubs0"
        if not (path / ".genvault.json").exists():
            generate(path, notes=n, seed=42)
        return path

    report: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "git": git_state(),
        "load_start": _load(),
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(a).items() if not k.startswith("writer")},
    }
    with tempfile.TemporaryDirectory(prefix="mcp-speed-") as tmp:
        work = Path(tmp)
        if "read" in phases:
            report["read"] = phase_read(vault(200), work, a)
        if "build" in phases:
            report["build"] = phase_build(vault(a.notes), work, a)
        if "writes" in phases:
            report["writes"] = phase_writes(vault(200), work, a)
        if "stdio" in phases:
            report["stdio"] = phase_stdio(vault(200), work, a)
    report["load_end"] = _load()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1))
    print_report(report)
    print(f"\nraw figures: {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
