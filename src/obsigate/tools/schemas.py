"""Shared argument fields, shared result pieces, and the JSON Schema clean-up every tool schema goes through.

Argument fields: one definition (type constraints + a short description) per argument that several tools
take (``vault``, ``path``, ``tag``, ``limit``, ``offset``), so a model reads the same words everywhere.

:func:`lean_schema` turns Pydantic's JSON Schema into what ``tools/list`` sends: the same validation in
fewer characters (every MCP client pays for ``tools/list`` in its context window).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from obsigate.services import results
from obsigate.services.search_args import MAX_GLOB_CHARS, MAX_GLOBS

MAX_LIST_OFFSET = 10_000_000


# --- shared argument fields ---------------------------------------------------------------------------------


def Vault() -> Any:  # noqa: N802 - used like pydantic.Field
    """A required ``vault`` argument."""
    return Field(description="Vault name.", min_length=1, max_length=64)


def VaultFilter(*, max_length: int = 64) -> Any:  # noqa: N802
    """An optional ``vault`` argument that narrows a search or list to one vault: omitted (or ``null``) means
    every vault; a name, when given, is not empty (``""`` is ``invalid_argument``, not "every vault")."""
    return Field(default=None, description="Only this vault; default: all.", min_length=1, max_length=max_length)


def Path(description: str = "Vault-relative, e.g. 'Dir/Note.md'.", **kwargs: Any) -> Any:  # noqa: N802
    """A ``path`` argument (required unless ``default`` is given)."""
    return Field(description=description, max_length=1024, **kwargs)


def FolderPath(**kwargs: Any) -> Any:  # noqa: N802
    """A ``path`` argument naming a folder."""
    return Path("Vault-relative folder, e.g. 'Dir/Sub'.", **kwargs)


#: One path glob (``wcmatch``: ``**`` spans folders), as search_advanced and replace_in_files take them.
Glob = Annotated[str, Field(min_length=1, max_length=MAX_GLOB_CHARS)]


def Globs(description: str) -> Any:  # noqa: N802
    """An optional list of path globs (``include_paths``/``exclude_paths``), at most ``MAX_GLOBS``."""
    return Field(default=None, max_length=MAX_GLOBS, description=description)


def Tag() -> Any:  # noqa: N802
    """An optional ``tag`` filter."""
    return Field(default=None, description="Only notes with this tag (nested tags too).", max_length=200)


def Limit(default: int, le: int) -> Any:  # noqa: N802
    """A ``limit`` argument: page size, 1..``le``."""
    return Field(default=default, ge=1, le=le, description="Max results.")


def Offset(le: int = MAX_LIST_OFFSET) -> Any:  # noqa: N802
    """An ``offset`` argument: how many results to skip."""
    return Field(default=0, ge=0, le=le, description="Results to skip (next_offset).")


# --- shared result pieces -----------------------------------------------------------------------------------


# The result parts many services share, declared beside them (services/results.py); named here too for the tools.
Page, IndexState, FromIndex = results.Page, results.IndexState, results.FromIndex


# --- schema clean-up ----------------------------------------------------------------------------------------

#: Keywords whose value maps names to subschemas / is a list of subschemas / is one subschema (2020-12).
_SCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONE = (
    "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip
#: Keywords that only say something about a value and never make it valid or invalid.
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"})
#: Keywords that only constrain instances of one type: ``{"type": T, k: ...}`` with only these (and annotations)
#: accepts null exactly when ``{"type": [T, "null"], k: ...}`` does not reject it, i.e. always.
_TYPE_SCOPED = frozenset({
    "minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "items", "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems",
    "unevaluatedItems", "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
    "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
})  # fmt: skip
_NULL = {"type": "null"}
_DEF_PREFIX = "#/$defs/"


def lean_schema(schema: dict[str, Any], *, output: bool = False) -> dict[str, Any]:
    """``schema`` (Pydantic's JSON Schema 2020-12 of a model) with the same meaning in fewer characters.

    Drops every ``title`` (Pydantic derives them from property and class names), ``default: null``, the
    root's ``description`` (a class docstring) and ``additionalProperties: true`` (the default); writes
    ``anyOf: [{type: X, ...}, {type: null}]`` as ``type: [X, "null"]`` where that accepts the same values;
    inlines every ``$defs`` entry that is not recursive (models read
    plain nested schemas more reliably than references). Validation keywords
    (``required``, ``enum``, bounds, ``additionalProperties: false``) and ``x-`` extensions stay.
    ``output=True`` (result schemas) also drops descriptions, defaults, enums and ``required``: a result is
    read, not written (structure and types are what a client checks), and it always carries every field of
    its model.
    ``schema`` is not modified.
    """
    schema = json.loads(json.dumps(schema))
    defs: dict[str, Any] = schema.pop("$defs", {})
    keep = _recursive_defs(defs)
    cleaned = _clean(_inline(schema, defs, keep), output=output)
    cleaned.pop("description", None)
    kept = {name: _clean(_inline(defs[name], defs, keep), output=output) for name in defs if name in keep}
    if kept:
        cleaned["$defs"] = kept
    return cleaned


def _refs(node: Any) -> list[str]:
    """The ``$defs`` names referenced anywhere in ``node`` (with repeats)."""
    if isinstance(node, dict):
        found = [node["$ref"][len(_DEF_PREFIX) :]] if str(node.get("$ref", "")).startswith(_DEF_PREFIX) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _recursive_defs(defs: dict[str, Any]) -> set[str]:
    """The definitions that reach themselves through ``$ref``s: they cannot be inlined."""
    graph = {name: set(_refs(d)) for name, d in defs.items()}
    recursive = set()
    for name in defs:
        seen: set[str] = set()
        todo = list(graph[name])
        while todo:
            n = todo.pop()
            if n == name:
                recursive.add(name)
                break
            if n not in seen and n in graph:
                seen.add(n)
                todo.extend(graph[n])
    return recursive


def _inline(node: Any, defs: dict[str, Any], keep: set[str]) -> Any:
    """``node`` with every ``$ref`` to a definition not in ``keep`` replaced by the definition itself."""
    if isinstance(node, list):
        return [_inline(v, defs, keep) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEF_PREFIX) and ref[len(_DEF_PREFIX) :] not in keep:
        name = ref[len(_DEF_PREFIX) :]
        target = _inline(defs[name], defs, keep)
        siblings = {k: _inline(v, defs, keep) for k, v in node.items() if k != "$ref"}
        if any(k in target and target[k] != v and k not in _ANNOTATIONS for k, v in siblings.items()):
            return {"allOf": [target], **siblings}
        return {**target, **siblings}
    return {k: _inline_children(k, v, defs, keep) for k, v in node.items()}


def _inline_children(key: str, value: Any, defs: dict[str, Any], keep: set[str]) -> Any:
    if key in _SCHEMA_MAPS and isinstance(value, dict):
        return {name: _inline(sub, defs, keep) for name, sub in value.items()}
    if key in _SCHEMA_LISTS or key in _SCHEMA_ONE:
        return _inline(value, defs, keep)
    return value


def _clean(node: Any, *, output: bool) -> Any:
    """One (sub)schema cleaned, children first."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _clean(sub, output=output) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_clean(sub, output=output) for sub in value]
        elif key in _SCHEMA_ONE:
            out[key] = _clean(value, output=output)
        else:
            out[key] = value
    out.pop("title", None)
    if output:  # a result is read, not written: structure and types only (values are documented in docs/mcp.md);
        # every result field is always sent, so `required` says nothing either
        for key in ("description", "default", "examples", "required", "enum"):
            out.pop(key, None)
    elif "default" in out and out["default"] is None:
        del out["default"]
    if out.get("additionalProperties") is True:
        del out["additionalProperties"]
    if out.get("items") == {}:
        del out["items"]
    out = _merge_nullable(out)
    if "type" in out:  # type first: easier to read
        out = {"type": out.pop("type"), **out}
    return out


def _merge_nullable(node: dict[str, Any]) -> dict[str, Any]:
    """``{anyOf: [{type: X, <X-only keywords>}, {type: null}], ...}`` as ``{type: [X, "null"], ...}``.

    Equivalent because every keyword kept beside ``type`` ignores values of other types (null included);
    ``enum``/``const`` do not, so null joins the enum. Anything else is left as it is.
    """
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or branches.count(_NULL) != 1:
        return node
    other = branches[0] if branches[1] == _NULL else branches[1]
    kind = other.get("type")
    if not isinstance(kind, str) or kind == "null":
        return node
    rest = {k: v for k, v in other.items() if k != "type"}
    if any(
        k not in _TYPE_SCOPED and k not in _ANNOTATIONS and k not in ("enum", "const") and not k.startswith("x-")
        for k in rest
    ):
        return node
    outer = {k: v for k, v in node.items() if k != "anyOf"}
    if any(k in outer and outer[k] != v and k not in _ANNOTATIONS for k, v in rest.items()):
        return node
    if "const" in rest:
        if "enum" in rest:
            return node
        rest["enum"] = [rest.pop("const")]
    if "enum" in rest and None not in rest["enum"]:
        rest["enum"] = [*rest["enum"], None]
    return {"type": [kind, "null"], **rest, **outer}
