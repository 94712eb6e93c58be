"""The one path guard: every vault-relative path a caller gives goes through :func:`resolve_safe_path`.

Two layers (``shared/reference/security.md`` §1.3): a pure string policy on the *decoded* value
(FastAPI hands route parameters over already percent-decoded, so nothing decodes again here), then a
real-path check that the resolved target, after following every symlink, is still inside the vault root,
compared component-wise so a sibling such as ``/vaults/notes-evil`` never passes for ``/vaults/notes``.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from obsigate.domain.vault import Vault, is_servable_name, is_visible_real_path, os_path
from obsigate.services.errors import BadRequest, PathOutsideVault

MAX_PATH_CHARS = 1024
MAX_SEGMENT_BYTES = 255
MAX_DEPTH = 32
# Windows reserved characters: rejecting them removes drive letters, UNC paths, ADS and URL schemes at once.
_FORBIDDEN_CHARS = set('\\:*?"<>|')
_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


@dataclass(frozen=True, slots=True)
class SafePath:
    """A checked location: ``rel`` is the normalised vault-relative POSIX path ("" = vault root),
    ``abs`` the absolute path on disk (inside the vault's real root)."""

    rel: str
    abs: Path


def normalize_rel(raw: object, *, allow_root: bool = False) -> str:
    """Apply the string policy and return the normalised relative path.

    Raises:
        BadRequest: ``raw`` is not a string, is empty (unless ``allow_root``), too long, or holds control
            or invisible characters.
        PathOutsideVault: NUL, ``..``, absolute or drive paths, backslashes, hidden (dot) segments.
    """
    if raw is None and allow_root:
        return ""
    if not isinstance(raw, str):
        raise BadRequest("path must be a string")
    if "\x00" in raw:
        raise PathOutsideVault("path contains a NUL byte", hint="give a vault-relative path such as 'Notes/Idea.md'")
    text = unicodedata.normalize("NFC", raw)
    if len(text) > MAX_PATH_CHARS:
        raise BadRequest(f"path is longer than {MAX_PATH_CHARS} characters")
    if text.startswith(("/", "~")) or any(c in _FORBIDDEN_CHARS for c in text):
        raise PathOutsideVault(
            f"path {raw!r} is absolute or uses a forbidden character",
            hint="paths are relative to the vault root, with '/' separators, e.g. 'Notes/Idea.md'",
        )
    if any(unicodedata.category(c) in _BAD_CATEGORIES for c in text):
        raise BadRequest("path contains control or invisible characters")
    segments = [s for s in text.split("/") if s not in ("", ".")]
    for seg in segments:
        if seg == "..":
            raise PathOutsideVault(f"path {raw!r} climbs out of the vault with '..'")
        if seg.startswith("."):
            raise PathOutsideVault(
                f"path {raw!r} names a hidden entry; hidden files and folders are never served"
            )
        if not is_servable_name(seg):
            raise BadRequest(f"path segment {seg!r} has leading/trailing spaces or a trailing dot")
        if len(seg.encode("utf-8")) > MAX_SEGMENT_BYTES:
            raise BadRequest("a path segment is longer than 255 bytes")
    if len(segments) > MAX_DEPTH:
        raise BadRequest(f"path is deeper than {MAX_DEPTH} folders")
    if not segments and not allow_root:
        raise BadRequest("path must not be empty", hint="name a file, e.g. 'Notes/Idea.md'")
    return "/".join(segments)


def resolve_safe_path(vault: Vault, raw: object, *, allow_root: bool = False) -> SafePath:
    """Check ``raw`` against ``vault`` and return where it lives.

    The target need not exist (later writes resolve new paths too); when it or any parent is a symlink,
    its real path must stay inside the vault's real root.

    Raises:
        BadRequest, PathOutsideVault: see :func:`normalize_rel`; also a symlink that leaves the vault.
    """
    rel = normalize_rel(raw, allow_root=allow_root)
    root = vault.root
    # the name as spelled on disk: a note synced from macOS may be stored NFD while every API path is NFC
    target = Path(os_path(vault, rel) or root / rel) if rel else root
    if not is_visible_real_path(str(root), os.path.realpath(target)):
        raise PathOutsideVault(f"path {rel!r} resolves outside the vault or to a hidden entry (symlink)")
    return SafePath(rel=rel, abs=target)
