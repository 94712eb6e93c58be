"""Step labels: what the assistant's "N steps" list says of each tool call, in French and English.

The French labels are the seeds' catalogue (AI architecture guide §4, "Étape (UI)"); the English ones are
their translations. ``{path}`` is the call's path (``source_path`` for a move), ``{q}`` its query, ``{pattern}``
replace_in_files' ``find``. A tool without an entry gets its name.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LANGUAGES", "STOPPED", "language_of", "step_label"]

LANGUAGES = ("fr", "en")

#: tool → (French, English)
_LABELS: dict[str, tuple[str, str]] = {
    "list_vaults": ("Liste des vaults consultée", "Vaults listed"),
    "list_directory": ("Répertoire exploré : {path}", "Folder explored: {path}"),
    "list_all_files": ("Fichiers listés", "Files listed"),
    "read_file": ("Fichier lu : {path}", "File read: {path}"),
    "read_file_raw": ("Fichier lu : {path}", "File read: {path}"),
    "get_backlinks": ("Backlinks analysés", "Backlinks checked"),
    "list_backups": ("Sauvegardes consultées", "Backups listed"),
    "diff_backup": ("Comparaison de sauvegarde : {path}", "Backup compared: {path}"),
    "get_graph": ("Graphe du vault consulté", "Vault graph viewed"),
    "search_fulltext": ("Recherche dans le vault : {q}", "Vault searched: {q}"),
    "search_advanced": ("Recherche dans le vault : {q}", "Vault searched: {q}"),
    "search_paths": ("Chemins recherchés : {q}", "Paths searched: {q}"),
    "list_tags": ("Tags consultés", "Tags listed"),
    "suggest_tags": ("Tags suggérés pour {q}", "Tags suggested for {q}"),
    "list_recent": ("Fichiers récents consultés", "Recent files listed"),
    "create_file": ("Fichier proposé : {path}", "File proposed: {path}"),
    "create_directory": ("Dossier proposé : {path}", "Folder proposed: {path}"),
    "edit_file": ("Fichier modifié : {path}", "File edited: {path}"),
    "append_to_file": ("Fichier complété : {path}", "File appended: {path}"),
    "restore_backup": ("Sauvegarde restaurée : {path}", "Backup restored: {path}"),
    "rename_file": ("Fichier renommé : {path}", "File renamed: {path}"),
    "rename_directory": ("Dossier renommé : {path}", "Folder renamed: {path}"),
    "move_path": ("Élément déplacé : {path}", "Item moved: {path}"),
    "replace_in_files": ("Remplacements : {pattern}", "Replacements: {pattern}"),
    "delete_file": ("Fichier supprimé : {path}", "File deleted: {path}"),
    "delete_directory": ("Dossier supprimé : {path}", "Folder deleted: {path}"),
}

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
    pair = _LABELS.get(tool)
    if pair is None:
        return tool
    args = arguments or {}
    template = pair[0] if language == "fr" else pair[1]
    return template.format(
        path=_short(args.get("path") or args.get("source_path") or args.get("dir") or "/"),
        q=_short(args.get("q")),
        pattern=_short(args.get("find")),
    )
