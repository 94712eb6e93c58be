"""A small, dialect-free Server-Sent Events reader (WHATWG HTML "Server-sent events", §9.2.6 "Interpreting an
event stream": <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>).

Used by both provider dialects (OpenAI ``data: {...}`` chunks, ``llm.md`` §1.5; Gemini ``?alt=sse``, §2.6).
Rules implemented exactly as the spec states them:

* lines end with ``\\r\\n``, ``\\n`` or ``\\r`` (a ``\\r\\n`` split across two network reads counts once);
* a leading UTF-8 BOM is dropped; bytes are split into lines first, then decoded (so a multi-byte character
  cut between two reads is never mangled), invalid UTF-8 becomes U+FFFD;
* a line starting with ``:`` is a comment (``: keep-alive``, ``: OPENROUTER PROCESSING``): ignored;
* ``field: value`` (one leading space of the value dropped), or ``field`` alone with an empty value;
  ``data`` lines are joined with ``\\n``; ``event`` and ``id`` are kept; ``retry`` and unknown fields ignored;
* an empty line dispatches the event, unless it has no data (blank keep-alive lines dispatch nothing);
* at end of stream an unfinished event (no closing blank line) is discarded: a cut stream never yields a
  half-received event.

Comments are swallowed here and never reach the caller, so nothing the caller measures (such as a whole-turn
deadline) is reset by them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

__all__ = ["SSEDecoder", "SSEEvent", "aiter_sse", "aiter_sse_data"]


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One dispatched event: ``data`` (the ``data`` lines joined with ``\\n``), ``event`` (the type, ``message``
    when none was given) and ``id`` (the last event id seen, ``""`` when none)."""

    data: str
    event: str = "message"
    id: str = ""


class SSEDecoder:
    """Incremental decoder: :meth:`feed` bytes as they arrive, get the events they complete.

    Pure state machine (no I/O), so it is exact under any split of the input into reads.
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._started = False  # BOM check done
        self._pending_cr = False  # the last read ended with \r: a following \n belongs to it
        self._data: list[str] = []
        self._event = ""
        self._last_id = ""
        #: lines that are no SSE field (``data``, ``event``, ``id``, ``retry``) nor a comment: the spec ignores
        #: them, but Google writes a raw error JSON into the body that way (google-genai ``_api_client.py``)
        self.other_lines: list[str] = []

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        """Add ``chunk`` (any bytes, any split) and return the events completed by it, in order."""
        if not chunk:
            return []
        if self._pending_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._pending_cr = False
        buffer = self._buffer + chunk
        if not self._started:
            if len(buffer) < 3 and b"\xef\xbb\xbf".startswith(buffer):
                self._buffer = buffer  # could still be a BOM: wait for more
                return []
            self._started = True
            if buffer.startswith(b"\xef\xbb\xbf"):
                buffer = buffer[3:]
        events: list[SSEEvent] = []
        start = 0
        length = len(buffer)
        while True:
            cr = buffer.find(b"\r", start)
            lf = buffer.find(b"\n", start)
            if cr < 0 and lf < 0:
                break
            if cr >= 0 and (lf < 0 or cr < lf):
                end, nxt = cr, cr + 1
                if nxt < length:
                    if buffer[nxt : nxt + 1] == b"\n":
                        nxt += 1
                else:
                    self._pending_cr = True  # a \n may come in the next read
            else:
                end, nxt = lf, lf + 1
            event = self._line(buffer[start:end].decode("utf-8", "replace"))
            if event is not None:
                events.append(event)
            start = nxt
        self._buffer = buffer[start:]
        return events

    def _line(self, line: str) -> SSEEvent | None:
        if not line:
            if not self._data:
                self._event = ""
                return None
            event = SSEEvent("\n".join(self._data), self._event or "message", self._last_id)
            self._data = []
            self._event = ""
            return event
        if line.startswith(":"):
            return None
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\x00" not in value:
            self._last_id = value
        elif name != "retry":
            self.other_lines.append(line)
        return None


class _ByteStream(Protocol):
    def aiter_bytes(self) -> AsyncIterator[bytes]: ...


async def aiter_sse(response: _ByteStream) -> AsyncIterator[SSEEvent]:
    """The events of a streaming ``httpx2.Response`` (or anything with ``aiter_bytes()``), as they complete.

    Raises whatever reading the response raises (``httpx2.ReadTimeout``, ``httpx2.RemoteProtocolError`` for a
    connection dropped mid-body...); an unfinished last event is silently discarded (see the module docstring).
    """
    decoder = SSEDecoder()
    async for chunk in response.aiter_bytes():
        for event in decoder.feed(chunk):
            yield event


async def aiter_sse_data(response: _ByteStream) -> AsyncIterator[str]:
    """The ``data`` payload of each event of ``response`` (see :func:`aiter_sse`)."""
    async for event in aiter_sse(response):
        yield event.data
