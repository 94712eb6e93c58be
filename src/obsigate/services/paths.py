"""The one path guard: every vault-relative path a caller gives goes through :func:`normalize_rel`.

It is a pure string policy on the *decoded* value (FastAPI hands route parameters over already
percent-decoded, so nothing decodes again here; ``shared/reference/security.md`` §1.3). Where the path then
leads is never checked here by name: every open walks it from the vault root's descriptor without following
a symlink (``domain/storage/vault_fs.py``), so nothing can be swapped in between a check and a use.
:func:`fs_errors` turns that module's refusals into the catalogue's codes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault, is_portable_name, is_servable_name
from obsigate.services.errors import BadRequest, Forbidden, PathOutsideVault, PayloadTooLarge

MAX_PATH_CHARS = 1024
MAX_SEGMENT_BYTES = 255
MAX_DEPTH = 32
# The backslash: a separator on Windows (and a UNC prefix doubled), never part of a name here.
_FORBIDDEN_CHARS = set("\\")
_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


@dataclass(frozen=True, slots=True)
class SafePath:
    """A checked location: ``rel`` is the normalised vault-relative POSIX path ("" = vault root) of
    ``vault``. It holds no OS path on purpose: open it with ``vault_fs`` and ``vault.root``."""

    vault: Vault
    rel: str


def normalize_rel(raw: object, *, allow_root: bool = False) -> str:
    """Apply the string policy and return the normalised relative path.

    Raises:
        BadRequest: ``raw`` is not a string, is empty (unless ``allow_root``), too long, or holds control
            or invisible characters.
        PathOutsideVault: NUL, ``..``, absolute paths, backslashes, hidden (dot) segments.
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
            f"path {raw!r} is absolute or uses a backslash",
            hint="paths are relative to the vault root, with '/' separators, e.g. 'Notes/Idea.md'",
        )
    if any(unicodedata.category(c) in _BAD_CATEGORIES for c in text):
        raise BadRequest("path contains control or invisible characters")
    segments = [s for s in text.split("/") if s not in ("", ".")]
    for seg in segments:
        if seg == "..":
            raise PathOutsideVault(f"path {raw!r} climbs out of the vault with '..'")
        if seg.startswith("."):
            raise PathOutsideVault(f"path {raw!r} names a hidden entry; hidden files and folders are never served")
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
    """Check ``raw`` against the string policy for ``vault`` (see :func:`normalize_rel`).

    Raises:
        BadRequest, PathOutsideVault: see :func:`normalize_rel`.
    """
    return SafePath(vault, normalize_rel(raw, allow_root=allow_root))


def check_new_name(vault: Vault, rel: str) -> None:
    """Refuse to create a file or folder whose new name (or the name of a folder that would be created for
    it) holds a character Windows reserves: existing such names are served, new ones are not made.

    Raises:
        BadRequest ``invalid_name``.
    """
    segs = rel.split("/")
    for i, seg in enumerate(segs):
        if not is_portable_name(seg) and not vault_fs.exists(vault.root, "/".join(segs[: i + 1])):
            raise BadRequest(
                f'the new name {seg!r} uses a character Windows reserves (: * ? " < > |) or a device name (CON, NUL...)',
                code="invalid_name",
                hint="pick a name without those characters",
            )


@contextmanager
def fs_errors(rel: str) -> Iterator[None]:
    """Turn ``vault_fs``'s refusals about ``rel`` into the catalogue's errors: a symlink on the way →
    ``path_outside_vault``; a FIFO, socket or device → ``not_a_file``; over a size cap → ``too_large``; a tree
    too deep to be seen whole → ``invalid_argument``.

    Raises:
        PathOutsideVault, BadRequest, PayloadTooLarge.
    """
    try:
        yield
    except vault_fs.OutsideVault as exc:
        raise PathOutsideVault(
            f"path {rel!r} goes through a symlink or out of the vault ({exc.strerror}); symlinks inside a vault "
            "are never followed",
        ) from None
    except vault_fs.NotRegular:
        raise BadRequest(f"{rel!r} is not a regular file", code="not_a_file") from None
    except vault_fs.FileTooLarge as exc:
        raise PayloadTooLarge(f"{rel!r} is {exc.size} bytes, over the cap for this read") from None
    except vault_fs.TooDeep as exc:
        raise BadRequest(
            f"{exc.filename!r} is deeper than {vault_fs.MAX_DEPTH} folders: what it holds cannot be backed up, so "
            f"{rel!r} is not changed",
            hint="move the deep folders up first",
        ) from None


def kind_of(vault: Vault, rel: str) -> vault_fs.Kind | None:
    """What ``rel`` is in ``vault``: ``"file"``, ``"dir"``, ``"other"`` (FIFO, socket, device) or ``None``
    when absent.

    Raises:
        PathOutsideVault: ``rel`` is a symlink or lies beyond one. Forbidden: a folder on the way cannot be
        entered (file permissions).
    """
    try:
        with fs_errors(rel):
            found = vault_fs.kind(vault.root, rel)
            if found == "symlink":
                raise vault_fs.OutsideVault(rel)
    except PermissionError:  # a folder on the way the server's system user may not enter
        raise Forbidden(f"the server may not open {rel!r}", hint="check the vault's file permissions") from None
    return found
