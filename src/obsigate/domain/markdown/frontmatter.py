"""Frontmatter ("properties") detection and YAML 1.2 loading, as Obsidian does it.

Rules: `shared/reference/obsidian.md` §3. The block starts at byte 0 with ``---`` + newline and ends at
the next line starting with ``---``. Content is YAML 1.2 core schema (Obsidian uses eemeli ``yaml``):
``2020-08-21`` and ``yes`` stay strings, only ``true``/``false`` are booleans, ``0o17`` is octal. A parse
error or a non-mapping means *no properties*.

Loading has two paths that resolve plain scalars with the same function (`resolve_plain`):

- a fast line parser for the flat shapes almost every note uses (``key: scalar``, block lists of
  scalars, flow lists of scalars); it returns None on anything else;
- ruamel.yaml (pure, safe) for the rest, with implicit typing switched off so no YAML 1.1 rule leaks in.

The fast path exists because ruamel's pure loader costs ~1.5 ms per small block, more than the whole
parse budget of a note.
"""

from __future__ import annotations

import base64
import json
import math
import re
import threading
from collections.abc import Iterator
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import ConstructorError, SafeConstructor
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver

__all__ = ["iter_string_values", "load_frontmatter", "resolve_plain", "split_frontmatter"]

MAX_NODES = 100_000  # alias expansion budget ("billion laughs")
MAX_DEPTH = 100  # nesting limit; deeper blocks are reported invalid instead of hitting RecursionError

# --- splitting ------------------------------------------------------------------------------------


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Split LF-normalised `text` into ``(yaml_source or None, body, body_line)``.

    ``yaml_source`` is the text between the fences (file line 2 onwards); None when there is no
    frontmatter block, in which case body is the whole text and body_line is 1.
    """
    if not text.startswith("---\n"):
        return None, text, 1
    close = text.find("\n---", 3)  # index 3 is the opening line's newline: an empty block is allowed
    if close == -1:
        return None, text, 1
    source = text[4:close] if close > 3 else ""
    close_line = text.count("\n", 0, close + 1) + 1
    end = text.find("\n", close + 1)
    body = "" if end == -1 else text[end + 1 :]
    return source, body, close_line + 1


# --- scalar resolution (YAML 1.2 core schema) -----------------------------------------------------

_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o([0-7]+)")
_HEX = re.compile(r"0x([0-9a-fA-F]+)")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"([-+]?)\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")


def resolve_plain(value: str) -> Any:
    """Type an unquoted scalar per the YAML 1.2 core schema; non-finite floats stay strings (JSON-safe)."""
    if value in _NULLS:
        return None
    first = value[0]
    if first in "tTfF":
        return _BOOLS.get(value, value)
    if first in "0123456789+-.":
        if _INT.fullmatch(value):
            return int(value)
        if m := _OCT.fullmatch(value):
            return int(m.group(1), 8)
        if m := _HEX.fullmatch(value):
            return int(m.group(1), 16)
        if _FLOAT.fullmatch(value):
            number = float(value)
            return number if math.isfinite(number) else value  # 1e999
        if _INF.fullmatch(value) or _NAN.fullmatch(value):
            return value
    return value


# --- fast path --------------------------------------------------------------------------------------

_KEY_LINE = re.compile(r"([^\s#\-?:,\[\]{}&*!|>'\"%@`][^:]*?)[ \t]*:(?:[ \t]+(.*))?$")
_ITEM_LINE = re.compile(r"( *)-(?:[ \t]+(.*))?$")
_FLOW_ITEM = re.compile(r"[ \t]*(?:\"([^\"\\]*)\"|'((?:[^']|'')*)'|([^,\[\]{}\"'#]*?))[ \t]*(,|\]|$)")
_UNSUPPORTED = object()
# Characters whose YAML handling (line breaks, forbidden controls) the fast path does not model.
_SLOW_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


def _fast_scalar(text: str) -> Any:
    """Value of a one-line scalar or flow list, or `_UNSUPPORTED` when the slow path must decide."""
    s = text.strip(" ")
    if not s or s[0] == "#":
        return None
    first = s[0]
    if first == '"':
        end = s.find('"', 1)
        if end == -1 or "\\" in s[:end] or not _only_comment(s[end + 1 :]):
            return _UNSUPPORTED
        return s[1:end]
    if first == "'":
        m = re.match(r"'((?:[^']|'')*)'", s)
        if m is None or not _only_comment(s[m.end() :]):
            return _UNSUPPORTED
        return m.group(1).replace("''", "'")
    if first == "[":
        return _fast_flow(s)
    if first in "{&*!|>%@`,]}" or (first in "-?:" and (len(s) == 1 or s[1] in " \t")):
        return _UNSUPPORTED
    for marker in (" #", "\t#"):
        cut = s.find(marker)
        if cut != -1:
            s = s[:cut].rstrip()
    if ": " in s or ":\t" in s or s.endswith(":") or "\t" in s:
        return _UNSUPPORTED
    return resolve_plain(s)


def _only_comment(tail: str) -> bool:
    rest = tail.lstrip(" ")
    return not rest or (rest[0] == "#" and len(rest) < len(tail))


def _fast_flow(s: str) -> Any:
    items: list[Any] = []
    pos = 1
    if s[1:].lstrip(" ").startswith("]"):
        return [] if _only_comment(s[s.index("]") + 1 :]) else _UNSUPPORTED
    while True:
        m = _FLOW_ITEM.match(s, pos)
        if m is None or m.group(4) == "":
            return _UNSUPPORTED
        double, single, plain, sep = m.groups()
        if plain is not None:
            if not plain or ": " in plain or plain[0] in "-?:&*!|>%@`" or plain.endswith(":"):
                return _UNSUPPORTED
            items.append(resolve_plain(plain))
        else:
            items.append(double if double is not None else single.replace("''", "'"))
        pos = m.end()
        if sep == "]":
            return items if _only_comment(s[pos:]) else _UNSUPPORTED


def _fast_load(source: str) -> dict[str, Any] | None:
    """Parse the flat common case; None means "not sure, use the full YAML parser"."""
    if _SLOW_CHARS.search(source):
        return None
    result: dict[str, Any] = {}
    list_key: str | None = None  # key whose value may still be a block list
    list_indent = -1
    for line in source.split("\n"):
        if "\t" in line:
            return None  # tabs are not YAML indentation; let the full parser judge
        stripped = line.strip(" ")
        if not stripped or stripped[0] == "#":
            continue
        if line[0] == " " or line[0] == "-":
            m = _ITEM_LINE.match(line)
            if m is None or list_key is None:
                return None
            indent = len(m.group(1))
            if list_indent == -1:
                list_indent = indent
                result[list_key] = []
            elif indent != list_indent:
                return None
            item_text = m.group(2) or ""
            if _KEY_LINE.match(item_text) or item_text.startswith("-"):
                return None  # mapping or nested list inside the list
            value = _fast_scalar(item_text)
            if value is _UNSUPPORTED or isinstance(value, list):
                return None
            result[list_key].append(value)
            continue
        m = _KEY_LINE.match(line)
        if m is None:
            return None
        key_text, rest = m.group(1), m.group(2) or ""
        if " #" in key_text or ": " in key_text:
            return None
        key = _key_str(resolve_plain(key_text))
        if key in result:
            return None  # duplicate: let the full parser report it
        value = _fast_scalar(rest)
        if value is _UNSUPPORTED:
            return None
        result[key] = value
        # Only an empty value (or a bare comment) may be followed by a block list; `key: ~` may not.
        empty = not rest.strip(" ") or rest.lstrip(" ")[0] == "#"
        list_key, list_indent = (key, -1) if empty else (None, -1)
    return result


# --- slow path (ruamel.yaml) ---------------------------------------------------------------------


class _Resolver(VersionedResolver):
    """Every scalar resolves as a string; plain ones are typed later by `resolve_plain`."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is ScalarNode:
            return self.DEFAULT_SCALAR_TAG
        return super().resolve(kind, value, implicit)


class _Composer(Composer):
    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        # Re-defining an anchor is legal YAML 1.2; ruamel would only warn (an error under pytest).
        self.warn_double_anchors = False


class _Constructor(SafeConstructor):
    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """Like ruamel's, minus YAML 1.1 merge keys; every key becomes a string (collections as JSON).

        Templates such as ``created: {{date}}`` parse as a map keyed by a map; eemeli yaml (Obsidian)
        accepts that and stringifies the key, so the note keeps its other properties.
        """
        if not isinstance(node, MappingNode):
            raise ConstructorError(None, None, f"expected a mapping node, but found {node.id!s}", node.start_mark)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            # Keys become JSON strings here: JS object keys are strings, and Python would merge 1 and true.
            key = _key_str(self.construct_object(key_node, deep=True))
            value = self.construct_object(value_node, deep=deep)
            if self.check_mapping_key(node, key_node, mapping, key, value):
                mapping[key] = value
        return mapping


def _construct_str(self: SafeConstructor, node: ScalarNode) -> Any:
    value = self.construct_scalar(node)
    return resolve_plain(value) if node.style is None else value


def _construct_text(self: SafeConstructor, node: ScalarNode) -> str:
    # !!timestamp and !!binary keep their source text, as eemeli yaml's core schema has neither.
    return str(self.construct_scalar(node))


def _construct_unknown(self: SafeConstructor, node: Any) -> Any:
    # eemeli yaml warns on unknown tags and keeps the value; do the same instead of failing the block.
    if isinstance(node, ScalarNode):
        return self.construct_scalar(node)
    if isinstance(node, SequenceNode):
        return self.construct_sequence(node, deep=True)
    if isinstance(node, MappingNode):
        return self.construct_mapping(node, deep=True)
    return None


_Constructor.add_constructor("tag:yaml.org,2002:str", _construct_str)
_Constructor.add_constructor("tag:yaml.org,2002:timestamp", _construct_text)
_Constructor.add_constructor("tag:yaml.org,2002:binary", _construct_text)
_Constructor.add_constructor(None, _construct_unknown)

_local = threading.local()  # a pure ruamel YAML instance keeps parser state: one per thread


def _yaml() -> YAML:
    yaml = getattr(_local, "yaml", None)
    if yaml is None:
        yaml = YAML(typ="safe", pure=True)
        yaml.version = (1, 2)
        yaml.Resolver = _Resolver
        yaml.Constructor = _Constructor
        yaml.Composer = _Composer
        yaml.max_depth = MAX_DEPTH
        _local.yaml = yaml
    return yaml


class _FrontmatterError(ValueError):
    pass


def _key_str(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, (int, float)):
        return str(key)
    return json.dumps(_json_safe(key, [0], set()), ensure_ascii=False)


def _json_safe(value: Any, budget: list[int], active: set[int]) -> Any:
    """Copy `value` into plain JSON types; raises _FrontmatterError on cycles or alias bombs."""
    budget[0] += 1
    if budget[0] > MAX_NODES:
        raise _FrontmatterError(f"frontmatter expands to more than {MAX_NODES} values (YAML aliases)")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):  # only explicit !!float reaches here non-finite
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        if id(value) in active:
            raise _FrontmatterError("frontmatter contains a recursive YAML alias")
        active.add(id(value))
        try:
            if isinstance(value, dict):
                return {_key_str(k): _json_safe(v, budget, active) for k, v in value.items()}
            items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
            return [_json_safe(v, budget, active) for v in items]
        finally:
            active.discard(id(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _describe(exc: Exception, first_line: int) -> str:
    problem = getattr(exc, "problem", None)
    mark = getattr(exc, "problem_mark", None)
    if problem and mark is not None:
        return f"invalid YAML in frontmatter: {problem} (line {mark.line + first_line})"
    if isinstance(exc, RecursionError):
        return "invalid YAML in frontmatter: nested too deeply"
    first = str(exc).strip().splitlines()
    return f"invalid YAML in frontmatter: {first[0] if first else type(exc).__name__}"


_BRACKETS = re.compile(r"[\[\]{}]")


def _flow_depth(source: str) -> int:
    """Deepest ``[``/``{`` nesting, counting brackets inside quotes too (a cheap upper bound)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(source):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def load_frontmatter(source: str, first_line: int = 2) -> tuple[dict[str, Any], str | None]:
    """Parse frontmatter YAML into ``(properties, error)``.

    ``properties`` is a JSON-safe dict ({} when empty or invalid); ``error`` is a one-line message when
    the YAML is invalid or its top level is not a mapping (§3: then the note has no properties at all).
    `first_line` is the file line of the block's first line, for messages.
    """
    fast = _fast_load(source)
    if fast is not None:
        return fast, None
    if _flow_depth(source) > MAX_DEPTH:  # ruamel's scanner is quadratic in flow nesting: refuse early
        return {}, "invalid YAML in frontmatter: nested too deeply"
    try:
        value = _yaml().load(source)
    except Exception as exc:  # noqa: BLE001 — any YAML failure (incl. RecursionError) means "invalid", never a crash
        _local.yaml = None  # a failed load can leave parser state behind (e.g. the composer's depth)
        return {}, _describe(exc, first_line)
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        kind = "list" if isinstance(value, list) else "single value"
        return {}, f"frontmatter must be a YAML mapping (key: value lines), not a {kind}"
    try:
        return _json_safe(value, [0], set()), None
    except _FrontmatterError as exc:
        return {}, str(exc)
    except RecursionError:
        return {}, "invalid YAML in frontmatter: nested too deeply"


def iter_string_values(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Yield ``(key path, string)`` for every string value in a JSON-safe tree (``related.0``)."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, str):
            yield where, node
        elif isinstance(node, dict):
            stack.extend((f"{where}.{k}" if where else k, v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((f"{where}.{i}" if where else str(i), v) for i, v in reversed(list(enumerate(node))))
