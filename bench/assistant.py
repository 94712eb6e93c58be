"""What the in-app assistant costs on top of its provider (issue 10): time to first token, agent overhead per
tool step, memory with concurrent streams.

Usage (from the repository root)::

    python -m bench.assistant                            # the full run (≈ 1 min)
    python -m bench.assistant --quick --out /tmp/a.json  # a smoke run: few rounds, short streams

Everything runs on loopback: the scripted fake provider of the tests (``tests/fakes/llm_server.py``, imported
from there, so there is one fake) in this process, and a real ``obsigate serve --no-auth`` subprocess on a
seeded vault (:func:`bench.genvault.generate`, 200 notes), its own temporary data directory, the tool rate
limit lifted, its ``custom`` provider pointed at the fake (``CUSTOM_BASE_URL=<fake>/v1``). The machine is
shared and noisy, so every figure has its reference measured in the same run, interleaved with it:

``ttft``
    Time from sending a request to the first streamed content: (a) straight from the fake
    (``POST <fake>/v1/chat/completions``, first ``data:`` chunk with content) and (b) through ObsiGate
    (``POST /api/ai/bookslm/chat``, first ``event: delta``), (a) and (b) alternating in order every round. The
    fake sends the first content chunk at once and the rest after a delay, so (b) cannot be a buffered
    answer. ``added`` is (b) − (a) of each round; target: p50 ≤ 20 ms.
``agent``
    A run where the model calls ``read_file`` on a real note ``--steps`` times in a row (one call per model
    turn), then answers. Per step, from the fake's own timestamps: ObsiGate's overhead = the next request's
    arrival − the end of the previous reply (parse the stream, run the tool through the door, store the
    messages, build and send the next request); the provider's time per turn (request arrival → reply end)
    is the reference beside it. A write step: the model proposes ``create_file`` (reply end → the
    ``confirmation`` event at the client: planning, diff, token, the paused run stored), then the client
    approves (resume POST sent → the next model request at the fake: the write applied with its journal).
``rss``
    ``--streams`` clients stream a chat answer at the same time (the fake sends ``--chunks`` small chunks,
    ``--chunk-delay`` apart, so the streams overlap); ObsiGate's RSS (psutil) idle after a warm-up, and the
    peak of samples every 10 ms while they run. Every stream must end with ``done``.

Figures are ms (nearest-rank percentiles) and MiB; ``--out`` writes them as JSON with the machine's state.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
if str(TESTS) not in sys.path:  # the fake provider lives with the tests; one copy of it
    sys.path.insert(0, str(TESTS))

from fakes import openai_replies as o  # noqa: E402
from fakes.llm_server import FakeLLM, Recorded, Reply  # noqa: E402

from bench.door_compare import summarise  # noqa: E402

VAULT = "bench"
TTFT_TARGET_MS = 20.0
MIB = 1024 * 1024


# ---------------------------------------------------------------------------------------------- SSE client


@dataclass
class Stream:
    """One streamed answer as the client saw it: ``(perf_counter, event, data)`` per event, in order."""

    status: int
    events: list[tuple[float, str, str]] = field(default_factory=list)
    sent_at: float = 0.0

    def first(self, match: Callable[[str, str], bool]) -> float | None:
        """``perf_counter`` of the first event for which ``match(event, data)`` holds, else ``None``."""
        return next((t for t, e, d in self.events if match(e, d)), None)

    def named(self, name: str) -> list[Any]:
        """The JSON data of every event called ``name``."""
        return [json.loads(d) for _, e, d in self.events if e == name]


def _sse_events(chunks: Iterator[bytes]) -> Iterator[tuple[float, str, str]]:
    """Events of an SSE byte stream as they arrive, stamped when the block that completes them was read."""
    buf = b""
    for piece in chunks:
        now = time.perf_counter()
        buf = (buf + piece).replace(b"\r\n", b"\n")  # sse-starlette ends lines with CRLF, the fake with LF
        while b"\n\n" in buf:
            block, buf = buf.split(b"\n\n", 1)
            event, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
            if data:
                yield now, event, "\n".join(data)


def stream(http: Any, url: str, body: Any) -> Stream:
    """POST ``body`` to ``url`` and read the SSE answer to its end (raw bytes, so nothing is buffered)."""
    sent = time.perf_counter()
    with http.stream("POST", url, json=body) as response:
        out = Stream(response.status_code, sent_at=sent)
        if response.status_code != 200:
            response.read()
            raise RuntimeError(f"POST {url}: HTTP {response.status_code}: {response.text[:300]}")
        out.events = list(_sse_events(response.iter_raw()))
    return out


def _has_content(event: str, data: str) -> bool:
    """An OpenAI chunk whose first choice carries text (the role chunk's ``""`` does not count)."""
    if event != "message" or data == "[DONE]":
        return False
    choices = json.loads(data).get("choices") or []
    return bool(choices and (choices[0].get("delta") or {}).get("content"))


def _done(s: Stream, stopped: str = "completed") -> dict[str, Any]:
    """The ``done`` event of an ObsiGate stream, checked (an ``error`` event, or a different end, raises)."""
    if s.named("error") or [d["stopped"] for d in s.named("done")] != [stopped]:
        raise RuntimeError(f"stream did not end with done/{stopped}: {[(e, d[:200]) for _, e, d in s.events]}")
    return s.named("done")[0]


# ------------------------------------------------------------------------------------------- fake scripts


def text_reply(pieces: list[str], first_at_once: bool, delay_s: float) -> Reply:
    """A streamed text answer. ``first_at_once``: the role chunk and the first piece without delay, then
    ``delay_s`` before the next write and none after (time to first token); otherwise ``delay_s`` before every
    content piece (long overlapping streams)."""
    reply = o.stream_text(pieces)
    # writes: role chunk, one per piece, finish, usage, [DONE]
    if first_at_once:
        reply.delays = [0.0, 0.0, delay_s]
    else:
        reply.delays = [0.0] + [delay_s] * len(pieces)
    return reply


def read_call(step: int, path: str) -> Reply:
    """One model turn that calls ``read_file`` on ``path`` of the bench vault."""
    return o.stream_tool_calls([(f"call_r{step}", "read_file", {"vault": VAULT, "path": path})], text="Reading.")


def _chat_requests(fake: FakeLLM, start: int) -> list[Recorded]:
    """The model requests the fake received since index ``start`` (``GET /v1/models`` left out)."""
    return [r for r in fake.requests[start:] if r.method == "POST" and r.path.endswith("/chat/completions")]


# ---------------------------------------------------------------------------------------------- the server


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A running ``obsigate serve`` subprocess."""

    proc: subprocess.Popen[bytes]
    url: str
    log: Path
    cmd: list[str]


def start_server(vault: Path, data: Path, fake_url: str, log: Path) -> Server:
    """``obsigate serve --no-auth`` on a free loopback port, provider ``custom`` at ``fake_url``/v1; returns once
    ``/api/health`` reports the index ready."""
    import httpx2

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSIGATE_", "BOOKSLM_", "AI_"))}
    for name in ("DEEPSEEK", "OPENAI", "OPENROUTER", "OLLAMA", "GEMINI", "CUSTOM"):
        for suffix in ("_API_KEY", "_BASE_URL", "_MODEL"):
            env.pop(name + suffix, None)
    env.update({
        "AI_DEFAULT_PROVIDER": "custom", "CUSTOM_BASE_URL": f"{fake_url}/v1", "CUSTOM_MODEL": "fake-model",
        "OBSIGATE_TOOL_RATE_LIMIT": "1000000000", "OBSIGATE_AI_MAX_ITERATIONS": "50",
    })  # fmt: skip
    port = free_port()
    exe = Path(sys.executable).parent / "obsigate"
    cmd = [*([str(exe)] if exe.exists() else [sys.executable, "-m", "obsigate"]), "serve",
           "--vault", f"{VAULT}={vault}", "--no-auth", "--data-dir", str(data), "--port", str(port)]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO)
    server = Server(proc, f"http://127.0.0.1:{port}", log, cmd)
    deadline = time.monotonic() + 90
    with httpx2.Client(timeout=10) as http:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"obsigate serve exited with {proc.returncode}; see {log}")
            try:
                if http.get(f"{server.url}/api/health").json()["index"]["state"] == "ready":
                    return server
            except (httpx2.TransportError, KeyError, ValueError):
                pass
            time.sleep(0.05)
    stop_server(server)
    raise RuntimeError(f"obsigate serve not ready within 90 s; see {log}")


def stop_server(server: Server) -> int:
    """SIGINT, then SIGKILL after 20 s; the exit code."""
    server.proc.send_signal(signal.SIGINT)
    try:
        return server.proc.wait(20)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        return server.proc.wait()


# -------------------------------------------------------------------------------------------- measurements


def measure_ttft(fake: FakeLLM, base: str, rounds: int, warmup: int, rest_delay_s: float) -> dict[str, Any]:
    """Time to first content, straight from the fake and through ObsiGate's chat, alternating every round."""
    import httpx2

    pieces = ["Hello", " there,", " this is", " the rest."]
    direct_url = f"{fake.base_url}/v1/chat/completions"
    direct_body = {"model": "fake-model", "stream": True, "messages": [{"role": "user", "content": "Say hello"}]}
    chat_url = f"{base}/api/ai/bookslm/chat"
    chat_body = {"message": "Say hello", "mode": "general"}
    direct, through, added, to_provider = [], [], [], []
    with httpx2.Client(timeout=60) as to_fake, httpx2.Client(timeout=60) as to_obsigate:  # keep-alive, both

        def via_fake() -> float:
            fake.add(text_reply(pieces, True, rest_delay_s))
            s = stream(to_fake, direct_url, direct_body)
            t = s.first(_has_content)
            if t is None:
                raise RuntimeError("the fake streamed no content")
            return (t - s.sent_at) * 1000

        def via_obsigate() -> float:
            fake.add(text_reply(pieces, True, rest_delay_s))
            start = len(fake.requests)
            s = stream(to_obsigate, chat_url, chat_body)
            _done(s)
            t = s.first(lambda e, _d: e == "delta")
            if t is None:
                raise RuntimeError("ObsiGate streamed no delta")
            # where the added time goes: before the provider is asked (conversation stored, prompt built)
            to_provider.append((_chat_requests(fake, start)[0].received_at - s.sent_at) * 1000)
            return (t - s.sent_at) * 1000

        for i in range(warmup + rounds):
            first, second = (via_fake, via_obsigate) if i % 2 == 0 else (via_obsigate, via_fake)
            a = first()
            b = second()
            d, c = (a, b) if first is via_fake else (b, a)
            if i >= warmup:
                direct.append(d)
                through.append(c)
                added.append(c - d)
            else:
                to_provider.pop()
    return {"rounds": rounds, "rest_delay_ms": rest_delay_s * 1000, "direct": summarise(direct),
            "obsigate": summarise(through), "added": summarise(added),
            "obsigate_request_to_provider_request": summarise(to_provider),
            "target_added_p50_ms": TTFT_TARGET_MS}  # fmt: skip


def measure_agent(fake: FakeLLM, base: str, paths: list[str], runs: int, steps: int, writes: int) -> dict[str, Any]:
    """Agent runs of ``steps`` ``read_file`` turns then an answer (overhead per step from the fake's stamps),
    and ``writes`` runs that propose a ``create_file`` and are approved."""
    import httpx2

    agent_url = f"{base}/api/ai/bookslm/agent"
    overhead, provider, first_request, last_to_done = [], [], [], []
    propose, apply = [], []
    with httpx2.Client(timeout=120) as http:
        for r in range(runs + 1):  # run 0 warms up (first tool calls, first conversation)
            start = len(fake.requests)
            fake.add(*[read_call(k, paths[(r * steps + k) % len(paths)]) for k in range(steps)])
            fake.add(o.stream_text(["Read ", "them all."]))
            s = stream(http, agent_url, {"message": "Read my notes, one by one", "mode": "general"})
            _done(s)
            ok = [t for t in s.named("tool") if t["status"] == "ok" and t["name"] == "read_file"]
            reqs = _chat_requests(fake, start)
            if len(ok) != steps or len(reqs) != steps + 1 or any(q.replied_at is None for q in reqs):
                raise RuntimeError(f"agent run: {len(ok)} reads ok, {len(reqs)} model requests (expected "
                                   f"{steps}, {steps + 1}): {[(e, d[:200]) for _, e, d in s.events][-6:]}")  # fmt: skip
            if r == 0:
                continue
            first_request.append((reqs[0].received_at - s.sent_at) * 1000)
            for prev, nxt in itertools.pairwise(reqs):
                overhead.append((nxt.received_at - prev.replied_at) * 1000)  # type: ignore[operator]
            provider += [(q.replied_at - q.received_at) * 1000 for q in reqs]  # type: ignore[operator]
            done_at = s.first(lambda e, _d: e == "done")
            last_to_done.append((done_at - reqs[-1].replied_at) * 1000)  # type: ignore[operator]

        for w in range(writes + 1):  # likewise, w == 0 warms the write path up
            start = len(fake.requests)
            content = f"# Bench {w}\n\nSee [[{paths[0][:-3]}]].\n"
            args = {"vault": VAULT, "path": f"bench-ai/new-{w:04d}-{os.getpid()}.md", "content": content}
            fake.add(o.stream_tool_calls([(f"call_w{w}", "create_file", args)], text="Writing."))
            s = stream(http, agent_url, {"message": "Write a note", "mode": "general"})
            run_id = _done(s, "awaiting_confirmation")["run_id"]
            (reply,) = _chat_requests(fake, start)
            shown = s.first(lambda e, _d: e == "confirmation")
            fake.add(o.stream_text(["Written."]))
            resumed = stream(http, agent_url, {"run_id": run_id, "confirm_all": True})
            _done(resumed)
            if [t["status"] for t in resumed.named("tool")] != ["ok"]:
                raise RuntimeError(f"the write was not applied: {resumed.named('tool')}")
            after = _chat_requests(fake, start)[1]
            if w > 0:
                propose.append((shown - reply.replied_at) * 1000)  # type: ignore[operator]
                apply.append((after.received_at - resumed.sent_at) * 1000)
    return {
        "runs": runs, "steps": steps, "writes": writes,
        "read_step_overhead": summarise(overhead),
        "provider_turn": summarise(provider),
        "request_to_first_model_request": summarise(first_request),
        "last_reply_to_done": summarise(last_to_done),
        "propose_step": summarise(propose),
        "approve_to_next_model_request": summarise(apply),
    }  # fmt: skip


def measure_rss(fake: FakeLLM, base: str, pid: int, streams: int, chunks: int, delay_s: float) -> dict[str, Any]:
    """``streams`` chat answers streamed at once; ObsiGate's RSS idle (after a warm-up) and at peak, in MiB."""
    import httpx2
    import psutil

    proc = psutil.Process(pid)
    url = f"{base}/api/ai/bookslm/chat"
    body = {"message": "Tell me a long story", "mode": "general"}
    with httpx2.Client(timeout=60) as http:  # warm-up: one stream of the same shape
        fake.add(text_reply(["tok "] * 20, False, 0.001))
        _done(stream(http, url, body))
    time.sleep(0.5)
    idle_samples = []
    for _ in range(10):
        idle_samples.append(proc.memory_info().rss)
        time.sleep(0.05)
    idle = statistics.median(idle_samples)

    peak = [idle]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            stop.wait(0.01)

    results: list[str] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        try:
            with httpx2.Client(timeout=120) as http:
                s = stream(http, url, body)
                _done(s)
                text = "".join(d["text"] for d in s.named("delta"))
            with lock:
                results.append(text)
        except Exception as exc:  # noqa: BLE001 — counted and reported, the run fails below
            with lock:
                errors.append(repr(exc)[:300])

    fake.add(*[text_reply([f"t{i} " for i in range(chunks)], False, delay_s) for _ in range(streams)])
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    t0 = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    stop.set()
    sampler.join()
    expected = "".join(f"t{i} " for i in range(chunks))
    complete = sum(1 for text in results if text == expected)
    if errors or complete != streams:
        raise RuntimeError(f"{complete}/{streams} streams completed; errors: {errors[:3]}")
    after = proc.memory_info().rss
    return {
        "streams": streams, "chunks": chunks, "chunk_delay_ms": delay_s * 1000, "completed": complete,
        "seconds": round(seconds, 2), "idle_mib": round(idle / MIB, 1), "peak_mib": round(peak[0] / MIB, 1),
        "delta_mib": round((peak[0] - idle) / MIB, 1), "after_mib": round(after / MIB, 1),
    }  # fmt: skip


# ------------------------------------------------------------------------------------------------- report


def print_report(r: dict[str, Any]) -> None:
    """The figures as a Markdown table: ObsiGate beside its reference measured in the same run."""
    t, a, m = r["ttft"], r["agent"], r["rss"]

    def ms(s: dict[str, float]) -> str:
        return f"{s['p50']:.2f} / {s['p95']:.2f}"

    verdict = "PASS" if t["added"]["p50"] <= TTFT_TARGET_MS else "MISS"
    print(f"\n{r['date']}, {r['machine']['cpus']} cores, Python {r['machine']['python']}, load "
          f"{r['loadavg']['start'][0]:.2f} → {r['loadavg']['end'][0]:.2f}; ms p50 / p95\n")  # fmt: skip
    print("| figure | reference (same run) | ObsiGate | target |")
    print("|---|---|---|---|")
    print(f"| time to first token ({t['rounds']} rounds) | provider direct {ms(t['direct'])} | through chat "
          f"{ms(t['obsigate'])} | — |")  # fmt: skip
    print(f"| TTFT added by ObsiGate (per-round difference) | — | {ms(t['added'])} "
          f"| p50 ≤ {TTFT_TARGET_MS:.0f} ms: {verdict} |")  # fmt: skip
    print(f"| chat: request → provider request (part of the above) | — | "
          f"{ms(t['obsigate_request_to_provider_request'])} | — |")  # fmt: skip
    print(f"| agent overhead per read_file step ({a['runs']}×{a['steps']} steps) | provider turn "
          f"{ms(a['provider_turn'])} | {ms(a['read_step_overhead'])} | — |")  # fmt: skip
    print(f"| agent request → first model request | — | {ms(a['request_to_first_model_request'])} | — |")
    print(f"| last model reply → `done` at the client | — | {ms(a['last_reply_to_done'])} | — |")
    print(f"| write step: create_file reply → `confirmation` ({a['writes']}) | — | {ms(a['propose_step'])} | — |")
    print(f"| write step: approve POST → next model request | — | {ms(a['approve_to_next_model_request'])} | — |")
    print(f"| RSS, {m['streams']} concurrent streams (MiB) | idle {m['idle_mib']:.1f} | peak {m['peak_mib']:.1f} "
          f"(+{m['delta_mib']:.1f}), {m['completed']}/{m['streams']} done | — |")  # fmt: skip


def _git_head() -> str:
    r = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return r.stdout.strip()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options (``--help``)."""
    ap = argparse.ArgumentParser(prog="python -m bench.assistant", description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    ap.add_argument("--rounds", type=int, default=30, help="time-to-first-token rounds (default 30)")
    ap.add_argument("--rest-delay", type=float, default=0.05, help="s before the rest of a TTFT answer (0.05)")
    ap.add_argument("--runs", type=int, default=5, help="timed agent runs (default 5, after one warm-up)")
    ap.add_argument("--steps", type=int, default=8, help="read_file turns per agent run (default 8)")
    ap.add_argument("--writes", type=int, default=10, help="timed propose+approve runs (default 10)")
    ap.add_argument("--streams", type=int, default=20, help="concurrent chat streams (default 20)")
    ap.add_argument("--chunks", type=int, default=200, help="content chunks per concurrent stream (default 200)")
    ap.add_argument("--chunk-delay", type=float, default=0.02, help="s between those chunks (default 0.02)")
    ap.add_argument("--notes", type=int, default=200, help="notes in the seeded vault (default 200)")
    ap.add_argument("--seed", type=int, default=42, help="vault seed (default 42)")
    ap.add_argument("--tmp", type=Path, default=None,
                    help="parent of the run's vault and server data dir (default: the system's temp dir); "
                         "/dev/shm puts the server's SQLite files on tmpfs, where fsync costs nothing")  # fmt: skip
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 5 rounds, 1 agent run of 3 steps, 1 write, 20 streams of 20 chunks")  # fmt: skip
    ap.add_argument("--out", type=Path, help="write the figures and the machine's state as JSON here")
    a = ap.parse_args(argv)
    if a.quick:
        a.rounds, a.runs, a.steps, a.writes, a.chunks, a.chunk_delay, a.notes = 5, 1, 3, 1, 20, 0.01, 60
    if min(a.rounds, a.runs, a.steps, a.writes, a.streams, a.chunks, a.notes) < 1:
        ap.error("counts must be at least 1")
    return a


def main(argv: list[str] | None = None) -> int:
    """Run every measurement against one server and print (and with ``--out`` write) the figures."""
    from bench.genvault import generate

    a = parse_args(argv)
    started = time.perf_counter()
    load_start = os.getloadavg()
    report: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds")}
    with tempfile.TemporaryDirectory(prefix="bench-assistant-", dir=a.tmp) as tmp_name:
        tmp = Path(tmp_name)
        vault = tmp / "vault"
        generate(vault, notes=a.notes, seed=a.seed)
        paths = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))
        fake = FakeLLM()
        # without it Nagle holds the fake's small writes up to ~40 ms (delayed ACK): noise in every figure
        fake.nodelay = True
        fake.start()
        server = None
        try:
            server = start_server(vault, tmp / "data", fake.base_url, tmp / "server.log")
            report["ttft"] = measure_ttft(fake, server.url, a.rounds, 3, a.rest_delay)
            report["agent"] = measure_agent(fake, server.url, paths, a.runs, a.steps, a.writes)
            report["rss"] = measure_rss(fake, server.url, server.proc.pid, a.streams, a.chunks, a.chunk_delay)
        except Exception:
            if server is not None:
                print(server.log.read_text(errors="replace")[-3000:], file=sys.stderr)
            raise
        finally:
            if server is not None:
                report["server_exit_code"] = stop_server(server)
                report["server_cmd"] = " ".join(server.cmd)
            fake.stop()
            shutil.rmtree(tmp / "data", ignore_errors=True)

    report.update({
        "machine": {"uname": " ".join(platform.uname()), "python": sys.version.split()[0], "cpus": os.cpu_count()},
        "loadavg": {"start": load_start, "end": os.getloadavg()},
        "head": _git_head(),
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(a).items()},
        "seconds": round(time.perf_counter() - started, 1),
    })  # fmt: skip
    print_report(report)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
