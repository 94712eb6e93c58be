"""Step labels: what the assistant's "N steps" list says of each tool call, in French and English.

Each tool declares its label (``@tool(..., label=(fr, en))``, the registry's ``ToolSpec.label``); the French
ones are the seeds' catalogue (AI architecture guide §4, "Étape (UI)"), the English ones their translations.
This module fills their placeholders: ``{path}`` is the call's path (``source_path`` for a move, ``dir`` for a
listing), ``{q}`` its query (``q``, or web_search's ``query``), ``{pattern}`` replace_in_files' ``find``, ``{url}``
fetch_url's URL. A tool without a label (an unknown name,
a ``propose_``/``apply_`` step) gets its name.
"""

from __future__ import annotations

from typing import Any

from obsigate.tools.api import REGISTRY

__all__ = ["LANGUAGES", "STOPPED", "language_of", "step_label"]

LANGUAGES = ("fr", "en")

#: The line that ends a conversation the person stopped (feature #79 B5: « Exécution arrêtée. »).
STOPPED = {"fr": "Exécution arrêtée.", "en": "Stopped."}


def language_of(value: str | None, accept_language: str | None = None) -> str:
    """``"fr"`` or ``"en"``: ``value`` when it is one of them, else the first of those two in an HTTP
    ``Accept-Language`` header (RFC 9110 §12.5.4; quality values ignored: browsers list by preference), else
    ``"en"``."""
    if value in LANGUAGES:
        return value
    for item in (accept_language or "").split(","):
        tag = item.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return "en"


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else "" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def step_label(tool: str, arguments: dict[str, Any] | None, language: str = "en") -> str:
    """The label of one call of ``tool`` with ``arguments`` (``None``: arguments that did not parse) in
    ``language`` (``fr``/``en``), placeholders filled and cut to 80 characters each."""
    spec = REGISTRY.get(tool)
    pair = spec.label if spec is not None else None
    if pair is None:
        return tool
    args = arguments or {}
    template = pair[0] if language == "fr" else pair[1]
    return template.format(
        path=_short(args.get("path") or args.get("source_path") or args.get("dir") or "/"),
        q=_short(args.get("q") or args.get("query")),
        pattern=_short(args.get("find")),
        url=_short(args.get("url")),
    )
