"""Request body caps. REST (``/api``): a body over ``max_bytes`` (setting ``max_body_bytes``, default
:data:`MAX_BODY_BYTES`, 8 MiB) gets 413 ``too_large`` as ObsiGate's JSON error before any handler parses it. MCP
(``/mcp``): a body over ``mcp_max_bytes`` (setting ``mcp_max_body_bytes``, default :data:`MCP_MAX_BODY_BYTES`,
4 MiB) is refused by the SDK's transport with a plain-text 413 that MCP clients cannot show; it is answered here
instead with the same 413 carrying a JSON-RPC error object (code ``-32600``, message ``too_large: …``). A POST to
one of ``upload_paths`` (``/api/files``: the file space's uploads) has that path's own cap instead of
``max_bytes``; its 413 is ``file_too_large``."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from obsigate.tools.api import error_body

MAX_BODY_BYTES = 8 * 1024 * 1024  # a 5-million-character note, written as JSON, fits
#: The MCP SDK's Streamable HTTP cap (``mcp.server.transport_security.DEFAULT_MAX_REQUEST_BODY_SIZE``).
MCP_MAX_BODY_BYTES = 4 * 1024 * 1024
MCP_PATH = "/mcp"
INVALID_REQUEST = -32600  # JSON-RPC 2.0: "The JSON sent is not a valid Request object."


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


def mcp_too_large_body(max_bytes: int = MCP_MAX_BODY_BYTES) -> bytes:
    """The JSON-RPC error answered to an oversized MCP request (its id is unknown: the body was not read)."""
    error = {"code": INVALID_REQUEST, "message": f"too_large: request body over {_size(max_bytes)}"}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()


class BodyLimit:
    """Pure ASGI middleware: refuses ``/api`` requests whose declared or streamed body is too large, and
    ``/mcp`` requests whose declared body is too large; turns the MCP SDK's own plain-text 413 (a streamed
    body without a length) into the same JSON-RPC error."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        mcp_max_bytes: int = MCP_MAX_BODY_BYTES,
        upload_paths: dict[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.mcp_max_bytes = mcp_max_bytes
        self.upload_paths = dict(upload_paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == MCP_PATH:
            await self._mcp(scope, receive, send)
            return
        if not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        upload = scope.get("method") == "POST" and scope["path"] in self.upload_paths
        limit = self.upload_paths[scope["path"]] if upload else self.max_bytes
        code = "file_too_large" if upload else "too_large"
        if self._declared_over(scope, limit):
            await self._refuse(send, limit, code)
            return
        seen, over, answered = 0, False, False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:  # a chunked body without a length: stop reading it
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def answer(message: Message) -> None:
            nonlocal answered
            if over:  # the app's answer to the cut body ("error parsing the body") becomes our 413
                if not answered and message["type"] == "http.response.start":
                    answered = True
                    await self._refuse(send, limit, code)
                return
            await send(message)

        await self.app(scope, counted, answer)

    @staticmethod
    def _declared_over(scope: Scope, limit: int) -> bool:
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        return declared is not None and (not declared.isdigit() or int(declared) > limit)

    async def _mcp(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = mcp_too_large_body(self.mcp_max_bytes)
        if self._declared_over(scope, self.mcp_max_bytes):
            await self._send_json(send, body)
            return
        replacing = False

        async def rewritten(message: Message) -> None:
            nonlocal replacing
            if message["type"] == "http.response.start" and message["status"] == 413:
                replacing = True  # the SDK's "Request body too large" (text/plain): answer JSON-RPC instead
                await self._send_json(send, body)
                return
            if replacing:
                return  # the SDK's plain-text body, already replaced
            await send(message)

        await self.app(scope, receive, rewritten)

    @staticmethod
    async def _send_json(send: Send, body: bytes) -> None:
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _refuse(send: Send, limit: int, code: str = "too_large") -> None:
        body = json.dumps(
            error_body(
                code, f"request body over {limit} bytes", hint="send a smaller body", details={"max_bytes": limit}
            )
        ).encode()
        await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
