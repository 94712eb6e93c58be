"""The resolved link graph of the indexed vaults: backlinks, outgoing links, edges.

Links are stored as written (``links`` table, keyed by :func:`~obsigate.domain.links.link_name`) and resolved
when read, against an in-memory :class:`~obsigate.domain.links.LinkResolver` per vault that follows every
indexed file. Resolving at read time is what makes the graph exact under change: creating a root-level
``Note.md`` re-targets every bare ``[[Note]]`` at once (obsidian.md §13 case 19), deleting a note turns its
inbound links unresolved, and no stored row ever needs rewriting.

Backlinks of a file = the rows whose ``name`` is one of the file's :func:`~obsigate.domain.links.lookup_names`
(an indexed lookup) that resolve to it from their own note (obsidian.md §11 "linked mentions").
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass

from obsigate.domain.index_store import MetaStore
from obsigate.domain.links import LinkResolver, lookup_names

__all__ = ["Backlink", "LinkGraph", "LinkRef", "OutLink"]


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


def _ref(row: tuple) -> LinkRef:
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
        self._edges: dict[str, tuple[int, list[tuple[str, str | None, str, int]]]] = {}
        for vault, path in store.wconn.execute("SELECT vault, path FROM files"):
            self._resolvers[vault].add(path)

    # ------------------------------------------------------------------------------------ changes

    def touch(self, vault: str, path: str, *, exists: bool) -> None:
        """Record that ``path`` was (re)indexed (``exists``) or forgotten; invalidates cached edges."""
        with self._lock:
            if exists:
                self._resolvers[vault].add(path)
            elif vault in self._resolvers:
                self._resolvers[vault].remove(path)
            self._generation[vault] += 1

    def drop_vault(self, vault: str) -> None:
        """Forget every file of ``vault``."""
        with self._lock:
            self._resolvers.pop(vault, None)
            self._generation[vault] += 1

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

    def backlinks(self, vault: str, path: str) -> list[Backlink]:
        """Notes of ``vault`` with a link resolving to ``path`` (itself excluded), by source path.

        A note linking several times to ``path`` appears once with every link in ``links``.
        """
        names = lookup_names(path)
        marks = ",".join("?" * len(names))
        rows = self._store.rconn().execute(
            "SELECT path, target, subpath, display, kind, embed, line, key, context FROM links "
            f"WHERE vault = ? AND name IN ({marks}) ORDER BY path, seq",
            (vault, *names),
        ).fetchall()
        out: dict[str, list[LinkRef]] = {}
        with self._lock:
            resolver = self._resolvers.get(vault)
            if resolver is None:
                return []
            for source, target, *rest in rows:
                if source != path and resolver.resolve(target, source) == path:
                    out.setdefault(source, []).append(_ref(tuple(rest)))
        return [Backlink(p, tuple(refs)) for p, refs in out.items()]

    def outgoing(self, vault: str, path: str) -> list[OutLink]:
        """The links of note ``path`` in document order, each with what it resolves to now."""
        rows = self._store.rconn().execute(
            "SELECT target, subpath, display, kind, embed, line, key, context FROM links "
            "WHERE vault = ? AND path = ? ORDER BY seq",
            (vault, path),
        ).fetchall()
        with self._lock:
            resolver = self._resolvers.get(vault) or LinkResolver()
            return [OutLink(t, resolver.resolve(t, path) if t.strip() else path, _ref(tuple(r))) for t, *r in rows]

    def edges(self, vault: str) -> list[tuple[str, str | None, str, int]]:
        """Every link of ``vault`` aggregated: ``(source, resolved target or None, target as written, count)``.

        Same-note links (``[[#Heading]]``) are left out. Cached until the vault's next change, so repeated
        graph queries cost one resolution pass per change.
        """
        with self._lock:
            gen = self._generation[vault]
            cached = self._edges.get(vault)
            if cached is not None and cached[0] == gen:
                return cached[1]
        rows = self._store.rconn().execute(
            "SELECT path, target, count(*) FROM links WHERE vault = ? AND name != '' GROUP BY path, target", (vault,)
        ).fetchall()
        with self._lock:
            resolver = self._resolvers.get(vault) or LinkResolver()
            agg: dict[tuple[str, str | None, str], int] = defaultdict(int)
            for source, target, n in rows:
                dest = resolver.resolve(target, source)
                agg[(source, dest, target if dest is None else dest)] += n
            edges = [(s, d, t, n) for (s, d, t), n in agg.items() if d != s]
            if self._generation[vault] == gen:
                self._edges[vault] = (gen, edges)
        return edges
