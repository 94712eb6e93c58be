"""The versioned backup store: every earlier state of a vault file, kept outside the vault.

Every mutation that overwrites, renames, moves, replaces or deletes a file first saves the previous bytes
here (:meth:`BackupStore.save`); deleting a note *moves* it here. A file that no longer exists in its vault
keeps its backups, so a deleted note is found again by its old path.

Layout (``root`` is ``<data_dir>/backups``, outside every vault, folders ``0700``, files ``0600``)::

    root/<vault key>/<path key>/<version>.bin    the bytes, exactly as they were
    root/<vault key>/<path key>/<version>.json   {"version", "path", "vault", "created", "size", "sha256",
                                                  "reason", "deleted"}

A key is a readable label (characters other than ``A-Z a-z 0-9 _ -`` percent-encoded, so never a dot-name,
never a ``/``) plus a SHA-256 prefix of the exact vault name or vault-relative path: no name can climb out of
``root``, names of any length fit the 255-byte limit, and ``A.md``/``a.md`` stay apart on case-insensitive
disks. Nothing under ``root`` is followed through a symlink. Both files are written with
:func:`~obsigate.domain.storage.atomic.atomic_write` (exclusive: a version is never overwritten); the sidecar is
written last, so a version exists once its sidecar does.

Version ids look like ``20261130T120501.123456Z-3f2a``: UTC time to the microsecond plus 4 random hex
digits. They sort by age, and one process never hands out the same or an older time twice for one file
(a clock that steps back is overtaken), so "newest first" is the order the versions were saved in.

Retention: the newest ``keep`` versions of each file are kept (default 50; ``keep=0`` keeps everything);
older ones are pruned right after each save. Deletion backups count like any other version.

Failures a caller can act on are :class:`BackupError` subclasses (``services.backups`` turns them into
service error codes): :class:`BackupArgumentError` (a malformed version id, vault name or path),
:class:`BackupNotFoundError`, :class:`BackupFailedError` (nothing could be saved, or the layout is not what
the store wrote) and :class:`BackupDamagedError` (stored bytes that fail their checksum or cannot be read).
"""

from __future__ import annotations

import calendar
import hashlib
import json
import logging
import os
import re
import secrets
import stat
import threading
import time
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from obsigate.domain.diff import MAX_DIFF_CHARS, redacted_diff
from obsigate.domain.storage.atomic import atomic_write
from obsigate.domain.storage.private_files import make_private_dir

__all__ = [
    "KEEP_PER_FILE",
    "BackupArgumentError",
    "BackupDamagedError",
    "BackupError",
    "BackupFailedError",
    "BackupNotFoundError",
    "BackupStore",
    "is_version_id",
]

log = logging.getLogger(__name__)

KEEP_PER_FILE = 50
_VERSION_RE = re.compile(r"([0-9]{8})T([0-9]{6})\.([0-9]{6})Z-[0-9a-f]{4}")  # used with fullmatch
_KEY_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class BackupError(Exception):
    """Base of the store's expected failures: ``message`` says what went wrong, ``hint`` (or ``None``) what a
    caller can do next, ``code`` the catalogued error code services answer with (``services/errors.py``)."""

    code = "backup_failed"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class BackupArgumentError(BackupError, ValueError):
    """A malformed version id, an empty vault name, or a path that is not a normalised vault-relative path."""

    code = "invalid_argument"


class BackupNotFoundError(BackupError, LookupError):
    """No such version of that file in that vault (never saved, pruned, or its bytes removed)."""

    code = "not_found"


class BackupFailedError(BackupError):
    """Nothing was saved (the caller must not go on with its change), or a folder of the store is not a real
    folder (e.g. a planted symlink)."""


class BackupDamagedError(BackupError):
    """A stored version cannot be read, or its bytes no longer match their checksum."""

    code = "backup_damaged"


def is_version_id(value: object) -> bool:
    """True if ``value`` has the form of a backup version id (``20261130T120501.123456Z-3f2a``)."""
    return isinstance(value, str) and _VERSION_RE.fullmatch(value) is not None


def _check_version(value: object, field: str = "version") -> str:
    if not is_version_id(value):
        raise BackupArgumentError(
            f"{field} {value!r} is not a backup version id (like '20261130T120501.123456Z-3f2a')",
            hint="call list_backups to see the versions of a file",
        )
    return value  # type: ignore[return-value]


def _check_rel(path: object) -> str:
    """``path`` if it is a normalised vault-relative path (as ``services.paths.normalize_rel`` returns one):
    non-empty ``/``-separated segments, none empty, hidden (``.``, ``..``, ``.obsidian``) or holding a NUL.
    Paths are not normalised here: the key of a path is its exact text, so callers pass it normalised.

    Raises:
        BackupArgumentError: anything else.
    """
    if not isinstance(path, str) or not path:
        raise BackupArgumentError("path must be a non-empty string")
    if "\x00" in path or any(not seg or seg.startswith(".") for seg in path.split("/")):
        raise BackupArgumentError(f"path {path!r} is not a normalised vault-relative path")
    return path


def _check_vault(vault: object) -> str:
    if not isinstance(vault, str) or not vault:
        raise BackupArgumentError("vault name is missing")
    return vault


def _version_us(version: str) -> int:
    """Microseconds since the epoch encoded in a version id.

    Raises:
        ValueError: not a version id, or not a real date.
    """
    m = _VERSION_RE.fullmatch(version)
    if m is None:
        raise ValueError(f"not a version id: {version!r}")
    day, clock = m.group(1), m.group(2)
    moment = datetime(
        int(day[:4]), int(day[4:6]), int(day[6:]), int(clock[:2]), int(clock[2:4]), int(clock[4:]), tzinfo=UTC
    )
    return calendar.timegm(moment.utctimetuple()) * 1_000_000 + int(m.group(3))


def _label(text: str, limit: int) -> str:
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch in _KEY_SAFE else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        if size + len(piece) > limit:
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)


def _key(text: str, label_source: str, label_chars: int) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    label = _label(label_source, label_chars)
    return f"{label}-{digest[:24]}" if label else digest[:24]


class BackupStore:
    """Versions of vault files, kept under ``root`` (see the module docstring for layout and retention).

    Thread-safe; one store per data dir (one server process per data dir).
    """

    def __init__(self, root: Path, *, keep: int = KEEP_PER_FILE) -> None:
        """Open (creating, mode ``0700``) the store at ``root``.

        Args:
            root: ``<data_dir>/backups``; must be outside every vault (the data dir guarantees it).
            keep: versions kept per file, newest first; ``0`` = keep everything.

        Raises:
            OSError: ``root`` cannot be created.
        """
        root = make_private_dir(Path(root).expanduser(), tighten=True)
        self.root = Path(os.path.realpath(root))
        self.keep = max(0, int(keep))
        self._lock = threading.Lock()
        self._last_us = 0

    # -- locations -------------------------------------------------------------------------------

    def _folder(self, vault: str, rel: str, *, create: bool) -> Path | None:
        """``root/<vault key>/<path key>``; ``None`` when it does not exist and ``create`` is false.

        Raises:
            BackupArgumentError: an empty vault name.
            BackupFailedError: a component exists but is not a real folder (e.g. a symlink).
        """
        _check_vault(vault)
        vdir = self.root / _key(vault, vault, 64)
        fdir = vdir / _key(rel, PurePosixPath(rel).name, 80)
        for d in (vdir, fdir):
            if create:
                try:
                    os.mkdir(d, 0o700)
                except FileExistsError:
                    pass
                except OSError as exc:
                    # chained: services answer a full disk as such (services.errors.is_storage_full)
                    raise BackupFailedError(f"cannot create the backup folder: {exc.strerror or exc}") from exc
            try:
                st = os.lstat(d)
            except FileNotFoundError:
                return None
            if not stat.S_ISDIR(st.st_mode):
                raise BackupFailedError("the backup store is damaged: a backup folder is not a real folder")
        return fdir

    def _new_version(self, fdir: Path) -> str:
        """A fresh version id, later than every id this process issued and every version in ``fdir``."""
        newest = 0
        try:
            for name in os.listdir(fdir):
                stem = name.rsplit(".", 1)[0]
                if is_version_id(stem):
                    try:
                        newest = max(newest, _version_us(stem))
                    except ValueError:
                        continue
        except OSError:
            pass
        with self._lock:
            us = max(time.time_ns() // 1000, self._last_us + 1, newest + 1)
            self._last_us = us
        secs, micros = divmod(us, 1_000_000)
        stamp = datetime.fromtimestamp(secs, tz=UTC).strftime("%Y%m%dT%H%M%S")
        return f"{stamp}.{micros:06d}Z-{secrets.token_hex(2)}"

    # -- writing ---------------------------------------------------------------------------------

    def save(self, vault: str, path: str, data: bytes, *, reason: str, deleted: bool | None = None) -> str:
        """Store ``data`` as a new version of ``path`` in ``vault`` and return its version id.

        Args:
            vault: vault name.
            path: normalised vault-relative path (``services.paths.normalize_rel``; checked again here).
            data: the file's bytes as they are before the change.
            reason: what is about to happen, e.g. ``"edit_file"``, ``"delete_file"``, ``"rename_file"``.
            deleted: the file is being removed from the vault (the backup is now its only copy). Default:
                true when ``reason`` starts with ``"delete"``.

        Returns:
            The version id, e.g. ``"20261130T120501.123456Z-3f2a"``.

        Raises:
            BackupArgumentError: an invalid path or vault name.
            BackupFailedError: the backup could not be written; the caller must not go on with the change.
            TypeError: ``data`` is not bytes.
        """
        rel = _check_rel(path)
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("data must be bytes")
        data = bytes(data)
        fdir = self._folder(vault, rel, create=True)
        assert fdir is not None
        try:
            for _ in range(8):
                version = self._new_version(fdir)
                try:
                    atomic_write(fdir / f"{version}.bin", data, exclusive=True, mode=0o600)
                except FileExistsError:
                    continue
                break
            else:
                raise BackupFailedError("could not allocate a backup version id")
            meta = {
                "version": version,
                "path": rel,
                "vault": vault,
                "created": datetime.fromtimestamp(_version_us(version) // 1_000_000, tz=UTC).isoformat(),
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "reason": str(reason),
                "deleted": str(reason).startswith("delete") if deleted is None else bool(deleted),
            }
            try:
                atomic_write(
                    fdir / f"{version}.json",
                    json.dumps(meta, ensure_ascii=False).encode("utf-8"),
                    exclusive=True,
                    mode=0o600,
                )
            except BaseException:
                try:
                    os.unlink(fdir / f"{version}.bin")
                except OSError:
                    pass
                raise
        except OSError as exc:
            raise BackupFailedError(f"could not save a backup of {rel!r}: {exc.strerror or exc}") from exc
        if self.keep:
            self.prune(vault, rel)
        return version

    def prune(self, vault: str, path: str, keep: int | None = None) -> int:
        """Delete all but the newest ``keep`` versions of ``path`` (default: the store's ``keep``; ``0`` =
        keep everything). Returns how many versions were removed.

        Raises:
            BackupArgumentError: an invalid path or vault name. BackupFailedError: a folder of the store is not
                a real folder.
        """
        keep = self.keep if keep is None else max(0, int(keep))
        if not keep:
            return 0
        rel = _check_rel(path)
        fdir = self._folder(vault, rel, create=False)
        if fdir is None:
            return 0
        stems = sorted(
            {n.rsplit(".", 1)[0] for n in os.listdir(fdir) if is_version_id(n.rsplit(".", 1)[0])}, reverse=True
        )
        removed = 0
        for stem in stems[keep:]:
            for suffix in (".json", ".bin"):  # sidecar first: the version disappears before its bytes
                try:
                    os.unlink(fdir / f"{stem}{suffix}")
                except FileNotFoundError:
                    pass
            removed += 1
        return removed

    # -- reading ---------------------------------------------------------------------------------

    @staticmethod
    def _read_file(path: Path) -> bytes:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise OSError("not a regular file")
            return f.read()

    def _meta(self, fdir: Path, version: str, rel: str) -> dict[str, Any] | None:
        try:
            meta = json.loads(self._read_file(fdir / f"{version}.json"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("backup sidecar %s/%s.json is unreadable: %s", fdir, version, exc)
            return None
        if not isinstance(meta, dict) or meta.get("version") != version or meta.get("path") != rel:
            log.warning("backup sidecar %s/%s.json does not match its name", fdir, version)
            return None
        return meta

    def versions(self, vault: str, path: str) -> list[dict[str, Any]]:
        """The stored versions of ``path``, newest first: ``[{"version", "created" (ISO 8601 UTC, seconds),
        "size" (bytes), "sha256" (hex), "reason", "deleted"}]``; ``[]`` when there are none.

        Raises:
            BackupArgumentError: an invalid path or vault name. BackupFailedError: a folder of the store is not
                a real folder.
        """
        rel = _check_rel(path)
        fdir = self._folder(vault, rel, create=False)
        if fdir is None:
            return []
        out: list[dict[str, Any]] = []
        for name in os.listdir(fdir):
            stem, _, suffix = name.rpartition(".")
            if suffix != "json" or not is_version_id(stem):
                continue
            meta = self._meta(fdir, stem, rel)
            if meta is None:
                continue
            out.append(
                {
                    "version": stem,
                    "created": str(meta.get("created", "")),
                    "size": int(meta.get("size", 0)),
                    "sha256": str(meta.get("sha256", "")),
                    "reason": str(meta.get("reason", "")),
                    "deleted": bool(meta.get("deleted", False)),
                }
            )
        out.sort(key=lambda v: v["version"], reverse=True)
        return out

    def files(self, vault: str) -> list[dict[str, Any]]:
        """Every path of ``vault`` with backups, most recently backed up first: ``[{"path", "versions",
        "latest" (version id), "created", "reason", "deleted" (the latest backup holds a deleted file)}]``.
        This is how a deleted note or folder is found again without knowing its old path.

        Raises:
            BackupArgumentError: an empty vault name.
        """
        vdir = self.root / _key(_check_vault(vault), vault, 64)
        if not vdir.is_dir() or vdir.is_symlink():
            return []
        out = []
        for entry in os.scandir(vdir):
            if not entry.is_dir(follow_symlinks=False):
                continue
            stems = sorted((n.rpartition(".")[0] for n in os.listdir(entry.path) if n.endswith(".json")), reverse=True)
            stems = [v for v in stems if is_version_id(v)]
            if not stems:
                continue
            try:
                meta = json.loads(self._read_file(Path(entry.path) / f"{stems[0]}.json"))
            except (OSError, ValueError):
                continue
            if not isinstance(meta, dict) or not isinstance(meta.get("path"), str):
                continue
            out.append(
                {
                    "path": meta["path"],
                    "versions": len(stems),
                    "latest": stems[0],
                    "created": str(meta.get("created", "")),
                    "reason": str(meta.get("reason", "")),
                    "deleted": bool(meta.get("deleted", False)),
                }
            )
        out.sort(key=lambda f: f["latest"], reverse=True)
        return out

    def info(self, vault: str, path: str, version: str) -> dict[str, Any]:
        """The sidecar of one version: ``{"version", "path", "vault", "created", "size", "sha256", "reason",
        "deleted"}``.

        Raises:
            BackupArgumentError: ``version`` is not a version id, or an invalid path or vault name.
            BackupNotFoundError: no such version of this file.
        """
        version = _check_version(version)
        rel = _check_rel(path)
        fdir = self._folder(vault, rel, create=False)
        meta = self._meta(fdir, version, rel) if fdir is not None else None
        if meta is None:
            raise BackupNotFoundError(
                f"no backup {version!r} of {rel!r} in vault {vault!r}",
                hint="call list_backups to see the versions of this file",
            )
        return meta

    def read(self, vault: str, path: str, version: str) -> bytes:
        """The exact bytes saved as ``version`` of ``path``.

        Raises:
            BackupArgumentError: ``version`` is not a version id, or an invalid path or vault name.
            BackupNotFoundError: no such version of this file.
            BackupDamagedError: the stored bytes cannot be read or no longer match their checksum.
        """
        meta = self.info(vault, path, version)
        fdir = self._folder(vault, meta["path"], create=False)
        assert fdir is not None
        try:
            data = self._read_file(fdir / f"{version}.bin")
        except FileNotFoundError:
            raise BackupNotFoundError(
                f"backup {version!r} of {meta['path']!r} was removed", hint="call list_backups"
            ) from None
        except OSError as exc:
            raise BackupDamagedError(f"backup {version!r} cannot be read: {exc.strerror or exc}") from None
        if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
            raise BackupDamagedError(f"backup {version!r} of {meta['path']!r} is damaged (checksum mismatch)")
        return data

    def diff(
        self,
        vault: str,
        path: str,
        version: str,
        compare_with: str | None = None,
        current: bytes | None = None,
        *,
        max_chars: int = MAX_DIFF_CHARS,
    ) -> tuple[str, bool]:
        """Unified diff from backup ``version`` to ``compare_with`` (another version id) or, when that is
        ``None``, to ``current`` (the file's bytes now; ``None`` = the file is absent). Redacted and cut to
        ``max_chars``; see :func:`~obsigate.domain.diff.redacted_diff` for binaries, size bounds and the empty
        result of identical versions.

        Returns:
            ``(diff, truncated)`` as :func:`~obsigate.domain.diff.redacted_diff` returns them.

        Raises:
            BackupArgumentError: a malformed version id (``version`` or ``compare_with``).
            BackupNotFoundError: an unknown version. BackupDamagedError: as :meth:`read`.
        """
        rel = _check_rel(path)
        old = self.read(vault, rel, version)
        if compare_with is not None:
            new: bytes | None = self.read(vault, rel, _check_version(compare_with, "compare_with"))
            new_label = f"{rel} @ {compare_with}"
        else:
            new = current
            new_label = f"{rel} (current)" if current is not None else f"{rel} (absent now)"
        return redacted_diff(
            old, new, path=rel, old_label=f"{rel} @ {version}", new_label=new_label, max_chars=max_chars
        )
