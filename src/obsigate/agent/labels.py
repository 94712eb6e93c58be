"""Step labels: what the assistant's "N steps" list says of each tool call, in French and English.

Each tool declares its label (``@tool(..., label=(fr, en))``, the registry's ``ToolSpec.label``); the French
ones are the seeds' catalogue (AI architecture guide §4, "Étape (UI)"), the English ones their translations.
This module fills their placeholders: ``{path}`` is the call's path (``source_path`` for a move, ``dir`` for a
listing), ``{q}`` its query (``q``, or web_search's ``query``), ``{pattern}`` replace_in_files' ``find``, ``{url}``
fetch_url's URL. A tool without a label (an unknown name,
a ``propose_``/``apply_`` step) gets its name.

A step's label also says where the call stands (:func:`step_state`, :func:`state_label`): the registry's label
is the change made, so a change tool's step says the change to make until it is applied ("Delete file: a.md"),
and how it ended when it was not ("Delete file: a.md — rejected"); a call of a tool the assistant does not offer
is "Tool not available: <name>", never a label of a tool it did not run.
"""

from __future__ import annotations

import json
from typing import Any

from obsigate.tools.api import REGISTRY, shown_value

__all__ = ["LANGUAGES", "STATES", "STOPPED", "language_of", "state_label", "step_label", "step_state"]

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
    """``value`` on one line, redacted (a label is shown and stored: a URL's password or a key must not be), then
    cut to ``limit`` characters."""
    text = value if isinstance(value, str) else "" if value is None else str(value)
    text = " ".join(shown_value(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def step_label(tool: str, arguments: dict[str, Any] | None, language: str = "en") -> str:
    """The label of one call of ``tool`` with ``arguments`` (``None``: arguments that did not parse) in
    ``language`` (``fr``/``en``), placeholders filled and cut to 80 characters each."""
    spec = REGISTRY.get(tool)
    pair = spec.label if spec is not None else None
    if pair is None:
        return tool
    return _fill(pair[0] if language == "fr" else pair[1], arguments)


def _fill(template: str, arguments: dict[str, Any] | None) -> str:
    args = arguments or {}
    return template.format(
        path=_short(args.get("path") or args.get("source_path") or args.get("dir") or "/"),
        q=_short(args.get("q") or args.get("query")),
        pattern=_short(args.get("find")),
        url=_short(args.get("url")),
    )


#: Where a step stands: ``running``, ``proposed`` (awaiting the person), ``deferred`` (runs after the
#: confirmation), ``applied`` (a change made), ``done`` (a read answered), ``rejected`` (the person said no),
#: ``failed`` (an error), ``not_run`` (skipped: its turn was rejected, superseded or stopped), ``unavailable``
#: (a tool the assistant does not offer).
STATES = ("running", "proposed", "deferred", "applied", "done", "rejected", "failed", "not_run", "unavailable")

#: A change tool's step before it is applied: the change to make (the registry's label is the change made).
_ACTIONS: dict[str, tuple[str, str]] = {
    "create_file": ("Créer le fichier : {path}", "Create file: {path}"),
    "create_directory": ("Créer le dossier : {path}", "Create folder: {path}"),
    "edit_file": ("Modifier le fichier : {path}", "Edit file: {path}"),
    "append_to_file": ("Compléter le fichier : {path}", "Append to file: {path}"),
    "restore_backup": ("Restaurer la sauvegarde : {path}", "Restore backup: {path}"),
    "restore_trash": ("Restaurer depuis la corbeille : {path}", "Restore from the trash: {path}"),
    "rename_file": ("Renommer le fichier : {path}", "Rename file: {path}"),
    "rename_directory": ("Renommer le dossier : {path}", "Rename folder: {path}"),
    "move_path": ("Déplacer : {path}", "Move: {path}"),
    "replace_in_files": ("Remplacer : {pattern}", "Replace: {pattern}"),
    "delete_file": ("Supprimer le fichier : {path}", "Delete file: {path}"),
    "delete_directory": ("Supprimer le dossier : {path}", "Delete folder: {path}"),
}
#: Applied changes whose registry label (the seeds' "Fichier proposé") names the proposal, not the result.
_APPLIED: dict[str, tuple[str, str]] = {
    "create_file": ("Fichier créé : {path}", "File created: {path}"),
    "create_directory": ("Dossier créé : {path}", "Folder created: {path}"),
}
_ENDED: dict[str, tuple[str, str]] = {
    "rejected": ("{label} — refusé", "{label} — rejected"),
    "failed": ("{label} — échec", "{label} — failed"),
    "not_run": ("{label} — non exécuté", "{label} — not run"),
}
_UNAVAILABLE = ("Outil non disponible : {name}", "Tool not available: {name}")
_BY_STATUS = {"running": "running", "pending_confirmation": "proposed", "deferred": "deferred", "error": "failed"}


def step_state(risk: str | None, status: str, content: str | None = None) -> str:
    """One of :data:`STATES` for a step: ``risk`` the tool's (``read``/``write``/``dangerous``, ``None`` for a
    name no tool has), ``status`` the SSE ``tool`` event's (``running``/``ok``/``error``/``deferred``/
    ``pending_confirmation``), ``content`` the tool message that answered the call (JSON text, if any): it tells
    a rejection, a skipped call and an unknown tool from another error, on the live event and in a stored
    conversation alike."""
    try:
        answer = json.loads(content) if content else None
    except ValueError:
        answer = None
    if isinstance(answer, dict):
        error = answer.get("error")
        if isinstance(error, dict):
            return "unavailable" if error.get("code") == "unknown_tool" else "failed"
        if answer.get("status") in ("rejected", "not_run", "applied"):
            return str(answer["status"])
    if status == "ok":
        return "done" if risk in (None, "read") else "applied"
    return _BY_STATUS.get(status, "failed")


def state_label(tool: str, arguments: dict[str, Any] | None, language: str, state: str) -> str:
    """The label of one call of ``tool`` in ``state`` (:func:`step_state`) in ``language``: a change tool says
    the change to make until it is ``applied``, then the change made; ``rejected``/``failed``/``not_run`` add
    how it ended; ``unavailable`` names the tool and nothing it did not do."""
    fr = language == "fr"
    if state == "unavailable":
        return (_UNAVAILABLE[0] if fr else _UNAVAILABLE[1]).format(name=_short(tool))
    action = _ACTIONS.get(tool)
    if state == "applied" and tool in _APPLIED:
        label = _fill(_APPLIED[tool][0] if fr else _APPLIED[tool][1], arguments)
    elif action is not None and state != "applied":
        label = _fill(action[0] if fr else action[1], arguments)
    else:
        label = step_label(tool, arguments, language)
    ended = _ENDED.get(state)
    return (ended[0] if fr else ended[1]).format(label=label) if ended else label
