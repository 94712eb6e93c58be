"""A path as a reader was shown it: a file or folder name holding a secret reads ``[REDACTED:<rule>]`` in every
result (listings, search hits, the graph, backlinks, recent files, the assistant's context), so that is the
path a reader sends back. :func:`locate` turns it into the path on disk: the one file or folder of the vault
whose path, redacted, reads exactly that way.

The reader never sees the name and need not: the web app opens, edits and lists such a file from what its
tree showed, an agent reads what search found. Nothing is revealed that a listing does not already show: the
match is made on redacted paths only, and a path that stands for several files (names differing only inside
a secret) is refused rather than guessed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import overload

from obsigate.domain.redaction import redact_text
from obsigate.domain.storage.backups import BackupError
from obsigate.domain.vault import Vault, folders_of
from obsigate.services.errors import BadRequest
from obsigate.services.workspace import Workspace

__all__ = ["MARK", "locate", "matches", "shown_path"]

#: What a redacted part of a path starts with (``domain.redaction``'s marker).
MARK = "[REDACTED:"
_MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


@functools.lru_cache(maxsize=1 << 17)
def shown_path(path: str) -> str:
    """``path`` as a reader is shown it (:func:`~obsigate.domain.redaction.redact_text` of the whole path, as
    every result string is), cached: the features that match names (the quick switcher, completion) look at
    every path of a vault on each keystroke and must match what they show, not the secret."""
    return redact_text(path)


def _candidates(ws: Workspace, vault: Vault) -> set[str]:
    """Every path a reader may have been shown in ``vault``: its indexed files and their folders, and the paths
    of its backups (deleted files, the trash) with theirs."""
    paths = set(ws.index.file_states(vault.name))
    if ws.backups is not None:
        try:
            paths.update(entry["path"] for entry in ws.backups.files(vault.name))
        except (BackupError, OSError):  # a store that cannot be listed adds nothing; list_trash reports it
            pass
    return paths | folders_of(paths)


def _could_read_as(path: str, pieces: list[str]) -> bool:
    """Whether ``path`` could redact to the shown path whose text outside its markers is ``pieces``: it starts
    with the first piece, ends with the last, and holds the others in order (cheap; exact match follows)."""
    if not path.startswith(pieces[0]) or not path.endswith(pieces[-1]):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        at = path.find(piece, at)
        if at == -1:
            return False
        at += len(piece)
    return at <= len(path) - len(pieces[-1])


def matches(shown: str, paths: Iterable[str]) -> list[str]:
    """The paths of ``paths`` that read as ``shown`` once redacted (``redact_text`` of the whole path), sorted."""
    pieces = _MARKER.split(shown)
    return sorted(p for p in paths if _could_read_as(p, pieces) and shown_path(p) == shown)


@overload
def locate(ws: Workspace, vault: Vault, path: str) -> str: ...
@overload
def locate(ws: Workspace, vault: Vault, path: object) -> object: ...
def locate(ws: Workspace, vault: Vault, path: object) -> object:
    """The path in ``vault`` (already permitted) that ``path``, as a reader was shown it, stands for.

    A path without a marker, or one that exists as written (a name that really reads ``[REDACTED:…]``), is
    returned as it is. A path that stands for nothing keeps its last part and has its folder located (a new
    note in a folder whose name holds a secret), or is returned as it is (the service then answers as for any
    bad path). Only the permitted vault's indexed and backed-up paths are looked at, never hidden ones.

    Raises:
        BadRequest: ``path`` stands for several files or folders, whose names differ only inside a secret.
    """
    if not isinstance(path, str) or MARK not in path:
        return path
    shown = path.strip("/")
    candidates = _candidates(ws, vault)
    found = _one(path, shown, candidates)
    if found is not None:
        return found
    folder, _, name = shown.rpartition("/")
    while MARK in folder:  # the nearest folder a reader was shown
        where = _one(path, folder, candidates)
        if where is not None:
            return f"{where}/{name}"
        folder, _, last = folder.rpartition("/")
        name = f"{last}/{name}"
    return path


def _one(given: str, shown: str, candidates: set[str]) -> str | None:
    """The one candidate that reads as ``shown`` (itself first), ``None`` for none.

    Raises:
        BadRequest: several do.
    """
    if shown in candidates:
        return shown
    found = matches(shown, candidates)
    if len(found) > 1:
        raise BadRequest(
            f"{given!r} stands for {len(found)} paths whose names differ only in a redacted secret",
            hint="rename one of them (in Obsidian or on disk) so their names differ outside the secret",
        )
    return found[0] if found else None
