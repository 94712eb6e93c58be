"""Vault model and filesystem walk.

A vault is a folder. Its files are named by *vault-relative POSIX paths* in Unicode NFC (macOS may store NFD
names; Obsidian compares NFC, `shared/reference/obsidian.md` §12). What is never part of a vault:

* hidden entries: any path segment starting with ``.`` (``.obsidian/``, ``.trash/``, ``.git/``, ``.DS_Store``;
  obsidian.md §1);
* editor and sync temporary files (vim swap, ``4913``, ``*~``, Emacs locks, ``*.tmp``, partial downloads,
  Office/LibreOffice locks, ``*.sb-*`` safe-save copies...), see :func:`is_editor_temp`;
* anything that is not a regular file or folder (FIFOs, sockets, devices);
* symlinks whose real target is outside the vault root, dangling symlinks, and symlinked folders that would
  loop (target is the folder itself or one of its ancestors). Symlinks whose real target stays inside the root
  **are followed** (Obsidian does the same, obsidian.md §1): the target's content is listed under the link's own
  path, so a file reachable through a link appears twice. Confinement is checked on the resolved path
  (security.md §1.3).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from obsigate.domain.text import nfc

__all__ = [
    "FileEntry",
    "created_ns",
    "Vault",
    "decode_note",
    "is_editor_temp",
    "is_hidden",
    "is_note",
    "iter_files",
    "note_title",
    "walk",
]

log = logging.getLogger(__name__)

MAX_DEPTH = 64  # folders deeper than this are not walked (guards against pathological symlink chains)


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


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file of a vault as seen by the walk.

    Attributes:
        path: vault-relative POSIX path, NFC (``"projects/Plan.md"``).
        size: size in bytes (of the symlink target for a followed symlink).
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


_RESERVED = set('\\:*?"<>|')


def is_servable_name(name: str) -> bool:
    """Whether one file or folder name can be served: not hidden, and spellable by every API path.

    Refused: dot-names, control characters, Windows-reserved characters (backslash and ``: * ? " < > |``),
    and leading/trailing spaces or a trailing dot. The path guard refuses the same names, so a file the walker
    lists can always be read (``shared/reference/security.md`` §1.3).
    """
    return bool(
        name
        and not name.startswith(".")
        and not _CONTROL.search(name)
        and not (_RESERVED & set(name))
        and name == name.strip()
        and not name.endswith(".")
    )


def _inside(root: str, real: str) -> bool:
    return real == root or real.startswith(root.rstrip("/") + "/")


def is_visible_real_path(root: str, real: str) -> bool:
    """Whether a resolved path is inside ``root`` and reaches no hidden entry (a symlink to ``.obsidian/x``
    or into ``.trash`` is as hidden as its target)."""
    if not _inside(root, real):
        return False
    rel = real[len(root.rstrip("/")) + 1 :]
    return not any(seg.startswith(".") for seg in rel.split("/") if seg)


def walk(vault: Vault, under: str = "") -> Iterator[tuple[FileEntry, str]]:
    """Like :func:`iter_files` but also yields the OS path to open (it may be spelled NFD on disk).

    Args:
        vault: the vault to walk.
        under: optional vault-relative folder (NFC, ``/``-separated) to walk instead of the whole vault;
            nothing is yielded if it is not a walkable folder of the vault (hidden, outside, missing).

    Yields ``(entry, os_path)``; ``os_path`` is the spelled path (through followed symlinks), for ``open()``.
    """
    root = str(vault.root)
    try:
        st = os.stat(root)
    except OSError as exc:
        log.warning("vault %s: cannot read root %s: %s", vault.name, root, exc)
        return
    ancestors = {(st.st_dev, st.st_ino)}
    start, rel = root, ""
    if under.strip("/"):
        start = os_path(vault, under.strip("/")) or ""
        if not start or not _inside(root, os.path.realpath(start)):
            return
        rel = under.strip("/")
        cur = root
        for seg in os.path.relpath(start, root).split(os.sep):
            cur = os.path.join(cur, seg)
            try:
                cst = os.stat(cur)
            except OSError:
                return
            if not stat.S_ISDIR(cst.st_mode) or (cst.st_dev, cst.st_ino) in ancestors:
                return
            ancestors.add((cst.st_dev, cst.st_ino))
    yield from _walk_dir(vault.name, root, start, rel, ancestors, rel.count("/") + bool(rel), set())


def _walk_dir(
    vault: str,
    root: str,
    dir_path: str,
    rel_dir: str,
    ancestors: set[tuple[int, int]],
    depth: int,
    seen: set[str],
) -> Iterator[tuple[FileEntry, str]]:
    try:
        with os.scandir(dir_path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        log.warning("vault %s: cannot list %s: %s", vault, dir_path, exc)
        return
    for e in entries:
        name = e.name
        if not is_servable_name(name):
            continue  # hidden, or a name no API path can spell
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            log.warning("vault %s: skipping a name that is not valid UTF-8 in %s", vault, dir_path)
            continue
        name_nfc = nfc(name)
        rel = f"{rel_dir}/{name_nfc}" if rel_dir else name_nfc
        try:
            is_link = e.is_symlink()
            if is_link:
                real = os.path.realpath(e.path)
                if not is_visible_real_path(root, real):
                    log.info("vault %s: symlink %s points outside the vault or to a hidden entry; not followed", vault, rel)
                    continue
            st = e.stat(follow_symlinks=True)
        except OSError:  # dangling symlink, vanished entry, permission
            continue
        if stat.S_ISDIR(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                log.info("vault %s: symlinked folder %s would loop; not followed", vault, rel)
                continue
            if depth + 1 > MAX_DEPTH:
                log.warning("vault %s: %s is deeper than %d folders; not walked", vault, rel, MAX_DEPTH)
                continue
            yield from _walk_dir(vault, root, e.path, rel, ancestors | {key}, depth + 1, seen)
        elif stat.S_ISREG(st.st_mode):
            if is_editor_temp(name_nfc):
                continue
            if rel in seen:  # two spellings (NFC/NFD) of one name in one folder
                log.warning("vault %s: duplicate path after NFC normalisation: %s; skipped", vault, rel)
                continue
            seen.add(rel)
            yield FileEntry(rel, st.st_size, st.st_mtime_ns, created_ns(st)), e.path


def iter_files(vault: Vault) -> Iterator[FileEntry]:
    """Walk ``vault.root`` with ``os.scandir`` and yield every vault file, depth-first, names sorted by code point.

    Never yields hidden entries, editor/sync temporary files, non-regular files, or anything reached through
    a symlink that resolves outside the root; symlinked folders are followed unless they loop back to an
    ancestor (or the folder itself). Unreadable folders are skipped (logged). Deterministic for a given tree.
    """
    for entry, _ in walk(vault):
        yield entry


def os_path(vault: Vault, rel_path: str) -> str | None:
    """Absolute OS path for the vault-relative NFC ``rel_path``, or ``None`` if it is not a vault file path.

    Returns ``None`` for absolute paths, ``..`` or empty segments, hidden paths and editor temp files. The
    path is spelled, not resolved: the caller still checks that its real path stays inside the root. If the
    file is absent as spelled but its folder holds a differently normalised (e.g. NFD) spelling, that
    spelling is returned.
    """
    if not rel_path or rel_path.startswith("/") or "\x00" in rel_path or "\\" in rel_path:
        return None
    segs = rel_path.split("/")
    if any(s in ("", ".", "..") for s in segs) or is_hidden(rel_path) or is_editor_temp(segs[-1]):
        return None
    full = os.path.join(str(vault.root), *segs)
    if os.path.lexists(full) or rel_path.isascii():
        return full
    # fall back to a name-by-name NFC match (files synced from macOS keep NFD names on Linux)
    cur = str(vault.root)
    for seg in segs:
        cand = os.path.join(cur, seg)
        if not os.path.lexists(cand):
            try:
                names = os.listdir(cur)
            except OSError:
                return full
            match = next((n for n in names if nfc(n) == seg), None)
            if match is None:
                return full
            cand = os.path.join(cur, match)
        cur = cand
    return cur
