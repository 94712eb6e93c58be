"""What an "Approve all" lets the rest of an agent run do without asking again (issue 18 item 8).

After the person approves a turn's changes, the run is *armed*: later changes go ahead without a card, except
those that replace or delete content of a note the person was not shown. Which those are is read off the
tool's declaration and the stored proposal, never off a list of tool names:

* a ``dangerous`` tool (rename, move, replace in files, delete) always asks (the loop checks its risk first);
* of a ``write`` tool's proposal, each file change (``services.changes.FileChange``) is judged by its action:
  ``create`` and ``mkdir`` add only; ``modify`` by a tool declared ``rebased`` (its write commutes with any
  other: an append lands after what is there) adds only; any other ``modify`` (a whole-content edit, a
  find/replace, a backup restored over the note) and ``delete``, ``move``, ``rmdir`` replace or remove content;
* such a change still goes ahead on a path the person approved a proposal for in this run, or that this run
  created (the content there is the run's own), and asks on any other path.

A path the proposal touches but whose change is not listed in the view (a view cut to the size budget) counts
as replacing content.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from obsigate.tools.api import Proposal, ToolSpec

__all__ = ["ADDING_ACTIONS", "created_paths", "replaces_unseen"]

#: File-change actions that only add to the vault.
ADDING_ACTIONS = frozenset({"create", "mkdir"})


def replaces_unseen(spec: ToolSpec, proposal: Proposal, seen: Collection[str]) -> list[str]:
    """The paths whose content ``proposal`` (of the ``write`` tool ``spec``) would replace or delete and that
    are not in ``seen`` (paths the person approved in this run, or that the run created); ``[]``: the change
    only adds, or only replaces what the person saw, and may go ahead on an earlier approval."""
    listed: set[str] = set()
    unseen: list[str] = []
    for change in proposal.view.get("diffs") or []:
        if not isinstance(change, dict) or not isinstance(change.get("path"), str):
            continue
        path, action = change["path"], change.get("action")
        listed.add(path)
        adds = action in ADDING_ACTIONS or (action == "modify" and spec.rebased)
        if not adds and path not in seen:
            unseen.append(path)
        if isinstance(change.get("to"), str):
            listed.add(change["to"])
    unseen += [p for p in proposal.paths if p not in listed and p not in seen]
    return list(dict.fromkeys(unseen))


def created_paths(result: dict[str, Any]) -> Iterable[str]:
    """The paths an applied change's ``result`` (a write tool's ``MutationResult`` as JSON) created."""
    for change in result.get("changes") or []:
        if isinstance(change, dict) and change.get("action") in ADDING_ACTIONS and isinstance(change.get("path"), str):
            yield change["path"]
