"""The schemas every provider is offered (:func:`model_schema`, issue 16): no length, item-count or pattern
bounds, which llama.cpp's grammar converter expands into nested repetitions that killed the server; everything
else kept, the registry's own schemas untouched."""

from __future__ import annotations

import copy
import json
from typing import Any

import obsigate.tools.api  # noqa: F401  (fills the registry)
from obsigate.agent.loop import tool_defs
from obsigate.agent.providers.schemas import MODEL_DROPPED, model_schema
from obsigate.tools.registry import REGISTRY, Scope, ToolKind


def _keywords(node: Any, found: set[str] | None = None) -> set[str]:
    """Every keyword used in a schema position (property names excluded)."""
    found = set() if found is None else found
    if isinstance(node, dict):
        for key, value in node.items():
            found.add(key)
            if key in ("properties", "$defs") and isinstance(value, dict):
                for sub in value.values():
                    _keywords(sub, found)
            else:
                _keywords(value, found)
    elif isinstance(node, list):
        for item in node:
            _keywords(item, found)
    return found


def _in_app_tools() -> list[Any]:
    return [s for s in REGISTRY.for_scope(Scope.IN_APP) if s.kind is ToolKind.TOOL]


def test_bounds_go_at_every_depth_and_everything_else_stays() -> None:
    schema = {
        "type": "object", "additionalProperties": False, "required": ["path", "pattern"],
        "properties": {
            "path": {"type": "string", "maxLength": 1024, "minLength": 1, "description": "Vault-relative."},
            "pattern": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 50},  # a property named like a keyword
            "maxLength": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
            "globs": {"type": "array", "maxItems": 20, "minItems": 1, "items": {"type": "string", "maxLength": 256}},
            "when": {"anyOf": [{"type": "string", "maxLength": 64}, {"type": "null"}]},
            "mode": {"enum": ["a", "b"]},
            "ref": {"$ref": "#/$defs/Range"},
        },
        "$defs": {"Range": {"type": "object", "properties": {"after": {"type": "string", "pattern": "^\\d+$"}}}},
    }  # fmt: skip
    before = copy.deepcopy(schema)
    lean = model_schema(schema)
    assert schema == before  # the registry's schema is never modified
    assert not _keywords(lean) & MODEL_DROPPED
    props = lean["properties"]
    assert list(props) == ["path", "pattern", "maxLength", "globs", "when", "mode", "ref"]
    assert props["path"] == {"type": "string", "description": "Vault-relative."}
    assert props["pattern"] == {"type": "string"}
    assert props["maxLength"] == {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}
    assert props["globs"] == {"type": "array", "items": {"type": "string"}}
    assert props["when"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert props["mode"] == {"enum": ["a", "b"]} and props["ref"] == {"$ref": "#/$defs/Range"}
    assert lean["$defs"] == {"Range": {"type": "object", "properties": {"after": {"type": "string"}}}}
    assert (lean["required"], lean["additionalProperties"]) == (["path", "pattern"], False)
    assert model_schema("junk") == {}  # type: ignore[arg-type]


def test_every_offered_tool_is_lean_and_keeps_its_arguments() -> None:
    specs = _in_app_tools()
    defs = tool_defs(specs)
    assert len(defs) == len(specs) >= 20
    before = sum(len(json.dumps(s.input_schema)) for s in specs)
    after = sum(len(json.dumps(d.parameters)) for d in defs)
    print(f"\n[model_schema] {len(defs)} tools: {before} → {after} characters of schema")
    assert after < before
    for spec, tool in zip(specs, defs, strict=True):
        assert (tool.name, tool.description) == (spec.name, spec.description)
        assert not _keywords(tool.parameters) & MODEL_DROPPED, tool.name
        assert tool.parameters.get("required") == spec.input_schema.get("required"), tool.name
        assert list(tool.parameters.get("properties", {})) == list(spec.input_schema.get("properties", {})), tool.name
    # the bounds that crashed llama.cpp are still the registry's (MCP tools/list, and the tool layer's checks)
    create = next(s for s in specs if s.name == "create_file")
    assert create.input_schema["properties"]["content"]["maxLength"] == 5_000_000
