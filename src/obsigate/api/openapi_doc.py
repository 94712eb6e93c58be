"""What ``/openapi.json`` says beyond FastAPI's own document, so a client (and the schema fuzz,
``tests/robust/test_openapi_fuzz.py``) can rely on it:

* **errors**: every operation answers any 4xx and 5xx in the one error shape of ``api/render.py``
  (``components/schemas/Error``, its ``code`` one of the catalogue's), shared as ``components/responses/Error``
  under ``4XX`` and ``5XX``; FastAPI's ``422`` (never sent: a request that fails validation is a ``400
  invalid_argument``) is dropped, with its schemas;
* **security**: an operation whose route needs the caller (its dependencies reach
  :func:`~obsigate.api.deps.get_principal`, which declares ``deps.BEARER``) names the ``bearer`` scheme, the
  others (health, login) none; with auth off, none does;
* **request bodies**: a tool route's JSON body is described by the tool's own argument schema (less the
  ``vault`` the path names), an assistant route's by the model it validates the body with, not as any JSON;
* **parameters**: a query parameter that may be left out has no ``null`` branch (a query string cannot
  carry one);
* **caps**: a tool route's ``200`` answer carries ``x-obsigate-max-chars``, the most characters its JSON body
  may have: the tool result budget (``tool_result_budget_tokens`` × 4), plus the base64 of one read
  (``max_read_bytes``) where the result carries exact bytes; tools whose result is never cut (``UNBOUNDED``:
  offered to no model) have none.

``/mcp`` keeps the entry ``api/openapi_mcp.py`` writes: its refusals are the MCP SDK's and JSON-RPC's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from obsigate.agent.skills import SkillInput
from obsigate.api.routes import ROUTES
from obsigate.api.routes_ai import AskBody, ResumeBody, UndoBody
from obsigate.api.routes_ai_actions import ActionBody
from obsigate.tools.api import REGISTRY
from obsigate.tools.errors import CATALOGUE

__all__ = ["CAP_KEY", "ERROR_SCHEMA", "complete_document", "document_api", "response_caps"]

#: The extension of a ``200`` response object naming the most characters of its body.
CAP_KEY = "x-obsigate-max-chars"

#: The error shape (``services.errors.error_body``) as JSON Schema.
ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "required": ["code", "message"],
    "additionalProperties": False,
    "properties": {
        "code": {"type": "string", "enum": list(CATALOGUE), "description": "A stable code (docs/mcp.md §7)."},
        "message": {"type": "string", "description": "What went wrong, for a person."},
        "hint": {"type": "string", "description": "The next step."},
        "details": {"type": "object", "description": "Data about it (`errors`, `retry_after`, `reason`...)."},
        "error_id": {"type": "string", "description": "internal_error only: the id of the server's log line."},
    },
}
_ERROR_RESPONSE = {
    "description": "Refused or failed: the error shape, with a stable `code` (docs/mcp.md §7).",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
_ERROR_REF = {"$ref": "#/components/responses/Error"}


def response_caps(budget_chars: int, max_read_bytes: int) -> dict[tuple[str, str], int]:
    """``(METHOD, path)`` → the most characters of a tool route's JSON answer (see the module docstring);
    ``budget_chars``: the result budget in characters, ``max_read_bytes``: one read's byte cap."""
    caps = {}
    for rows in ROUTES.values():
        for row in rows:
            spec = REGISTRY.get(row.tool)
            if spec is None or getattr(spec.result_model, "UNBOUNDED", False):
                continue
            exact = 4 * -(-max_read_bytes // 3) if hasattr(spec.result_model, "exact_fields") else 0
            caps[(row.method, f"/api{row.path}")] = budget_chars + exact
    return caps


#: The assistant's routes read their body as any JSON and validate it themselves (one ``invalid_argument``
#: shape, ``routes_ai._parse``): the models they validate with, for the document.
_ASSISTANT_BODIES: dict[tuple[str, str], tuple[type[BaseModel], ...]] = {
    ("POST", "/api/ai/bookslm/chat"): (AskBody,),
    ("POST", "/api/ai/bookslm/agent"): (AskBody, ResumeBody),  # a new run, or a paused run's answer
    ("POST", "/api/ai/{action}"): (ActionBody,),
    ("POST", "/api/ai/runs/{run_id}/undo"): (UndoBody,),
    ("POST", "/api/ai/skills"): (SkillInput,),
}


def _model_schemas(components: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """``(METHOD, path)`` → the body schema of an assistant route (:data:`_ASSISTANT_BODIES`); the models'
    nested definitions go to ``components/schemas``."""
    out = {}
    for key, models in _ASSISTANT_BODIES.items():
        schemas = []
        for model in models:
            schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            components.setdefault("schemas", {}).update(schema.pop("$defs", {}))
            schemas.append(schema)
        out[key] = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    return out


def _body_schemas() -> dict[tuple[str, str], dict[str, Any]]:
    """``(METHOD, path)`` → the JSON Schema of a tool route's body: the tool's arguments, less ``vault`` when
    the path names it (the path's wins)."""
    out = {}
    for rows in ROUTES.values():
        for row in rows:
            spec = REGISTRY.get(row.tool)
            if row.body is None or spec is None:
                continue
            schema = dict(spec.input_schema)
            if row.takes_vault:
                schema["properties"] = {k: v for k, v in schema.get("properties", {}).items() if k != "vault"}
                schema["required"] = [k for k in schema.get("required", []) if k != "vault"]
                if not schema["required"]:
                    del schema["required"]
            out[(row.method, f"/api{row.path}")] = schema
    return out


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter's schema without its ``null`` branch (``anyOf: [X, {"type": "null"}]`` → ``X``): a query
    string cannot carry a null; leaving the parameter out is how a client says "none"."""
    branches = schema.get("anyOf")
    if not isinstance(branches, list):
        return schema
    kept = [b for b in branches if b != {"type": "null"}]
    if len(kept) != 1 or len(kept) == len(branches):
        return schema
    rest = {k: v for k, v in schema.items() if k != "anyOf" and not (k == "default" and v is None)}
    return {**kept[0], **rest}


def complete_document(schema: dict[str, Any], *, auth: bool, budget_chars: int, max_read_bytes: int) -> dict[str, Any]:
    """Complete FastAPI's ``schema`` in place (see the module docstring) and return it. ``auth``: the
    server requires a bearer credential (the ``bearer`` scheme is then in ``components/securitySchemes``)."""
    caps = response_caps(budget_chars, max_read_bytes)
    components = schema.setdefault("components", {})
    bodies = {**_body_schemas(), **_model_schemas(components)}
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    components.setdefault("responses", {})["Error"] = _ERROR_RESPONSE
    for path, item in schema["paths"].items():
        if path == "/mcp":
            continue
        for method, op in item.items():
            key = (method.upper(), path)
            for param in op.get("parameters", []):
                if "schema" in param:
                    param["schema"] = _without_null(param["schema"])
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            for status in [s for s in responses if s[0] in "45"]:
                responses[status] = {**_ERROR_RESPONSE, "description": responses[status].get("description", "")}
            responses["4XX"] = responses["5XX"] = _ERROR_REF
            if key in caps:
                for status in [s for s in responses if s.startswith("2")]:
                    responses[status][CAP_KEY] = caps[key]
            if key in bodies and "requestBody" in op:
                media = op["requestBody"]["content"]["application/json"]
                media["schema"] = {**bodies[key], "description": media["schema"].get("description", "")}
            if not auth:
                op.pop("security", None)  # get_principal declares the bearer scheme; without auth it takes none
    for unused in ("HTTPValidationError", "ValidationError"):
        components["schemas"].pop(unused, None)
    if not auth:
        components.get("securitySchemes", {}).pop("bearer", None)
    return schema


def document_api(app: FastAPI, *, auth: bool, budget_chars: int, max_read_bytes: int) -> None:
    """Make ``app.openapi()`` (``/openapi.json``, ``/docs``) return the completed document (built once, on first
    use, like FastAPI's own; call after :func:`~obsigate.api.openapi_mcp.document_mcp`)."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        return complete_document(build(), auth=auth, budget_chars=budget_chars, max_read_bytes=max_read_bytes)

    app.openapi = openapi  # type: ignore[method-assign]
