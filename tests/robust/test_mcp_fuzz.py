"""A fuzz of the MCP JSON-RPC surface over HTTP (issue 20), against a real ``obsigate serve`` on loopback, in both
protocol eras: 2025-11-25 (``initialize`` + ``Mcp-Session-Id``) and the sessionless 2026-07-28.

Raw bodies go to ``POST /mcp``: malformed frames, invalid UTF-8, wrong types in every field of every method,
unknown methods, odd ids, batches, huge params, missing or unknown sessions, wrong protocol versions. Every answer
must be a JSON-RPC error (or a result), or one of the documented HTTP 4xx; never a 5xx, never an internal error
(``-32603`` or a tool's ``internal_error``), never a hang; the server keeps serving (a normal ``tools/call``
after each test) and logs no error or traceback.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_types import PARSE_ERROR, JSONRPCError
from robust.serving import Server, serve
from support import SMALL_VAULT, alice_token, write_tree

from obsigate.mcp.stdio import parse_line
from obsigate.services.errors import CATALOGUE, Channel

MODERN, LEGACY = "2026-07-28", "2025-11-25"
ERAS = [MODERN, LEGACY]
ACCEPT = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
INTERNAL_ERROR = -32603
#: A request that hangs longer than this is a failure (the slowest honest answer here takes well under 1 s).
TIMEOUT = 15.0
#: Plain-text 4xx answers of the MCP SDK's transport (``mcp/server/transport_security.py``, ``streamable_http.py``):
#: a body that is not ``application/json``, a foreign ``Host`` (DNS rebinding) or ``Origin`` (MCP ``basic/transports``
#: §Security Warning: 403), an ``Accept`` without JSON or SSE. Every other answer must be JSON-RPC.
PLAIN_4XX = {
    (400, "Invalid Content-Type header"),
    (421, "Invalid Host header"),
    (403, "Invalid Origin header"),
    (406, "Not Acceptable: Client must accept both application/json and text/event-stream"),
    (406, "Not Acceptable: Client must accept application/json"),
    (406, ""),  # 2026-07-28 (``mcp/server/_streamable_http_modern.py``): an Accept without application/json
}

FUZZ = settings(
    max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)


@dataclass
class Answer:
    """One HTTP answer of ``/mcp``: status, content type, raw text and the JSON-RPC messages it carried."""

    status: int
    content_type: str
    text: str
    messages: list[Any]


def parse(response: httpx2.Response) -> Answer:
    """The JSON-RPC messages of a JSON or SSE answer (``data:`` lines; an empty priming event is skipped)."""
    ctype = response.headers.get("content-type", "").split(";")[0].strip()
    text = response.text
    messages: list[Any] = []
    if ctype == "application/json" and text:
        messages.append(json.loads(text))
    elif ctype == "text/event-stream":
        for line in re.split(r"\r\n|\r|\n", text):  # SSE's own line ends only; str.splitlines() also splits U+0085
            if line.startswith("data:") and line[5:].strip():
                messages.append(json.loads(line[5:]))
    return Answer(response.status_code, ctype, text, messages)


def check_answer(answer: Answer, what: object) -> None:
    """The contract: no 5xx; a JSON-RPC error or result, or a 202 for a notification, or a documented plain 4xx;
    never an internal error."""
    context = f"{what!r:.300} → {answer.status} {answer.text[:500]!r}"
    assert answer.status < 500, context
    if answer.status == 202:  # an accepted notification or response: no body
        assert answer.text == "", context
        return
    if not answer.messages:
        assert (answer.status, answer.text) in PLAIN_4XX, context
        return
    first = answer.messages[0]
    if isinstance(first, dict) and "jsonrpc" not in first and first.get("code") in CATALOGUE:
        # ObsiGate's own HTTP-layer refusals (docs/mcp.md: MCP channel "http"), before MCP sees the request
        listed = CATALOGUE[first["code"]]
        assert listed.channel is Channel.HTTP and listed.http_status == answer.status, context
        return
    for message in answer.messages:
        assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", context
        if "error" in message:
            error = message["error"]
            assert isinstance(error["code"], int) and isinstance(error["message"], str), context
            assert error["code"] != INTERNAL_ERROR, context
            assert answer.status < 300 or answer.status >= 400, context
        else:
            assert "result" in message and answer.status == 200, context
            meta = message["result"].get("_meta") or {}
            assert (meta.get("obsigate/error") or {}).get("code") != "internal_error", context


def header_safe(value: str) -> str:
    """A header value as MCP 2026-07-28 carries one: as is when printable ASCII, else ``=?base64?…?=``."""
    if value.isascii() and value.isprintable() and value == value.strip():
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8', 'surrogatepass')).decode()}?="


class Wire:
    """Raw ``POST /mcp`` in one era, with alice's bearer; a legacy wire opens its session first."""

    def __init__(self, served: Server, token: str, era: str) -> None:
        self.url = f"{served.url}/mcp"
        self.era = era
        self.http = httpx2.Client(timeout=TIMEOUT, headers={"Authorization": f"Bearer {token}"})
        self.session: str | None = None
        if era == LEGACY:
            self.session = self.initialize()

    def initialize(self) -> str:
        """A legacy handshake (``initialize`` + ``notifications/initialized``); returns the session id."""
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
        }
        r = self.http.post(self.url, json=init, headers=ACCEPT)
        assert r.status_code == 200, r.text
        session = r.headers["mcp-session-id"]
        headers = {**ACCEPT, "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY}
        done = self.http.post(self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        assert done.status_code == 202, done.text
        return session

    def headers_for(self, request: Any) -> dict[str, str]:
        """The headers a well-behaved client of this era sends with ``request`` (taken from the body as it is,
        so a fuzzed body still passes the header checks and reaches the handlers)."""
        if self.era == LEGACY:
            assert self.session is not None
            return {**ACCEPT, "Mcp-Session-Id": self.session, "MCP-Protocol-Version": LEGACY}
        headers = {**ACCEPT, "MCP-Protocol-Version": MODERN}
        if isinstance(request, dict) and isinstance(request.get("method"), str):
            headers["Mcp-Method"] = header_safe(request["method"])
            params = request.get("params")
            if isinstance(params, dict):
                name = params.get("uri" if request["method"] == "resources/read" else "name")
                if isinstance(name, str):
                    headers["Mcp-Name"] = header_safe(name)
        return headers

    def with_meta(self, request: Any) -> Any:
        """``request`` with the 2026-07-28 ``_meta`` added to an object ``params`` (modern era only)."""
        if self.era == MODERN and isinstance(request, dict):
            params = request.get("params", {})
            if isinstance(params, dict) and "_meta" not in params:
                request = {**request, "params": {**params, "_meta": META}}
        return request

    def post(self, body: bytes, headers: dict[str, str] | None = None) -> Answer:
        t0 = time.monotonic()
        answer = parse(self.http.post(self.url, content=body, headers=headers or self.headers_for(None)))
        assert time.monotonic() - t0 < TIMEOUT
        return answer

    def send(self, request: Any) -> Answer:
        """``request`` (any JSON value; NaN allowed) as the body, with this era's headers for it."""
        request = self.with_meta(request)
        body = json.dumps(request, allow_nan=True).encode("utf-8", "surrogatepass")
        answer = self.post(body, self.headers_for(request))
        check_answer(answer, request)
        return answer

    def tool(self, name: str, arguments: Any) -> dict[str, Any]:
        """A ``tools/call``'s JSON-RPC answer (checked)."""
        answer = self.send(
            {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        )
        assert len(answer.messages) == 1, answer.text
        return answer.messages[0]

    def close(self) -> None:
        self.http.close()


@dataclass
class Fuzzed:
    """The server under fuzz, alice's token and what it lists (tool schemas, prompt names)."""

    served: Server
    token: str
    tools: dict[str, dict[str, Any]]
    prompts: list[str]

    def wire(self, era: str) -> Wire:
        return Wire(self.served, self.token, era)

    def still_serving(self) -> None:
        """A normal ``tools/call`` answers in both eras, and the server has logged no error."""
        for era in ERAS:
            wire = self.wire(era)
            try:
                answer = wire.tool("read_file", {"vault": "notes", "path": "Home.md"})
            finally:
                wire.close()
            assert answer["result"]["isError"] is False, answer
            assert answer["result"]["structuredContent"]["content"].startswith("# Home")
        printed = self.served.printed()
        assert " ERROR " not in printed and "Traceback" not in printed, printed[-5000:]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    root = tmp_path_factory.mktemp("fuzz")
    vault = write_tree(root / "notes", SMALL_VAULT)
    token = alice_token(root / "data", vaults=["notes"])
    with serve({"notes": vault}, root / "data", auth=True) as served:
        wire = Wire(served, token, MODERN)
        try:
            listed = wire.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).messages[0]
            prompts = wire.send({"jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": {}}).messages[0]
        finally:
            wire.close()
        tools = {t["name"]: t["inputSchema"] for t in listed["result"]["tools"]}
        yield Fuzzed(served, token, tools, [p["name"] for p in prompts["result"]["prompts"]])


@pytest.fixture(params=ERAS)
def wire(request: pytest.FixtureRequest, fuzzed: Fuzzed) -> Iterator[Wire]:
    """A raw wire in each era; after the test, the server must still serve."""
    wire = fuzzed.wire(request.param)
    yield wire
    wire.close()
    fuzzed.still_serving()


# --- hand-picked frames ------------------------------------------------------------------------------------------

FILE_URI = "vault://notes/Home.md"
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_vaults", "arguments": {}}}


def frames() -> list[tuple[str, bytes]]:
    """Malformed or abusive bodies, each sent with a well-behaved client's headers."""
    deep = b"[" * 100_000 + b"]" * 100_000
    return [
        ("empty", b""),
        ("whitespace", b" \n\t "),
        ("garbage", b"hello world"),
        ("truncated", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/li'),
        ("invalid utf-8 in method", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/\xff\xfe"}'),
        ("invalid utf-8 in an argument", b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_fulltext","arguments":{"q":"\xc3\x28"}}}'),
        ("lone surrogate escape", b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_fulltext","arguments":{"q":"\\ud800"}}}'),
        ("nul bytes", b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"vault":"notes","path":"Home.md\\u0000.png"}}}'),
        ("utf-8 bom", b"\xef\xbb\xbf" + json.dumps(CALL).encode()),
        ("utf-16", json.dumps(CALL).encode("utf-16")),
        ("NaN and Infinity", b'{"jsonrpc":"2.0","id":NaN,"method":"tools/call","params":{"name":"list_directory","arguments":{"vault":"notes","limit":Infinity}}}'),
        ("duplicate keys", b'{"jsonrpc":"2.0","id":1,"id":"two","method":"ping","method":"tools/list"}'),
        ("deep nesting", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":' + deep + b"}"),
        ("number", b"42"),
        ("null", b"null"),
        ("string", b'"tools/list"'),
        ("true", b"true"),
        ("empty object", b"{}"),
        ("empty batch", b"[]"),
        ("nested empty batches", b"[[], [[]], {}]"),
        ("batch of one call", json.dumps([CALL]).encode()),
        ("batch of 2000 calls", json.dumps([{**CALL, "id": i} for i in range(2000)]).encode()),
        ("batch of garbage", b'[1, "x", null, {"jsonrpc": "2.0"}]'),
        ("no jsonrpc", json.dumps({"id": 1, "method": "tools/list"}).encode()),
        ("jsonrpc 1.0", json.dumps({**CALL, "jsonrpc": "1.0"}).encode()),
        ("jsonrpc as a number", json.dumps({**CALL, "jsonrpc": 2.0}).encode()),
        ("no method", json.dumps({"jsonrpc": "2.0", "id": 1, "params": {}}).encode()),
        ("method as a number", json.dumps({"jsonrpc": "2.0", "id": 1, "method": 7}).encode()),
        ("method as an empty string", json.dumps({"jsonrpc": "2.0", "id": 1, "method": ""}).encode()),
        ("unknown method", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "vault/format_disk"}).encode()),
        ("rpc-internal method name", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}).encode()),
        ("unknown notification", json.dumps({"jsonrpc": "2.0", "method": "notifications/whatever"}).encode()),
        ("cancel of a request never made", json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999, "reason": "x"}}).encode()),
        ("a response nobody asked for", json.dumps({"jsonrpc": "2.0", "id": 5, "result": {}}).encode()),
        ("an error nobody asked for", json.dumps({"jsonrpc": "2.0", "id": 5, "error": {"code": 1, "message": "x"}}).encode()),
        ("result and error", json.dumps({"jsonrpc": "2.0", "id": 5, "result": {}, "error": {"code": 1, "message": "x"}}).encode()),
        ("huge integer id", b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"tools/list","params":{}}'),
        ("negative id", json.dumps({**CALL, "id": -(2**63)}).encode()),
        ("float id", json.dumps({**CALL, "id": 1.5}).encode()),
        ("exponent id", b'{"jsonrpc":"2.0","id":1e400,"method":"tools/list","params":{}}'),
        ("null id", json.dumps({**CALL, "id": None}).encode()),
        ("bool id", json.dumps({**CALL, "id": True}).encode()),
        ("object id", json.dumps({**CALL, "id": {"a": 1}}).encode()),
        ("long string id", json.dumps({**CALL, "id": "i" * 100_000}).encode()),
        ("params as a list", json.dumps({**CALL, "params": ["list_vaults", {}]}).encode()),
        ("params as a string", json.dumps({**CALL, "params": "list_vaults"}).encode()),
        ("3 MB search query", json.dumps({**CALL, "params": {"name": "search_fulltext", "arguments": {"q": "tide " * 600_000}}}).encode()),
        ("3 MB path", json.dumps({**CALL, "params": {"name": "read_file", "arguments": {"vault": "notes", "path": "a/" * 1_500_000}}}).encode()),
        ("3 MB of arguments", json.dumps({**CALL, "params": {"name": "list_vaults", "arguments": {f"k{i}": i for i in range(250_000)}}}).encode()),
        ("over the 4 MiB cap", json.dumps({**CALL, "params": {"name": "search_fulltext", "arguments": {"q": "x" * (5 << 20)}}}).encode()),
        ("resource read of a bad uri", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "vault://notes/%ff%fe/../../etc/passwd"}}).encode()),
        ("resource read of a non-uri", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "::::"}}).encode()),
    ]  # fmt: skip


def test_every_malformed_frame_gets_an_error_and_the_server_stays_up(wire: Wire) -> None:
    """Each frame with this era's headers (from the body where it parses), then a normal call on the same wire;
    on a legacy wire the one session survives them all."""
    for what, body in frames():
        try:
            parsed = json.loads(body)
        except (ValueError, RecursionError):  # not JSON (or too deep for the stdlib): no headers from the body
            parsed = None
        answer = wire.post(body, wire.headers_for(wire.with_meta(parsed)))
        check_answer(answer, what)
        assert answer.status != 200 or answer.messages, what  # a 200 always carries an answer
        after = wire.tool("list_vaults", {})
        assert [v["name"] for v in after["result"]["structuredContent"]["vaults"]] == ["notes"], (what, after)


# --- headers: sessions, versions, content types --------------------------------------------------------------------

LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).encode()
LIST_MODERN = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}).encode()


def header_cases(session: str) -> list[tuple[str, bytes, dict[str, str], set[int]]]:
    """(what, body, headers, expected statuses) for the transport's header rules (MCP ``basic/transports``)."""
    legacy = {**ACCEPT, "MCP-Protocol-Version": LEGACY}
    modern = {**ACCEPT, "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}
    return [
        ("legacy without a session id", LIST, legacy, {400}),
        ("legacy with an unknown session id", LIST, {**legacy, "Mcp-Session-Id": "0" * 32}, {404}),
        ("legacy with a 10 kB session id", LIST, {**legacy, "Mcp-Session-Id": "s" * 10_000}, {404}),
        ("legacy with an empty session id", LIST, {**legacy, "Mcp-Session-Id": ""}, {404}),
        ("legacy with a future version", LIST, {**legacy, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2099-01-01"}, {400}),
        ("legacy with a junk version", LIST, {**legacy, "Mcp-Session-Id": session, "MCP-Protocol-Version": "x" * 1000}, {400}),
        ("legacy with the modern version on a session", LIST, {**legacy, "Mcp-Session-Id": session, "MCP-Protocol-Version": MODERN}, {400}),
        ("modern without the method header", LIST_MODERN, {**ACCEPT, "MCP-Protocol-Version": MODERN}, {400}),
        ("modern with a mismatched method header", LIST_MODERN, {**modern, "Mcp-Method": "prompts/list"}, {400}),
        ("modern with a future version", LIST_MODERN, {**modern, "MCP-Protocol-Version": "2099-01-01"}, {400}),
        ("modern with a version differing from _meta", LIST_MODERN, {**modern, "MCP-Protocol-Version": LEGACY}, {400}),
        ("modern without _meta", LIST, modern, {400}),
        ("modern with a session id", LIST_MODERN, {**modern, "Mcp-Session-Id": "0" * 32}, {200}),
        ("modern with a base64 method header that is not base64", LIST_MODERN, {**modern, "Mcp-Method": "=?base64?***?="}, {400}),
        ("a text/plain body", LIST_MODERN, {**modern, "Content-Type": "text/plain"}, {400}),
        ("no Accept", LIST_MODERN, {k: v for k, v in modern.items() if k != "Accept"}, {200, 406}),
        ("Accept: text/html", LIST_MODERN, {**modern, "Accept": "text/html"}, {406}),
        ("an Origin from elsewhere", LIST_MODERN, {**modern, "Origin": "http://evil.example"}, {403}),
        ("a Host from elsewhere", LIST_MODERN, {**modern, "Host": "evil.example"}, {421}),
    ]  # fmt: skip


def test_header_abuse_gets_the_documented_status(fuzzed: Fuzzed) -> None:
    wire = fuzzed.wire(LEGACY)
    assert wire.session is not None
    try:
        for what, body, headers, statuses in header_cases(wire.session):
            answer = wire.post(body, headers)
            check_answer(answer, what)
            assert answer.status in statuses, (what, answer.status, answer.text[:300])
    finally:
        wire.close()
    fuzzed.still_serving()


def test_without_a_valid_token_every_era_gets_401(fuzzed: Fuzzed) -> None:
    with httpx2.Client(timeout=TIMEOUT) as http:
        wrong = [f"Bearer {fuzzed.token[:-2]}xx", "Bearer", "Bearer garbage", "Bearer a.b.c", "Bearer " + "x" * 20_000]
        for authorization in (None, *wrong, f"Basic {fuzzed.token}", fuzzed.token):
            headers = {**ACCEPT, "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}
            if authorization is not None:
                headers["Authorization"] = authorization
            r = http.post(f"{fuzzed.served.url}/mcp", content=LIST_MODERN, headers=headers)
            assert r.status_code == 401 and "resource_metadata=" in r.headers["www-authenticate"], r.text
    fuzzed.still_serving()


def test_get_and_delete_without_a_session_are_refused(fuzzed: Fuzzed) -> None:
    """Neither verb may open a stream or end a session it does not name; both answer at once."""
    with httpx2.Client(timeout=TIMEOUT, headers={"Authorization": f"Bearer {fuzzed.token}"}) as http:
        for method in ("GET", "DELETE", "PUT", "PATCH"):
            for version in (LEGACY, MODERN):
                headers = {**ACCEPT, "MCP-Protocol-Version": version}
                r = http.request(method, f"{fuzzed.served.url}/mcp", headers=headers, content=b"garbage")
                assert 400 <= r.status_code < 500, (method, version, r.status_code, r.text)
    fuzzed.still_serving()


# --- generated ---------------------------------------------------------------------------------------------------

json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
    | st.sampled_from(["", "notes", "Home.md", "../../etc/passwd", "vault://notes/Home.md", "[[Home]]", "\x00", "*"])
)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(body=st.binary(max_size=512))
def test_any_bytes(wire: Wire, body: bytes) -> None:
    check_answer(wire.post(body, wire.headers_for(None)), body)


@FUZZ
@given(value=json_values)
def test_any_json_value_as_the_body(wire: Wire, value: Any) -> None:
    wire.send(value)


METHODS = [
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "ping",
    "server/discover",
    "logging/setLevel",
    "initialize",
    "tasks/get",
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
]


def template(method: str, prompts: list[str]) -> dict[str, Any]:
    """A well-formed request of ``method`` (the starting point the mutations break)."""
    params: dict[str, Any] = {
        "tools/call": {"name": "read_file", "arguments": {"vault": "notes", "path": "Home.md"}},
        "resources/read": {"uri": FILE_URI},
        "resources/subscribe": {"uri": FILE_URI},
        "resources/unsubscribe": {"uri": FILE_URI},
        "prompts/get": {"name": prompts[0] if prompts else "x", "arguments": {"vault": "notes"}},
        "completion/complete": {
            "ref": {"type": "ref/resource", "uri": "vault://{name}/{+path}"},
            "argument": {"name": "path", "value": "Ho"},
            "context": {"arguments": {"name": "notes"}},
        },
        "logging/setLevel": {"level": "info"},
        "initialize": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}},
        "tasks/get": {"taskId": "t"},
        "resources/list": {"cursor": "c"},
    }.get(method, {})
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": copy.deepcopy(params)}


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into nested dicts (the fields a mutation may replace or drop)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_of(item, (*prefix, key))
    return found


def mutate(request: dict[str, Any], path: tuple[Any, ...], action: str, value: Any) -> dict[str, Any]:
    """``request`` with the field at ``path`` replaced by ``value`` (``action`` "set"), dropped ("drop"), or a
    sibling key ``value`` added ("add", a string key)."""
    out = copy.deepcopy(request)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    if action == "drop":
        parent.pop(path[-1], None)
    elif action == "add":
        parent[str(value)[:20] or "_"] = value
    else:
        parent[path[-1]] = value
    return out


@st.composite
def broken_requests(draw: st.DrawFn, prompts: list[str]) -> dict[str, Any]:
    """A well-formed request with one to three fields replaced by any JSON value, dropped, or joined by an
    unknown sibling."""
    request = template(draw(st.sampled_from(METHODS)), prompts)
    for _ in range(draw(st.integers(1, 3))):
        paths = paths_of(request)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        request = mutate(request, path, draw(st.sampled_from(["set", "set", "drop", "add"])), draw(json_values))
    return request


@FUZZ
@given(data=st.data())
def test_wrong_types_in_every_field_of_every_method(wire: Wire, fuzzed: Fuzzed, data: st.DataObject) -> None:
    wire.send(data.draw(broken_requests(fuzzed.prompts)))


#: Strings that have broken path, link, query and regex handling elsewhere.
NASTY_STRINGS = [
    "",
    ".",
    "..",
    "../Home.md",
    "/etc/passwd",
    "C:\\Windows",
    "Home.md/",
    "Home.md\x00.png",
    "CON",
    "a" * 5000,
    "Projects/../../x.md",
    "%2e%2e/x",
    "\u202e.md",
    "Ho\u0301me.md",
    "[[Home]]",
    "#tag",
    "tag:",
    "(a+)+$",
    "[",
    "*",
    "\\",
    "\n",
    "📝.md",
    ".obsidian/app.json",
    ".trash/Old.md",
    "vault://notes/Home.md",
    "2026-13-45",
    "9" * 40,
]


def typed(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of the JSON type(s) ``schema`` declares (bounds crossed by one, nasty strings, listed enums), so a
    call gets past type checks into the tool; one in eight is any JSON value at all."""
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    options: list[st.SearchStrategy[Any]] = []
    for kind in kinds:
        if "enum" in schema:
            options.append(st.sampled_from(schema["enum"]))
        if kind == "string":
            options.append(st.sampled_from(NASTY_STRINGS) | st.text(max_size=schema.get("maxLength", 64) + 1))
        elif kind == "integer":
            low, high = schema.get("minimum", -(2**63)), schema.get("maximum", 2**63)
            options.append(st.sampled_from([low - 1, low, high, high + 1, 0, 2**64]) | st.integers(low, high))
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind == "null":
            options.append(st.none())
        elif kind == "array":
            options.append(st.lists(typed(schema.get("items", {})), max_size=schema.get("maxItems", 5) + 1))
        elif kind == "object":
            props = schema.get("properties", {})
            options.append(st.fixed_dictionaries({}, optional={k: typed(v) for k, v in props.items()}))
    right = st.one_of(options) if options else json_values
    return st.integers(0, 7).flatmap(lambda n: json_values if n == 0 else right)


@FUZZ
@given(data=st.data())
def test_any_arguments_for_every_tool(wire: Wire, fuzzed: Fuzzed, data: st.DataObject) -> None:
    """Each tool called with its declared arguments given values of their type at and past the bounds, or any
    JSON value, or left out, plus unknown ones: the tool answers with a JSON-RPC error or a result (``isError``
    with a catalogued code when it fails), never an internal error."""
    name = data.draw(st.sampled_from(sorted(fuzzed.tools)))
    properties = fuzzed.tools[name].get("properties", {})
    required = set(fuzzed.tools[name].get("required", [])) - {"vault"}
    arguments = data.draw(
        st.fixed_dictionaries(
            {p: typed(schema) for p, schema in properties.items() if p in required},
            optional={p: typed(schema) for p, schema in properties.items() if p not in required and p != "vault"},
        )
    )
    if required and data.draw(st.integers(0, 9)) == 0:
        del arguments[data.draw(st.sampled_from(sorted(required)))]
    if "vault" in properties:  # mostly the granted vault, so the call reaches the tool's own checks
        arguments["vault"] = data.draw(st.sampled_from(["notes", "notes", "notes", "other"]) | json_values)
    if data.draw(st.integers(0, 9)) == 0:
        arguments.update(data.draw(st.dictionaries(st.text(max_size=8), json_values, min_size=1, max_size=2)))
    answer = wire.tool(name, arguments)
    if "result" in answer and answer["result"]["isError"]:
        assert answer["result"]["_meta"]["obsigate/error"]["code"] in CATALOGUE, answer


# --- stdio -------------------------------------------------------------------------------------------------------


class Pipe:
    """``python -m obsigate mcp stdio --no-auth`` with raw lines on its stdin; its stdout read by a thread, so a
    missing answer fails after :data:`TIMEOUT` instead of hanging."""

    def __init__(self, vault: Path, data: Path) -> None:
        cmd = [sys.executable, "-m", "obsigate", "mcp", "stdio", "--vault", f"notes={vault}", "--no-auth",
               "--data-dir", str(data)]  # fmt: skip
        self.log = data.parent / "stdio-stderr.log"
        with self.log.open("wb") as err:
            env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000"}  # the canary calls add up
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def answers_to(self, line: bytes) -> list[Any]:
        """Send ``line`` (newline added), then a ``list_vaults`` call with a fresh id; return every message that
        came before that call's answer, and check the answer (the server still serves)."""
        self.next_id += 1
        canary = f"canary-{self.next_id}"
        call = {
            "jsonrpc": "2.0",
            "id": canary,
            "method": "tools/call",
            "params": {"name": "list_vaults", "arguments": {}},
        }
        self.write(line + b"\n" + json.dumps(call).encode() + b"\n")
        before: list[Any] = []
        while True:
            try:
                raw = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no answer within {TIMEOUT} s after {line[:300]!r}") from None
            message = json.loads(raw)  # stdout carries nothing but JSON-RPC
            if isinstance(message, dict) and message.get("id") == canary:
                assert message["result"]["structuredContent"]["vaults"][0]["name"] == "notes", message
                return before
            before.append(message)

    def send(self, line: bytes) -> None:
        """``line`` must get JSON-RPC answers only (or none: a notification, a response, a blank line), none of
        them an internal error."""
        answers = self.answers_to(line)
        text = json.dumps(answers)
        check_answer(Answer(200 if answers else 202, "", "" if not answers else text, answers), line[:300])

    def close(self) -> str:
        """Close stdin; the server must exit by itself. Returns its stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(10)
        printed = self.log.read_text(encoding="utf-8", errors="replace")
        assert code == 0, printed[-3000:]
        return printed


@pytest.fixture(scope="module")
def pipe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pipe]:
    root = tmp_path_factory.mktemp("stdio")
    pipe = Pipe(write_tree(root / "notes", SMALL_VAULT), root / "data")
    handshake = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
    }
    pipe.write(json.dumps(handshake).encode() + b"\n")
    assert json.loads(pipe.lines.get(timeout=60))["result"]["serverInfo"]["name"] == "obsigate"
    pipe.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    yield pipe
    printed = pipe.close()
    assert " ERROR " not in printed and "Traceback" not in printed, printed[-5000:]


def test_stdio_every_malformed_frame_gets_an_error(pipe: Pipe) -> None:
    """The same frames as over HTTP, one per line (a frame's own line breaks make several lines), then lines
    over the 4 MiB cap: each answered, the server still serving after each."""
    for _what, body in frames():
        if b"\n" in body or body.startswith((b"\xff\xfe", b"\xfe\xff")):
            body = body.replace(b"\n", b" ")
        pipe.send(body)
    over = 5 << 20
    for line in (b"x" * over, b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":"' + b"y" * over + b'"}}'):
        answers = pipe.answers_to(line)
        assert len(answers) == 1 and answers[0]["error"]["code"] == -32600, answers
        assert "over the 4194304-byte limit" in answers[0]["error"]["message"]


def test_stdio_a_deeply_nested_line_is_a_parse_error() -> None:
    """Regression (found by this fuzz): 100,000 nested arrays on one line made the stdlib parser raise
    ``RecursionError``, which ended the whole stdio server."""
    answer = parse_line(b"[" * 100_000 + b"]" * 100_000)
    assert isinstance(answer, JSONRPCError) and answer.error.code == PARSE_ERROR and answer.id is None


@FUZZ
@given(line=st.binary(max_size=512).map(lambda b: b.replace(b"\n", b"")))
def test_stdio_any_bytes(pipe: Pipe, line: bytes) -> None:
    pipe.send(line)


@FUZZ
@given(value=json_values)
def test_stdio_any_json_value(pipe: Pipe, value: Any) -> None:
    pipe.send(json.dumps(value, allow_nan=True).encode("utf-8", "surrogatepass"))


@FUZZ
@given(data=st.data())
def test_stdio_wrong_types_in_every_field_and_tool_argument(pipe: Pipe, fuzzed: Fuzzed, data: st.DataObject) -> None:
    if data.draw(st.booleans()):
        request: Any = data.draw(broken_requests(fuzzed.prompts))
    else:
        name = data.draw(st.sampled_from(sorted(fuzzed.tools)))
        properties = fuzzed.tools[name].get("properties", {})
        arguments = data.draw(st.fixed_dictionaries({}, optional={p: typed(s) for p, s in properties.items()}))
        request = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    if request.get("method") == "initialize":
        return  # a second initialize on the one session is the SDK's to refuse; not fuzzed here
    if data.draw(st.booleans()) and isinstance(request.get("params"), dict):
        request["params"].setdefault("_meta", META)  # a 2026-07-28 message (per-request _meta) on the same pipe
    pipe.send(json.dumps(request, allow_nan=True).encode("utf-8", "surrogatepass"))
