"""A ``.base`` file (or ```` ```base ```` block) read into :class:`BaseSpec` (obsidian-app.md §1.1, §1.7).

Tolerates the format's history: ``group_by`` (before RN 1.9.3) as ``groupBy``, sort entries keyed ``column``
(early files) as ``property``, tab indentation inside code blocks (RN 1.9.2). Unknown keys are kept in
``raw``. A spec that cannot be read raises :class:`BaseSpecError` with a one-line reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from obsigate.domain.markdown.frontmatter import load_frontmatter

VIEW_TYPES = ("table", "cards", "list", "map")
MAX_VIEWS = 50


class BaseSpecError(ValueError):
    """A base whose YAML is invalid or whose shape is not a base's."""


def prop_id(raw: Any) -> str:
    """A property id in its full form: ``price`` → ``note.price``; ``file.x``, ``note.x``, ``formula.x`` kept."""
    s = str(raw).strip()
    if s.startswith(("note.", "file.", "formula.")):
        return s
    return f"note.{s}"


@dataclass(frozen=True, slots=True)
class SortKey:
    """One sort entry: a property id and whether it is descending."""

    prop: str
    desc: bool


@dataclass(slots=True)
class ViewSpec:
    """One view: ``type`` (``table``, ``cards``, ``list``, ``map`` or a plugin's), ``order`` (property ids),
    ``sort`` (by priority), ``group`` (one property), ``limit``, ``summaries`` (property id → summary name),
    ``image`` (cards), ``filters`` (this view's, ANDed with the base's); ``raw`` = the view as written."""

    name: str
    type: str
    order: list[str]
    sort: list[SortKey]
    group: SortKey | None
    limit: int | None
    summaries: dict[str, str]
    image: str | None
    filters: Any
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class BaseSpec:
    """A whole base: global ``filters``, ``formulas`` (name → expression), ``labels`` (property id → display
    name, from ``properties``), custom ``summaries`` (name → expression over ``values``) and ``views``."""

    filters: Any
    formulas: dict[str, str]
    labels: dict[str, str]
    summaries: dict[str, str]
    views: list[ViewSpec]


def _direction(v: Any) -> bool:
    return str(v or "ASC").strip().upper() == "DESC"


def _view(raw: Any, i: int) -> ViewSpec:
    if not isinstance(raw, dict):
        raise BaseSpecError(f"view {i + 1} is not a mapping")
    vtype = str(raw.get("type") or "table")
    order = [prop_id(p) for p in raw.get("order") or [] if p is not None] if isinstance(raw.get("order"), list) else []
    sort: list[SortKey] = []
    for entry in raw.get("sort") or [] if isinstance(raw.get("sort"), list) else []:
        if isinstance(entry, dict) and (entry.get("property") or entry.get("column")):
            sort.append(
                SortKey(prop_id(entry.get("property") or entry.get("column")), _direction(entry.get("direction")))
            )
    g = raw.get("groupBy", raw.get("group_by"))
    group = None
    if isinstance(g, dict) and g.get("property"):
        group = SortKey(prop_id(g["property"]), _direction(g.get("direction")))
    elif isinstance(g, str) and g.strip():
        group = SortKey(prop_id(g), False)
    limit = raw.get("limit")
    lim = int(limit) if isinstance(limit, int | float) and not isinstance(limit, bool) and limit > 0 else None
    sums = raw.get("summaries")
    summaries = {prop_id(k): str(v) for k, v in sums.items()} if isinstance(sums, dict) else {}
    image = raw.get("image")
    return ViewSpec(
        name=str(raw.get("name") or f"View {i + 1}"),
        type=vtype,
        order=order,
        sort=sort,
        group=group,
        limit=lim,
        summaries=summaries,
        image=prop_id(image) if isinstance(image, str) and image.strip() else None,
        filters=raw.get("filters"),
        raw=raw,
    )


def parse_base(text: str) -> BaseSpec:
    """Read a base's YAML.

    Raises:
        BaseSpecError: invalid YAML, a top level that is not a mapping, or a malformed ``views`` list.
    """
    src = re.sub(r"(?m)^\t+", lambda m: "  " * len(m.group(0)), text.replace("\r\n", "\n"))
    data, err = load_frontmatter(src, first_line=1) if src.strip() else ({}, None)
    if err:
        raise BaseSpecError(err.replace("frontmatter", "base"))
    formulas = data.get("formulas") or {}
    props = data.get("properties") or {}
    sums = data.get("summaries") or {}
    views = data.get("views")
    if views is None:
        views = [{"type": "table", "name": "Table"}]
    if not isinstance(views, list) or not isinstance(formulas, dict) or not isinstance(props, dict):
        raise BaseSpecError("'views' must be a list, 'formulas' and 'properties' mappings")
    labels: dict[str, str] = {}
    for k, v in props.items():
        if isinstance(v, dict) and v.get("displayName") not in (None, ""):
            labels[prop_id(k)] = str(v["displayName"])
    return BaseSpec(
        filters=data.get("filters"),
        formulas={str(k): str(v) for k, v in formulas.items() if v is not None},
        labels=labels,
        summaries={str(k): str(v) for k, v in sums.items()} if isinstance(sums, dict) else {},
        views=[_view(v, i) for i, v in enumerate(views[:MAX_VIEWS])] or [_view({"type": "table"}, 0)],
    )


_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*base[ \t]*$")


def base_blocks(text: str) -> list[str]:
    """The bodies of the ```` ```base ```` fenced blocks of a note, in order (fences of 3+ backticks or tildes)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(2)
        body: list[str] = []
        i += 1
        while i < len(lines) and not re.match(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", lines[i]):
            body.append(lines[i])
            i += 1
        out.append("\n".join(body))
        i += 1
    return out
