"""The tool reference of ``docs/tools.md``, written from the registry (``make docs``), so the docs list every tool
with what its one declaration says and cannot drift from it (``tests/tools/test_reference.py`` checks the file).

Per declared tool: its description, risk, the fronts that offer it, its REST route(s), its step label and its
arguments (JSON type, required, bounds, description) as every front validates them. ``propose_``/``apply_``
steps are named under their tool, not repeated.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from obsigate.tools.registry import Scope, ToolRegistry, ToolSpec

HEADER = """# Tool reference

Generated from the tool registry by `make docs` (`src/obsigate/tools/reference.py`): do not edit by hand. How the
tools behave, with examples, is in [mcp.md](mcp.md) §4; the REST conventions are in the README.
"""

_BOUNDS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("minLength", "length ≥ {}"),
    ("maxLength", "length ≤ {}"),
    ("minItems", "items ≥ {}"),
    ("maxItems", "items ≤ {}"),
)


def _fronts(spec: ToolSpec) -> str:
    names = [name for scope, name in ((Scope.MCP, "MCP"), (Scope.IN_APP, "the assistant")) if scope in spec.scopes]
    return ", ".join(names) if names else "no model (the web app, REST and the CLI only)"


def _type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return " | ".join(f"`{json.dumps(value)}`" for value in prop["enum"])
    if "anyOf" in prop:
        return " or ".join(_type(p) for p in prop["anyOf"])
    kinds = prop.get("type", "object")
    names = [
        f"array of {_type(prop.get('items', {}))}" if kind == "array" and "items" in prop else str(kind)
        for kind in (kinds if isinstance(kinds, list) else [kinds])
    ]
    return " or ".join(names)


def _bounds(prop: dict[str, Any]) -> str:
    parts = [text.format(prop[key]) for key, text in _BOUNDS if key in prop]
    parts += [f"item {b}" for b in [_bounds(prop["items"])] if b] if isinstance(prop.get("items"), dict) else []
    return ", ".join(parts)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _arguments(spec: ToolSpec) -> list[str]:
    schema = spec.input_schema
    props: dict[str, Any] = schema.get("properties", {})
    if not props:
        return ["No arguments."]
    required = set(schema.get("required", ()))
    rows = ["| Argument | Type | Required | Bounds | Description |", "|---|---|---|---|---|"]
    for name, prop in _flattened(props):
        cells = (
            f"`{name}`",
            _cell(_type(prop)),
            "yes" if name in required else "",
            _cell(_bounds(prop)),
            _cell(prop.get("description", "")),
        )
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _flattened(props: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Each argument, then the fields of an object argument as ``group.field`` (search_advanced's ``created``:
    ``created.after``, ``created.before``; REST's query form names them ``created_after``...)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, prop in props.items():
        out.append((prefix + name, prop))
        if isinstance(prop.get("properties"), dict):
            out += _flattened(prop["properties"], f"{prefix}{name}.")
    return out


def _facts(spec: ToolSpec) -> list[str]:
    facts = [f"Risk: `{spec.risk}`", f"offered to {_fronts(spec)}"]
    if spec.planner is not None:
        facts.append(f"confirmed through `propose_{spec.name}` → `apply_{spec.name}`")
    routes = ", ".join(f"`{r.method} /api{r.path}`" for r in spec.rest)
    if routes:
        facts.append(f"REST {routes}")
    if spec.label is not None:
        facts.append(f"step: “{spec.label[1]}” / « {spec.label[0]} »")
    return ["- " + "; ".join(facts) + "."]


def render(registry: ToolRegistry) -> str:
    """The whole ``docs/tools.md`` for ``registry``: a header, a summary table, then one section per declared
    tool in ``tools/list`` order."""
    declared = registry.declared()
    out = [HEADER, "| Tool | Risk | Offered to models |", "|---|---|---|"]
    out += [f"| [`{s.name}`](#{s.name}) | {s.risk} | {'yes' if s.scopes else 'no'} |" for s in declared]
    for spec in declared:
        first = spec.description.strip().split("\n\n", 1)[0]
        out += ["", f"## `{spec.name}`", "", _cell(first), "", *_facts(spec), "", *_arguments(spec)]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    """``python -m obsigate.tools.reference docs/tools.md``: write the reference there; 0 on success."""
    from obsigate.tools.api import REGISTRY  # the catalogue, loaded

    target = Path(argv[0] if argv else "docs/tools.md")
    target.write_text(render(REGISTRY), encoding="utf-8")
    return 0


if __name__ == "__main__":  # make docs
    raise SystemExit(main(sys.argv[1:]))
