"""“Undo this run”: put back every file an agent run changed, in one step, from the backups (issue 18 item 8).

While a run applies changes, :func:`record` keeps each one (``agent/store.py``, table ``run_changes``): the
tool's result (vault, each path's action, the backups taken before it overwrote, moved or deleted anything)
and each touched path's version right after (read_file_raw's ``version``; ``""``: absent, ``"dir"``: a folder).

:func:`undo` works out, per path, the state before the run's first change of it and the state the run left,
then, through the tool layer like every write (``call_tool`` on the person's confirmed context, each call
audited and rate-limited as theirs):

* a file the run changed or deleted gets its first backup back (``restore_backup``: the current content is
  backed up first);
* a file the run created is deleted (``delete_file``: kept in the backups, listed in the trash, never lost);
* a folder the run created is removed when it is empty again (``delete_directory``, not recursive); a folder
  it removed is made again.

A file changed since the run (its version is not the one the run left) is a conflict: nothing is done and the
answer (``conflict``, ``details.changed``) names those files, unless ``force``; even then the newer content is
backed up by the restore before it is replaced. Each write also carries the version the run left as its
expected read, so a file changed between the check and the write is refused by the tool itself (reported,
not overwritten). A run is undone once (``run_undone`` the second time).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from obsigate.tools.api import Conflict, NotFound, ServiceError, ToolContext, call_tool

__all__ = ["Undo", "record", "undo"]

#: A path's state: a backup version id to restore, or one of these.
ABSENT, FOLDER, NO_BACKUP = "", "dir", None


async def version_of(ctx: ToolContext, vault: str, path: str) -> str:
    """``path``'s version now (``read_file_raw``'s ``version``), ``""`` when absent, ``"dir"`` for a folder.
    A bookkeeping read: no rate budget spent (``limiter=None``)."""
    try:
        out = await call_tool(ctx, "read_file_raw", {"vault": vault, "path": path}, front_call=True, limiter=None)
    except ServiceError as exc:
        if exc.code == "not_found":
            return ABSENT
        if exc.code == "is_a_directory":
            return FOLDER
        raise
    return str(out.get("version") or "")


async def record(ctx: ToolContext, result: dict[str, Any]) -> dict[str, Any] | None:
    """What to keep of one applied change (a write tool's result as JSON): ``{vault, summary, changes: [{path,
    action, to}], backups: [{path, version}], after: {path: version}}``; ``None`` when it changed nothing."""
    vault, changes = result.get("vault"), result.get("changes") or []
    if not isinstance(vault, str) or not changes:
        return None
    paths = [p for c in changes for p in (c.get("path"), c.get("to")) if isinstance(p, str)]
    after: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            after[path] = await version_of(ctx, vault, path)
        except ServiceError:
            after[path] = "?"  # unreadable now: undo will call it a conflict rather than guess
    return {
        "vault": vault,
        "summary": result.get("summary"),
        "changes": [{k: c.get(k) for k in ("path", "action", "to")} for c in changes],
        "backups": [{"path": b.get("path"), "version": b.get("version")} for b in result.get("backups") or []],
        "after": after,
    }


@dataclass(slots=True)
class _Path:
    """One path the run touched: its state ``before`` the run (a backup id, :data:`ABSENT`, :data:`FOLDER`, or
    :data:`NO_BACKUP`: it existed but no backup was kept) and the version the run left (``after``)."""

    vault: str
    path: str
    before: str | None
    after: str


def _net(records: list[dict[str, Any]]) -> list[_Path]:
    """Each path's state before the run's first change of it and after its last, in first-touched order."""
    paths: dict[tuple[str, str], _Path] = {}
    for rec in records:
        vault = rec["vault"]
        backups: dict[str, str] = {}
        for b in rec.get("backups") or []:
            backups.setdefault(b["path"], b["version"])  # the first backup of a path in a change: its state before
        for change in rec.get("changes") or []:
            action, path, to = change.get("action"), change.get("path"), change.get("to")
            if (vault, path) not in paths:
                before = {"create": ABSENT, "mkdir": ABSENT, "rmdir": FOLDER}.get(action, backups.get(path, NO_BACKUP))
                paths[vault, path] = _Path(vault, path, before, ABSENT)
            if isinstance(to, str) and (vault, to) not in paths:
                paths[vault, to] = _Path(vault, to, ABSENT, ABSENT)
        for path, version in (rec.get("after") or {}).items():
            if (vault, path) in paths:
                paths[vault, path].after = version
    return list(paths.values())


@dataclass(slots=True)
class Undo:
    """An undo's report: ``restored`` (``{vault, path, action}``: ``restored``, ``deleted``, ``folder_removed``,
    ``folder_created``), ``unchanged`` (the run left the path as it found it), ``skipped`` (``{vault, path,
    reason}``) and ``conflicts`` (``{vault, path, code, message}``: refused at write time)."""

    restored: list[dict[str, str]] = dataclasses.field(default_factory=list)
    unchanged: list[dict[str, str]] = dataclasses.field(default_factory=list)
    skipped: list[dict[str, str]] = dataclasses.field(default_factory=list)
    conflicts: list[dict[str, str]] = dataclasses.field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


async def undo(ctx: ToolContext, records: list[dict[str, Any]], *, force: bool = False) -> Undo:
    """Undo the changes ``records`` describe (a run's, in order) on the person's confirmed ``ctx`` (see the
    module docstring).

    Raises:
        NotFound: no records (the run changed nothing, or is not the caller's).
        Conflict: ``conflict`` (nothing done) when a file changed since the run and not ``force``;
            ``details.changed``: ``[{vault, path}]``.
        ServiceError: a check that could not read a file (``vault_access_denied``...).
    """
    if not records:
        raise NotFound("this run changed no file of yours", hint="only a run that applied changes can be undone")
    paths = _net(records)
    changed = []
    for p in paths:
        if p.before == FOLDER or p.after == FOLDER:
            continue
        if await version_of(ctx, p.vault, p.path) != p.after:
            changed.append({"vault": p.vault, "path": p.path})
    if changed and not force:
        raise Conflict(
            f"{len(changed)} file(s) changed since the run, e.g. {changed[0]['path']!r}; nothing was undone",
            hint="review them; undo with force: true replaces them too (their current content is backed up first)",
            details={"changed": changed[:50]},
        )
    report = Undo()
    for p in sorted((p for p in paths if p.before == FOLDER), key=lambda p: p.path.count("/")):
        await _call(ctx, report, p, "create_directory", {}, "folder_created", when_absent=True)
    for p in paths:
        if p.before in (FOLDER,) or (p.before == ABSENT and p.after == FOLDER):
            continue
        if p.before is NO_BACKUP:
            report.skipped.append({"vault": p.vault, "path": p.path, "reason": "no backup of it was kept"})
        elif p.before == ABSENT and p.after == ABSENT:
            report.unchanged.append({"vault": p.vault, "path": p.path})
        elif p.before == ABSENT:
            await _call(ctx, report, p, "delete_file", {}, "deleted", expect=not force)
        else:
            await _call(ctx, report, p, "restore_backup", {"version": p.before}, "restored", expect=not force)
    for p in sorted((p for p in paths if p.before == ABSENT and p.after == FOLDER), key=lambda p: -p.path.count("/")):
        await _call(ctx, report, p, "delete_directory", {}, "folder_removed")
    return report


async def _call(
    ctx: ToolContext, report: Undo, p: _Path, tool: str, args: dict[str, Any], done: str, *,
    expect: bool = False, when_absent: bool = False,
) -> None:  # fmt: skip
    """One write of the undo through the tool layer; its refusal is reported, not raised (the rest goes on)."""
    if when_absent and await version_of(ctx, p.vault, p.path) != ABSENT:
        report.unchanged.append({"vault": p.vault, "path": p.path})
        return
    call_ctx = dataclasses.replace(ctx, expected_reads={p.path: p.after}) if expect else ctx
    try:
        await call_tool(call_ctx, tool, {"vault": p.vault, "path": p.path, **args})
    except ServiceError as exc:
        entry = {"vault": p.vault, "path": p.path, "code": exc.code, "message": exc.message}
        (report.conflicts if exc.code == "conflict" else report.skipped).append(
            entry if exc.code == "conflict" else {"vault": p.vault, "path": p.path, "reason": exc.message}
        )
        return
    report.restored.append({"vault": p.vault, "path": p.path, "action": done})
