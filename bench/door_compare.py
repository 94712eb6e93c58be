"""The tool layer's door before and after a refactor, measured side by side in one run (issue 8).

Usage (from the repository root)::

    python -m bench.door_compare                       # ref 3f5798e vs the working tree, 3 rounds (≈ 1.5 min)
    python -m bench.door_compare --ref HEAD~3 --rounds 5 --out bench/out/door.json
    python -m bench.door_compare --quick               # 1 round, few calls, in-process only (a smoke run)

The machine is shared and noisy, so the reference and the current code are never measured in separate runs:
each round runs one worker process per tree, one after the other (the order alternates every round), and
the report takes the median across rounds of each worker's p50 / p95 / mean.

Trees:

``ref``
    ``git archive <rev> src`` unpacked into a temporary directory (nothing is added to the repository:
    no worktree, no branch), removed at the end.
``current``
    A copy of the working tree's ``src/`` taken at the start (uncommitted changes included: the JSON says
    whether it was dirty), so a commit landing during the run does not change what later rounds measure.

Each worker is ``python -m bench.door_compare --worker ...`` with ``PYTHONPATH=<tree>/src`` (so
``import obsigate`` picks that tree, which the worker checks; the venv has the dependencies), on its own copy
of one seeded vault (:func:`bench.genvault.generate`, default 200 notes, seed 42) and its own empty data
directories, authentication off and the tool rate limit lifted. It measures, after a warm-up of each:

``call_tool read_file (in process)``
    ``obsigate.tools.api.call_tool(ToolContext(ANONYMOUS, runtime, mode="mcp"), "read_file", ...)``: the
    tool layer alone, no transport.
``MCP read_file (in process)``
    The official ``mcp.Client`` over ``streamable_http_client`` and ``httpx2.ASGITransport`` (no socket),
    ``tools/call read_file``; the app's lifespan entered by hand, as ``tests/mcp/conftest.py`` does.
``MCP read_file (HTTP)``
    The same client over a real loopback socket to the app served by uvicorn in a thread (a separate app,
    measured first so the vault is still as generated).
``MCP propose+apply create_file (in process)``
    ``propose_create_file`` (a new path each time) then ``apply_create_file`` with its
    ``confirmation_token``, timed together, over the in-process MCP client.
``MCP apply edit_file (in process)``
    ``apply_edit_file`` alone (its ``propose_edit_file`` untimed before it): a whole-content edit of one
    existing note (a different note each time, from the start of the list): the apply's re-plan under the lock,
    backup, atomic write and index refresh (issue 17: no diff rendered there, the backup from the bytes the
    re-plan read).
``MCP apply rename_file (in process)``
    ``apply_rename_file`` alone, likewise, renaming one note (from the end of the list) in its folder: the
    apply also rewrites, backs up and re-indexes every note linking to it.

Read calls cycle over the vault's notes in a fixed order, the same in both trees. The MCP protocol era is
``--era`` (default ``legacy``: 2025-11-25, initialize + session, what ``make bench`` speaks). The app factory
is ``obsigate.bootstrap.create_app`` (current) or ``obsigate.api.app.create_app`` (before issue 8).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_REF = "3f5798e"

#: Measurement keys, in report order, with the label of the Markdown table.
MEASUREMENTS = {
    "call_tool_read_file": "call_tool read_file (in process)",
    "mcp_read_file_inproc": "MCP read_file (in process)",
    "mcp_read_file_http": "MCP read_file (HTTP)",
    "mcp_propose_apply_inproc": "MCP propose+apply create_file (in process)",
    "mcp_apply_edit_inproc": "MCP apply edit_file (in process)",
    "mcp_apply_rename_inproc": "MCP apply rename_file (in process)",
}
IN_PROCESS_ONLY = (
    "call_tool_read_file", "mcp_read_file_inproc", "mcp_propose_apply_inproc", "mcp_apply_edit_inproc",
    "mcp_apply_rename_inproc",
)  # fmt: skip
STATS = ("p50", "p95", "mean")


# ---------------------------------------------------------------------------------------------- statistics


def percentile(sorted_ms: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of an ascending list (the value at rank ``ceil(q/100 * n)``)."""
    if not sorted_ms:
        raise ValueError("no samples")
    rank = max(1, math.ceil(q / 100 * len(sorted_ms)))
    return sorted_ms[rank - 1]


def summarise(samples_ms: list[float]) -> dict[str, float]:
    """``{"n", "p50", "p95", "mean", "min", "max"}`` of latency samples in milliseconds (rounded to µs)."""
    s = sorted(samples_ms)
    out = {"p50": percentile(s, 50), "p95": percentile(s, 95), "mean": statistics.fmean(s), "min": s[0], "max": s[-1]}
    return {"n": len(s), **{k: round(v, 3) for k, v in out.items()}}


# -------------------------------------------------------------------------------------------------- worker


def _create_app(settings: Any) -> Any:
    """The tree's app factory: ``obsigate.bootstrap.create_app`` now, ``obsigate.api.app.create_app`` before."""
    from obsigate import bootstrap

    factory = getattr(bootstrap, "create_app", None)
    if factory is None:
        from obsigate.api.app import create_app as factory
    return factory(settings)


def _settings(data_dir: Path, vault: Path, port: int) -> Any:
    """Settings for one worker app: one vault ``demo``, auth off, loopback ``port``, rate limit lifted."""
    from obsigate.config import load_settings

    return load_settings(
        data_dir=data_dir,
        port=port,
        vaults={"demo": {"path": str(vault)}},
        auth_enabled=False,
        tool_rate_limit=10_000_000,
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _wait_ready(runtime: Any, timeout: float = 60) -> None:
    """Return once the background indexer of ``runtime`` reports ``ready``."""
    import anyio

    indexer = runtime.workspace.indexer
    with anyio.fail_after(timeout):
        while indexer is not None and indexer.state != "ready":
            await anyio.sleep(0.02)


async def _timed(fn: Any, calls: int, warmup: int) -> dict[str, float]:
    """Await ``fn(i)`` ``warmup`` times untimed, then ``calls`` times timed; the summary in ms."""
    for i in range(warmup):
        await fn(i)
    samples = []
    for i in range(calls):
        t0 = time.perf_counter_ns()
        await fn(warmup + i)
        samples.append((time.perf_counter_ns() - t0) / 1e6)
    return summarise(samples)


def _checked(result: Any, name: str) -> dict[str, Any]:
    """The structuredContent of an MCP ``CallToolResult``; an error result raises."""
    if result.is_error or result.structured_content is None:
        raise RuntimeError(f"{name} failed: {result.content!r}")
    return result.structured_content


async def _timed_apply(propose: Any, apply: Any, calls: int, warmup: int) -> dict[str, float]:
    """``token = await propose(i)`` untimed, then ``await apply(token)`` timed, ``warmup`` times untimed first
    and ``calls`` times timed; the summary of the applies in ms."""
    samples = []
    for i in range(warmup + calls):
        token = await propose(i)
        t0 = time.perf_counter_ns()
        await apply(token)
        if i >= warmup:
            samples.append((time.perf_counter_ns() - t0) / 1e6)
    return summarise(samples)


async def _mcp_reads(client: Any, paths: list[str], calls: int, warmup: int) -> dict[str, float]:
    async def read(i: int) -> None:
        _checked(await client.call_tool("read_file", {"vault": "demo", "path": paths[i % len(paths)]}), "read_file")

    return await _timed(read, calls, warmup)


async def _measure_http(vault: Path, data_dir: Path, paths: list[str], a: argparse.Namespace) -> dict[str, float]:
    """``MCP read_file (HTTP)``: the app under uvicorn in a thread on a free loopback port, the SDK client."""
    import threading

    import anyio
    import httpx2
    import uvicorn
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    port = _free_port()
    app = _create_app(_settings(data_dir, vault, port))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        with anyio.fail_after(30):
            while not server.started:
                if not thread.is_alive():
                    raise RuntimeError("uvicorn did not start")
                await anyio.sleep(0.02)
        await _wait_ready(app.state.runtime)
        base = f"http://127.0.0.1:{port}"
        async with (
            httpx2.AsyncClient(base_url=base) as http,
            Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=a.era) as client,
        ):
            return await _mcp_reads(client, paths, a.calls, a.warmup)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


async def _measure_in_process(vault: Path, data_dir: Path, paths: list[str], a: argparse.Namespace) -> dict[str, Any]:
    """The in-process measurements: ``call_tool`` alone, MCP ``read_file``, MCP propose+apply."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from obsigate.auth.principal import ANONYMOUS
    from obsigate.tools.api import ToolContext, call_tool

    port = 8765  # what ASGITransport requests look like: a loopback Host with this port
    base = f"http://127.0.0.1:{port}"
    app = _create_app(_settings(data_dir, vault, port))
    out: dict[str, Any] = {}
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        await _wait_ready(runtime)
        ctx = ToolContext(ANONYMOUS, runtime, mode="mcp")

        async def direct(i: int) -> None:
            result = await call_tool(ctx, "read_file", {"vault": "demo", "path": paths[i % len(paths)]})
            if not isinstance(result, dict):
                raise RuntimeError(f"read_file returned {type(result).__name__}")

        out["call_tool_read_file"] = await _timed(direct, a.calls, a.warmup)

        transport = httpx2.ASGITransport(app=app)
        async with (
            httpx2.AsyncClient(transport=transport, base_url=base) as http,
            Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=a.era) as client,
        ):
            out["mcp_read_file_inproc"] = await _mcp_reads(client, paths, a.calls, a.warmup)

            async def propose_apply(i: int) -> None:
                content = f"# New {i}\n\nSee [[{paths[0][:-3]}]].\n"
                args = {"vault": "demo", "path": f"door-bench/new-{i:05d}.md", "content": content}
                proposed = _checked(await client.call_tool("propose_create_file", args), "propose_create_file")
                token = {"confirmation_token": proposed["confirmation_token"]}
                _checked(await client.call_tool("apply_create_file", token), "apply_create_file")

            out["mcp_propose_apply_inproc"] = await _timed(propose_apply, a.writes, max(1, a.warmup // 4))

            def applier(tool: str) -> Any:
                async def apply(token: str) -> None:
                    _checked(await client.call_tool(f"apply_{tool}", {"confirmation_token": token}), f"apply_{tool}")

                return apply

            async def propose_edit(i: int) -> str:
                path = paths[i % len(paths)]
                content = (vault / path).read_text(encoding="utf-8") + f"\nEdited {i}.\n"
                args = {"vault": "demo", "path": path, "content": content}
                return _checked(await client.call_tool("propose_edit_file", args), "propose_edit_file")[
                    "confirmation_token"
                ]

            async def propose_rename(i: int) -> str:
                path = paths[-1 - i % len(paths)]
                args = {"vault": "demo", "path": path, "new_name": f"{path.rsplit('/', 1)[-1][:-3]} r{i}"}
                return _checked(await client.call_tool("propose_rename_file", args), "propose_rename_file")[
                    "confirmation_token"
                ]

            warm = max(1, a.warmup // 4)
            out["mcp_apply_edit_inproc"] = await _timed_apply(propose_edit, applier("edit_file"), a.writes, warm)
            out["mcp_apply_rename_inproc"] = await _timed_apply(propose_rename, applier("rename_file"), a.writes, warm)
    return out


def worker(a: argparse.Namespace) -> dict[str, Any]:
    """One tree's measurements (run in a process whose ``PYTHONPATH`` selects the tree); a JSON-safe dict."""
    import anyio

    import obsigate

    src = Path(obsigate.__file__).resolve().parents[1]
    if a.expect_src and src != Path(a.expect_src).resolve():
        raise RuntimeError(f"imported obsigate from {src}, expected {a.expect_src}")
    work = Path(a.work)
    vault = work / "vault"
    shutil.copytree(a.vault, vault)
    paths = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md") if not p.name.startswith("."))

    async def run() -> dict[str, Any]:
        results: dict[str, Any] = {}
        if not a.quick:  # first, while the vault is as generated (the write measurement adds notes)
            results["mcp_read_file_http"] = await _measure_http(vault, work / "data-http", paths, a)
        results.update(await _measure_in_process(vault, work / "data", paths, a))
        return results

    t0 = time.perf_counter()
    results = anyio.run(run)
    seconds = round(time.perf_counter() - t0, 2)
    return {"obsigate": str(src), "notes": len(paths), "seconds": seconds, "results": results}


# -------------------------------------------------------------------------------------------------- parent


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True).stdout.strip()


def materialise(rev: str, dest: Path) -> str:
    """Unpack ``src/`` of git revision ``rev`` into ``dest`` (``git archive``, nothing added to the repository);
    return the full commit id."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    archive = dest.parent / f"{dest.name}.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), sha, "src"], check=True)
    dest.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    return sha


def snapshot_src(dest: Path) -> tuple[str, bool]:
    """Copy the working tree's ``src/`` to ``dest/src`` (no ``__pycache__``); return ``HEAD`` and whether
    ``src/`` had uncommitted changes at that moment."""
    head = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--", "src"))
    shutil.copytree(REPO / "src", dest / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return head, dirty


def run_worker(tree: Path, vault: Path, work: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Run one worker for ``tree`` (``PYTHONPATH=<tree>/src``) in a fresh ``work`` directory; its JSON result."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OBSIGATE_")}
    env["PYTHONPATH"] = str(tree / "src")
    argv = [sys.executable, "-m", "bench.door_compare", "--worker", "--vault", str(vault), "--work", str(work),
            "--expect-src", str(tree / "src"), "--calls", str(a.calls), "--writes", str(a.writes),
            "--warmup", str(a.warmup), "--era", a.era] + (["--quick"] if a.quick else [])  # fmt: skip
    work.mkdir(parents=True)
    proc = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=a.timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"worker for {tree} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def aggregate(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per measurement, the median across rounds of each statistic of :data:`STATS`."""
    out: dict[str, dict[str, float]] = {}
    for key in MEASUREMENTS:
        per_round = [r["results"][key] for r in runs if key in r["results"]]
        if per_round:
            out[key] = {s: round(statistics.median(x[s] for x in per_round), 3) for s in STATS}
    return out


def _ratio(cur: float, ref: float) -> float | None:
    return round(cur / ref, 3) if ref else None


def compare(ref: dict[str, dict[str, float]], cur: dict[str, dict[str, float]]) -> dict[str, dict[str, Any]]:
    """``{measurement: {"ref": stats, "current": stats, "ratio": {stat: current/ref}}}``."""
    return {
        key: {"ref": ref[key], "current": cur[key], "ratio": {s: _ratio(cur[key][s], ref[key][s]) for s in STATS}}
        for key in MEASUREMENTS if key in ref and key in cur
    }  # fmt: skip


def markdown_table(rows: dict[str, dict[str, Any]]) -> str:
    """The comparison as a Markdown table (ms; ratio = current / ref, below 1 is faster)."""
    lines = [
        "| measurement | ref p50 | current p50 | ratio p50 | ref p95 | current p95 | ratio p95 |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, row in rows.items():
        ref, cur, ratio = row["ref"], row["current"], row["ratio"]
        lines.append(
            f"| {MEASUREMENTS[key]} | {ref['p50']:.3f} | {cur['p50']:.3f} | {ratio['p50']:.2f} "
            f"| {ref['p95']:.3f} | {cur['p95']:.3f} | {ratio['p95']:.2f} |"
        )
    return "\n".join(lines)


def _machine() -> dict[str, Any]:
    return {
        "uname": " ".join(platform.uname()),
        "uname_a": subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout.strip(),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options (``--help``)."""
    ap = argparse.ArgumentParser(
        prog="python -m bench.door_compare", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Figures are ms; the table gives the median across rounds of each worker's p50 and p95, and "
        "current/ref (below 1: the current tree is faster).",
    )  # fmt: skip
    ap.add_argument("--ref", default=DEFAULT_REF, help=f"git revision of the reference tree (default {DEFAULT_REF})")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; each runs one worker per tree (default 3)")
    ap.add_argument("--calls", type=int, default=300, help="timed read_file calls per measurement (default 300)")
    ap.add_argument("--writes", type=int, default=60, help="timed propose+apply pairs per worker (default 60)")
    ap.add_argument("--warmup", type=int, default=30, help="untimed calls before each read measurement (default 30)")
    ap.add_argument("--notes", type=int, default=200, help="notes in the seeded vault (default 200)")
    ap.add_argument("--seed", type=int, default=42, help="vault seed (default 42)")
    ap.add_argument("--era", choices=("legacy", "auto"), default="legacy",
                    help="mcp.Client mode: legacy = 2025-11-25 with a session (default), auto = newest")  # fmt: skip
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 1 round, 20 calls, 5 writes, in-process measurements only (no HTTP)")  # fmt: skip
    ap.add_argument("--timeout", type=float, default=300, help="seconds allowed per worker (default 300)")
    ap.add_argument("--out", type=Path, help="write the raw figures and the machine's state as JSON here")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--vault", help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("--expect-src", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.quick and not a.worker:
        a.rounds, a.calls, a.writes, a.warmup = 1, 20, 5, 5
    if min(a.rounds, a.calls, a.writes, a.notes) < 1 or a.warmup < 0:
        ap.error("--rounds, --calls, --writes and --notes must be at least 1, --warmup at least 0")
    return a


def main(argv: list[str] | None = None) -> int:
    """Run the side-by-side comparison (or, with the hidden ``--worker``, one tree's measurements)."""
    a = parse_args(argv)
    if a.worker:
        print(json.dumps(worker(a)))
        return 0

    from bench.genvault import generate

    started = time.perf_counter()
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="door-compare-") as tmp_name:
        tmp = Path(tmp_name)
        ref_sha = materialise(a.ref, tmp / "ref")
        head, dirty = snapshot_src(tmp / "current")
        trees = {"ref": tmp / "ref", "current": tmp / "current"}
        vault = tmp / "vault"
        generate(vault, notes=a.notes, seed=a.seed)
        runs: dict[str, list[dict[str, Any]]] = {"ref": [], "current": []}
        for rnd in range(a.rounds):
            order = ("ref", "current") if rnd % 2 == 0 else ("current", "ref")
            for name in order:
                result = run_worker(trees[name], vault, tmp / f"work-{rnd}-{name}", a)
                result["round"], result["loadavg_after"] = rnd, os.getloadavg()
                runs[name].append(result)
                print(f"round {rnd + 1}/{a.rounds} {name}: {result['seconds']} s", file=sys.stderr, flush=True)

    rows = compare(aggregate(runs["ref"]), aggregate(runs["current"]))
    seconds = round(time.perf_counter() - started, 1)
    print(f"ref {a.ref} ({ref_sha[:10]}) vs current {head[:7]}{' + uncommitted src' if dirty else ''}; "
          f"{a.rounds} rounds, {a.calls} reads / {a.writes} propose+apply per worker, {a.notes} notes, era {a.era}; "
          f"ms, median across rounds; ratio = current / ref; {seconds} s\n")  # fmt: skip
    print(markdown_table(rows), flush=True)
    if a.out:
        report = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": _machine(),
            "loadavg": {"start": load_start, "end": os.getloadavg()},
            "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(a).items()
                     if k not in ("worker", "vault", "work", "expect_src")},
            "ref": {"rev": a.ref, "commit": ref_sha},
            "current": {"head": head, "src_dirty": dirty},
            "seconds": seconds,
            "comparison": rows,
            "runs": runs,
        }  # fmt: skip
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
