"""Schemathesis over every operation of ``/openapi.json`` (issue 20, robustness suite), against a real server on
loopback with auth on, once with an admin's bearer credential (an ``og_`` API key: ``signout-all`` ends JWTs
only, so the run keeps its credential) and once with none.

Each generated request must get: no 5xx (a crash is a 500 ``internal_error``; a 502/503 would blame the server
or the provider for a bad request), a status the operation documents, a body of the documented content type and
schema (every 4xx/5xx in the one error shape of ``api/render.py``, ``components/schemas/Error``; SSE events),
no answer over its ``x-obsigate-max-chars`` cap (``api/openapi_doc.py``), a 4xx for a request the document calls
invalid, and with no credential a refusal of every operation that names the ``bearer`` scheme.
The assistant's provider is a fake on loopback that answers every request with a short text, so the /api/ai/*
routes run their real code. Bounded and deterministic: a few derandomized examples per operation, no database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import schemathesis
from fakes.llm_server import FakeLLM, Reply, provider_env
from fakes.openai_replies import stream_text
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import CheckContext
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from support import SMALL_VAULT, free_port, uvicorn_thread, write_tree

from obsigate.api.openapi_doc import CAP_KEY
from obsigate.config import load_settings

#: Examples per operation and credential: ~70 operations × 2 runs; keeps the module well under a minute.
EXAMPLES = 4
BUDGET_TOKENS = 2_000  # a small result budget (8,000 characters), so a listing or a read can reach its cap
BIG = "Big.md"  # a note over the budget: reading it is cut to the cap
BIG_TEXT = "# Big\n\n" + "".join(f"Line {n}: the tidepool buoy, [[Home]] and #project/sensors.\n" for n in range(800))


class AnsweringLLM(FakeLLM):
    """The fake provider, answering any chat request past its script with a short text (streamed when asked)."""

    def _next(self) -> Reply:
        with self._lock:
            if self.script:
                return self.script.pop(0)
            asked = self.requests[-1].json if self.requests else None
        if isinstance(asked, dict) and asked.get("stream"):
            return stream_text(["ok"])
        message = {"role": "assistant", "content": "ok"}
        return Reply.json({
            "id": "fake", "object": "chat.completion", "model": "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })  # fmt: skip


class Server:
    """The live server: its ``url`` and the admin's API key (``key``)."""

    def __init__(self, url: str, key: str) -> None:
        self.url = url
        self.key = key


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from obsigate.bootstrap import create_app

    root = tmp_path_factory.mktemp("fuzz")
    vault = write_tree(root / "vault", {**SMALL_VAULT, BIG: BIG_TEXT})
    fake = AnsweringLLM().start()
    port = free_port()
    settings_ = load_settings(
        data_dir=root / "data", port=port, vaults={"notes": {"path": str(vault)}}, auth_enabled=True,
        tool_rate_limit=100_000, web_rate_limit=100_000, tool_result_budget_tokens=BUDGET_TOKENS,
    )  # fmt: skip
    with pytest.MonkeyPatch.context() as env:
        for name, value in provider_env(fake).items():
            if value is None:
                env.delenv(name, raising=False)
            else:
                env.setenv(name, value)
        app = create_app(settings_)  # the provider settings read the environment now
    users = app.state.auth.users
    users.add_user("bob", None, admin=True, vaults=None)
    _, key = users.create_api_key("bob", label="fuzz")
    try:
        with uvicorn_thread(app, port):
            yield Server(settings_.base_url, key)
    finally:
        fake.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Any:
    """The document as the server serves it, loaded by schemathesis (generation: deterministic, no database)."""
    doc = httpx2.get(f"{server.url}/openapi.json").json()
    schema = schemathesis.openapi.from_dict(doc)
    schema.config.generation.update(deterministic=True, database="none", with_security_parameters=False)
    return schema


def within_cap(ctx: CheckContext, response: Any, case: Any) -> bool | None:
    """A 2xx answer is at most its operation's ``x-obsigate-max-chars`` characters (when it names one)."""
    documented = case.operation.definition.raw.get("responses", {}).get(str(response.status_code), {})
    cap = documented.get(CAP_KEY) if isinstance(documented, dict) else None
    if cap is None:
        return None
    size = len(response.content.decode("utf-8"))
    assert size <= cap, f"{case.method} {case.path}: {size} characters, over the documented cap of {cap}"
    return True


def no_server_error(ctx: CheckContext, response: Any, case: Any) -> bool | None:
    """No 5xx, with the error body in the message (an ``internal_error``'s ``error_id`` names the log line)."""
    assert response.status_code < 500, f"{case.method} {case.path} → {response.status_code}: {response.text[:500]}"
    return True


CHECKS = [
    no_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    within_cap,
    negative_data_rejection,  # a request the document calls invalid is refused with a 4xx
]
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found, in bounded time
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


#: Entries of the fuzzed vault (``None``: keep the generated path); deletes and renames change them on the way.
KNOWN = (None, "Home.md", None, BIG, None, "Projects/Plan.md", "Ideas.md", "Attachments/pic.png", "Projects")


def with_path(case: Any, path: str | None) -> Any:
    """``case`` with its ``path`` argument (query or JSON body) set to ``path``, when both exist."""
    for where in (case.query, case.body):
        if path is not None and isinstance(where, dict) and "path" in where:
            where["path"] = path
    return case


def fuzz(api: Any, send: Callable[[Any], None], *, guarded_negative: bool = True) -> list[str]:
    """Run ``send`` (request one case, validate its answer) on :data:`EXAMPLES` valid and as many invalid cases
    of every operation (invalid ones of an operation that names ``bearer`` only with ``guarded_negative``);
    returns one line per failing operation and mode (its first failure)."""
    failures = []
    for result in api.get_all_operations():
        operation = result.ok()
        names_vault = any(p.name == "vault" for p in operation.path_parameters)
        negative = guarded_negative or not operation.definition.raw.get("security")
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)[: 2 if negative else 1]:
            # valid cases name the real vault (a random name is only ever a 404): the tools' own code runs
            fixed = {"vault": "notes"} if names_vault and mode is GenerationMode.POSITIVE else None

            cases = operation.as_strategy(generation_mode=mode, path_parameters=fixed)
            if mode is GenerationMode.POSITIVE:  # a valid case names an existing entry as often as not
                cases = st.tuples(cases, st.sampled_from(KNOWN)).map(lambda pair: with_path(*pair))

            @SETTINGS
            @given(case=cases)
            def run(case: Any) -> None:
                send(case)

            try:
                run()
            except Unsatisfiable:  # nothing to negate (no parameters, no body)
                assert mode is GenerationMode.NEGATIVE, f"{operation.label}: no valid case could be made"
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 — every operation is tried, all failures shown
                failures.append(f"{operation.label} [{mode.value}]: {type(exc).__name__}: {str(exc)[:1500]}")
    return failures


def test_the_document_names_the_error_shape_the_credential_and_the_caps(server: Server) -> None:
    """What the fuzz relies on is in the served document: the shared error response, ``bearer`` on guarded
    operations only, the tool bodies' schemas and the caps. Runs first (file order): the fuzz changes the vault."""
    doc = httpx2.get(f"{server.url}/openapi.json").json()
    ops = {(m.upper(), p): op for p, item in doc["paths"].items() for m, op in item.items()}
    rest = {key: op for key, op in ops.items() if key[1] != "/mcp"}
    assert all(op["responses"]["4XX"] == {"$ref": "#/components/responses/Error"} for op in rest.values())
    assert not any("422" in op["responses"] for op in rest.values())
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    public = {key for key, op in rest.items() if not op.get("security")}
    assert public == {
        ("GET", "/api/health"), ("POST", "/api/auth/login"), ("POST", "/api/auth/session"),
        ("DELETE", "/api/auth/session"),
    }  # fmt: skip
    budget = BUDGET_TOKENS * 4
    assert ops[("GET", "/api/search")]["responses"]["200"][CAP_KEY] == budget
    assert ops[("GET", "/api/file/{vault}/source")]["responses"]["200"][CAP_KEY] > budget  # + one raw read
    assert CAP_KEY not in ops[("GET", "/api/graph/{vault}/export")]["responses"]["200"]  # never cut
    body = ops[("POST", "/api/file/{vault}/append")]["requestBody"]["content"]["application/json"]["schema"]
    assert "path" in body["properties"] and "vault" not in body["properties"]
    error = doc["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "message"] and "internal_error" in error["properties"]["code"]["enum"]
    # a note over the budget is answered cut to the cap, not past it
    signed = {"Authorization": f"Bearer {server.key}"}
    read = httpx2.get(f"{server.url}/api/file/notes", params={"path": BIG}, headers=signed)
    assert read.status_code == 200 and len(BIG_TEXT) > budget
    assert budget // 2 < len(read.text) <= ops[("GET", "/api/file/{vault}")]["responses"]["200"][CAP_KEY]
    # the shape is the server's: a refusal validates against it
    refused = httpx2.get(f"{server.url}/api/vaults")
    assert refused.status_code == 401 and set(refused.json()) <= set(error["properties"])
    assert json.loads(refused.text)["code"] == "unauthenticated"


def test_an_unreadable_json_body_is_an_invalid_argument(server: Server) -> None:
    """JSON declared, bytes that are not UTF-8: FastAPI's own 400 carries the stable ``invalid_argument`` code
    (it was the catch-all ``http_error``), and nothing is written."""
    headers = {"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"}
    answer = httpx2.post(f"{server.url}/api/file/notes/append", content=b'{"path": "\xff\xfe"}', headers=headers)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_argument", answer.text


def test_no_credential_means_no_scheme_when_auth_is_off(tmp_path: Path) -> None:
    from obsigate.bootstrap import create_app

    vault = write_tree(tmp_path / "v", SMALL_VAULT)
    settings_ = load_settings(
        data_dir=tmp_path / "d", port=8000, vaults={"notes": {"path": str(vault)}}, auth_enabled=False
    )
    app = create_app(settings_)
    doc = app.openapi()
    assert not any(op.get("security") for item in doc["paths"].values() for op in item.values())
    assert "bearer" not in doc["components"].get("securitySchemes", {})


def test_with_an_admin_credential(api: Any, server: Server) -> None:
    def send(case: Any) -> None:
        response = case.call(base_url=server.url, headers={"Authorization": f"Bearer {server.key}"}, timeout=30)
        case.validate_response(response, checks=CHECKS)

    failures = fuzz(api, send)
    assert not failures, "\n\n".join(failures)


def test_without_a_credential(api: Any, server: Server) -> None:
    def send(case: Any) -> None:
        response = case.call(base_url=server.url, timeout=30)
        case.validate_response(response, checks=[*CHECKS, ignored_auth])

    failures = fuzz(api, send, guarded_negative=False)  # a guarded operation refuses before it reads anything
    assert not failures, "\n\n".join(failures)
