"""Tool-schema converters: what every provider is offered, and what Gemini accepts of it.

:func:`model_schema` is the one step every tool schema goes through before any provider sees it (the agent
builds its :class:`~obsigate.agent.providers.base.ToolDef` with it): the registry's schema without the
length, item-count and pattern bounds, which only the tool layer enforces.

:func:`gemini_schema` turns a tool's JSON Schema (2020-12, as :attr:`ToolSpec.input_schema` writes it) into the
subset Gemini's function declarations accept (``llm.md`` §2.3; the keyword list of google-genai 3.6.1
``types.Schema``; the observed 400s ``Unknown name "<kw>" ... Cannot find field`` and ``Proto field is not
repeating, cannot start list`` cited there). It is pure and never raises on odd input: whatever it cannot
express is dropped or loosened, never passed through to become a 400 on every turn.
"""

from __future__ import annotations

import copy
import json
from typing import Any

__all__ = ["GEMINI_KEYWORDS", "MODEL_DROPPED", "gemini_schema", "model_schema"]

#: The keywords :func:`gemini_schema` may emit (google-genai ``types.Schema`` minus ``title``, ``$ref``,
#: ``$defs`` and ``additionalProperties``, which it inlines or drops). Everything else is removed.
GEMINI_KEYWORDS = frozenset({
    "type", "format", "description", "nullable", "enum", "default", "example", "properties", "required",
    "propertyOrdering", "minProperties", "maxProperties", "items", "minItems", "maxItems", "minLength",
    "maxLength", "pattern", "minimum", "maximum", "anyOf",
})  # fmt: skip

_TYPES = {"string", "number", "integer", "boolean", "array", "object"}
#: Keywords :func:`model_schema` leaves out of the schemas offered to a model, wherever they constrain a value.
#: Why, and why for every provider: llama.cpp's JSON-schema-to-grammar converter (llama-cpp-python's server,
#: llama.cpp's own, Ollama, LM Studio) turns ``maxLength: N`` and ``maxItems: N`` into N nested optional
#: groups and a ``pattern`` into its own rules, so ``create_file``'s ``content`` (``maxLength`` 5,000,000) and
#: every ``path`` (1024) overflowed its grammar stack and killed the server at the first forced call; vLLM's
#: and SGLang's guided decoding compile the same bounds into automata. A model gains nothing from them:
#: "1024 characters at most" does not help it write a path, and hosted providers bill these tokens at every
#: turn. The tool layer validates every call with the tool's real Pydantic model (``invalid_argument``, with
#: the bound, comes back to the model as the call's result), so one lean schema for all providers loses no
#: check, keeps one tested path, and a conversation that moves to another provider sees the same tools.
#: Numeric ``minimum``/``maximum`` stay: they are short, tell the model the range of ``limit``, and these
#: converters either ignore them or build a rule with one branch per digit.
MODEL_DROPPED = frozenset({"minLength", "maxLength", "pattern", "minItems", "maxItems"})
#: Keywords whose value maps names to subschemas / is a list of subschemas / is one subschema (2020-12, plus
#: draft-7 ``definitions``): where :func:`model_schema` walks. Property *names* are never keywords.
_SUB_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_SUB_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUB_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else")
# Keywords that only mean something for one type: kept only on a schema of that type ("items on a non-array"
# is one of the reported 400s, §2.3).
_ONLY_FOR = {
    "minLength": {"string"}, "maxLength": {"string"}, "pattern": {"string"},
    "minimum": {"number", "integer"}, "maximum": {"number", "integer"},
    "items": {"array"}, "minItems": {"array"}, "maxItems": {"array"},
    "properties": {"object"}, "required": {"object"}, "propertyOrdering": {"object"},
    "minProperties": {"object"}, "maxProperties": {"object"},
}  # fmt: skip
# Formats the Gemini Schema accepts per type; any other (uri, email, uuid...) was a 400 on the OpenAPI field.
_FORMATS = {"string": {"enum", "date-time"}, "number": {"float", "double"}, "integer": {"int32", "int64"}}
_SCALAR_DEFAULT: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "boolean": bool,
    "integer": int,
    "number": (int, float),
}
_MAX_DEPTH = 32  # recursive $ref or absurd nesting: below this, a node becomes a plain object


def model_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` as a model is offered it: every :data:`MODEL_DROPPED` keyword removed from every subschema
    (a property *named* ``pattern`` stays); everything else (types, ``enum``, ``required``, descriptions,
    numeric ranges) kept as it is. ``schema`` is not modified; a non-dict gives ``{}`` (any value).

    The bounds still hold: the tool layer validates every call against the tool's own model.
    """
    return _lean(schema) if isinstance(schema, dict) else {}


def _lean(node: Any) -> Any:
    if not isinstance(node, dict):
        return node  # a boolean schema, or a keyword's plain value
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in MODEL_DROPPED:
            continue
        if key in _SUB_MAPS and isinstance(value, dict):
            out[key] = {name: _lean(sub) for name, sub in value.items()}
        elif key in _SUB_LISTS and isinstance(value, list):
            out[key] = [_lean(sub) for sub in value]
        elif key in _SUB_ONE:
            out[key] = [_lean(sub) for sub in value] if isinstance(value, list) else _lean(value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` rewritten into Gemini's accepted subset (``llm.md`` §2.3); ``schema`` is not modified.

    * ``$ref`` into ``$defs``/``definitions`` is inlined (a recursive one becomes ``{"type": "object"}``).
    * ``"type": ["string", "null"]`` → ``"type": "string", "nullable": true``; several non-null types →
      ``anyOf`` of one branch each. ``anyOf``/``oneOf`` with a ``null`` branch → the other branch(es) +
      ``nullable``; a single remaining branch is merged into its parent; ``oneOf`` otherwise becomes ``anyOf``.
      ``allOf`` is merged (properties and ``required`` united).
    * ``const`` → a one-value string ``enum`` (a string), ``minimum == maximum`` (a number), or just the type.
      ``enum`` keeps its string values; ``null`` in it → ``nullable``; other values are dropped and listed in
      the description (Gemini takes string enums only).
    * ``exclusiveMinimum``/``exclusiveMaximum`` (numbers) → inclusive ``minimum``/``maximum`` (``±1`` for
      integers). ``format`` is kept only where Gemini accepts it. ``default`` is kept only when it is a scalar
      of the schema's type.
    * ``array`` always has ``items`` (``prefixItems`` → ``anyOf`` of them, none → ``{"type": "string"}``).
    * ``required`` only names properties that exist; an empty ``properties`` is dropped.
    * Dropped: ``$schema``, ``$id``, ``title``, ``additionalProperties``, ``propertyNames``, ``patternProperties``,
      ``not``, ``if``/``then``/``else``, ``prefixItems``, ``uniqueItems``, ``multipleOf``, ``examples``, ``x-*``
      and every other keyword outside :data:`GEMINI_KEYWORDS`.

    Args:
        schema: a JSON Schema object (a non-dict gives ``{}``: any value).

    Returns:
        A new dict using only :data:`GEMINI_KEYWORDS`, property names aside.
    """
    if not isinstance(schema, dict):
        return {}
    root = copy.deepcopy(schema)
    defs: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        if isinstance(root.get(key), dict):
            defs.update(root[key])
    return _convert(root, defs, (), 0)


_Resolved = tuple[dict[str, Any], tuple[str, ...]]


def _resolve(node: dict[str, Any], defs: dict[str, Any], seen: tuple[str, ...]) -> _Resolved | None:
    """``node`` with its local ``$ref`` inlined (siblings of ``$ref`` win); None when the ref is recursive."""
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node, seen
    name = ref.rsplit("/", 1)[-1]
    target = defs.get(name)
    if name in seen or not isinstance(target, dict):
        return None
    merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return _resolve(merged, defs, (*seen, name))


def _is_null(branch: Any) -> bool:
    return isinstance(branch, dict) and (branch.get("type") == "null" or branch.get("const", 0) is None)


def _convert(node: Any, defs: dict[str, Any], seen: tuple[str, ...], depth: int) -> dict[str, Any]:
    if not isinstance(node, dict):
        return {}  # `true` / junk: any value
    if depth > _MAX_DEPTH:
        return {"type": "object"}
    resolved = _resolve(node, defs, seen)
    if resolved is None:
        cut: dict[str, Any] = {"type": "object"}
        if isinstance(node.get("description"), str):
            cut["description"] = node["description"]
        return cut
    node, seen = resolved
    node = dict(node)
    nullable = node.get("nullable") is True

    # allOf: one object made of all its parts (first writer wins, properties and required united)
    if isinstance(node.get("allOf"), list):
        for part in node.pop("allOf"):
            part_resolved = _resolve(part, defs, seen) if isinstance(part, dict) else None
            if part_resolved is None:
                continue
            part = part_resolved[0]
            for key, value in part.items():
                if key == "properties" and isinstance(value, dict):
                    node["properties"] = {**value, **(node.get("properties") or {})}
                elif key == "required" and isinstance(value, list):
                    node["required"] = list(dict.fromkeys([*(node.get("required") or []), *value]))
                else:
                    node.setdefault(key, value)

    # anyOf / oneOf: null branches become `nullable`; one branch left is merged into this node
    branches: list[Any] | None = None
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list):
            found = node.pop(key)
            branches = found if branches is None else branches + found
    if branches is not None:
        if any(_is_null(b) for b in branches):
            nullable = True
        branches = [b for b in branches if isinstance(b, dict) and not _is_null(b)]
        if len(branches) == 1:
            # the parent's own keywords (description, default...) win over the branch's; its type does not
            merged = {**branches[0], **{k: v for k, v in node.items() if k != "type"}}
            if nullable:
                merged["nullable"] = True
            return _convert(merged, defs, seen, depth + 1)
        if not branches:
            branches = None

    out: dict[str, Any] = {}
    if isinstance(node.get("description"), str):
        out["description"] = node["description"]

    if branches is not None:
        out["anyOf"] = [_convert(b, defs, seen, depth + 1) for b in branches]
        if nullable:
            out["nullable"] = True
        return out

    # "type" arrays lose "null" (→ nullable); several real types → anyOf of one branch each
    raw_type = node.get("type")
    types = raw_type if isinstance(raw_type, list) else [raw_type] if isinstance(raw_type, str) else []
    if "null" in types:
        nullable = True
    types = [t for t in types if t in _TYPES]
    if len(types) > 1:
        base = {k: v for k, v in node.items() if k not in ("type", "description", "nullable")}
        out["anyOf"] = [_convert({**base, "type": t}, defs, seen, depth + 1) for t in dict.fromkeys(types)]
        if nullable:
            out["nullable"] = True
        return out
    kind = types[0] if types else _guess_type(node)

    enum_values, extra_note = _enum(node)
    if enum_values is not None and None in enum_values:
        nullable = True
    if kind is None and enum_values is not None:
        kind = "string"

    if "const" in node:
        const = node["const"]
        if const is None:
            nullable = True
        elif isinstance(const, str) and kind in (None, "string"):
            kind, enum_values = "string", [const]
        elif isinstance(const, bool):
            kind = kind or "boolean"
        elif isinstance(const, (int, float)) and kind in (None, "number", "integer"):
            kind = kind or ("integer" if isinstance(const, int) else "number")
            node["minimum"] = node["maximum"] = const

    if kind is not None:
        out["type"] = kind
    if nullable:
        out["nullable"] = True

    # exclusive bounds (draft 2020-12 numbers; draft-4 booleans are just dropped)
    for key, inclusive, step in (("exclusiveMinimum", "minimum", 1), ("exclusiveMaximum", "maximum", -1)):
        value = node.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and inclusive not in node:
            node[inclusive] = value + step if kind == "integer" and isinstance(value, int) else value

    for key, value in node.items():
        if key not in GEMINI_KEYWORDS or key in ("type", "description", "nullable", "enum", "anyOf", "default"):
            continue
        if key in _ONLY_FOR and kind not in _ONLY_FOR[key]:
            continue
        if key == "properties":
            if isinstance(value, dict) and value:
                out["properties"] = {str(n): _convert(s, defs, seen, depth + 1) for n, s in value.items()}
        elif key == "items":
            out["items"] = _convert(value, defs, seen, depth + 1) if isinstance(value, dict) else {}
        elif key == "format":
            if kind in _FORMATS and value in _FORMATS[kind]:
                out["format"] = value
        elif key in ("required", "propertyOrdering"):
            continue  # below, once properties are known
        elif key in ("minimum", "maximum"):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out[key] = value
        elif key in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                out[key] = value
        elif key == "pattern":
            if isinstance(value, str):
                out[key] = value
        elif key == "example":
            out[key] = value

    if kind == "object":
        names = set(out.get("properties", {}))
        for key in ("required", "propertyOrdering"):
            listed = node.get(key)
            if isinstance(listed, list):
                kept = [n for n in dict.fromkeys(listed) if isinstance(n, str) and n in names]
                if kept:
                    out[key] = kept
    if kind == "array" and "items" not in out:
        prefix = [p for p in node.get("prefixItems") or [] if isinstance(p, dict)]
        if len(prefix) == 1:
            out["items"] = _convert(prefix[0], defs, seen, depth + 1)
        elif prefix:
            out["items"] = {"anyOf": [_convert(p, defs, seen, depth + 1) for p in prefix]}
        else:
            out["items"] = {"type": "string"}  # "array without items" is a 400; a string list is the safe reading

    if enum_values is not None:
        strings = [v for v in enum_values if isinstance(v, str)]
        if strings and kind == "string":
            out["enum"] = list(dict.fromkeys(strings))
        if extra_note:
            out["description"] = (out.get("description", "") + f" One of: {extra_note}.").strip()

    default = node.get("default")
    expected = _SCALAR_DEFAULT.get(kind or "")
    if expected is not None and isinstance(default, expected) and not (kind != "boolean" and isinstance(default, bool)):
        if kind != "string" or "enum" not in out or default in out["enum"]:
            out["default"] = default
    return out


def _guess_type(node: dict[str, Any]) -> str | None:
    """The type an untyped schema implies by its keywords (``properties`` → object...), else None."""
    if "properties" in node or "required" in node or "additionalProperties" in node:
        return "object"
    if "items" in node or "prefixItems" in node:
        return "array"
    if any(k in node for k in ("minLength", "maxLength", "pattern")):
        return "string"
    return None


def _enum(node: dict[str, Any]) -> tuple[list[Any] | None, str]:
    """``node``'s enum values (None: no enum) and the non-string, non-null ones written out for the
    description (Gemini refuses them in ``enum``)."""
    values = node.get("enum")
    if not isinstance(values, list):
        return None, ""
    others = [v for v in values if v is not None and not isinstance(v, str)]
    return values, ", ".join(json.dumps(v) for v in others)
