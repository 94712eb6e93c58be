"""Vault discovery and browsing: which vaults a caller has, what a folder holds, every file of a vault."""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from obsigate.domain.vault import is_editor_temp, is_note, is_servable_name, iter_files
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import resolve_safe_path
from obsigate.services.workspace import Workspace


def _iso(mtime_ns: int) -> str:
    return datetime.fromtimestamp(mtime_ns / 1e9, tz=timezone.utc).isoformat(timespec="seconds")


def list_accessible_vaults(ws: Workspace, allowed: Iterable[str] | None) -> list[dict[str, Any]]:
    """Vaults the caller may use: ``[{"name", "notes", "read_only", "destructive_tools"}]``."""
    out = []
    for name in ws.accessible(allowed):
        vault = ws.vaults[name]
        out.append(
            {
                "name": name,
                "notes": ws.index.note_count(name),
                "read_only": vault.read_only,
                "destructive_tools": ws.destructive.get(name, True),
            }
        )
    return out


def browse_directory(
    ws: Workspace, vault_name: str, path: str | None, allowed: Iterable[str] | None, *, limit: int = 200, offset: int = 0
) -> dict[str, Any]:
    """One folder's visible entries, folders first then files, each sorted by name (case-insensitive).

    Returns ``{"vault", "path", "entries": [{"name", "path", "type": "dir"|"file", "size"?, "modified"?,
    "is_note"?, "children"?}], "total", "offset", "truncated", "next_offset"}``.

    Raises:
        VaultAccessDenied, NotFound (no such folder), BadRequest (a file, not a folder), PathOutsideVault.
    """
    vault = ws.get_vault(vault_name, allowed)
    safe = resolve_safe_path(vault, path or "", allow_root=True)
    if not safe.abs.exists():
        raise NotFound(f"folder {safe.rel!r} does not exist in vault {vault.name!r}", hint="call list_directory on the parent")
    if not safe.abs.is_dir():
        raise BadRequest(f"{safe.rel!r} is a file, not a folder", code="not_a_directory", hint="use read_file for files")
    dirs: list[dict[str, Any]] = []
    files: list[dict[str, Any]] = []
    with os.scandir(safe.abs) as it:
        for entry in it:
            if not is_servable_name(entry.name) or is_editor_temp(entry.name):
                continue  # the walker's rule: hidden and unservable names are never shown
            rel = f"{safe.rel}/{entry.name}" if safe.rel else entry.name
            try:
                resolve_safe_path(vault, rel)  # drops symlinks that leave the vault
                if entry.is_dir():
                    dirs.append({"name": entry.name, "path": rel, "type": "dir"})
                elif entry.is_file():
                    st = entry.stat()
                    files.append(
                        {
                            "name": entry.name,
                            "path": rel,
                            "type": "file",
                            "size": st.st_size,
                            "modified": _iso(st.st_mtime_ns),
                            "is_note": is_note(rel),
                        }
                    )
            except (OSError, BadRequest):
                continue
    dirs.sort(key=lambda e: e["name"].lower())
    files.sort(key=lambda e: e["name"].lower())
    entries = dirs + files
    return _page({"vault": vault.name, "path": safe.rel}, "entries", entries, limit, offset)


def list_all_files(
    ws: Workspace,
    vault_name: str,
    allowed: Iterable[str] | None,
    *,
    dir: str | None = None,
    recursive: bool = True,
    limit: int = 500,
    offset: int = 0,
) -> dict[str, Any]:
    """Every visible file under ``dir`` (default: the root), as vault-relative paths in walk order.

    Returns ``{"vault", "dir", "files": [{"path", "size", "modified", "is_note"}], "total", "offset",
    "truncated", "next_offset"}``.

    Raises:
        VaultAccessDenied, NotFound (no such folder), PathOutsideVault.
    """
    vault = ws.get_vault(vault_name, allowed)
    safe = resolve_safe_path(vault, dir or "", allow_root=True)
    if not safe.abs.is_dir():
        raise NotFound(f"folder {safe.rel!r} does not exist in vault {vault.name!r}")
    prefix = f"{safe.rel}/" if safe.rel else ""
    files = []
    for entry in iter_files(vault):
        if prefix and not entry.path.startswith(prefix):
            continue
        if not recursive and "/" in entry.path[len(prefix) :]:
            continue
        files.append(
            {"path": entry.path, "size": entry.size, "modified": _iso(entry.mtime_ns), "is_note": is_note(entry.path)}
        )
    return _page({"vault": vault.name, "dir": safe.rel}, "files", files, limit, offset)


def _page(head: dict[str, Any], key: str, items: list[Any], limit: int, offset: int) -> dict[str, Any]:
    """Slice ``items`` and add ``total``, ``offset``, ``truncated`` and ``next_offset`` (None at the end)."""
    if limit < 1 or offset < 0:
        raise BadRequest("limit must be ≥ 1 and offset ≥ 0")
    total = len(items)
    chunk = items[offset : offset + limit]
    end = offset + len(chunk)
    return {**head, key: chunk, "total": total, "offset": offset, "truncated": end < total, "next_offset": end if end < total else None}


