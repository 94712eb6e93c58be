"""Vault discovery and browsing: which vaults a caller has, what a folder holds, every file of a vault."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from obsigate.domain.storage import vault_fs
from obsigate.domain.text import nfc
from obsigate.domain.vault import Vault, is_editor_temp, is_note, is_servable_name, walk
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import fs_errors, kind_of, resolve_safe_path
from obsigate.services.results import Page, Result
from obsigate.services.workspace import Workspace, iso_utc


class VaultInfo(BaseModel):
    name: str
    notes: int
    read_only: bool
    destructive_tools: bool


class ListVaultsResult(Result):
    vaults: list[VaultInfo]


def list_accessible_vaults(ws: Workspace, vaults: Sequence[str]) -> ListVaultsResult:
    """The vaults named in ``vaults`` (declared names the tool layer already put in the caller's scope, e.g.
    every vault they may use), in that order."""
    return ListVaultsResult(
        vaults=[
            VaultInfo(
                name=name,
                notes=ws.index.note_count(name),
                read_only=ws.vaults[name].read_only,
                destructive_tools=ws.destructive.get(name, True),
            )
            for name in vaults
        ]
    )


class DirEntry(BaseModel):
    name: str
    path: str
    type: str = Field(description="'dir' or 'file'")
    size: int | None = None
    modified: str | None = None
    is_note: bool | None = None
    files: int | None = Field(default=None, description="Folders: files inside, at any depth.")
    notes: int | None = Field(default=None, description="Folders: notes inside, at any depth.")


class FolderSummary(BaseModel):
    dirs: int
    files: int
    notes: int


class ListDirectoryResult(Result, Page):
    vault: str
    path: str
    summary: FolderSummary = Field(description="This folder's own sub-folders, files and notes (every page).")
    entries: list[DirEntry]


def browse_directory(
    ws: Workspace, vault: Vault, path: str | None, *, limit: int = 200, offset: int = 0
) -> ListDirectoryResult:
    """One folder's visible entries of ``vault`` (already permitted by the tool layer), folders first then
    files, each sorted by name (case-insensitive).

    Returns a :class:`ListDirectoryResult`. A folder entry carries ``files``/``notes``: how many indexed files and notes it holds at
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
    return ListDirectoryResult.model_validate(page)


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


class FileInfo(BaseModel):
    path: str
    size: int
    modified: str
    is_note: bool


class ListAllFilesResult(Result, Page):
    vault: str
    dir: str
    files: list[FileInfo]


def list_all_files(
    ws: Workspace,
    vault: Vault,
    *,
    dir: str | None = None,
    recursive: bool = True,
    limit: int = 500,
    offset: int = 0,
) -> ListAllFilesResult:
    """Every visible file of ``vault`` (already permitted by the tool layer) under ``dir`` (default: the
    root), sorted by vault-relative path (code points).

    Served from the index once it is ready (no disk walk per page, so paging a 100k-file vault is cheap);
    while the first build runs, from a walk of the folder.

    Returns a :class:`ListAllFilesResult`.

    Raises:
        NotFound (no such folder), PathOutsideVault.
    """
    rel, found = _files_below(ws, vault, dir)
    prefix = f"{rel}/" if rel else ""
    files = [
        {"path": path, "size": size, "modified": iso_utc(mtime), "is_note": is_note(path)}
        for path, size, mtime in found
        if recursive or "/" not in path[len(prefix) :]
    ]
    return ListAllFilesResult.model_validate(_page({"vault": vault.name, "dir": rel}, "files", files, limit, offset))


def file_paths(ws: Workspace, vault: Vault, dir: str | None = None) -> list[str]:
    """The path of every visible file of ``vault`` under ``dir`` (any depth), as :func:`list_all_files` lists
    them, unpaged: a whole listing without a model per file.

    Raises:
        NotFound (no such folder), PathOutsideVault.
    """
    return [path for path, _, _ in _files_below(ws, vault, dir)[1]]


def _files_below(ws: Workspace, vault: Vault, dir: str | None) -> tuple[str, list[tuple[str, int, int]]]:
    """``(folder, [(path, size, mtime_ns)])``: the files under folder ``dir`` by path, from the index once it
    is ready, else from a walk."""
    safe = resolve_safe_path(vault, dir or "", allow_root=True)
    if kind_of(vault, safe.rel) != "dir":
        raise NotFound(f"folder {safe.rel!r} does not exist in vault {vault.name!r}")
    if ws.index_state().complete:
        return safe.rel, [
            (r.path, r.size, r.mtime_ns) for r in ws.index.file_records(vault.name, under=safe.rel or None)
        ]
    return safe.rel, sorted((e.path, e.size, e.mtime_ns) for e, _ in walk(vault, safe.rel))


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
