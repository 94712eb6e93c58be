"""The REST route table (``api/routes.py``): every row is a real, documented route over a real tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from obsigate.api.routes import REQUIRED, ROUTES, Param, Route, router, tool_arguments
from obsigate.api.routes_write import confirmed_context
from obsigate.config import load_settings
from obsigate.tools.api import REGISTRY, Risk

ROWS = [(tag, row) for tag, rows in ROUTES.items() for row in rows]
IDS = [f"{row.method} {row.path}" for _, row in ROWS]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    from obsigate.bootstrap import create_app

    root: Path = tmp_path_factory.mktemp("table")
    (root / "vault").mkdir()
    settings = load_settings(data_dir=root / "data", port=8000, vaults={"notes": {"path": str(root / "vault")}})
    return create_app(settings)


@pytest.fixture(scope="module")
def openapi(app: FastAPI) -> dict[str, Any]:
    return app.openapi()


def test_rows_are_unique() -> None:
    assert len(set(IDS)) == len(IDS)
    names = [row.endpoint_name for _, row in ROWS]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(("tag", "row"), ROWS, ids=IDS)
def test_every_row_is_in_the_openapi_schema(openapi: dict[str, Any], tag: str, row: Route) -> None:
    operation = openapi["paths"][f"/api{row.path}"][row.method.lower()]
    assert operation["summary"] == row.summary and operation["tags"] == [tag]
    assert operation["operationId"].startswith(row.endpoint_name + "_api_")
    params = {p["name"]: p for p in operation.get("parameters", [])}
    expected_path = ["vault"] if row.takes_vault else []
    assert [n for n, p in params.items() if p["in"] == "path"] == expected_path
    query = [(n, p) for n, p in params.items() if p["in"] == "query"]
    assert [n for n, _ in query] == [p.name for p in row.query]
    for (_, shown), param in zip(query, row.query, strict=True):
        assert shown["required"] is (param.default is REQUIRED)
        if param.default not in (REQUIRED, None):
            assert shown["schema"]["default"] == param.default
        assert shown.get("description") == param.description
    body = operation.get("requestBody")
    if row.body is None:
        assert body is None
    else:
        assert body["required"] is True
        assert body["content"]["application/json"]["schema"]["description"] == row.body
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "object"


def test_only_the_table_and_the_hand_written_routes_exist(openapi: dict[str, Any]) -> None:
    served = {(m.upper(), path) for path, ops in openapi["paths"].items() for m in ops if path != "/mcp"}  # MCP's own
    table = {(row.method, f"/api{row.path}") for _, row in ROWS}
    by_hand = {
        ("GET", "/api/health"), ("POST", "/api/auth/login"), ("GET", "/api/auth/me"),
        ("POST", "/api/auth/session"), ("DELETE", "/api/auth/session"), ("POST", "/api/auth/signout-all"),
        ("GET", "/api/file/{vault}/raw"), ("POST", "/api/file/{vault}/save"), ("GET", "/api/graph/{vault}/export"),
        ("GET", "/api/base/{vault}"),
        ("GET", "/api/ai/status"), ("GET", "/api/config/ai-models"), ("GET", "/api/ai/model-capabilities"),
        ("GET", "/api/config"), ("POST", "/api/config"), ("POST", "/api/ai/bookslm/context"),
        ("POST", "/api/ai/bookslm/chat"), ("POST", "/api/ai/bookslm/agent"), ("GET", "/api/ai/conversations"),
        ("GET", "/api/ai/conversations/{conversation_id}"), ("DELETE", "/api/ai/conversations/{conversation_id}"),
        ("POST", "/api/ai/test"), ("GET", "/api/admin/users"), ("POST", "/api/admin/users"),
        ("PATCH", "/api/admin/users/{name}"), ("DELETE", "/api/admin/users/{name}"),
        ("GET", "/api/admin/users/{name}/keys"), ("POST", "/api/admin/users/{name}/keys"),
        ("DELETE", "/api/admin/users/{name}/keys/{key_id}"), ("POST", "/api/admin/users/{name}/signout-all"),
        ("GET", "/api/ai/conversations/{conversation_id}/images/{image_id}"),
        ("GET", "/api/ai/conversations/{conversation_id}/context"),  # the context gauge (get_context_usage)
        ("POST", "/api/ai/runs/{run_id}/undo"),
        ("GET", "/api/ai/conversations/{conversation_id}/plan"), ("PUT", "/api/ai/conversations/{conversation_id}/plan"),
        ("POST", "/api/ai/{action}"),  # the editor's AI text actions (api/routes_ai_actions.py)
        ("GET", "/api/ai/skills"), ("POST", "/api/ai/skills"), ("DELETE", "/api/ai/skills/{skill_id}"),
        ("GET", "/api/files"), ("POST", "/api/files"), ("GET", "/api/files/{file_id}"),  # the file space (multipart
        ("GET", "/api/files/{file_id}/content"), ("DELETE", "/api/files/{file_id}"),  # upload): routes_user_files.py
    }  # fmt: skip
    assert served == table | by_hand and not table & by_hand


@pytest.mark.parametrize(("tag", "row"), ROWS, ids=IDS)
def test_every_row_runs_a_tool_with_those_arguments(tag: str, row: Route) -> None:
    spec = REGISTRY.get(row.tool)
    assert spec is not None, row.tool
    assert row.write is (spec.risk is not Risk.READ)
    fields = spec.args_model.model_fields
    for param in row.query:
        assert (param.into or param.name).split(".")[0] in fields, param.name
    if row.takes_vault:
        assert "vault" in fields


@pytest.mark.parametrize(("tag", "row"), ROWS, ids=IDS)
def test_writes_and_only_writes_pass_the_cross_site_checks(tag: str, row: Route) -> None:
    route = next(r for r in router.routes if r.path == f"/api{row.path}" and row.method in r.methods)
    calls = {d.call for d in route.dependant.dependencies}
    assert (confirmed_context in calls) is row.write


def test_tool_arguments_merge_body_query_and_path() -> None:
    row = Route(
        "POST", "/x/{vault}", "t", "s", body="b",
        query=(Param("q"), Param("n", int | None), Param("lo", into="r.min"), Param("hi", into="r.max"),
               Param("a", into="other.after")),
    )  # fmt: skip
    values = {
        "ctx": None,
        "vault": "v",
        "body": {"vault": "ignored", "k": 1},
        "q": "",
        "n": None,
        "lo": 2,
        "hi": None,
        "a": None,
    }
    assert tool_arguments(row, values) == {"vault": "v", "k": 1, "q": "", "n": None, "r": {"min": 2}}


def test_every_route_is_in_the_readme() -> None:
    """A tool's route is in the README's REST table or, for any tool, in the generated tool reference the README
    points to (docs/tools.md); the hand-written routes are in the README."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## REST API", 1)[1].split("\n## ", 1)[0]
    assert "docs/tools.md" in section
    reference = (root / "docs" / "tools.md").read_text(encoding="utf-8")
    for _, row in ROWS:
        full, tail = f"/api{row.path}", "/" + row.path.rsplit("/", 1)[1]
        assert full in section or f"`{tail}`" in section or f"`{row.method} {full}`" in reference, full
    for path in (
        "/api/health", "/api/auth/login", "/api/auth/me", "/api/auth/signout-all", "/api/file/{vault}/raw",
        "/api/file/{vault}/save", "/api/admin/users/{name}/signout-all", "/api/ai/status", "/api/config/ai-models", "/api/ai/model-capabilities", "/api/config",
        "/api/ai/bookslm/context", "/api/ai/bookslm/chat", "/api/ai/bookslm/agent", "/api/ai/conversations",
        "/api/ai/conversations/{conversation_id}", "/api/ai/skills", "/api/ai/{action}",
    ):  # fmt: skip
        assert path in section, path


def _readme_rest_section() -> str:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    return readme.split("## REST API", 1)[1].split("\n## ", 1)[0]


def test_the_readme_names_each_route_s_query_parameters(openapi: dict[str, Any]) -> None:
    """Every ``METHOD /api/...?a=&b=`` the README shows lists exactly the route's query parameters."""
    import re

    shown = re.findall(r"`((?:GET|POST|PATCH|DELETE) )?(/api/[^`?\s]+)\?([^`]*)`", _readme_rest_section())
    assert len(shown) >= 10
    for method, path, query in shown:
        names = {part.split("=", 1)[0] for part in query.split("&")}
        operation = openapi["paths"][path][(method.strip() or "GET").lower()]
        expected = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        assert names == expected, (method, path, sorted(names), sorted(expected))


def test_the_readme_states_the_limits_the_server_enforces() -> None:
    from obsigate.api.body_limit import MAX_BODY_BYTES, MCP_MAX_BODY_BYTES
    from obsigate.services.search import MAX_SEARCH_OFFSET
    from obsigate.tools.schemas import MAX_LIST_OFFSET

    section = _readme_rest_section()
    assert f"at most {MAX_BODY_BYTES // 2**20} MiB on `/api`" in section
    assert f"{MCP_MAX_BODY_BYTES // 2**20} MiB on `/mcp`" in section
    assert f"`offset` is at most {MAX_SEARCH_OFFSET:,}".replace(",", " ") in section
    assert f"{MAX_LIST_OFFSET:,}".replace(",", " ") + " for the other lists" in section


def test_the_search_offset_maximum_is_enforced(live_server, small_vault) -> None:
    import httpx2

    from obsigate.services.search import MAX_SEARCH_OFFSET

    server = live_server({"notes": small_vault}, auth_enabled=False)
    for route in ("/api/search", "/api/search/advanced"):
        at_max = httpx2.get(f"{server.url}{route}", params={"q": "plan", "offset": MAX_SEARCH_OFFSET})
        assert at_max.status_code == 200 and at_max.json()["hits"] == []
        over = httpx2.get(f"{server.url}{route}", params={"q": "plan", "offset": MAX_SEARCH_OFFSET + 1})
        assert over.status_code == 400 and over.json()["code"] == "invalid_argument", over.text


@pytest.mark.parametrize(("tag", "row"), ROWS, ids=IDS)
def test_query_parameters_carry_the_argument_model_s_bounds(openapi: dict[str, Any], tag: str, row: Route) -> None:
    """Each query parameter is the tool's argument as its model declares it: same bounds, same description."""
    operation = openapi["paths"][f"/api{row.path}"][row.method.lower()]
    shown = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}
    fields = REGISTRY.get(row.tool).args_model.model_fields
    keywords = {"ge": "minimum", "le": "maximum", "min_length": "minLength", "max_length": "maxLength"}
    for param in row.query:
        group, _, key = (param.into or param.name).partition(".")
        field = fields[group].annotation.__args__[0].model_fields[key] if key else fields[group]
        schema = shown[param.name]["schema"]
        typed = next((s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"), schema)
        for meta in field.metadata:
            for keyword, word in keywords.items():
                if getattr(meta, keyword, None) is not None:
                    count = "maxItems" if word == "maxLength" and typed.get("type") == "array" else word
                    assert typed[count] == getattr(meta, keyword), (param.name, keyword)
        assert shown[param.name].get("description") == (
            field.description or (fields[group].description if key else None)
        )


def test_every_limit_is_bounded_in_the_schema(openapi: dict[str, Any]) -> None:
    limits = [
        p["schema"]  # no null branch: a query string cannot carry one (api/openapi_doc.py)
        for _, row in ROWS
        for p in openapi["paths"][f"/api{row.path}"][row.method.lower()].get("parameters", [])
        if p["name"] == "limit"
    ]
    assert len(limits) >= 10 and all(s["minimum"] == 1 and s["maximum"] >= 100 for s in limits)


def test_suggest_tags_has_its_route(live_server, small_vault) -> None:
    import httpx2

    server = live_server({"notes": small_vault}, auth_enabled=False)
    server.wait_ready()
    body = httpx2.get(f"{server.url}/api/tags/suggest", params={"q": "hom"}).json()
    assert body["query"] == "hom" and [t["tag"] for t in body["tags"]] == ["home"]
    over = httpx2.get(f"{server.url}/api/tags/suggest", params={"limit": 101})
    assert over.status_code == 400 and over.json()["code"] == "invalid_argument", over.text
    unknown = httpx2.get(f"{server.url}/api/tags/suggest", params={"tag": "home"})  # not an argument of the tool
    assert unknown.status_code == 200 and unknown.json()["query"] == ""
