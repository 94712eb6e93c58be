"""MCP over stdio: newline-delimited JSON-RPC on stdin/stdout (MCP ``basic/transports`` §stdio), logs on stderr.

Two ways to serve, chosen by ``obsigate mcp stdio`` (``cli.py``):

* :func:`serve_stdio`: this process owns the data dir and runs the same low-level ``Server`` as ``/mcp``
  (``mcp/server.py``): the same tools, resources, prompts, completions and confirmations, for one fixed
  caller (the local user named at start, re-read on every request).
* :func:`~obsigate.mcp.forward.forward_stdio` (``mcp/forward.py``): an ``obsigate serve`` already owns the
  data dir (one writer of the index and the change journal, never two), so every message is relayed to its
  ``/mcp`` over loopback HTTP, authenticated as the same local user, and its answers relayed back.

The transport is ours rather than the SDK's ``stdio_server`` for what a pipe can carry that HTTP cannot: a
line over ``max_line_bytes`` is dropped as it is read (never buffered whole) and answered with an error, and
every line that is not a JSON-RPC message is answered (``-32700``/``-32600``, JSON-RPC 2.0 §5.1) instead of
being dropped silently. While serving, file descriptor 1 points at stderr, so a stray ``print`` anywhere
cannot corrupt the JSON-RPC stream; the real stdout is written only here.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import stat
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

from obsigate.auth.principal import Principal
from obsigate.auth.users import UserStore
from obsigate.mcp.server import build_mcp_server
from obsigate.tools.api import ToolRuntime

__all__ = ["DRAIN_S", "LineSplitter", "parse_line", "serve_stdio", "stdio_streams", "user_caller"]

log = logging.getLogger(__name__)

_CHUNK = 1 << 16
#: How long, once stdin has closed, the calls already read may still run before they are cancelled (seconds).
DRAIN_S = 30.0
#: How long the answers already made may take to reach a slow client once serving ends (seconds).
FLUSH_S = 10.0


class LineSplitter:
    """Newline-delimited lines out of the chunks read from a pipe, each at most ``max_bytes`` long.

    :meth:`feed` returns the lines a chunk completes: a line's bytes (without the newline), or an ``int`` for a
    line that was longer than ``max_bytes`` (its length; its bytes were dropped as they came, never held whole).
    :meth:`end` gives the last line if it had no newline.
    """

    def __init__(self, max_bytes: int) -> None:
        self._max = max_bytes
        self._buf = bytearray()
        self._dropped: int | None = None  # bytes of an oversized line dropped so far

    def feed(self, chunk: bytes) -> list[bytes | int]:
        """The lines ``chunk`` completes, in order."""
        lines: list[bytes | int] = []
        start = 0
        while (cut := chunk.find(b"\n", start)) >= 0:
            lines.append(self._take(chunk[start:cut]))
            start = cut + 1
        self._keep(chunk[start:])
        return lines

    def end(self) -> bytes | int | None:
        """At end of input: the unterminated last line (or its length if oversized), ``None`` if there is none."""
        if self._dropped is None and not self._buf:
            return None
        return self._take(b"")

    def _keep(self, part: bytes) -> None:
        if self._dropped is not None:
            self._dropped += len(part)
        elif len(self._buf) + len(part) > self._max:
            self._dropped = len(self._buf) + len(part)
            self._buf.clear()
        else:
            self._buf += part

    def _take(self, part: bytes) -> bytes | int:
        self._keep(part)
        line: bytes | int = self._dropped if self._dropped is not None else bytes(self._buf)
        self._buf.clear()
        self._dropped = None
        return line


def _error(code: int, message: str, request_id: Any = None) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def parse_line(line: bytes) -> SessionMessage | JSONRPCError | None:
    """One input line: the message it carries, the error that answers it, or ``None`` (a blank line, ignored).

    Not JSON (or nested too deep to parse) → ``-32700`` with ``id: null``; JSON that is not a JSON-RPC message → ``-32600``, with the line's
    ``id`` when it has a usable one; an array → ``-32600`` (JSON-RPC batches left MCP in 2025-06-18). A
    JSON-RPC error *from* the client (its answer to a server request) is a message like any other.
    """
    if not line.strip():
        return None
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        pass
    else:
        if not isinstance(message, JSONRPCNotification) or b'"id"' not in line or "id" not in json.loads(line):
            return SessionMessage(message)
        # an id that is not a string or an integer (null, true, 1.5, an object) made it parse as a notification:
        # a request the client expects an answer to, so it is refused rather than run unanswered
        return _error(INVALID_REQUEST, "Invalid Request: a request id must be a string or an integer")
    try:
        raw = json.loads(line)
    except (ValueError, RecursionError):  # nesting deeper than the stdlib parser recurses: not parsed either
        return _error(PARSE_ERROR, "Parse error: the line is not JSON (one JSON-RPC message per line, UTF-8)")
    if isinstance(raw, list):
        return _error(
            INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported by MCP; one message per line"
        )
    ident = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        ident = None
    return _error(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request, notification or response", ident)


Streams = tuple[MemoryObjectReceiveStream[SessionMessage], MemoryObjectSendStream[SessionMessage]]


@asynccontextmanager
async def stdio_streams(
    max_line_bytes: int, *, drain_s: float = DRAIN_S, stdin_fd: int = 0, stdout_fd: int = 1
) -> AsyncIterator[Streams]:
    """The process's stdin/stdout as a pair of message streams ``(incoming, outgoing)``.

    A line that is not a message, or longer than ``max_line_bytes``, is answered on stdout at once and never
    reaches ``incoming``. When stdin closes, ``incoming`` ends only once every request already read has been
    answered (or after ``drain_s`` seconds): a call in flight, a confirmed write above all, finishes instead of
    being cancelled halfway, and its answer is written if stdout is still open. While open, ``stdout_fd``
    points at stderr (restored on exit) and the real stdout is reached through a private duplicate.
    """
    wire = fcntl.fcntl(stdout_fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.dup2(2, stdout_fd)
    in_send, in_recv = anyio.create_memory_object_stream[SessionMessage](0)
    out_send, out_recv = anyio.create_memory_object_stream[SessionMessage | JSONRPCError](16)
    splitter = LineSplitter(max_line_bytes)
    pending: set[Any] = set()  # ids of the client's requests not answered yet
    answered = anyio.Event()

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(wire, view) :]

    # A pipe or a socket (what MCP clients give) is read and written from the event loop, with no worker thread
    # per line or answer (issue 20: two thread hops fewer per call): the ends are made non-blocking, and an empty
    # or full pipe is awaited, never spun on. Only these ends' open file descriptions change (set back before
    # exit). A terminal or a file keeps blocking reads and writes in worker threads: their description is shared.
    direct = _is_pipe(wire)
    direct_in = _is_pipe(stdin_fd)
    if direct:
        os.set_blocking(wire, False)
    if direct_in:
        os.set_blocking(stdin_fd, False)

    async def read_chunk() -> bytes:
        if not direct_in:
            return await anyio.to_thread.run_sync(os.read, stdin_fd, _CHUNK, abandon_on_cancel=True)
        while True:
            try:
                return os.read(stdin_fd, _CHUNK)
            except BlockingIOError:  # nothing to read yet: wait for the client
                await anyio.wait_readable(stdin_fd)

    async def lines() -> AsyncIterator[bytes | int]:
        while chunk := await read_chunk():
            for line in splitter.feed(chunk):
                yield line
        last = splitter.end()
        if last is not None:
            yield last

    async def write_direct(data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(wire, view) :]
            except BlockingIOError:  # the client has not read yet: wait until the pipe has room
                await anyio.wait_writable(wire)

    async def read_loop() -> None:
        async with in_send:
            async for line in lines():
                item: SessionMessage | JSONRPCError | None
                if isinstance(line, int):
                    log.warning("stdio: dropped a line of %d bytes (limit %d)", line, max_line_bytes)
                    item = _error(
                        INVALID_REQUEST,
                        f"Invalid Request: a line of {line} bytes is over the {max_line_bytes}-byte limit",
                    )
                else:
                    item = parse_line(line)
                if isinstance(item, JSONRPCError):
                    await out_send.send(item)
                elif item is not None:
                    if isinstance(item.message, JSONRPCRequest):
                        if item.message.id in pending:  # its answer could not be told from the first one's
                            await out_send.send(
                                _error(
                                    INVALID_REQUEST,
                                    "Invalid Request: this id is in use by a call in flight",
                                    item.message.id,
                                )
                            )
                            continue
                        pending.add(item.message.id)
                    await in_send.send(item)
            with anyio.move_on_after(drain_s):
                while pending:
                    await answered.wait()
            if pending:
                log.warning(
                    "stdio: stdin closed; %d call(s) still unanswered after %.0f s are cancelled", len(pending), drain_s
                )

    written = anyio.Event()  # the write loop has sent everything it was given (its stream is closed)

    async def write_loop() -> None:
        try:
            await write_all()
        finally:
            written.set()

    async def write_all() -> None:
        nonlocal answered
        broken = False
        async with out_recv:
            async for item in out_recv:
                message = item if isinstance(item, JSONRPCError) else item.message
                if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id in pending:
                    pending.discard(message.id)
                    answered.set()
                    answered = anyio.Event()
                if broken:
                    continue
                try:
                    data = message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                except ValueError:  # e.g. a lone surrogate in a string: that call fails, the connection goes on
                    log.exception("stdio: an answer could not be encoded as JSON")
                    ident = getattr(message, "id", None)
                    if not isinstance(message, JSONRPCResponse | JSONRPCError) or ident is None:
                        continue
                    failed = _error(INTERNAL_ERROR, "Internal error: the answer could not be encoded", ident)
                    data = failed.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                try:
                    if direct:
                        await write_direct(data)
                    else:
                        await anyio.to_thread.run_sync(write, data)
                except (BrokenPipeError, ConnectionResetError):
                    broken = True  # the client is gone: keep answering (into nothing) so calls end cleanly
                    log.info("stdio: stdout closed by the client")

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(write_loop)
            tg.start_soon(read_loop)
            try:
                yield in_recv, out_send  # out_send also takes bare errors (ours)
            finally:
                out_send.close()  # the last answers are written before the loops stop (the server closed its clone)
                with anyio.move_on_after(FLUSH_S, shield=True):
                    await written.wait()
                tg.cancel_scope.cancel()
    finally:
        if direct:
            os.set_blocking(wire, True)
        if direct_in:
            os.set_blocking(stdin_fd, True)
        os.dup2(wire, stdout_fd)
        os.close(wire)


def _is_pipe(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def user_caller(users: UserStore, name: str) -> Callable[[], Principal]:
    """The caller of a stdio server started for local user ``name``, read again on every request: a grant
    changed or revoked with ``obsigate user`` applies to the next call, a deleted user is refused
    (JSON-RPC ``-32600``, ``unauthenticated: ...``)."""

    def caller() -> Principal:
        user = users.get_user(name)
        if user is None:
            raise MCPError(INVALID_REQUEST, f"unauthenticated: the local user {name!r} no longer exists")
        return Principal.from_user(user, "local")

    return caller


async def serve_stdio(
    runtime: ToolRuntime, caller: Callable[[], Principal], *, max_line_bytes: int, session_id: str
) -> None:
    """Serve MCP on stdin/stdout until stdin closes, as the data dir's owner: the indexer runs here (started
    before the first message is read, stopped at the end). The caller closes the runtime's index."""
    server = build_mcp_server(runtime, anonymous=False, caller=caller, session_id=session_id)
    indexer = runtime.workspace.indexer
    if indexer is not None:
        await indexer.start()
    try:
        async with stdio_streams(max_line_bytes) as (incoming, outgoing):
            await server.run(incoming, outgoing, server.create_initialization_options())
    finally:
        if indexer is not None:
            await indexer.stop()
