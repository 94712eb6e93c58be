"""Every change to a vault: the single source for the write tools and the REST write routes (issue 4).

Each mutation is one planner, ``plan_<tool>(ws, vault, **args) -> Plan``, that reads what it needs and
changes nothing; the write tool names its planner (``tools/catalog/write.py``). :func:`propose` runs a
planner and returns its :class:`~obsigate.services.changes.Change`; :func:`apply` runs it again under the
vault's lock and performs it. ``expected`` is the ``Change.reads`` of an earlier proposal: when given, every
file the plan read must still hash the same, or :class:`Conflict` is raised and nothing is written (the
confirmation flow binds these hashes into its token). Both take the resolved
:class:`~obsigate.domain.vault.Vault` the tool layer permitted; the caller's grants are never checked here.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from obsigate.domain.diff import redacted_diff
from obsigate.domain.links.rewrite import LinkRewriteError, affected_names, plan_link_updates
from obsigate.domain.markdown.edit import EditError, NoteText, append, replace_exact, replace_section
from obsigate.domain.secret_markers import SecretMarkerError, redacted_view, restore_secrets
from obsigate.domain.storage import vault_fs
from obsigate.domain.text import has_lone_surrogate, nfc
from obsigate.domain.vault import Vault, is_note, walk
from obsigate.services.backups import read_backup, trashed_files
from obsigate.services.changes import Change, FileChange
from obsigate.services.errors import BadRequest, Conflict, Forbidden, NotFound, Unavailable
from obsigate.services.mutation_exec import MakeDir, Move, Remove, Step, Write, execute, vault_lock
from obsigate.services.paths import check_new_name, fs_errors, kind_of, normalize_rel
from obsigate.services.search_args import compile_globs, compile_query
from obsigate.services.workspace import Workspace

__all__ = ["Plan", "Planner", "apply", "propose"]

MAX_DIFF_CHARS = 50_000  # per file, in a proposal
REPLACE_BUDGET_S = 10.0  # replace_in_files reads every note once
NOTE_TIMEOUT_S = 0.5  # one note's regex


# ------------------------------------------------------------------------------------------- helpers


def _ensure_writable(vault: Vault) -> None:
    """Refuse a read-only ``vault`` (a business rule; the caller's grants were checked by the tool layer).

    Raises:
        Forbidden: ``vault_read_only``.
    """
    if vault.read_only:
        raise Forbidden(f"vault {vault.name!r} is read-only", code="vault_read_only")


def _sha(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class _Planning:
    """How the planner running in this context works: ``render`` its diffs (a proposal shows them; an apply
    would throw them away), and the bytes of every file it ``read`` (an apply backs them up from there instead
    of reading each file again: it holds the vault's lock, and ``_check`` compared their hashes)."""

    render: bool = True
    read: dict[str, bytes] = field(default_factory=dict)


_PLANNING: ContextVar[_Planning | None] = ContextVar("obsigate_planning", default=None)


@contextmanager
def _planning(*, render: bool) -> Iterator[_Planning]:
    """Run a planner with ``render`` diffs or not, collecting the bytes it reads."""
    state = _Planning(render=render)
    token = _PLANNING.set(state)
    try:
        yield state
    finally:
        _PLANNING.reset(token)


def _read(vault: Vault, rel: str) -> bytes | None:
    """The bytes of the regular file ``rel``, ``None`` if absent. A folder or special file → BadRequest; a
    symlink → PathOutsideVault. Noted in the running :class:`_Planning`."""
    try:
        with fs_errors(rel):
            data = vault_fs.read_file(vault.root, rel)[0]
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise BadRequest(f"{rel!r} is a folder", code="is_a_directory") from None
    state = _PLANNING.get()
    if state is not None:
        state.read[rel] = data
    return data


def _existing(vault: Vault, rel: str) -> bytes:
    data = _read(vault, rel)
    if data is None:
        raise NotFound(f"file {rel!r} does not exist in vault {vault.name!r}", hint="check the path with search_paths")
    return data


def _text_of(rel: str, data: bytes) -> NoteText:
    """A file's text for editing; binaries and invalid UTF-8 are refused (an edit must not corrupt them)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(f"{rel!r} is not UTF-8 text; it cannot be edited as text", code="not_text") from None
    return NoteText.decode(data)


def _diff(rel: str, before: bytes | None, after: bytes | None, *, to: str | None = None) -> str:
    """Unified diff of two versions (redacted on both sides, bounded; linear-time, ``domain.textdiff``)."""
    if before is None or after is None:  # a creation or a deletion: the whole text on one side
        before, after = before or b"", after or b""
    diff, _ = redacted_diff(
        before, after, path=rel, old_label=f"a/{rel}", new_label=f"b/{to or rel}", max_chars=MAX_DIFF_CHARS
    )
    return diff


def _check(expected: Mapping[str, str] | None, reads: Mapping[str, str]) -> None:
    """Refuse to apply when a file read by the proposal (or the editor) changed since: ``expected`` maps
    paths, normalised here as the plan's are, to the hashes the caller saw (the token bound them)."""
    if expected is None:
        return
    expected = {normalize_rel(p) if isinstance(p, str) else p: h for p, h in expected.items()}
    changed = sorted(p for p in set(expected) | set(reads) if expected.get(p) != reads.get(p))
    if changed:
        raise Conflict(
            f"{changed[0]!r} changed since it was read or proposed; nothing was written",
            hint="read it again (or propose the change again) and review it against the current file",
            details={"changed": changed[:20]},
        )


@dataclass(slots=True)
class Plan:
    """A planner's answer: the ``change`` it would make, the ``steps`` that make it, the backup ``reason``."""

    change: Change
    steps: list[Step]
    reason: str


#: ``plan(ws, vault, **args) -> Plan``: computes a mutation without side effects.
Planner = Callable[..., Plan]


def _proposal(summary: str, changes: list[Any], reads: dict[str, str], details: dict[str, Any] | None = None) -> Change:
    return Change(summary=summary, changes=changes, reads=reads, details=details or {})


def _change(rel: str, action: str, before: bytes | None, after: bytes | None, to: str | None = None) -> FileChange:
    """One file's change; its redacted diff only when the running plan renders diffs (a proposal)."""
    state = _PLANNING.get()
    diff = _diff(rel, before, after, to=to) if state is None or state.render else None
    return FileChange(path=rel, action=action, to=to, diff=diff)


# --------------------------------------------------------------------------------------- entry points


def propose(ws: Workspace, planner: Planner, vault: Vault, **args: Any) -> Change:
    """What ``planner`` (a ``plan_<tool>`` of this module) would do with ``args`` in ``vault`` (already
    permitted by the tool layer; services never see grants); changes nothing. Returns the planned
    :class:`Change` with ``vault`` set to ``vault.name``.

    Raises:
        Forbidden ``vault_read_only``, and the planner's own errors (``exists``, ``not_found``,
        ``path_outside_vault``, ``count_mismatch``...).
    """
    _ensure_writable(vault)
    with _planning(render=True):
        return planner(ws, vault, **args).change.model_copy(update={"vault": vault.name})


def apply(
    ws: Workspace,
    planner: Planner,
    vault: Vault,
    *,
    expected: Mapping[str, str] | None = None,
    **args: Any,
) -> Change:
    """Perform ``planner``'s mutation in ``vault`` (already permitted by the tool layer): plan it again under
    the vault's lock, check ``expected`` (a proposal's
    ``reads``), back up, write atomically, update the index. Returns the applied :class:`Change` (``backups``
    set, diffs dropped; no ``changes`` when nothing was written: a dry run, an edit that changes nothing).

    Raises:
        Conflict (``conflict`` when a file changed since ``expected``, ``exists``), plus :func:`propose`'s.
    """
    _ensure_writable(vault)
    with vault_lock(vault), _planning(render=False) as planning:  # no diff: an applied change shows none
        plan = planner(ws, vault, **args)
        _check(expected, plan.change.reads)
        done = execute(ws, vault, plan.steps, reason=plan.reason, read=planning.read) if plan.steps else None
    change = plan.change.model_copy(update={"vault": vault.name})
    if done is None:  # a dry run, or an edit that changes nothing: no path was touched
        change = change.model_copy(update={"changes": []})
    return change.applied(done.backups if done else [])


# ---------------------------------------------------------------------------------- create and edit


def _parent_ok(vault: Vault, rel: str) -> None:
    """Refuse a path below an existing file (``note.md/x.md``): its parent can never become a folder."""
    parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
    while parent:
        found = kind_of(vault, parent)
        if found is not None:
            if found != "dir":
                raise BadRequest(f"{parent!r} is a file, so it cannot hold {rel!r}", code="not_a_directory")
            return
        parent = parent.rsplit("/", 1)[0] if "/" in parent else ""


def plan_create_file(ws: Workspace, vault: Vault, *, path: str, content: str) -> Plan:
    if isinstance(path, str) and path.rstrip().endswith("/"):
        raise BadRequest(f"{path!r} names a folder; give a file name", hint="use create_directory for folders")
    rel = normalize_rel(path)
    _parent_ok(vault, rel)
    if _exists(vault, rel):
        raise Conflict(f"{rel!r} already exists", code="exists", hint="edit it with edit_file, or pick another name")
    check_new_name(vault, rel)
    data = content.encode("utf-8")
    prop = _proposal(f"create {rel} ({len(data)} bytes)", [_change(rel, "create", None, data)], {rel: ""})
    return Plan(prop, [Write(rel, data, exclusive=True)], "create_file")


def _exists(vault: Vault, rel: str) -> bool:
    with fs_errors(rel):
        return vault_fs.exists(vault.root, rel)


def plan_create_directory(ws: Workspace, vault: Vault, *, path: str) -> Plan:
    rel = normalize_rel(path)
    _parent_ok(vault, rel)
    if _exists(vault, rel):
        raise Conflict(f"{rel!r} already exists", code="exists")
    check_new_name(vault, rel)
    prop = _proposal(f"create folder {rel}", [FileChange(path=rel, action="mkdir", diff="")], {rel: ""})
    return Plan(prop, [MakeDir(rel)], "create_directory")


def _secret_refused(exc: SecretMarkerError, path: str | None = None) -> BadRequest:
    """The ``secret_marker_altered`` error for a write that would move or reveal a redacted secret."""
    return BadRequest(
        f"{path}: {exc}" if path else str(exc),
        code="secret_marker_altered",
        details={"rule": exc.rule, "line": exc.line, **({"path": path} if path else {})},
        hint="leave each [REDACTED:…] marker as you read it, where it was, with a space or a sign around it; "
        "delete a marker to delete its secret, or type a new value in its place; leave the text next to a "
        "secret as it is",
    )


def plan_edit_file(
    ws: Workspace,
    vault: Vault,
    *,
    path: str,
    content: str | None = None,
    find: str | None = None,
    replace: str | None = None,
    expected_count: int | None = 1,
    heading: str | None = None,
) -> Plan:
    """Edit the file ``path``: the whole ``content``, ``find`` → ``replace`` (secrets never matched), or the
    section under ``heading``. ``[REDACTED:<rule>]`` markers in ``content`` get their secrets back
    (:func:`~obsigate.domain.secret_markers.restore_secrets`).

    Raises:
        NotFound (file, text or heading), BadRequest (``invalid_argument``, ``count_mismatch``, ``ambiguous``,
        ``not_text``, and ``secret_marker_altered``: a marker moved, typed anew or glued to text, whose
        secret could not go back hidden; ``details``: ``rule``, ``line``).
    """
    rel = normalize_rel(path)
    before = _existing(vault, rel)
    note = _text_of(rel, before)
    try:
        if find is not None:
            if content is not None or heading is not None or replace is None:
                raise BadRequest("give find with replace (and optionally expected_count), without content or heading")
            # matched on what a reader sees, markers never touched: no guessing at a secret, and the secrets go
            # back only where they stay hidden whole
            view, markers = redacted_view(note.text)
            edited, count = replace_exact(note.with_text(view), find, replace, expected_count, protected=markers)
            if markers:
                edited = note.with_text(restore_secrets(note.text, edited.text))
            how = f"replace {count} occurrence{'s' if count != 1 else ''}"
        elif heading is not None:
            if content is None:
                raise BadRequest("give the new section text in content")
            # markers are put back over the whole note: their secrets are judged where they will stand
            edited = replace_section(note, heading, content)
            edited = note.with_text(restore_secrets(note.text, edited.text))
            how = f"replace the section under {heading.strip()!r}"
        elif content is not None:
            # the agent saw [REDACTED:…] markers: they must not overwrite the secrets they stand for
            edited, how = note.with_text(restore_secrets(note.text, content)), "replace the whole content"
        else:
            raise BadRequest("give content (whole note), find + replace, or heading + content")
    except EditError as exc:
        raise (NotFound if exc.code == "not_found" else BadRequest)(str(exc), code=exc.code) from None
    except SecretMarkerError as exc:
        raise _secret_refused(exc) from None
    after = edited.encode()
    if after == before:
        return Plan(_proposal(f"{rel}: no change", [], {rel: _sha(before)}), [], "edit_file")
    prop = _proposal(f"{rel}: {how}", [_change(rel, "modify", before, after)], {rel: _sha(before)})
    return Plan(prop, [Write(rel, after)], "edit_file")


def plan_append_to_file(ws: Workspace, vault: Vault, *, path: str, content: str) -> Plan:
    rel = normalize_rel(path)
    _parent_ok(vault, rel)
    before = _read(vault, rel)
    if before is None:
        data = content.encode("utf-8")
        prop = _proposal(
            f"create {rel} with the text ({len(data)} bytes)", [_change(rel, "create", None, data)], {rel: ""}
        )
        return Plan(prop, [Write(rel, data, exclusive=True)], "append_to_file")
    after = append(_text_of(rel, before), content).encode()
    prop = _proposal(
        f"append {len(after) - len(before)} bytes to {rel}",
        [_change(rel, "modify", before, after)],
        {rel: _sha(before)},
    )
    return Plan(prop, [Write(rel, after)], "append_to_file")


def plan_restore_backup(ws: Workspace, vault: Vault, *, path: str, version: str) -> Plan:
    rel = normalize_rel(path)
    if ws.backups is None:
        raise Unavailable("no backup store is configured")
    data = read_backup(ws.backups, vault.name, rel, version)
    before = _read(vault, rel)
    action = "create" if before is None else "modify"
    prop = _proposal(f"restore {rel} from backup {version}", [_change(rel, action, before, data)], {rel: _sha(before)})
    return Plan(prop, [Write(rel, data, exclusive=before is None)], "restore_backup")


def plan_restore_trash(ws: Workspace, vault: Vault, *, path: str, kind: str | None = None) -> Plan:
    """Bring back what the trash holds at ``path``, each file from its newest backup, all or nothing: with
    ``kind`` ``"file"``, the deleted file at ``path``; with ``"folder"``, every deleted file below the folder
    ``path`` (its folders are created again); ``None``: the file if the trash holds one there, else the
    folder (a file and a folder of one path are two entries of ``list_trash``). Never overwrites. Every
    refusal is found here, before a step runs.

    Raises:
        Conflict ``exists`` (409): something is at a restored path. BadRequest ``not_a_directory``: a file
        stands (or would, restored by this same call) where one of the restored files' folders goes;
        ``invalid_argument``: another ``kind``. NotFound: nothing of that kind in the trash there.
        Unavailable: no backup store; PathOutsideVault.
    """
    rel = normalize_rel(path)
    if kind not in (None, "file", "folder"):
        raise BadRequest("kind must be 'file' or 'folder'")
    if ws.backups is None:
        raise Unavailable("no backup store is configured")
    trashed = trashed_files(ws, vault, under=rel)
    if kind is None:
        kind = "file" if any(f.path == rel for f in trashed) else "folder"
    files = [f for f in trashed if (f.path == rel) == (kind == "file")]
    if not files:
        if _exists(vault, rel):
            raise Conflict(
                f"{rel!r} exists; the trash restores nothing over it",
                code="exists",
                hint="to bring back an older content, restore a version from its history (restore_backup)",
            )
        raise NotFound(f"the trash holds no deleted {kind} at {rel!r}", hint="list_trash shows what can be restored")
    one = kind == "file"
    restored = {f.path for f in files}
    changes: list[FileChange] = []
    steps: list[Step] = []
    reads: dict[str, str] = {}
    for f in sorted(files, key=lambda f: f.path):
        _parent_ok(vault, f.path)  # a file now where its folder was: not_a_directory
        folders = f.path.split("/")[:-1]
        clash = next((p for p in ("/".join(folders[: i + 1]) for i in range(len(folders))) if p in restored), None)
        if clash:  # restoring 'Sub' and 'Sub/a.md' together: one of the two paths cannot be had
            raise BadRequest(f"the trash holds a file {clash!r} and a folder of that name holding {f.path!r}; "
                             "restore them one at a time", code="not_a_directory",
                             hint="restore single files from the folder's entry")  # fmt: skip
        data = read_backup(ws.backups, vault.name, f.path, f.version)
        if len(changes) < 200:  # a folder's files are listed as delete_directory lists them: no diffs
            change = _change(rel, "create", None, data) if one else FileChange(path=f.path, action="create", diff="")
            changes.append(change)
        steps.append(Write(f.path, data, exclusive=True))
        reads[f.path] = _sha(None)
    n = len(files)
    summary = (
        f"restore {rel} from the trash"
        if one
        else f"restore folder {rel} from the trash: {n} file{'s' if n != 1 else ''}"
    )
    return Plan(_proposal(summary, changes, reads, {"files": n}), steps, "restore_trash")


# ------------------------------------------------------------------------------- rename, move, delete


def _moves_for(vault: Vault, src: str, dst: str) -> dict[str, str]:
    """``{old path: new path}`` of every vault file moved when ``src`` (a file or folder) becomes ``dst``."""
    if kind_of(vault, src) == "dir":
        return {e.path: dst + e.path[len(src) :] for e, _ in walk(vault, src)}
    return {src: dst}


def _relocate(ws: Workspace, vault: Vault, src: str, dst: str, reason: str) -> Plan:
    """Move ``src`` to ``dst`` and rewrite every link the move would break, as Obsidian does (obsidian.md
    §10): every note linking into the moved files, and the moved notes' own relative links."""
    if src == dst:
        raise BadRequest("the new location is the current one")
    if not _exists(vault, src):
        raise NotFound(f"{src!r} does not exist in vault {vault.name!r}")
    if _exists(vault, dst):
        raise Conflict(f"{dst!r} already exists", code="exists", hint="pick another name")
    if (dst + "/").startswith(src + "/"):
        raise BadRequest("a folder cannot be moved into itself")
    moves = _moves_for(vault, src, dst)
    files = {r.path for r in ws.index.file_records(vault.name)} | set(moves)
    sources = ws.index.notes_linking_names(vault.name, affected_names(moves)) | {p for p in moves if is_note(p)}
    raw: dict[str, bytes] = {}
    notes: dict[str, NoteText] = {}
    for path in sorted(sources):
        data = _read(vault, path)
        if data is None:
            continue  # the index knew a note that is gone: nothing to rewrite
        raw[path] = data
        try:
            notes[path] = _text_of(path, data)
        except BadRequest:
            continue  # not UTF-8: its links cannot be rewritten, and it is left byte for byte
    try:
        updates = plan_link_updates(files, moves, {p: n.text for p, n in notes.items()})
    except LinkRewriteError as exc:
        raise BadRequest(f"links to {src!r} could not be kept working under that name: {exc}", code="unsafe_name",
                         hint="pick a name without '#', '|', '^', '[' or ']'") from None  # fmt: skip
    except ValueError as exc:  # two files would land on one path
        raise Conflict(str(exc), code="exists") from None
    back = {new: old for old, new in moves.items()}
    reads = {p: _sha(d) for p, d in raw.items()} | {dst: ""}
    reads[src] = reads.get(src) or _tree_hash(vault, src)
    diffs: list[FileChange] = [FileChange(path=src, action="move", to=dst, diff="")]
    steps: list[Step] = [Move(src, dst)]
    per_file: dict[str, int] = {}
    for up in updates:
        old_path = back.get(up.path, up.path)
        before = raw[old_path]
        after = notes[old_path].with_text(up.text).encode()
        if after == before:
            continue
        diffs.append(_change(up.path, "modify", before, after))
        steps.append(Write(up.path, after))
        per_file[up.path] = len(up.edits)
    total = sum(per_file.values())
    summary = f"{reason.split('_')[0]} {src} → {dst}; {total} link{'s' if total != 1 else ''} updated in {len(per_file)} note{'s' if len(per_file) != 1 else ''}"
    details = {"moved": len(moves), "links_updated": per_file, "links_total": total}
    return Plan(_proposal(summary, diffs, reads, details), steps, reason)


def _tree_hash(vault: Vault, rel: str) -> str:
    """One hash over the names and contents of every file below folder ``rel`` (a proposal's view of it)."""
    h = hashlib.sha256()
    for e, disk in sorted(walk(vault, rel), key=lambda t: t[0].path):
        h.update(e.path.encode() + b"\0")
        with fs_errors(e.path):
            h.update(hashlib.sha256(vault_fs.read_file(vault.root, disk)[0]).digest())
    return h.hexdigest()


def _new_name(path: str, new_name: str, *, folder: bool) -> str:
    name = new_name.strip() if isinstance(new_name, str) else ""
    if not name or "/" in name or "\\" in name:
        raise BadRequest("new_name must be a file or folder name, without '/'", hint="use move_path to change folders")
    if not folder:  # as Obsidian's rename box: the name is typed without the extension, which is kept
        old_ext = os.path.splitext(path)[1]
        if is_note(path) and not is_note(name):
            name += ".md"  # 'Plan v1.2' for a note means 'Plan v1.2.md'
        elif not is_note(path) and "." not in name and old_ext:
            name += old_ext
    parent = path.rsplit("/", 1)[0] if "/" in path else ""
    return normalize_rel(f"{parent}/{name}" if parent else name)


def plan_rename_file(ws: Workspace, vault: Vault, *, path: str, new_name: str) -> Plan:
    rel = normalize_rel(path)
    if kind_of(vault, rel) == "dir":
        raise BadRequest(f"{rel!r} is a folder", code="is_a_directory", hint="use rename_directory")
    dst = _new_name(rel, new_name, folder=False)
    check_new_name(vault, dst)
    return _relocate(ws, vault, rel, dst, "rename_file")


def plan_rename_directory(ws: Workspace, vault: Vault, *, path: str, new_name: str) -> Plan:
    rel = normalize_rel(path)
    if kind_of(vault, rel) != "dir":
        raise BadRequest(f"{rel!r} is not a folder", code="not_a_directory", hint="use rename_file")
    dst = _new_name(rel, new_name, folder=True)
    check_new_name(vault, dst)
    return _relocate(ws, vault, rel, dst, "rename_directory")


def plan_move_path(ws: Workspace, vault: Vault, *, source_path: str, destination_dir: str) -> Plan:
    src = normalize_rel(source_path)
    dest_dir = normalize_rel(destination_dir, allow_root=True)
    if dest_dir and kind_of(vault, dest_dir) != "dir":
        raise NotFound(f"folder {dest_dir!r} does not exist", hint="create it with create_directory first")
    name = src.rsplit("/", 1)[-1]
    return _relocate(ws, vault, src, f"{dest_dir}/{name}" if dest_dir else name, "move_path")


def plan_delete_file(ws: Workspace, vault: Vault, *, path: str) -> Plan:
    rel = normalize_rel(path)
    before = _existing(vault, rel)
    broken = ws.index.backlinks(vault.name, rel, limit=0)[1]
    summary = f"delete {rel} (kept in the backups)" + (f"; {broken} notes link to it" if broken else "")
    prop = _proposal(summary, [_change(rel, "delete", before, None)], {rel: _sha(before)}, {"backlinks": broken})
    return Plan(prop, [Remove(rel)], "delete_file")


def plan_delete_directory(ws: Workspace, vault: Vault, *, path: str, recursive: bool = False) -> Plan:
    rel = normalize_rel(path)
    found = kind_of(vault, rel)
    if found != "dir":
        raise (
            BadRequest(f"{rel!r} is a file", code="not_a_directory")
            if found
            else NotFound(f"folder {rel!r} does not exist")
        )
    files = [e.path for e, _ in walk(vault, rel)]
    with fs_errors(rel):
        below = list(vault_fs.walk(vault.root, rel, strict=True))
    # never served, so never deleted unseen (the backup store keeps only vault files): hidden entries, symlinks,
    # and names that are not valid UTF-8 (no answer could even name them)
    unseen = [p for p, st in below if p.rsplit("/", 1)[-1].startswith(".") or stat.S_ISLNK(st.st_mode)]
    if any(has_lone_surrogate(p) for p, _ in below):
        raise Conflict(
            f"folder {rel!r} holds names that are not valid UTF-8; rename or remove them first",
            code="hidden_entries",
        )
    if unseen:
        raise Conflict(
            f"folder {rel!r} holds hidden entries or symlinks ({unseen[0][len(rel) + 1 :]}...); remove them first",
            code="hidden_entries",
        )
    if below and not recursive:
        raise Conflict(
            f"folder {rel!r} is not empty", code="directory_not_empty", hint="set recursive to delete what it holds"
        )
    summary = (
        f"delete folder {rel} and its {len(files)} files (kept in the backups)"
        if files
        else f"delete empty folder {rel}"
    )
    diffs = [FileChange(path=rel, action="rmdir", diff="")] + [
        FileChange(path=p, action="delete", diff="") for p in files[:200]
    ]
    prop = _proposal(summary, diffs, {rel: _tree_hash(vault, rel)}, {"files": len(files)})
    return Plan(prop, [Remove(rel)], "delete_directory")


# ------------------------------------------------------------------------------------ replace in files


def plan_replace_in_files(
    ws: Workspace,
    vault: Vault,
    *,
    find: str,
    replace: str,
    case_sensitive: bool = False,
    whole_word: bool = False,
    regex: bool = False,
    include_paths: Sequence[str] | None = None,
    exclude_paths: Sequence[str] | None = None,
    replace_all: bool = True,
    dry_run: bool = False,
) -> Plan:
    if not isinstance(find, str) or not find:
        raise BadRequest("find must be non-empty text")
    pattern = compile_query(nfc(find), regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)
    include, exclude = compile_globs(include_paths, "include_paths"), compile_globs(exclude_paths, "exclude_paths")
    deadline = time.monotonic() + REPLACE_BUDGET_S
    diffs: list[FileChange] = []
    steps: list[Step] = []
    counts: dict[str, int] = {}
    reads: dict[str, str] = {}
    for rec in ws.index.file_records(vault.name):
        if not rec.note or (include and not include.match(rec.path)) or (exclude and exclude.match(rec.path)):
            continue
        if time.monotonic() > deadline:
            raise Unavailable(
                f"replace_in_files ran out of its {REPLACE_BUDGET_S:g} s budget; narrow it with include_paths",
                code="timeout",
            )
        data = _read(vault, rec.path)
        if data is None:
            continue
        try:
            note = _text_of(rec.path, data)
        except BadRequest:
            continue
        found = [0]
        # the pattern runs on what a reader sees (secrets as markers): a lookahead cannot probe a secret
        view, markers = redacted_view(note.text)

        def literal(m: Any, found: list[int] = found, markers: list[tuple[int, int]] = markers) -> str:
            if any(a < m.end() and m.start() < z for a, z in markers):
                return m.group(0)  # a marker is never matched: its secret stays where it is
            found[0] += 1
            return replace  # never a template: '$1', '\\1' and '&' are inserted as typed

        try:
            new_text = pattern.sub(literal, view, count=0 if replace_all else 1, timeout=NOTE_TIMEOUT_S)
        except TimeoutError:
            raise BadRequest(f"the pattern takes too long on {rec.path!r}", code="invalid_regex") from None
        if not found[0]:
            continue
        if markers:
            try:
                new_text = restore_secrets(note.text, new_text)
            except SecretMarkerError as exc:
                raise _secret_refused(exc, rec.path) from None
        after = note.with_text(new_text).encode()
        reads[rec.path] = _sha(data)
        counts[rec.path] = found[0]
        diffs.append(_change(rec.path, "modify", data, after))
        steps.append(Write(rec.path, after))
    total = sum(counts.values())
    summary = (
        f"replace {total} match{'es' if total != 1 else ''} in {len(counts)} note{'s' if len(counts) != 1 else ''}"
    )
    details = {"files": counts, "total": total, "dry_run": dry_run}
    return Plan(
        _proposal(summary + (" (dry run)" if dry_run else ""), diffs, reads, details),
        [] if dry_run else steps,
        "replace_in_files",
    )
