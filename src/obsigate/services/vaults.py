"""Vault discovery and browsing: which vaults a caller has, what a folder holds, every file of a vault."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from obsigate.domain.storage import vault_fs
from obsigate.domain.text import nfc
from obsigate.domain.vault import Vault, is_editor_temp, is_note, is_servable_name, walk
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import fs_errors, kind_of, resolve_safe_path
from obsigate.services.workspace import Workspace, iso_utc


def list_accessible_vaults(ws: Workspace, vaults: Sequence[str]) -> list[dict[str, Any]]:
    """The vaults named in ``vaults`` (declared names the tool layer already put in the caller's scope, e.g.
    every vault they may use), in that order: ``[{"name", "notes", "read_only", "destructive_tools"}]``."""
    out = []
    for name in vaults:
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
    ws: Workspace, vault: Vault, path: str | None, *, limit: int = 200, offset: int = 0
) -> dict[str, Any]:
    """One folder's visible entries of ``vault`` (already permitted by the tool layer), folders first then
    files, each sorted by name (case-insensitive).

    Returns ``{"vault", "path", "entries": [{"name", "path", "type": "dir"|"file", "size"?, "modified"?,
    "is_note"?, "files"?, "notes"?}], "summary": {"dirs", "files", "notes"}, "total", "offset", "truncated",
    "next_offset"}``. A folder entry carries ``files``/``notes``: how many indexed files and notes it holds at
    any depth, so a page of a 10k-file root is still an overview of the whole vault. ``summary`` counts this
    folder's own entries (all pages).

    Raises:
        NotFound (no such folder), BadRequest (a file, not a folder), PathOutsideVault.
    """
    safe = resolve_safe_path(vault, path or "", allow_root=True)
    found = kind_of(vault, safe.rel)
    if found is None:
        raise NotFound(
            f"folder {safe.rel!r} does not exist in vault {vault.name!r}", hint="call list_directory on the parent"
        )
    if found != "dir":
        raise BadRequest(
            f"{safe.rel!r} is a file, not a folder", code="not_a_directory", hint="use read_file for files"
        )
    dirs: list[dict[str, Any]] = []
    files: list[tuple[str, str]] = []  # stat-ed only for the page served: a 10k-file root stays cheap
    with fs_errors(safe.rel):
        listed = vault_fs.list_folder(vault.root, safe.rel)
    for disk_name, kind in listed:
        if not is_servable_name(disk_name) or is_editor_temp(disk_name):
            continue  # the walker's rule: hidden and unservable names are never shown, nor symlinks
        name = nfc(disk_name)
        rel = f"{safe.rel}/{name}" if safe.rel else name
        if kind == "dir":
            dirs.append({"name": name, "path": rel, "type": "dir"})
        elif kind == "file":
            files.append((rel, disk_name))
    dirs.sort(key=lambda e: e["name"].lower())
    files.sort(key=lambda f: f[0].rsplit("/", 1)[-1].lower())
    _count_below(ws, vault.name, safe.rel, dirs)
    summary = {"dirs": len(dirs), "files": len(files), "notes": sum(1 for rel, _ in files if is_note(rel))}
    page = _page({"vault": vault.name, "path": safe.rel, "summary": summary}, "entries", [*dirs, *files], limit, offset)
    on_page = [e for e in page["entries"] if not isinstance(e, dict)]
    try:
        stats = vault_fs.stat_names(vault.root, safe.rel, [disk for _, disk in on_page])
    except OSError:  # the folder vanished since the listing
        stats = {}
    page["entries"] = [e if isinstance(e, dict) else _file_entry(e[0], stats.get(e[1])) for e in page["entries"]]
    return page


def _file_entry(rel: str, st: os.stat_result | None) -> dict[str, Any]:
    size, modified = (st.st_size, iso_utc(st.st_mtime_ns)) if st is not None else (None, None)  # None: vanished
    return {"name": rel.rsplit("/", 1)[-1], "path": rel, "type": "file", "size": size, "modified": modified,
            "is_note": is_note(rel)}  # fmt: skip


def _count_below(ws: Workspace, vault: str, folder: str, dirs: list[dict[str, Any]]) -> None:
    """Add ``files`` and ``notes`` (indexed, at any depth) to each folder entry of ``dirs``, in one index pass."""
    if not dirs:
        return
    counts: dict[str, list[int]] = {d["name"]: [0, 0] for d in dirs}
    skip = len(folder) + 1 if folder else 0
    for rec in ws.index.file_records(vault, under=folder or None):
        top, sep, _ = rec.path[skip:].partition("/")
        if sep and top in counts:
            counts[top][0] += 1
            counts[top][1] += rec.note
    for d in dirs:
        d["files"], d["notes"] = counts[d["name"]]


def list_all_files(
    ws: Workspace,
    vault: Vault,
    *,
    dir: str | None = None,
    recursive: bool = True,
    limit: int = 500,
    offset: int = 0,
) -> dict[str, Any]:
    """Every visible file of ``vault`` (already permitted by the tool layer) under ``dir`` (default: the
    root), sorted by vault-relative path (code points).

    Served from the index once it is ready (no disk walk per page, so paging a 100k-file vault is cheap);
    while the first build runs, from a walk of the folder.

    Returns ``{"vault", "dir", "files": [{"path", "size", "modified", "is_note"}], "total", "offset",
    "truncated", "next_offset"}``.

    Raises:
        NotFound (no such folder), PathOutsideVault.
    """
    safe = resolve_safe_path(vault, dir or "", allow_root=True)
    if kind_of(vault, safe.rel) != "dir":
        raise NotFound(f"folder {safe.rel!r} does not exist in vault {vault.name!r}")
    prefix = f"{safe.rel}/" if safe.rel else ""
    if ws.index_state()["complete"]:
        found = [(r.path, r.size, r.mtime_ns) for r in ws.index.file_records(vault.name, under=safe.rel or None)]
    else:
        found = sorted((e.path, e.size, e.mtime_ns) for e, _ in walk(vault, safe.rel))
    files = [
        {"path": path, "size": size, "modified": iso_utc(mtime), "is_note": is_note(path)}
        for path, size, mtime in found
        if recursive or "/" not in path[len(prefix) :]
    ]
    return _page({"vault": vault.name, "dir": safe.rel}, "files", files, limit, offset)


def _page(head: dict[str, Any], key: str, items: list[Any], limit: int, offset: int) -> dict[str, Any]:
    """Slice ``items`` and add ``total``, ``offset``, ``truncated`` and ``next_offset`` (None at the end)."""
    if limit < 1 or offset < 0:
        raise BadRequest("limit must be ≥ 1 and offset ≥ 0")
    total = len(items)
    chunk = items[offset : offset + limit]
    end = offset + len(chunk)
    return {
        **head,
        key: chunk,
        "total": total,
        "offset": offset,
        "truncated": end < total,
        "next_offset": end if end < total else None,
    }
