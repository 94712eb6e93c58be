"""Run one view of a base over a vault's files: filter → sort → group → limit → summaries (obsidian-app.md
§1.2, §1.7; the order of operations is UNVERIFIED there, this is the one it recommends).

Cells are JSON values: ``null``, booleans, numbers, strings, lists, or an object tagged by ``"$"``:
``{"$": "link", "path": str | None, "text": str}`` (a file or a link; ``path`` None when unresolved),
``{"$": "date", "v": "YYYY-MM-DD" | "YYYY-MM-DDTHH:mm"}``, ``{"$": "text", "v": str}`` (durations, ``∞``),
``{"$": "object", "v": {...}}``, ``{"$": "html" | "icon" | "image", "v": str}`` and
``{"$": "error", "v": message}`` (a cell whose expression failed: the rest of the view still shows).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from functools import cmp_to_key
from typing import Any

from obsigate.domain.bases.evaluate import Evaluator
from obsigate.domain.bases.expr import ExprError, parse
from obsigate.domain.bases.spec import BaseSpec, BaseSpecError, SortKey, ViewSpec
from obsigate.domain.bases.values import (
    BaseEvalError,
    Date,
    Duration,
    FileRef,
    Link,
    Regex,
    Rendered,
    RowRef,
    compare,
    equal,
    human_duration,
    to_string,
    truthy,
)

MAX_ERRORS = 5  # distinct error messages reported per view
DEFAULT_SUMMARIES = ("Average", "Min", "Max", "Sum", "Range", "Median", "Stddev", "Earliest", "Latest", "Checked",
                     "Unchecked", "Empty", "Filled", "Unique")  # fmt: skip
SHOWN_AS = {"table": "table", "cards": "cards", "list": "list"}  # other types (map, plugins) fall back to a table


def encode(v: Any) -> Any:
    """A value as a JSON cell (see the module docstring)."""
    if v is None or isinstance(v, bool | str):
        return v
    if isinstance(v, int | float):
        if isinstance(v, float) and not math.isfinite(v):
            return {"$": "text", "v": "∞" if v > 0 else "-∞" if v < 0 else "NaN"}
        return v
    if isinstance(v, Link):
        return {"$": "link", "path": v.path, "text": v.display or v.target}
    if isinstance(v, FileRef | RowRef):
        return {"$": "link", "path": v.path, "text": to_string(v)}
    if isinstance(v, Date):
        return {"$": "date", "v": v.dt.strftime("%Y-%m-%dT%H:%M" if v.time else "%Y-%m-%d")}
    if isinstance(v, Duration):
        return {"$": "text", "v": human_duration(v)}
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, dict):
        return {"$": "object", "v": {str(k): encode(x) for k, x in v.items()}}
    if isinstance(v, Rendered):
        return {"$": v.kind, "v": v.text}
    if isinstance(v, Regex):
        return to_string(v)
    return str(v)


def _error(exc: BaseEvalError) -> dict[str, str]:
    return {"$": "error", "v": str(exc)}


class _Run:
    """One view's evaluation state."""

    def __init__(self, spec: BaseSpec, ev: Evaluator) -> None:
        self.spec = spec
        self.ev = ev
        self.errors: list[str] = []
        self.filter_errors = 0

    def note_error(self, exc: BaseEvalError) -> None:
        msg = str(exc)
        if msg not in self.errors and len(self.errors) < MAX_ERRORS:
            self.errors.append(msg)

    def passes(self, flt: Any, row: str) -> bool:
        """A filter tree: a string expression (truthy), ``and`` (all), ``or`` (any), ``not`` (none) (§1.2)."""
        if flt is None:
            return True
        if isinstance(flt, str | int | float | bool):
            return truthy(self.ev.run(str(flt) if not isinstance(flt, bool) else str(flt).lower(), row))
        if isinstance(flt, list):
            return all(self.passes(x, row) for x in flt)
        if isinstance(flt, dict):
            ok = True
            for key, items in flt.items():
                lst = items if isinstance(items, list) else [items]
                if key == "and":
                    ok = ok and all(self.passes(x, row) for x in lst)
                elif key == "or":
                    ok = ok and any(self.passes(x, row) for x in lst)
                elif key == "not":
                    ok = ok and not any(self.passes(x, row) for x in lst)
                else:
                    raise BaseEvalError(f"unknown filter key {key!r} (use and, or, not)")
            return ok
        raise BaseEvalError("a filter must be an expression or an and/or/not list")

    def keep(self, view: ViewSpec, row: str) -> bool:
        try:
            return self.passes(self.spec.filters, row) and self.passes(view.filters, row)
        except BaseEvalError as exc:  # a row whose filter fails is left out (§1.2, UNVERIFIED), and said so
            self.filter_errors += 1
            self.note_error(exc)
            return False

    def value(self, prop: str, row: str) -> Any:
        """A property id's raw value for ``row`` (raises BaseEvalError)."""
        kind, _, name = prop.partition(".")
        if kind == "file":
            return self.ev.file_field(row, name)
        if kind == "formula":
            return self.ev.formula(name, row)
        return self.ev.props(row).get(name)

    def safe(self, prop: str, row: str) -> Any:
        try:
            return self.value(prop, row)
        except BaseEvalError as exc:
            self.note_error(exc)
            return exc

    def cell(self, prop: str, row: str) -> Any:
        v = self.safe(prop, row)
        if isinstance(v, BaseEvalError):
            return _error(v)
        if prop == "file.name":  # the file, shown as a link to it (a note without its .md)
            return {"$": "link", "path": row, "text": to_string(FileRef(row))}
        return encode(v)


def _order_cmp(a: Any, b: Any) -> int:
    """Ascending order of two values; empty ones (null, errors) are handled by the caller."""
    if isinstance(a, str | Link) and isinstance(b, str | Link):
        x, y = to_string(a).casefold(), to_string(b).casefold()
        return (x > y) - (x < y)
    if isinstance(a, FileRef | RowRef) and isinstance(b, FileRef | RowRef):
        x, y = to_string(a).casefold(), to_string(b).casefold()
        return (x > y) - (x < y)
    c = compare(a, b)
    if c is not None:
        return c
    x, y = to_string(a).casefold(), to_string(b).casefold()
    return (x > y) - (x < y)


def _empty(v: Any) -> bool:
    return v is None or isinstance(v, BaseEvalError) or v == [] or v == ""


def sort_rows(rows: list[str], keys: list[SortKey], value: Any) -> list[str]:
    """``rows`` sorted by ``keys`` in priority order; empty values last in both directions (§1.7, UNVERIFIED)."""
    if not keys:
        return rows
    cache = {r: [value(k.prop, r) for k in keys] for r in rows}

    def cmp(r1: str, r2: str) -> int:
        for i, k in enumerate(keys):
            a, b = cache[r1][i], cache[r2][i]
            ea, eb = _empty(a), _empty(b)
            if ea or eb:
                if ea != eb:
                    return 1 if ea else -1
                continue
            c = _order_cmp(a, b)
            if c:
                return -c if k.desc else c
        return 0

    return sorted(rows, key=cmp_to_key(cmp))


def summarize(name: str, values: list[Any], run: _Run) -> Any:
    """A default summary (§1.7) or one of the base's own (an expression over ``values``)."""
    vals = [v for v in values if not isinstance(v, BaseEvalError)]
    filled = [v for v in vals if not _empty(v)]
    nums = [v for v in filled if isinstance(v, int | float) and not isinstance(v, bool)]
    dates = [v for v in filled if isinstance(v, Date)]
    if name in run.spec.summaries:
        try:
            return encode(run.ev.run(run.spec.summaries[name], None, {"values": vals}))
        except BaseEvalError as exc:
            return _error(exc)
    if name == "Empty":
        return len(vals) - len(filled)
    if name == "Filled":
        return len(filled)
    if name == "Unique":
        uniq: list[Any] = []
        for v in filled:
            if not any(equal(v, u) for u in uniq):
                uniq.append(v)
        return len(uniq)
    if name == "Checked":
        return sum(1 for v in vals if v is True)
    if name == "Unchecked":
        return sum(1 for v in vals if v is not True)
    if name in ("Earliest", "Latest") or (name == "Range" and dates and not nums):
        if not dates:
            return None
        lo, hi = min(dates, key=lambda d: d.dt), max(dates, key=lambda d: d.dt)
        if name == "Range":
            return encode(Duration(0, (hi.dt - lo.dt).total_seconds() * 1000))
        return encode(lo if name == "Earliest" else hi)
    if not nums:
        return None
    out: float
    if name == "Average":
        out = sum(nums) / len(nums)
    elif name == "Sum":
        out = sum(nums)
    elif name == "Min":
        out = min(nums)
    elif name == "Max":
        out = max(nums)
    elif name == "Range":
        out = max(nums) - min(nums)
    elif name == "Median":
        out = statistics.median(nums)
    elif name == "Stddev":
        out = statistics.pstdev(nums)
    else:
        return {"$": "error", "v": f"unknown summary {name!r}"}
    return encode(round(out, 6) if isinstance(out, float) else out)


def label_of(spec: BaseSpec, prop: str) -> str:
    """A column's header: the base's ``displayName``, else the property's own name (``file name`` for file ones)."""
    if prop in spec.labels:
        return spec.labels[prop]
    kind, _, name = prop.partition(".")
    return f"file {name}" if kind == "file" else name


def _filter_exprs(flt: Any, where: str) -> Iterable[tuple[str, str]]:
    """The expressions of a filter tree as (where, text); a tree that is not one raises BaseSpecError."""
    if flt is None:
        return
    if isinstance(flt, str | int | float | bool):
        yield where, str(flt) if not isinstance(flt, bool) else str(flt).lower()
    elif isinstance(flt, list):
        for x in flt:
            yield from _filter_exprs(x, where)
    elif isinstance(flt, dict):
        for key, items in flt.items():
            if key not in ("and", "or", "not"):
                raise BaseSpecError(f"{where}: unknown filter key {key!r} (use and, or, not)")
            yield from _filter_exprs(items if isinstance(items, list) else [items], where)
    else:
        raise BaseSpecError(f"{where}: a filter must be an expression or an and/or/not list")


def check_view(spec: BaseSpec, view: ViewSpec) -> None:
    """Check, once before any row is evaluated, that the base's filters, ``view``'s filters and the base's
    formulas parse: one of them that does not is the base's error (not one per file left out).

    Raises:
        BaseSpecError: names the filter or formula, and the syntax error.
    """
    exprs = [*_filter_exprs(spec.filters, "the base's filters"),
             *_filter_exprs(view.filters, f"the filters of view {view.name!r}"),
             *((f"formula {name!r}", src) for name, src in spec.formulas.items())]  # fmt: skip
    for where, src in exprs:
        try:
            parse(src)
        except ExprError as exc:
            raise BaseSpecError(f"{where}: {src!r} does not parse: {exc}") from None


def run_view(spec: BaseSpec, view: ViewSpec, ev: Evaluator, files: Iterable[str], max_rows: int) -> dict[str, Any]:
    """Evaluate ``view`` over the files at ``files`` (vault-relative paths).

    Returns a dict: ``name``, ``type`` (as written), ``shown_as`` (``table``/``cards``/``list``), ``columns``
    (``[{id, label}]`` in the view's order, ``file.name`` when it has none), ``grouped``, ``groups``
    (``[{key, rows: [{path, cells, image?}], summaries}]``; one group with ``key`` null when not grouped),
    ``summaries`` (over every shown row), ``total`` (rows passing the filters), ``shown`` (rows returned,
    after ``limit`` and ``max_rows``), ``errors`` (distinct messages), ``filter_errors`` (rows left out
    because their filter failed).
    """
    run = _Run(spec, ev)
    rows = [p for p in files if run.keep(view, p)]
    total = len(rows)
    rows = sort_rows(rows, view.sort, run.safe) if view.sort else sorted(rows, key=str.casefold)
    columns = view.order or ["file.name"]
    groups: list[tuple[Any, list[str]]]
    if view.group is not None:
        g = view.group
        by: list[tuple[Any, list[str]]] = []
        for r in rows:
            key = run.safe(g.prop, r)
            key = None if _empty(key) else key
            for gk, members in by:
                if (gk is None and key is None) or (gk is not None and key is not None and equal(gk, key)):
                    members.append(r)
                    break
            else:
                by.append((key, [r]))
        keyed = sort_rows([str(i) for i in range(len(by))], [SortKey("k", g.desc)], lambda _p, i: by[int(i)][0])
        groups = [by[int(i)] for i in keyed]
    else:
        groups = [(None, rows)]
    cap = min(view.limit or max_rows, max_rows)
    out_groups = []
    shown = 0
    shown_rows: list[str] = []
    for key, members in groups:
        take = members[: max(0, cap - shown)]
        if not take:
            continue
        shown += len(take)
        shown_rows += take
        out_rows = []
        for r in take:
            entry: dict[str, Any] = {"path": r, "cells": [run.cell(c, r) for c in columns]}
            if view.image:
                entry["image"] = run.cell(view.image, r)
            out_rows.append(entry)
        sums = {p: summarize(n, [run.safe(p, r) for r in take], run) for p, n in view.summaries.items()}
        out_groups.append({"key": encode(key), "rows": out_rows, "summaries": sums})
    overall = {p: summarize(n, [run.safe(p, r) for r in shown_rows], run) for p, n in view.summaries.items()}
    return {
        "name": view.name,
        "type": view.type,
        "shown_as": SHOWN_AS.get(view.type, "table"),
        "columns": [{"id": c, "label": label_of(spec, c)} for c in columns],
        "grouped": view.group is not None,
        "groups": out_groups,
        "summaries": overall,
        "total": total,
        "shown": shown,
        "errors": run.errors,
        "filter_errors": run.filter_errors,
    }
