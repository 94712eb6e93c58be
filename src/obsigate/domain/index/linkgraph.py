"""The resolved link graph of the indexed vaults: backlinks, outgoing links, edges.

Every link row of the ``links`` table stores what it resolves to (``resolved``, NULL when unresolved),
computed with an in-memory :class:`~obsigate.domain.links.resolve.LinkResolver` per vault that follows every indexed
file. Resolution depends on the link text, its note's path and the set of files; the set changes only when
a file appears or disappears, and then only links whose lookup name (:func:`~obsigate.domain.links.resolve.link_name`)
is one of that file's :func:`~obsigate.domain.links.resolve.lookup_names` can change. So each such change re-resolves
just those rows (:meth:`LinkGraph.on_files_changed`, run in order with the other writes): creating a
root-level ``Note.md`` re-targets every bare ``[[Note]]`` at once (obsidian.md §13 case 19), deleting a note
turns its inbound links unresolved, and a backlinks query is one indexed lookup whatever the fan-in.

Backlinks of a file = rows whose ``resolved`` is the file, from other notes (obsidian.md §11 "linked
mentions").
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from obsigate.domain.index.sqlite_store import MetaStore
from obsigate.domain.links.resolve import LinkResolver, lookup_names

__all__ = ["Backlink", "LinkGraph", "LinkRef", "OutLink"]

_REF_COLUMNS = "subpath, display, kind, embed, line, key, context"


@dataclass(frozen=True, slots=True)
class LinkRef:
    """One link occurrence inside a note.

    Attributes:
        line: 1-based file line (a frontmatter link: its property's line when known).
        context: the linking line, redacted, clipped to about 240 characters (``…`` marks cuts); ``None`` if
            unknown.
        subpath: ``"#Heading"``/``"#^block"`` part, or ``None``.
        display: the alias / link text, or ``None``.
        kind: ``"wikilink"``, ``"markdown"`` or ``"frontmatter"``.
        embed: ``![[…]]`` / ``![](…)``.
        key: the frontmatter property holding the link (``kind == "frontmatter"``), else ``None``.
    """

    line: int | None
    context: str | None
    subpath: str | None
    display: str | None
    kind: str
    embed: bool
    key: str | None


@dataclass(frozen=True, slots=True)
class Backlink:
    """A note linking to the file, with each of its links to it in document order."""

    path: str
    links: tuple[LinkRef, ...]


@dataclass(frozen=True, slots=True)
class OutLink:
    """A link of a note as written (``target``) and what it resolves to (``resolved`` path, or ``None``)."""

    target: str
    resolved: str | None
    ref: LinkRef


def _ref(row: Sequence) -> LinkRef:
    subpath, display, kind, embed, line, key, context = row
    return LinkRef(line, context, subpath, display, kind, bool(embed), key)


class LinkGraph:
    """Resolvers per vault plus the link queries (see the module docstring). Thread-safe.

    Args:
        store: the index's SQLite store; the set of linkable files is loaded from its ``files`` table once.
    """

    def __init__(self, store: MetaStore) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._resolvers: dict[str, LinkResolver] = defaultdict(LinkResolver)
        self._generation: dict[str, int] = defaultdict(int)
        self._token = secrets.token_hex(4)  # generations restart with the process: versions must not repeat
        self._edges: dict[str, tuple[int, list[tuple[str, str | None, str, int]]]] = {}
        self._totals: dict[tuple[str, str, str], tuple[int, int]] = {}  # backlink counts by (vault, path)
        for vault, path in store.wconn.execute("SELECT vault, path FROM files"):
            self._resolvers[vault].add(path)

    def version(self, vault: str) -> str:
        """A string that changes whenever anything indexed in ``vault`` may have changed (a file, its tags or its
        links), unique to this process: the key of caches built over the graph."""
        with self._lock:
            return f"{self._token}-{self._generation[vault]}"

    # ------------------------------------------------------------------------------------ changes

    def touch(self, vault: str, path: str, *, exists: bool) -> bool:
        """Record that ``path`` was (re)indexed (``exists``) or forgotten; invalidates cached edges.

        Returns True when the set of files changed (a new file, or one gone): the caller must then have
        :meth:`on_files_changed` run after its own writes.
        """
        with self._lock:
            self._generation[vault] += 1
            resolver = self._resolvers[vault]
            if exists == resolver.contains(path):
                return False
            (resolver.add if exists else resolver.remove)(path)
            return True

    def invalidate(self, vault: str) -> None:
        """Forget cached edges and counts of ``vault``: called again once a change is committed, so a read
        made between the change's start and its commit cannot keep a stale answer."""
        with self._lock:
            self._generation[vault] += 1

    def drop_vault(self, vault: str) -> None:
        """Forget every file of ``vault``."""
        with self._lock:
            self._resolvers.pop(vault, None)
            self._generation[vault] += 1

    def resolve_all(self, vault: str, source: str, targets: Iterable[str]) -> list[str | None]:
        """What each of ``targets`` (link paths written in note ``source``) resolves to now."""
        with self._lock:
            resolver = self._resolvers[vault]
            return [resolver.resolve(t, source) for t in targets]

    def on_files_changed(self, c: sqlite3.Connection, vault: str, paths: Iterable[str]) -> None:
        """Re-resolve the stored links that a file appearing or disappearing at ``paths`` may re-target.

        Runs on the write connection inside the committer's transaction, after the writes queued before it,
        so rows inserted earlier in the same batch are seen.
        """
        names = sorted({n for p in paths for n in lookup_names(p)})
        if len(names) > 500:  # a bulk change (first build, folder move): one pass over the vault's links
            cur = c.execute("SELECT path, seq, target, resolved FROM links WHERE vault = ?", (vault,))
        else:
            marks = ",".join("?" * len(names))
            cur = c.execute(
                "SELECT path, seq, target, resolved FROM links INDEXED BY links_by_name "
                f"WHERE vault = ? AND name IN ({marks})",
                (vault, *names),
            )
        updates = []
        while rows := cur.fetchmany(20_000):  # streamed: a 100k-note vault has a million link rows
            with self._lock:
                resolver = self._resolvers[vault]
                updates += [
                    (now, vault, path, seq)
                    for path, seq, target, old in rows
                    if (now := resolver.resolve(target, path)) != old
                ]
        with self._lock:
            self._generation[vault] += 1
        if updates:  # after the scan: SQLite leaves a table being read and written at once undefined
            c.executemany("UPDATE links SET resolved = ? WHERE vault = ? AND path = ? AND seq = ?", updates)

    # -------------------------------------------------------------------------------------- reads

    def resolve(self, vault: str, linkpath: str, source: str) -> str | None:
        """The indexed file ``linkpath`` (no ``#subpath``) points to from note ``source``, or ``None``."""
        with self._lock:
            resolver = self._resolvers.get(vault)
            return resolver.resolve(linkpath, source) if resolver is not None else None

    def exists(self, vault: str, path: str) -> bool:
        """True if ``path`` is an indexed file of ``vault`` (a possible link target)."""
        with self._lock:
            resolver = self._resolvers.get(vault)
            return resolver is not None and resolver.contains(path)

    def backlinks(self, vault: str, path: str, limit: int, offset: int) -> tuple[list[Backlink], int]:
        """A page of the notes of ``vault`` with a link resolving to ``path`` (itself excluded), by source
        path, and how many there are. A note linking several times appears once, with every link."""
        conn = self._store.rconn()
        where = "FROM links INDEXED BY links_by_resolved WHERE vault = ? AND resolved = ? AND path != ?"
        args = (vault, path, path)
        total = self._total(conn, where, args)
        if not total or limit <= 0 or offset >= total:
            return [], total
        page = [
            r[0]
            for r in conn.execute(
                f"SELECT DISTINCT path {where} ORDER BY path LIMIT ? OFFSET ?", (*args, limit, offset)
            )
        ]
        if offset == 0 and len(page) < limit:
            # every linking note is on this page: it is its own count, even if a write landed between the cached
            # (or counted) total and this read
            total = len(page)
        marks = ",".join("?" * len(page))
        rows = conn.execute(
            f"SELECT path, {_REF_COLUMNS} {where} AND path IN ({marks}) ORDER BY path, seq", (*args, *page)
        ).fetchall()
        grouped: dict[str, list[LinkRef]] = {p: [] for p in page}
        for source, *rest in rows:
            grouped[source].append(_ref(rest))
        return [Backlink(p, tuple(refs)) for p, refs in grouped.items()], total

    def _total(self, conn: sqlite3.Connection, where: str, args: tuple[str, str, str]) -> int:
        """How many notes link to ``args[1]``, cached until the vault's next change: counting the distinct
        linking notes of a hub with 20k links takes ~6 ms, and paging through it asks again and again."""
        vault = args[0]
        with self._lock:
            gen = self._generation[vault]
            hit = self._totals.get(args)
            if hit is not None and hit[0] == gen:
                return hit[1]
        total = conn.execute(f"SELECT count(DISTINCT path) {where}", args).fetchone()[0]
        with self._lock:
            if self._generation[vault] == gen:
                if len(self._totals) >= 4096:
                    self._totals.clear()
                self._totals[args] = (gen, total)
        return total

    def backlink_sources(self, vault: str, path: str) -> set[str]:
        """Paths of every note linking to ``path`` (itself excluded)."""
        rows = self._store.rconn().execute(
            "SELECT DISTINCT path FROM links INDEXED BY links_by_resolved WHERE vault = ? AND resolved = ? AND path != ?",
            (vault, path, path),
        )
        return {r[0] for r in rows}

    def sources_with_names(self, vault: str, names: Iterable[str]) -> set[str]:
        """Paths of the notes holding a link whose :func:`~obsigate.domain.links.resolve.link_name` is in ``names``."""
        keys = sorted(set(names))
        if not keys:
            return set()
        marks = ",".join("?" * len(keys))
        rows = self._store.rconn().execute(
            f"SELECT DISTINCT path FROM links INDEXED BY links_by_name WHERE vault = ? AND name IN ({marks})",
            (vault, *keys),
        )
        return {r[0] for r in rows}

    def outgoing(self, vault: str, path: str) -> list[OutLink]:
        """The links of note ``path`` in document order, each with what it resolves to."""
        rows = (
            self._store.rconn()
            .execute(
                f"SELECT target, resolved, {_REF_COLUMNS} FROM links WHERE vault = ? AND path = ? ORDER BY seq",
                (vault, path),
            )
            .fetchall()
        )
        return [OutLink(t, r, _ref(rest)) for t, r, *rest in rows]

    def edges(self, vault: str) -> list[tuple[str, str | None, str, int]]:
        """Every link of ``vault`` aggregated: ``(source, resolved target or None, target, count)`` where
        ``target`` is the resolved path, or the link text for an unresolved link.

        Same-note links (``[[#Heading]]``, a note linking itself) are left out. Cached until the vault's next
        change, so repeated graph queries cost one pass per change.
        """
        with self._lock:
            gen = self._generation[vault]
            cached = self._edges.get(vault)
            if cached is not None and cached[0] == gen:
                return cached[1]
        # Counted here over the primary key's range, in file order: SQLite's GROUP BY would walk the
        # links_by_resolved index and look each row up (3x slower on a 10k-note vault).
        counts: Counter[tuple[str, str | None, str]] = Counter()
        for source, dest, target in self._store.rconn().execute(
            "SELECT path, resolved, target FROM links WHERE vault = ? AND name != ''", (vault,)
        ):
            if dest is None:
                counts[(source, None, target)] += 1
            elif dest != source:
                counts[(source, dest, dest)] += 1
        edges = [(s, d, t, n) for (s, d, t), n in counts.items()]
        with self._lock:
            if self._generation[vault] == gen:
                self._edges[vault] = (gen, edges)
        return edges
