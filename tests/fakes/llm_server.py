"""A scripted fake LLM provider on loopback (``llm.md`` §4): a real HTTP server, so the production HTTP stack
(httpx2, SSE parsing, timeouts, cancellation) is what the tests exercise.

Each incoming request pops the next :class:`Reply` of the script (or a function of the :class:`Recorded`
request that builds it: a reply that depends on what was sent, such as a usage that counts the request's tokens) (a request past the end gets a 500 with
``{"error": {"message": "fake: script exhausted"}}``) and is recorded (:attr:`FakeLLM.requests`), so tests
assert on what ObsiGate sent: tool schemas, replayed ``reasoning_content``, ``thoughtSignature`` positions,
``tool_call_id`` pairing. Dialect helpers that build replies: ``fakes.openai_replies`` and
``fakes.gemini_replies``.

A reply is raw bytes written in pieces (``chunks``), each after ``delay_s``; ``close_early`` drops the
connection after the chunks without ending the body properly (a cut stream). ``GET /v1/models`` answers from
``models`` without consuming the script. The server notices a client that hangs up (``disconnects``), also
while it waits before a write (``delay_s``, ``before_s``: a provider thinking, silent or between comments),
and stamps when (:attr:`Recorded.closed_at`).

For benchmarks (``bench/assistant.py``) each :class:`Recorded` carries ``time.perf_counter()`` stamps: when its
body was read (``received_at``) and when the reply's last byte was flushed (``replied_at``); ``delays`` on a
:class:`Reply` sets the wait before each chunk one by one (the first chunk at once, the rest later), and
``nodelay`` turns Nagle's algorithm off so a small write is not held back.
"""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted HTTP answer. ``chunks``: body pieces written (and flushed) one by one, each after
    ``delay_s`` seconds; ``close_early``: end by closing the socket (no terminating chunk). ``sse`` sets the
    content type to ``text/event-stream``. ``before_s``: wait before the status line (first-byte timeout).
    ``reset``: end by resetting the connection (TCP RST: ``SO_LINGER`` 0, then close) instead. ``delays``: the
    wait before each chunk, one per chunk (overrides ``delay_s``; missing entries fall back to ``delay_s``).
    ``hold``: an event the fake waits for (up to 60 s) before the last chunk, so a test sees the stream still
    open for as long as its checks take, whatever the machine's speed."""

    status: int = 200
    chunks: list[bytes] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    sse: bool = False
    delay_s: float = 0.0
    before_s: float = 0.0
    close_early: bool = False
    reset: bool = False
    delays: list[float] | None = None
    hold: threading.Event | None = None

    @classmethod
    def json(cls, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
        """A plain JSON answer (``body`` dumped as it is)."""
        return cls(status=status, chunks=[json.dumps(body).encode()], headers=dict(headers or {}))


@dataclass
class Recorded:
    """A request the fake received: ``method``, ``path`` (with query), ``headers`` (lower-case names) and the
    parsed ``json`` body (``None`` when it was not JSON); ``received_at`` (body read), ``replied_at`` (reply's
    last byte flushed, ``None`` until then or when the client hung up) and ``closed_at`` (when the fake saw the
    client hang up, ``None`` if it did not) are ``time.perf_counter()`` values."""

    method: str
    path: str
    headers: dict[str, str]
    json: Any
    received_at: float = 0.0
    replied_at: float | None = None
    closed_at: float | None = None


class FakeLLM:
    """The server. Use :func:`running` or ``start()``/``stop()``; ``base_url`` is ``http://127.0.0.1:PORT``
    (append ``/v1`` or ``/v1beta`` as a provider would be configured)."""

    def __init__(self) -> None:
        self.script: list[Reply | Callable[[Recorded], Reply]] = []
        self.requests: list[Recorded] = []
        self.models: list[str] = ["fake-model"]
        self.disconnects = 0
        #: send each write at once (TCP_NODELAY), as providers' front ends do; set before start(). Off by default:
        #: Nagle then holds a small write until the previous one is acknowledged (up to ~40 ms on Linux).
        self.nodelay = False
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- script -------------------------------------------------------------------------------------

    def add(self, *replies: Reply | Callable[[Recorded], Reply]) -> FakeLLM:
        """Append ``replies`` to the script (a function of the request builds its reply); returns self."""
        with self._lock:
            self.script.extend(replies)
        return self

    def _next(self) -> Reply | Callable[[Recorded], Reply]:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        return Reply.json({"error": {"message": "fake: script exhausted", "type": "server_error"}}, status=500)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # --- server -------------------------------------------------------------------------------------

    def start(self) -> FakeLLM:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = fake.nodelay

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _record(self, body: bytes) -> Recorded:
                received_at = time.perf_counter()
                try:
                    parsed = json.loads(body) if body else None
                except ValueError:
                    parsed = None
                headers = {k.lower(): v for k, v in self.headers.items()}
                recorded = Recorded(self.command, self.path, headers, parsed, received_at)
                with fake._lock:
                    fake.requests.append(recorded)
                return recorded

            def do_GET(self) -> None:
                recorded = self._record(b"")
                if self.path.rstrip("/").endswith("/models"):
                    body = json.dumps({"object": "list", "data": [{"id": m, "object": "model"} for m in fake.models]})
                    self._send(Reply(chunks=[body.encode()]), recorded)
                else:
                    reply = fake._next()
                    self._send(reply if isinstance(reply, Reply) else reply(recorded), recorded)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                recorded = self._record(self.rfile.read(length) if length else b"")
                reply = fake._next()
                self._send(reply if isinstance(reply, Reply) else reply(recorded), recorded)

            def _hung_up(self, wait_s: float, recorded: Recorded) -> bool:
                """Wait ``wait_s`` watching the connection; True (counted in ``disconnects``) when the client
                closed it meanwhile: a write alone would notice only at the second write after the close."""
                deadline = time.perf_counter() + wait_s
                readable, _, _ = select.select([self.connection], [], [], wait_s)
                if readable:
                    try:
                        gone = not self.connection.recv(1, socket.MSG_PEEK)
                    except OSError:
                        gone = True
                    if gone:
                        recorded.closed_at = time.perf_counter()
                        with fake._lock:
                            fake.disconnects += 1
                        self.close_connection = True
                        return True
                    time.sleep(max(0.0, deadline - time.perf_counter()))  # the client sent more: just wait
                return False

            def _send(self, reply: Reply, recorded: Recorded) -> None:
                if reply.before_s and self._hung_up(reply.before_s, recorded):
                    return
                try:
                    self.send_response(reply.status)
                    ctype = "text/event-stream" if reply.sse else "application/json"
                    self.send_header("content-type", reply.headers.pop("content-type", ctype))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("transfer-encoding", "chunked")
                    self.end_headers()
                    self.wfile.flush()
                    for n, chunk in enumerate(reply.chunks):
                        delay = reply.delays[n] if reply.delays is not None and n < len(reply.delays) else reply.delay_s
                        if delay and self._hung_up(delay, recorded):
                            return
                        if reply.hold is not None and n == len(reply.chunks) - 1:
                            reply.hold.wait(60)
                        if chunk:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                            self.wfile.flush()
                    if reply.reset:
                        self.close_connection = True
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        self.connection.close()
                        recorded.replied_at = time.perf_counter()
                        return
                    if reply.close_early:
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        recorded.replied_at = time.perf_counter()
                        return
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    recorded.replied_at = time.perf_counter()
                except (BrokenPipeError, ConnectionResetError, OSError):
                    recorded.closed_at = time.perf_counter()
                    with fake._lock:
                        fake.disconnects += 1
                    self.close_connection = True

        class Server(ThreadingHTTPServer):
            request_queue_size = 64  # listen backlog (default 5): 20 concurrent streams must not wait on SYN retries

            def handle_error(self, request: Any, client_address: Any) -> None:  # a client hanging up is a test case
                pass

        server = Server(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        # a short poll interval: stop() (server.shutdown) waits up to one interval, 0.5 s by default
        self._thread = threading.Thread(target=server.serve_forever, args=(0.02,), name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


@contextmanager
def running() -> Iterator[FakeLLM]:
    """A started :class:`FakeLLM`, stopped on exit."""
    fake = FakeLLM().start()
    try:
        yield fake
    finally:
        fake.stop()


#: The assistant's providers (``<NAME>_API_KEY``, ``_BASE_URL``, ``_MODEL``: docs/assistant.md).
PROVIDERS = ("DEEPSEEK", "OPENAI", "OPENROUTER", "OLLAMA", "GEMINI", "CUSTOM")


def provider_env(fake: FakeLLM) -> dict[str, str | None]:
    """The environment that points a new ObsiGate's assistant at ``fake``: every provider variable cleared
    (``None``), the default provider ``custom`` at ``<fake>/v1`` (model ``fake-model``) and ``gemini`` at
    ``<fake>/v1beta`` (model ``gemini-fake``). Apply it with ``monkeypatch`` before the server starts (the
    settings read the environment once)."""
    env: dict[str, str | None] = {f"{n}{s}": None for n in PROVIDERS for s in ("_API_KEY", "_BASE_URL", "_MODEL")}
    env.update({
        "AI_DEFAULT_PROVIDER": "custom", "CUSTOM_BASE_URL": f"{fake.base_url}/v1", "CUSTOM_MODEL": "fake-model",
        "GEMINI_BASE_URL": f"{fake.base_url}/v1beta", "GEMINI_API_KEY": "gemini-test-key-0000", "GEMINI_MODEL": "gemini-fake",
    })  # fmt: skip
    return env


def use_fake(env: Any, fake: FakeLLM, **extra: str | None) -> None:
    """Apply :func:`provider_env`, then ``extra`` (e.g. ``CUSTOM_MODEL="gpt-4o"``), with ``env``, a
    ``pytest.MonkeyPatch`` (a ``None`` value deletes the variable)."""
    for name, value in {**provider_env(fake), **extra}.items():
        if value is None:
            env.delenv(name, raising=False)
        else:
            env.setenv(name, value)
