"""Result size budget: no tool result may exceed ``budget_chars`` once serialised as JSON.

The budget is counted in characters of compact JSON (about 4 characters per token, so the default
100 000 characters is about 25k tokens). Over budget, the largest list is halved or the largest string
cut, repeatedly, and the result says so in ``truncated``/``notice``. Shapes stay valid for the tool's
output schema because only list lengths and string lengths change.
"""

from __future__ import annotations

import json
from typing import Any

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


def fit_to_budget(data: dict[str, Any], budget_chars: int) -> dict[str, Any]:
    """Shrink ``data`` (in place) until its JSON is at most ``budget_chars`` characters; return it.

    Sets ``truncated=True`` and a ``notice`` when anything was cut.
    """
    if _size(data) <= budget_chars:
        return data
    data["truncated"] = True
    data["notice"] = "result cut to fit the size budget; ask for less (smaller limit, an offset, a narrower path)"
    for _ in range(200):
        if _size(data) <= budget_chars:
            break
        size, parent, key = _largest(data)
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
    return data
