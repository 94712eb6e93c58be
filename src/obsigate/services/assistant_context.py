"""The in-app assistant's context (BooksLM): which files of a vault a conversation starts from, redacted and
within the size caps (``shared/seeds`` design doc §2.2, ad-hoc ``@`` context §6bis).

Three modes: ``directory`` (the text files of one folder, at any depth, and a tree of it), ``files`` (exactly
the files named) and ``general`` (no file: the vault names in scope and, with a vault, its top-level tree).
The ``@``-mentions (``extra_files``, ``extra_directories``) join any mode. Candidates are taken in this
order, each path once at its first place: the files named (``files``, then ``extra_files``), then the files
of the folders (``directory``, then ``extra_directories``), so the caps cut folder contents before what the
person named.

Caps (:class:`~obsigate.services.workspace.Limits`): a file over ``context_max_file_chars`` is cut with a
marker; once ``context_max_files`` files or ``context_max_total_chars`` characters are in, the remaining
candidates are skipped (``too_many_files``, ``total_chars``). Every cut and every skipped file is reported.

Files are listed by the listing service (``services.vaults.file_paths``: hidden entries, editor
temporaries and escaping symlinks never appear) and read by ``services.files.note_text`` (the one path guard,
redaction), behind a small cache of the redacted text keyed by the file's ``(mtime_ns, size)``.
"""

from __future__ import annotations

import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from obsigate.domain.redaction import redact_text
from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault
from obsigate.services import files as files_svc
from obsigate.services import vaults as vaults_svc
from obsigate.services.errors import BadRequest, NotFound, PayloadTooLarge, ServiceError
from obsigate.services.paths import fs_errors, resolve_safe_path
from obsigate.services.workspace import Workspace

__all__ = [
    "CACHE",
    "MODES",
    "AssistantContext",
    "ContextCache",
    "ContextFile",
    "Skipped",
    "collect_context",
]

MODES = ("directory", "files", "general")
#: A file larger than this is never read for a context (reason ``too_large``): only a prefix would fit the
#: caps, and redacting a prefix could leave half a secret at the cut.
MAX_FILE_BYTES = 8 * 1024 * 1024
TREE_MAX_LINES = 300  # the tree is a map for the model, not a listing: bounded whatever the folder holds
MAX_SKIPPED_LISTED = 100  # beyond this, skipped files are only counted (``skipped_more``)


@dataclass(frozen=True, slots=True)
class ContextFile:
    """One file of the context: ``path`` (vault-relative), ``content`` (redacted text, cut to the caps, with
    a marker line when cut), ``chars`` (characters of the file's text included, marker excluded),
    ``full_chars`` (of the whole redacted file) and ``truncated`` (``chars < full_chars``)."""

    path: str
    content: str
    chars: int
    full_chars: int
    truncated: bool


@dataclass(frozen=True, slots=True)
class Skipped:
    """A candidate left out, and why: ``too_many_files``, ``total_chars`` (a cap was reached), ``not_text``
    (a binary file), ``not_found``, ``is_a_directory``, ``not_a_file``, ``too_large`` (over
    :data:`MAX_FILE_BYTES`)."""

    path: str
    reason: str


@dataclass(slots=True)
class AssistantContext:
    """What the assistant would send a model. ``tree`` is an indented text tree (``None`` in ``files`` mode and
    in ``general`` mode without a vault); ``vaults`` the vault names in scope (``general`` mode);
    ``skipped_more`` how many skipped files are not listed in ``skipped`` (at most
    :data:`MAX_SKIPPED_LISTED` are); ``total_chars`` the sum of ``files[].chars``; ``truncated`` whether
    anything was cut or left out by a cap; ``limits`` the caps applied."""

    mode: str
    vault: str | None
    directory: str | None
    tree: str | None
    files: list[ContextFile]
    skipped: list[Skipped]
    total_chars: int
    truncated: bool
    limits: dict[str, int]
    vaults: list[str] = field(default_factory=list)
    skipped_more: int = 0

    def to_dict(self, *, include_content: bool = True) -> dict[str, Any]:
        """JSON-safe form: ``{"mode", "vault", "directory", "tree", "vaults", "files": [{"path", "chars",
        "full_chars", "truncated", "content"?}], "skipped": [{"path", "reason"}], "skipped_more",
        "total_chars", "truncated", "limits"}``; ``content`` only with ``include_content``."""
        listed = []
        for f in self.files:
            item: dict[str, Any] = {
                "path": f.path, "chars": f.chars, "full_chars": f.full_chars, "truncated": f.truncated,
            }  # fmt: skip
            if include_content:
                item["content"] = f.content
            listed.append(item)
        return {
            "mode": self.mode,
            "vault": self.vault,
            "directory": self.directory,
            "tree": self.tree,
            "vaults": list(self.vaults),
            "files": listed,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "skipped_more": self.skipped_more,
            "total_chars": self.total_chars,
            "truncated": self.truncated,
            "limits": dict(self.limits),
        }


class ContextCache:
    """The redacted text of recently read files, thread-safe: one entry per ``(vault root, path)``, valid while
    the file's ``(mtime_ns, size)`` is unchanged and for ``ttl_s`` seconds (default 300, the seeds' 5 minutes).
    At most ``max_entries`` entries and ``max_chars`` characters are kept (least recently used dropped first).
    ``hits`` and ``misses`` count lookups (a miss is a disk read)."""

    def __init__(
        self,
        *,
        ttl_s: float = 300.0,
        max_entries: int = 512,
        max_chars: int = 16_000_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, str], tuple[int, int, float, str]] = OrderedDict()
        self._chars = 0
        self.hits = 0
        self.misses = 0

    def get(self, vault: Vault, rel: str, mtime_ns: int, size: int) -> str | None:
        """The cached text of ``rel`` if it was read at this ``(mtime_ns, size)`` less than ``ttl_s`` ago."""
        key = (str(vault.root), rel)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[:2] == (mtime_ns, size) and self._clock() - entry[2] < self.ttl_s:
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[3]
            self.misses += 1
            return None

    def put(self, vault: Vault, rel: str, mtime_ns: int, size: int, text: str) -> None:
        """Keep ``text`` for ``rel`` at ``(mtime_ns, size)``, replacing an older version of it."""
        if len(text) > self.max_chars // 4:
            return  # one huge file must not flush everything else
        key = (str(vault.root), rel)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._chars -= len(old[3])
            self._entries[key] = (mtime_ns, size, self._clock(), text)
            self._chars += len(text)
            while len(self._entries) > self.max_entries or self._chars > self.max_chars:
                _, dropped = self._entries.popitem(last=False)
                self._chars -= len(dropped[3])

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        with self._lock:
            self._entries.clear()
            self._chars = 0
            self.hits = self.misses = 0


#: The process-wide cache (entries are keyed by the vault's root, so workspaces never see each other's).
CACHE = ContextCache()


def _read(vault: Vault, rel: str, cache: ContextCache) -> str:
    """The redacted text of ``rel`` (already through the path guard), from ``cache`` when unchanged.

    Raises:
        ServiceError: ``not_found``, ``is_a_directory``, ``not_a_file``, ``not_text``, ``too_large``.
    """
    try:
        with fs_errors(rel):
            st = vault_fs.lstat(vault.root, rel)
    except OSError:
        raise NotFound(f"file {rel!r} does not exist in vault {vault.name!r}") from None
    if stat.S_ISDIR(st.st_mode):
        raise BadRequest(f"{rel!r} is a folder", code="is_a_directory")
    if not stat.S_ISREG(st.st_mode):
        raise BadRequest(f"{rel!r} is not a regular file", code="not_a_file")
    if st.st_size > MAX_FILE_BYTES:
        raise PayloadTooLarge(f"{rel!r} is {st.st_size} bytes; the context reads files up to {MAX_FILE_BYTES}")
    text = cache.get(vault, rel, st.st_mtime_ns, st.st_size)
    if text is None:
        # keyed by the stat taken before the read: if the file changes in between, the next stat misses
        text = files_svc.note_text(vault, rel)
        cache.put(vault, rel, st.st_mtime_ns, st.st_size, text)
    return text


def _folder_files(ws: Workspace, vault: Vault, rel: str) -> list[str]:
    """Every visible file under folder ``rel`` (any depth), sorted by path.

    Raises:
        NotFound: no such folder (or a file).
    """
    return vaults_svc.file_paths(ws, vault, rel)


def _tree(root_label: str, base: str, paths: Sequence[str]) -> tuple[str, bool]:
    """An indented tree of ``paths`` (sorted, under folder ``base``) below ``root_label``, redacted, at most
    :data:`TREE_MAX_LINES` lines (the last one then says how many files are not shown), and whether it was
    cut."""
    lines = [f"{root_label}/"]
    skip = len(base) + 1 if base else 0
    opened: list[str] = []  # folder segments already printed on the way to the previous path
    for i, path in enumerate(paths):
        *folders, name = path[skip:].split("/")
        common = 0
        while common < min(len(opened), len(folders)) and opened[common] == folders[common]:
            common += 1
        new = [f"{'  ' * (depth + 1)}{seg}/" for depth, seg in enumerate(folders) if depth >= common]
        if len(lines) + len(new) + 2 > TREE_MAX_LINES:  # this path, and a line left for the marker
            lines.append(f"  ... {len(paths) - i} more files")
            return redact_text("\n".join(lines)), True
        lines += new
        lines.append(f"{'  ' * (len(folders) + 1)}{name}")
        opened = folders
    return redact_text("\n".join(lines)), False


def _top_level_tree(ws: Workspace, vault: Vault) -> tuple[str, bool]:
    """The vault's root folder as a redacted text tree: its folders (with their file counts), then its
    files; and whether entries were left out."""
    page = vaults_svc.browse_directory(ws, vault, "", limit=TREE_MAX_LINES - 1)
    lines = [f"{vault.name}/"]
    for e in page.entries:
        if e.type == "dir":
            count = e.files or 0
            lines.append(f"  {e.name}/ ({count} file{'' if count == 1 else 's'})")
        else:
            lines.append(f"  {e.name}")
    if page.truncated:
        lines.append(f"  ... {page.total - len(page.entries)} more entries")
    return redact_text("\n".join(lines)), page.truncated


def _dedupe(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def collect_context(
    ws: Workspace,
    vault: Vault | None,
    *,
    mode: str,
    directory: str | None = None,
    files: Sequence[str] = (),
    extra_files: Sequence[str] = (),
    extra_directories: Sequence[str] = (),
    vaults: Sequence[str] = (),
    cache: ContextCache | None = None,
) -> AssistantContext:
    """Collect the assistant's context (see the module docstring for the modes, the order and the caps).

    Args:
        vault: the vault the tool layer permitted (``None`` only in ``general`` mode without a vault).
        directory: ``directory`` mode's folder (``None`` or ``""``: the vault root).
        files: ``files`` mode's files. ``extra_files``/``extra_directories``: the ``@``-mentions, in ``vault``.
        vaults: the vault names in the caller's scope, reported in ``general`` mode.
        cache: default :data:`CACHE`.

    Every path named goes through the path guard before anything is read, so one bad path refuses the whole
    request. A missing named file or ``@``-folder is skipped (``not_found``); a missing ``directory`` is an
    error.

    Raises:
        BadRequest: an unknown ``mode``, ``files`` mode without files, a path argument without a vault,
            ``directory`` or ``files`` in ``general`` mode, a bad path (``invalid_argument``).
        PathOutsideVault: a path that leaves the vault or names a hidden entry.
        NotFound: ``directory`` does not exist (or is a file).
    """
    cache = CACHE if cache is None else cache
    if mode not in MODES:
        raise BadRequest(f"mode must be one of {', '.join(MODES)}")
    if mode == "files" and not files:
        raise BadRequest("files mode needs at least one file in 'files'")
    if mode == "general" and (directory or files):
        raise BadRequest("general mode takes no 'directory' or 'files'; use extra_files/extra_directories")
    if mode != "files" and files:
        raise BadRequest("'files' is for files mode; use extra_files to add files to another mode")
    if vault is None and (mode != "general" or extra_files or extra_directories):
        raise BadRequest(f"{mode} mode with files or folders needs a vault")
    limits = ws.limits
    caps = {
        "max_files": limits.context_max_files,
        "max_total_chars": limits.context_max_total_chars,
        "max_file_chars": limits.context_max_file_chars,
    }
    if vault is None:
        return AssistantContext(mode, None, None, None, [], [], 0, False, caps, list(vaults))

    # the path guard first, for every path named: nothing is read if one is refused
    named = _dedupe([resolve_safe_path(vault, p).rel for p in [*files, *extra_files]])
    main_dir = resolve_safe_path(vault, directory or "", allow_root=True).rel if mode == "directory" else None
    extra_dirs = _dedupe([resolve_safe_path(vault, d, allow_root=True).rel for d in extra_directories])

    skipped: list[Skipped] = []
    candidates = list(named)
    tree, truncated = None, False
    if main_dir is not None:
        listed = _folder_files(ws, vault, main_dir)  # NotFound: the request's own folder is missing
        tree, truncated = _tree(main_dir or vault.name, main_dir, listed)
        candidates += listed
    elif mode == "general":
        tree, truncated = _top_level_tree(ws, vault)
    for rel in extra_dirs:
        try:
            candidates += _folder_files(ws, vault, rel)
        except NotFound:
            skipped.append(Skipped(rel or "/", "not_found"))
    named_set = set(named)

    out: list[ContextFile] = []
    total = 0
    for rel in _dedupe(candidates):
        if rel not in named_set and not files_svc.is_text_path(rel):
            skipped.append(Skipped(rel, "not_text"))  # a folder's attachments: not read at all
            continue
        if len(out) >= limits.context_max_files:
            skipped.append(Skipped(rel, "too_many_files"))
            truncated = True
            continue
        room = limits.context_max_total_chars - total
        if room <= 0:
            skipped.append(Skipped(rel, "total_chars"))
            truncated = True
            continue
        try:
            text = _read(vault, rel, cache)
        except ServiceError as exc:
            skipped.append(Skipped(rel, exc.code))
            continue
        keep = min(len(text), limits.context_max_file_chars, room)
        content = text
        if keep < len(text):
            content = f"{text[:keep]}\n[... truncated: {keep} of {len(text)} characters shown]"
            truncated = True
        out.append(ContextFile(rel, content, keep, len(text), keep < len(text)))
        total += keep
    more = max(0, len(skipped) - MAX_SKIPPED_LISTED)
    return AssistantContext(
        mode=mode,
        vault=vault.name,
        directory=main_dir,
        tree=tree,
        files=out,
        skipped=skipped[:MAX_SKIPPED_LISTED],
        total_chars=total,
        truncated=truncated,
        limits=caps,
        vaults=list(vaults),
        skipped_more=more,
    )
