"""Request body cap for the REST API: a body over :data:`MAX_BODY_BYTES` gets 413 ``too_large`` before any
handler parses it (``/mcp`` has the SDK's own 4 MiB cap)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 8 * 1024 * 1024  # a 5-million-character note, written as JSON, fits


class BodyLimit:
    """Pure ASGI middleware: refuses ``/api`` requests whose declared or streamed body is too large."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:  # a chunked body without a length: stop reading it
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"code": "too_large", "message": f"request body over {self.max_bytes} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
