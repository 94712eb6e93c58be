"""Shared argument fields and result pieces used by several catalog modules."""

from __future__ import annotations


from pydantic import BaseModel, Field

MAX_LIST_OFFSET = 10_000_000
VaultField = Field(description="Vault name, as returned by list_vaults.", min_length=1, max_length=64)
PathField = Field(description="Vault-relative path with '/' separators, e.g. 'Projects/Plan.md'.", max_length=1024)


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


