"""gemini_schema keeps tool schemas inside what Gemini accepts (``llm.md`` §2.3), for hostile input and for
every tool the in-app assistant offers, so a new tool cannot break Gemini in production."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from obsigate.agent.providers.schemas import GEMINI_KEYWORDS, gemini_schema
from obsigate.tools.api import REGISTRY, Scope

FORBIDDEN = {"$schema", "$id", "$ref", "$defs", "definitions", "const", "oneOf", "allOf", "not", "if", "then", "else",
             "propertyNames", "patternProperties", "prefixItems", "additionalProperties", "exclusiveMinimum",
             "exclusiveMaximum", "title", "examples", "uniqueItems", "multipleOf"}  # fmt: skip


def nodes(schema: dict[str, Any], where: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node with its path (property NAMES are names, not keywords)."""
    yield where, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from nodes(sub, f"{where}.properties.{name}")
    if isinstance(schema.get("items"), dict):
        yield from nodes(schema["items"], f"{where}.items")
    for n, sub in enumerate(schema.get("anyOf") or []):
        yield from nodes(sub, f"{where}.anyOf[{n}]")


def problems(schema: dict[str, Any]) -> list[str]:
    """What Gemini would refuse in ``schema``."""
    found = []
    for where, node in nodes(schema):
        bad = (set(node) & FORBIDDEN) | (set(node) - GEMINI_KEYWORDS)
        if bad:
            found.append(f"{where}: {sorted(bad)}")
        if "type" in node and not isinstance(node["type"], str):
            found.append(f"{where}: type {node['type']!r} is not one string")
        if node.get("type") == "array" and not isinstance(node.get("items"), dict):
            found.append(f"{where}: array without items")
        if "items" in node and node.get("type") != "array":
            found.append(f"{where}: items on a non-array")
        if "enum" in node and not all(isinstance(v, str) for v in node["enum"]):
            found.append(f"{where}: non-string enum {node['enum']!r}")
        if "enum" in node and node.get("type") != "string":
            found.append(f"{where}: enum on type {node.get('type')!r}")
        missing = set(node.get("required") or []) - set(node.get("properties") or {})
        if missing:
            found.append(f"{where}: required names unknown properties {sorted(missing)}")
    return found


# The declared in-app tools (origin None), plus their derived propose_/apply_ specs: whatever the assistant
# ends up offering, its schema must pass.
IN_APP = REGISTRY.for_scope(Scope.IN_APP)
DECLARED = [s for s in IN_APP if s.origin is None]


def test_the_in_app_catalogue_is_not_empty() -> None:
    assert len(DECLARED) > 10 and len(IN_APP) > len(DECLARED)


@pytest.mark.parametrize("spec", IN_APP, ids=[s.name for s in IN_APP])
def test_every_in_app_tool_schema_converts_clean(spec: Any) -> None:
    source = copy.deepcopy(spec.input_schema)
    converted = gemini_schema(spec.input_schema)
    assert problems(converted) == []
    assert spec.input_schema == source  # pure: the spec's schema is untouched
    assert converted["type"] == "object"
    # nothing the model needs is lost: the same properties, the same required ones
    assert set(converted.get("properties") or {}) == set(spec.input_schema.get("properties") or {})
    assert converted.get("required", []) == spec.input_schema.get("required", [])


def test_nullable_types_and_enums() -> None:
    out = gemini_schema({"type": "object", "properties": {
        "scope": {"type": ["string", "null"], "enum": ["local", "vault", None], "description": "Where."},
        "n": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None},
        "m": {"type": ["integer", "string"], "minimum": 0, "maxLength": 3},
    }})  # fmt: skip
    props = out["properties"]
    assert props["scope"] == {"description": "Where.", "type": "string", "nullable": True, "enum": ["local", "vault"]}
    assert props["n"] == {"type": "integer", "nullable": True, "minimum": 1}
    assert props["m"] == {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "maxLength": 3}]}
    assert problems(out) == []


def test_hostile_schema() -> None:
    hostile = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "x", "title": "Args",
        "type": "object", "additionalProperties": False, "propertyNames": {"pattern": "^[a-z]+$"},
        "$defs": {"Leaf": {"type": "object", "title": "Leaf", "properties": {"v": {"const": 3}}},
                  "Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}, "leaf": {"$ref": "#/$defs/Leaf"}}}},
        "properties": {
            "kind": {"const": "note"},
            "flag": {"const": True},
            "pick": {"oneOf": [{"type": "string", "format": "uri"}, {"type": "integer", "exclusiveMinimum": 0}]},
            "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                               {"properties": {"b": {"type": "number", "exclusiveMaximum": 1.5}}, "required": ["b"]}]},
            "neg": {"not": {"type": "string"}, "type": "string"},
            "cond": {"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"maxLength": 2}, "type": "string"},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "bare": {"type": "array"},
            "nums": {"type": "integer", "enum": [1, 2, 3]},
            "mixed": {"enum": ["a", 1, None]},
            "when": {"type": "string", "format": "date-time", "default": 5},
            "tree": {"$ref": "#/$defs/Node"},
            "odd": {"type": "string", "items": {"type": "string"}, "properties": {"x": {}}, "uniqueItems": True,
                    "x-extension": 1, "examples": ["a"], "minimum": 3},
            "strict": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 2},
            "dict": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["kind", "ghost", "kind"],
    }  # fmt: skip
    before = copy.deepcopy(hostile)
    out = gemini_schema(hostile)
    assert hostile == before
    assert problems(out) == [], problems(out)
    props = out["properties"]
    assert props["kind"] == {"type": "string", "enum": ["note"]}
    assert props["flag"] == {"type": "boolean"}
    assert props["pick"] == {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]}
    assert props["both"]["required"] == ["a", "b"] and set(props["both"]["properties"]) == {"a", "b"}
    assert props["both"]["properties"]["b"] == {"type": "number", "maximum": 1.5}
    assert props["neg"] == {"type": "string"} and props["cond"] == {"type": "string"}
    assert props["tuple"]["items"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert props["bare"]["items"] == {"type": "string"}
    assert props["nums"] == {"type": "integer", "description": "One of: 1, 2, 3."}
    assert props["mixed"]["enum"] == ["a"] and props["mixed"]["nullable"] is True
    assert props["when"] == {"type": "string", "format": "date-time"}  # a default of the wrong type is dropped
    assert props["tree"]["properties"]["child"] == {"type": "object"}  # a recursive $ref is cut where it recurs
    assert props["tree"]["properties"]["leaf"]["properties"]["v"] == {"type": "integer", "minimum": 3, "maximum": 3}
    assert props["odd"] == {"type": "string"}
    assert props["strict"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert props["dict"] == {"type": "object"}
    assert out["required"] == ["kind"]


def test_junk_never_raises() -> None:
    assert gemini_schema("nope") == {}  # type: ignore[arg-type]
    assert gemini_schema({"type": "object", "properties": {"a": True, "b": None, "c": []}})["properties"] == {
        "a": {},
        "b": {},
        "c": {},
    }
    assert gemini_schema({"$ref": "#/$defs/missing"}) == {"type": "object"}
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(100):
        deep = {"type": "object", "properties": {"x": deep}}
    assert problems(gemini_schema(deep)) == []
