"""The services' dependencies in one object, built once by the composition root (``bootstrap.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypedDict

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.storage.journal import ChangeJournal
from obsigate.domain.vault import Vault
from obsigate.domain.versions import FileVersions
from obsigate.services.errors import BadRequest, NotFound, VaultAccessDenied
from obsigate.services.results import IndexState


@dataclass(frozen=True, slots=True)
class Limits:
    """Size caps: ``max_read_bytes`` per read_file call, ``budget_chars`` per tool result (~4 chars a token).

    The assistant's context (``services.assistant_context``; the seeds' ``BOOKSLM_MAX_FILES``,
    ``BOOKSLM_MAX_TOTAL_CHARS``, ``BOOKSLM_MAX_FILE_CHARS``): at most ``context_max_files`` files,
    ``context_max_total_chars`` characters of file text in all and ``context_max_file_chars`` per file."""

    max_read_bytes: int = 200_000
    budget_chars: int = 100_000
    max_list: int = 1_000
    context_max_files: int = 200
    context_max_total_chars: int = 200_000
    context_max_file_chars: int = 30_000


def iso_utc(ns: int) -> str:
    """``ns`` nanoseconds since the epoch as ISO 8601 UTC, truncated to the second: ``2026-11-30T08:15:00+00:00``."""
    return datetime.fromtimestamp(ns // 10**9, tz=UTC).isoformat(timespec="seconds")


class PageFields(TypedDict):
    """The paging fields of a list result (:class:`~obsigate.services.results.Page` and ``truncated``), as
    keyword arguments of its model."""

    total: int
    offset: int
    truncated: bool
    next_offset: int | None


def page_fields(total: int, offset: int, count: int) -> PageFields:
    """Paging keys of a list result: ``{"total", "offset", "truncated", "next_offset"}`` for a page of ``count``
    items starting at ``offset`` out of ``total`` (``next_offset`` is ``None`` at the end). ``truncated`` is
    true when the page ends before ``total``; the tool layer then adds the ``notice`` saying how to go on
    (``tools.budget.paging_notice``), the same for every list."""
    end = offset + count
    return {"total": total, "offset": offset, "truncated": end < total, "next_offset": end if end < total else None}


def check_page(limit: int, offset: int, *, max_limit: int | None = None, max_offset: int | None = None) -> None:
    """Check the paging arguments of a list service: ``limit`` in ``1..max_limit``, ``offset`` in
    ``0..max_offset`` (``None``: no upper bound).

    Raises:
        BadRequest: either is out of range; the message states both ranges, e.g. ``limit must be 1..100 and
        offset >= 0``.
    """
    if (
        limit < 1
        or offset < 0
        or (max_limit is not None and limit > max_limit)
        or (max_offset is not None and offset > max_offset)
    ):
        limits = ">= 1" if max_limit is None else f"1..{max_limit}"
        offsets = ">= 0" if max_offset is None else f"0..{max_offset}"
        raise BadRequest(f"limit must be {limits} and offset {offsets}")


class DestructiveSwitches(Mapping[str, bool]):
    """The per-vault ``aiDestructiveTools`` switches, live: ``overrides()`` (the ones set at run time, e.g. from
    the web app's settings) win over ``declared`` (the vault declarations), and are asked on every lookup, so a
    change applies to the very next tool call. Iterates over the declared vaults."""

    def __init__(self, declared: Mapping[str, bool], overrides: Callable[[], Mapping[str, bool]]) -> None:
        self._declared = dict(declared)
        self._overrides = overrides

    def __getitem__(self, name: str) -> bool:
        value = self._overrides().get(name)
        return value if isinstance(value, bool) else self._declared[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._declared)

    def __len__(self) -> int:
        return len(self._declared)


@dataclass(slots=True)
class Workspace:
    """Declared vaults, their index and limits. ``destructive`` maps vault name → aiDestructiveTools;
    ``backups`` is the versioned backup store (``None``: backup tools answer ``unavailable``); ``journal`` the
    write-ahead change journal (``None``: a change is rolled back from memory only, for tests and tools);
    ``versions`` gives the keyed versions of stored files that readers see instead of their hashes
    (``domain/versions.py``; a random key when none is given).

    :meth:`get_vault` and :meth:`accessible` are the permission functions: only the tool
    layer calls them (``tools/pipeline.permit`` once per tool call, and the entry points that name a vault
    themselves); the services get what they resolved (a :class:`Vault`, or the names in scope), never grants.
    """

    vaults: Mapping[str, Vault]
    index: VaultIndex
    indexer: Indexer | None = None
    limits: Limits = field(default_factory=Limits)
    destructive: Mapping[str, bool] = field(default_factory=dict)
    backups: BackupStore | None = None
    journal: ChangeJournal | None = None
    versions: FileVersions = field(default_factory=FileVersions)

    def get_vault(self, name: object, allowed: Iterable[str] | None) -> Vault:
        """Return the vault ``name`` if the caller may use it (the grant check; tool layer only).

        ``allowed`` is the caller's grant list (``None`` = every vault). A vault the caller may not use is
        reported as denied whether or not it exists, so names of other people's vaults do not leak.

        Raises:
            VaultAccessDenied: not granted to the caller.
            NotFound: granted but not declared on this server.
        """
        if not isinstance(name, str) or not name:
            raise NotFound("vault name is missing", hint="call list_vaults to see the vaults you can use")
        if allowed is not None and name not in set(allowed):
            raise VaultAccessDenied(
                f"you have no access to vault {name!r}", hint="call list_vaults to see the vaults you can use"
            )
        vault = self.vaults.get(name)
        if vault is None:
            raise NotFound(f"vault {name!r} does not exist", hint="call list_vaults to see the vaults you can use")
        return vault

    def index_state(self) -> IndexState:
        """The index's ``state`` (``"indexing"`` or ``"ready"``) and whether it is ``complete``: results may be
        missing while not."""
        state = self.indexer.state if self.indexer is not None else "ready"
        return IndexState(state=state, complete=state == "ready")

    def accessible(self, allowed: Iterable[str] | None) -> list[str]:
        """Names of declared vaults the caller may use (``allowed``: their grants, ``None`` = every vault), in
        declaration order."""
        if allowed is None:
            return list(self.vaults)
        grants = set(allowed)
        return [n for n in self.vaults if n in grants]
