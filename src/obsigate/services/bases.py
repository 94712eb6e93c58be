"""``query_base``: one view of an Obsidian base (a ``.base`` file, or a ```` ```base ```` block of a note) run
over the vault as the index knows it, read-only (obsidian-app.md §1; the rules live in ``domain/bases``).

Candidates are every indexed file of the vault (notes, attachments, canvases, bases: §1.2). A note's
frontmatter is read from disk (the YAML block only) once and kept while its size and mtime stay the same
(:data:`FACTS_KEPT` notes across vaults), redacted like every read: a secret never reaches a cell. Its tags
and links come from the index, only when an expression asks for them; links resolve as the index resolves
them now. A whole answer is kept for :data:`RESULT_TTL_S` seconds while the
vault's index version stays the same, so the web app's live refresh (a poll with that version as ETag) costs
a dictionary look-up.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from obsigate.domain.bases.evaluate import Evaluator
from obsigate.domain.bases.query import check_view, run_view
from obsigate.domain.bases.spec import BaseSpecError, base_blocks, parse_base
from obsigate.domain.bases.values import FileFacts, LinkRef
from obsigate.domain.markdown.frontmatter import load_frontmatter, split_frontmatter
from obsigate.domain.redaction import redact_properties
from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault, decode_note
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.files import note_text
from obsigate.services.paths import normalize_rel
from obsigate.services.results import Result
from obsigate.services.vault_config import vault_config
from obsigate.services.workspace import Workspace

MAX_ROWS = 1_000
DEFAULT_ROWS = 500  # rows a view returns at most (its own `limit` may say fewer)
FACTS_KEPT = 100_000
RESULTS_KEPT = 32
RESULT_TTL_S = 30.0  # now()/today() move on: an unchanged vault is still re-evaluated after this
MAX_NOTE_BYTES = 4 * 1024 * 1024  # a bigger note is a row with its file properties only

_facts: OrderedDict[tuple[str, str], tuple[int, int, FileFacts]] = OrderedDict()
_facts_lock = threading.Lock()
_tags: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}  # (vault, index version) -> every note's tags
_results: OrderedDict[tuple[Any, ...], tuple[float, QueryBaseResult]] = OrderedDict()
_results_lock = threading.Lock()


class BaseViewInfo(BaseModel):
    name: str
    type: str = Field(description="table, cards, list, map (shown as a table) or a plugin's type")


class QueryBaseResult(Result):
    """Never cut to the result budget (``UNBOUNDED``): offered to no model, and its rows are capped by ``limit``."""

    UNBOUNDED: ClassVar[bool] = True
    vault: str
    path: str
    this: str | None = Field(description="The file 'this' stands for: the base itself, or the embedding note.")
    version: str = Field(description="The vault's index version: the answer is the same while it is.")
    views: list[BaseViewInfo]
    view: dict[str, Any] = Field(
        description="The chosen view: name, type, shown_as, columns [{id,label}], grouped, groups [{key, rows "
        "[{path, cells}], summaries}], summaries, total, shown, errors, filter_errors. Cells are JSON values "
        "or {'$': 'link'|'date'|'text'|'object'|'error'|..., ...}."
    )


class _IndexEnv:
    """:class:`obsigate.domain.bases.values.Env` over the index and the vault's files."""

    def __init__(self, ws: Workspace, vault: Vault) -> None:
        self.ws = ws
        self.vault = vault
        self.records = {r.path: r for r in ws.index.file_records(vault.name)}
        self._resolved: dict[tuple[str, str], str | None] = {}
        self._tags: dict[str, tuple[str, ...]] | None = None

    def file(self, path: str) -> FileFacts | None:
        rec = self.records.get(path)
        if rec is None:
            return None
        if not rec.note:
            return FileFacts(path, rec.size, rec.mtime_ns, rec.created_ns)
        key = (self.vault.name, path)
        with _facts_lock:
            hit = _facts.get(key)
            if hit is not None and hit[0] == rec.mtime_ns and hit[1] == rec.size:
                _facts.move_to_end(key)
                return hit[2]
        facts = self._read(path, rec.size, rec.mtime_ns, rec.created_ns)
        with _facts_lock:
            _facts[key] = (rec.mtime_ns, rec.size, facts)
            while len(_facts) > FACTS_KEPT:
                _facts.popitem(last=False)
        return facts

    def _read(self, path: str, size: int, mtime_ns: int, created_ns: int) -> FileFacts:
        """The note's frontmatter only (tags and links come from the index): a few YAML lines instead of the whole
        note's parse, redacted by key and value like every read."""
        try:
            data, _ = vault_fs.read_file(self.vault.root, path, max_bytes=MAX_NOTE_BYTES)
        except (OSError, ValueError):  # gone since it was indexed, or too big: its file properties only
            return FileFacts(path, size, mtime_ns, created_ns)
        source, _, _ = split_frontmatter(decode_note(data).replace("\r\n", "\n").removeprefix("\ufeff"))
        props = load_frontmatter(source)[0] if source is not None else {}
        return FileFacts(path, size, mtime_ns, created_ns, redact_properties(props))

    def resolve(self, target: str, source: str) -> str | None:
        key = (target, source)
        if key not in self._resolved:
            self._resolved[key] = self.ws.index.resolve_link(self.vault.name, target, source)
        return self._resolved[key]

    def tags(self, path: str) -> tuple[str, ...]:
        if self._tags is None:  # every note's tags in one pass over the index (~20 µs a note), on first need
            key = (self.vault.name, self.ws.index.graph_version(self.vault.name))
            with _facts_lock:
                kept = _tags.get(key)
            if kept is None:
                kept = {p: tags for p, _, tags in self.ws.index.note_texts(self.vault.name)}
                with _facts_lock:
                    _tags.clear()  # one vault version kept: the last one asked
                    _tags[key] = kept
            self._tags = kept
        return self._tags.get(path, ())

    def links(self, path: str) -> tuple[LinkRef, ...]:
        rec = self.records.get(path)
        if rec is None or not rec.note:
            return ()
        out = []
        for lk in self.ws.index.outgoing_links(self.vault.name, path):
            if lk.target.strip():
                self._resolved[(lk.target, path)] = lk.resolved
                out.append(LinkRef(lk.target, lk.ref.embed))
        return tuple(out)

    def backlinks(self, path: str) -> list[str]:
        return sorted(self.ws.index.backlink_sources(self.vault.name, path))


def _load_spec(vault: Vault, rel: str, block: int) -> str:
    text = note_text(vault, rel)
    if rel.lower().endswith(".base"):
        return text
    blocks = base_blocks(text)
    if not 0 <= block < len(blocks):
        raise NotFound(
            f"{rel!r} has no base block number {block} (it has {len(blocks)})",
            hint="open a .base file, or a note with a ```base block",
        )
    return blocks[block]


def query_base(
    ws: Workspace,
    vault: Vault,
    path: str,
    *,
    view: str | None = None,
    this: str | None = None,
    block: int = 0,
    limit: int = DEFAULT_ROWS,
) -> QueryBaseResult:
    """Run one view of the base at ``path`` in ``vault`` (already permitted by the tool layer).

    Args:
        path: a ``.base`` file, or a note whose ``block``-th (0-based) ```` ```base ```` block is the base.
        view: the view's name (default: the first view).
        this: the file ``this`` stands for (obsidian-app.md §1.6): default the base file itself, or for a block
            the note holding it; the web app passes the embedding note for ``![[x.base]]``.
        limit: most rows returned (1..1000), after the view's own ``limit``.

    Returns:
        :class:`QueryBaseResult`; a cell or a row filter that fails is an error value in the view, never an
        error of the call.

    Raises:
        NotFound (the file, the block, the view, ``this``), BadRequest (``invalid_base``: YAML that is not a
        base; ``not_text``), PathOutsideVault.
    """
    if not 1 <= limit <= MAX_ROWS or block < 0:
        raise BadRequest(f"limit must be 1..{MAX_ROWS} and block >= 0")
    rel = normalize_rel(path)
    this_rel = normalize_rel(this) if this else (rel if ws.index.has_file(vault.name, rel) else None)
    if this and not ws.index.has_file(vault.name, this_rel or ""):
        raise NotFound(f"file {this!r} is not in vault {vault.name!r}", hint="'this' names the embedding note")
    version = ws.index.graph_version(vault.name)
    key = (vault.name, rel, view, this_rel, block, limit, version)
    now = time.monotonic()
    with _results_lock:
        hit = _results.get(key)
        if hit is not None and now - hit[0] < RESULT_TTL_S:
            return hit[1]
    try:
        spec = parse_base(_load_spec(vault, rel, block))
    except BaseSpecError as exc:
        raise BadRequest(f"{rel!r} is not a valid base: {exc}", code="invalid_base") from None
    chosen = spec.views[0]
    if view is not None:
        found = [v for v in spec.views if v.name == view]
        if not found:
            names = ", ".join(repr(v.name) for v in spec.views)
            raise NotFound(f"base {rel!r} has no view {view!r}", hint=f"its views: {names}")
        chosen = found[0]
    try:
        check_view(spec, chosen)  # a filter or formula that does not parse: said once, not per file
    except BaseSpecError as exc:
        raise BadRequest(f"{rel!r} is not a valid base: {exc}", code="invalid_base") from None
    env = _IndexEnv(ws, vault)
    types = vault_config(vault).property_types  # .obsidian/types.json: how each property is typed
    ev = Evaluator(env, this_rel, spec.formulas, datetime.now(), types)
    out = run_view(spec, chosen, ev, sorted(env.records), limit)
    result = QueryBaseResult(
        vault=vault.name,
        path=rel,
        this=this_rel,
        version=version,
        views=[BaseViewInfo(name=v.name, type=v.type) for v in spec.views],
        view=out,
        truncated=out["shown"] < out["total"] and out["shown"] == limit,
    )
    with _results_lock:
        _results[key] = (now, result)
        while len(_results) > RESULTS_KEPT:
            _results.popitem(last=False)
    return result
