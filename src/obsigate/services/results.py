"""The base of every typed service result, and the parts many of them share (paging, the index state).

A service returns a model of this module's :class:`Result` family, declared beside it (``services/files.py``
holds ``ReadFileResult``...); the tool layer passes it through unchanged as its result model (``ToolOutput``
is :class:`Result`), so each result has one shape, described once.
"""

from __future__ import annotations

from pydantic import BaseModel


class Result(BaseModel):
    """Base of every result model. ``truncated`` is true when anything was cut (page end or size budget);
    ``notice`` says what was cut and how to get the rest."""

    truncated: bool = False
    notice: str | None = None


class Page(BaseModel):
    """Pagination of a list: ``total`` items exist; this page starts at ``offset``; ``next_offset`` continues
    (``None`` at the end)."""

    total: int
    offset: int = 0
    next_offset: int | None = None


class IndexState(BaseModel):
    """Search index state: ``indexing`` while the first build runs, then ``ready``."""

    state: str
    complete: bool


class FromIndex(BaseModel):
    """A result read from the search index: its ``index`` state, and a ``warning`` when the index was still
    being built (results may be missing)."""

    index: IndexState
    warning: str | None = None
