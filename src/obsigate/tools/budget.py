"""Result size budget: no tool result may exceed ``budget_chars`` once serialised as JSON.

The budget is counted in characters of compact JSON (about 4 characters per token, so the default
100 000 characters is about 25k tokens). Over budget, the largest list is halved or the largest string
cut, repeatedly, and the result says so in ``truncated``/``notice``. Shapes stay valid for the tool's
output schema because only list lengths and string lengths change.
"""

from __future__ import annotations

import json
from typing import Any, TypeGuard

CUT_MARK = " …[cut to fit the result size budget]"


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))


def _largest(value: Any, parent: Any = None, key: Any = None) -> tuple[int, Any, Any]:
    """(size, parent container, key) of the largest list or string inside ``value``."""
    best: tuple[int, Any, Any] = (-1, None, None)
    if isinstance(value, (str, list)) and parent is not None:
        best = (_size(value), parent, key)
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in children:
        if isinstance(v, (dict, list, str)):
            cand = _largest(v, value, k)
            if cand[0] > best[0]:
                best = cand
    return best


def _int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _paged_list(data: dict[str, Any]) -> str | None:
    """The key of the one top-level list that is the page of a paged result (``offset`` + its length =
    ``next_offset``, or ``total`` on the last page), or ``None``."""
    offset = data.get("offset")
    if not (_int(offset) and _int(data.get("total"))):
        return None
    end = data["next_offset"] if _int(data.get("next_offset")) else data["total"]
    keys = [k for k, v in data.items() if isinstance(v, list) and offset + len(v) == end]
    return keys[0] if len(keys) == 1 else None


def paging_notice(data: dict[str, Any]) -> str | None:
    """What a ``truncated`` result without a ``notice`` says: where the page ends and how to get the rest
    (``showing 1-200 of 812; call again with offset=200``), or what else was left out; ``None`` when
    nothing was (``truncated`` false)."""
    if not data.get("truncated"):
        return None
    offset, after, total = data.get("offset"), data.get("next_offset"), data.get("total")
    if _int(after) and _int(offset) and _int(total):
        return f"showing {offset + 1}-{after} of {total}; call again with offset={after} for more"
    if _int(after):
        return f"more follows; call again with offset={after}"
    if data.get("timed_out"):
        return "the search ran out of time: results are partial; narrow it (vault, tag, include_paths) and retry"
    return "only part of the result is shown; narrow the request (or raise limit, if the tool has one)"


def fit_to_budget(data: dict[str, Any], budget_chars: int) -> dict[str, Any]:
    """Shrink ``data`` (in place) until its JSON is at most ``budget_chars`` characters; return it.

    ``truncated`` means the result is not everything there is, for either reason, and then ``notice`` always
    says why and how to get the rest: a page that ends before ``total`` gets :func:`paging_notice`; a result
    over the budget is cut (lists halved, strings shortened), ``truncated=True``, and the notice says so. When
    the cut list is the page of a paged result, ``next_offset`` moves back to the first item left out, so
    calling again with it loses nothing.
    """
    if _size(data) <= budget_chars:
        if data.get("truncated") and not data.get("notice"):
            data["notice"] = paging_notice(data)
        return data
    page_key = _paged_list(data)
    page_len = len(data[page_key]) if page_key is not None else 0
    data["truncated"] = True
    data["notice"] = "result cut to fit the size budget; ask for less (smaller limit, an offset, a narrower path)"
    for _ in range(200):
        if _size(data) <= budget_chars:
            break
        _, parent, key = _largest(data)
        if parent is None:
            break
        target = parent[key]
        if isinstance(target, list):
            if not target:
                break
            parent[key] = target[: len(target) // 2]
        else:
            excess = _size(data) - budget_chars
            keep = max(0, len(target) - max(excess + len(CUT_MARK) + 16, len(target) // 2))
            parent[key] = target[:keep] + CUT_MARK
    if page_key is not None and isinstance(data.get(page_key), list) and len(data[page_key]) < page_len:
        data["next_offset"] = data["offset"] + len(data[page_key])
        data["notice"] = (
            f"result cut to fit the size budget: showing {data['offset'] + 1}-{data['next_offset']} of "
            f"{data['total']}; call again with offset={data['next_offset']} (or a smaller limit) for more"
        )
    return data
