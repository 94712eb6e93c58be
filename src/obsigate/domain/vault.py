"""Vault model and filesystem walk.

A vault is a folder. Its files are named by *vault-relative POSIX paths* in Unicode NFC (macOS may store NFD
names; Obsidian compares NFC, `shared/reference/obsidian.md` §12). What is never part of a vault:

* hidden entries: any path segment starting with ``.`` (``.obsidian/``, ``.trash/``, ``.git/``, ``.DS_Store``;
  obsidian.md §1);
* editor and sync temporary files (vim swap, ``4913``, ``*~``, Emacs locks, ``*.tmp``, partial downloads,
  Office/LibreOffice locks, ``*.sb-*`` safe-save copies...), see :func:`is_editor_temp`;
* anything that is not a regular file or folder (FIFOs, sockets, devices);
* **symlinks, all of them**, whether they point inside the vault or not (Obsidian follows links that stay
  inside; ObsiGate does not, ``shared/reference/security.md`` §0: "no symlinks inside vaults, ever"). A link's
  target can change between a check and a use, so a link is never listed, opened or written through
  (``domain/storage/vault_fs.py``, issue 16).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from obsigate.domain.storage import vault_fs
from obsigate.domain.text import has_lone_surrogate, nfc

__all__ = [
    "FileEntry",
    "Vault",
    "created_ns",
    "decode_note",
    "folders_of",
    "is_editor_temp",
    "is_hidden",
    "is_note",
    "is_portable_name",
    "is_servable_name",
    "iter_files",
    "note_title",
    "walk",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Vault:
    """A declared vault.

    Attributes:
        name: the vault's name (``[A-Za-z0-9_.-]``, checked by the configuration layer).
        root: absolute, symlink-resolved folder path. A relative or unresolved ``root`` is resolved with
            ``os.path.realpath`` at construction, so the invariant always holds.
        read_only: refuse every write (enforced by the services layer).
    """

    name: str
    root: Path
    read_only: bool = False

    def __post_init__(self) -> None:
        real = Path(os.path.realpath(self.root))
        if real != self.root:
            object.__setattr__(self, "root", real)
        vault_fs.pin(real)  # a later swap of this folder (for a symlink) is refused, never followed


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file of a vault as seen by the walk.

    Attributes:
        path: vault-relative POSIX path, NFC (``"projects/Plan.md"``).
        size: size in bytes.
        mtime_ns: modification time in nanoseconds since the epoch.
        created_ns: creation time in nanoseconds since the epoch, see :func:`created_ns` (0 when unknown).
    """

    path: str
    size: int
    mtime_ns: int
    created_ns: int = 0


def created_ns(st: os.stat_result) -> int:
    """A file's creation time in nanoseconds since the epoch, as Obsidian's ``file.stat.ctime`` reports it.

    The birth time where the OS gives it (``st_birthtime``: macOS, Windows, BSD); otherwise (Linux, Python
    3.11) the inode change time ``st_ctime_ns``, which equals the creation time for a file never renamed or
    chmod-ed since, and is capped at the modification time so "created" never comes after "modified".
    """
    birth = getattr(st, "st_birthtime_ns", None) or int(getattr(st, "st_birthtime", 0) * 1e9)
    if birth:
        return birth
    return min(st.st_ctime_ns, st.st_mtime_ns)


def note_title(path: str) -> str:
    """What Obsidian shows as a file's title: its name without ``.md`` (``"a/Plan.md"`` → ``"Plan"``); other
    files keep their extension (``"img/pic.png"`` → ``"pic.png"``)."""
    name = path.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def is_hidden(rel_path: str) -> bool:
    """True if any segment of ``rel_path`` (``/``-separated) starts with ``.`` (``.obsidian/x``, ``a/.git``)."""
    return any(seg.startswith(".") for seg in rel_path.split("/"))


_TEMP_EXACT = frozenset({"4913"})  # vim's "can I write here" probe file
_TEMP_RE = re.compile(
    r"""(
        \.sw[nopx]$            # vim swap (.swp, .swo, .swn) and .swx probe
      | ~$                     # backup files: note.md~
      | ^\.\#                  # Emacs lock: .#note.md
      | ^\#.*\#$               # Emacs auto-save: #note.md#
      | \.(tmp|temp)$          # generic temporaries (also ~note.tmp)
      | ^\.goutputstream-      # GLib/GNOME atomic write
      | \.(crdownload|part|partial|download)$   # partial downloads
      | ^~\$                   # MS Office owner file: ~$report.docx
      | ^\.~lock\..*\#$        # LibreOffice lock: .~lock.report.odt#
      | \.sb-[^.]*$           # macOS safe-save copies (note.md.sb-1a2b3c4d-XyZ12): Obsidian/iCloud sync
      | \.kate-swp$            # Kate swap
      | ___jb_(tmp|old)___$    # JetBrains safe write
      | ^\.syncthing\..*\.tmp$ # Syncthing partial file
      | ^\.!\d+!               # Resilio/BitTorrent Sync partial
    )""",
    re.VERBOSE | re.IGNORECASE,
)


def is_editor_temp(name: str) -> bool:
    """True if the file *name* (a basename; a path is reduced to its last segment) is an editor/sync temporary.

    Matches: vim ``*.swp``/``*.swo``/``*.swn``/``*.swx`` and ``4913``; ``*~``; Emacs ``.#*`` and ``#*#``;
    ``*.tmp``/``*.temp``; ``.goutputstream-*``; ``*.crdownload``/``*.part``/``*.partial``/``*.download``;
    Office ``~$*``; LibreOffice ``.~lock.*#``; macOS/Obsidian sync safe-save ``*.sb-*`` (no dot after
    ``.sb-``, so ``plan.sb-draft.md`` stays a note);
    ``*.kate-swp``; JetBrains ``*___jb_tmp___``/``*___jb_old___``; Syncthing ``.syncthing.*.tmp``;
    Resilio ``.!NNNN!*``. Extensions are compared case-insensitively.
    """
    name = name.rsplit("/", 1)[-1]
    return name in _TEMP_EXACT or _TEMP_RE.search(name) is not None


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder holding one of the vault-relative ``paths`` (their ancestors), without the root:
    ``{"a/b/c.md"}`` → ``{"a", "a/b"}``."""
    out: set[str] = set()
    for path in paths:
        parent = path.rpartition("/")[0]
        while parent and parent not in out:
            out.add(parent)
            parent = parent.rpartition("/")[0]
    return out


def is_note(rel_path: str) -> bool:
    """True for a markdown note: the name ends with ``.md`` in any case (``A.MD`` too)."""
    return rel_path.lower().endswith(".md")


def decode_note(raw: bytes) -> str:
    """Decode note bytes as strict UTF-8, dropping one leading BOM.

    Raises:
        UnicodeDecodeError: the bytes are not valid UTF-8 (the caller records an ``invalid_utf8`` diagnostic).
    """
    return raw.decode("utf-8-sig")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


_WINDOWS_RESERVED = frozenset(':*?"<>|')


def is_servable_name(name: str) -> bool:
    """Whether one file or folder name can be served: not hidden, and spellable by every API path.

    Refused: dot-names, control characters, the backslash (a separator elsewhere), leading/trailing spaces or
    a trailing dot, and names that are not valid UTF-8 on disk (``os.listdir`` gives their bytes as lone
    surrogates, which no JSON answer can carry; Obsidian cannot show them either). The path guard refuses the
    same names, so a file the walker lists can always be read.
    Names with ``: * ? " < > |`` are served: they are legal on Linux and macOS, and every path is opened from
    the vault's root descriptor, where no drive letter or stream name means anything (issue 16). New names
    must also pass :func:`is_portable_name`.
    """
    return bool(
        name
        and not name.startswith(".")
        and not _CONTROL.search(name)
        and "\\" not in name
        and name == name.strip()
        and not name.endswith(".")
        and not has_lone_surrogate(name)
    )


_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)


def is_portable_name(name: str) -> bool:
    """Whether a *new* file or folder name is one every vault's disk can hold: servable, none of the
    characters Windows reserves (``: * ? " < > |``), and not a Windows device name (``CON``, ``nul.md``,
    ``COM1``...), so a vault synced to Windows keeps it."""
    device = name.split(".", 1)[0].strip().lower() in _WINDOWS_DEVICES
    return is_servable_name(name) and not (_WINDOWS_RESERVED & set(name)) and not device


def walk(vault: Vault, under: str = "") -> Iterator[tuple[FileEntry, str]]:
    """Like :func:`iter_files`, also yielding each file's path as spelled on disk (NFD names stay NFD), which
    :mod:`~obsigate.domain.storage.vault_fs` opens without a folder scan.

    Args:
        vault: the vault to walk.
        under: optional vault-relative folder (NFC, ``/``-separated) to walk instead of the whole vault;
            nothing is yielded if it is not a walkable folder of the vault (hidden, a symlink, missing).

    Yields ``(entry, disk_path)``. The walk never follows a symlink (see :mod:`vault_fs`).
    """
    under = under.strip("/")
    if under and not all(is_servable_name(seg) for seg in under.split("/")):
        return
    seen: set[str] = set()
    try:
        for disk_rel, st in vault_fs.walk(vault.root, under, descend=is_servable_name):
            name = disk_rel.rsplit("/", 1)[-1]
            if not is_servable_name(name):
                if has_lone_surrogate(name):
                    log.warning("vault %s: skipping a name that is not valid UTF-8: %r", vault.name, disk_rel)
                continue  # hidden, or a name no API path can spell
            if stat.S_ISLNK(st.st_mode):
                log.info("vault %s: %s is a symlink; symlinks inside a vault are never followed", vault.name, disk_rel)
                continue
            if not stat.S_ISREG(st.st_mode) or is_editor_temp(name):
                continue
            if st.st_nlink > 1:
                log.info(
                    "vault %s: %s is hard-linked; such files are never read (another name may be outside)",
                    vault.name,
                    disk_rel,
                )
                continue
            rel = nfc(disk_rel)
            if rel in seen:  # two spellings (NFC/NFD) of one name in one folder
                log.warning("vault %s: duplicate path after NFC normalisation: %s; skipped", vault.name, rel)
                continue
            seen.add(rel)
            yield FileEntry(rel, st.st_size, st.st_mtime_ns, created_ns(st)), disk_rel
    except FileNotFoundError:
        if not under:
            log.warning("vault %s: cannot read its folder %s", vault.name, vault.root)
    except (vault_fs.OutsideVault, NotADirectoryError):
        return
    except OSError as exc:
        log.warning("vault %s: cannot walk %r: %s", vault.name, under, exc)


def iter_files(vault: Vault) -> Iterator[FileEntry]:
    """Walk ``vault.root`` with ``os.scandir`` and yield every vault file, depth-first, names sorted by code point.

    Never yields hidden entries, editor/sync temporary files, non-regular files or symlinks, and never enters
    a hidden folder or a symlinked one. Unreadable folders are skipped. Deterministic for a given tree.
    """
    for entry, _ in walk(vault):
        yield entry
