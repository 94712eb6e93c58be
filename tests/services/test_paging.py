"""Paging of list services: one check of limit/offset, one shape of the paging keys."""

from __future__ import annotations

import pytest

from obsigate.services.errors import BadRequest
from obsigate.services.workspace import check_page, page_fields


@pytest.mark.parametrize(
    ("limit", "offset", "bounds", "message"),
    [
        (0, 0, {}, "limit must be >= 1 and offset >= 0"),
        (1, -1, {}, "limit must be >= 1 and offset >= 0"),
        (101, 0, {"max_limit": 100}, "limit must be 1..100 and offset >= 0"),
        (5, 10_001, {"max_limit": 100, "max_offset": 10_000}, "limit must be 1..100 and offset 0..10000"),
    ],
)
def test_out_of_range_paging_is_refused_with_both_ranges(limit: int, offset: int, bounds: dict, message: str) -> None:
    with pytest.raises(BadRequest) as err:
        check_page(limit, offset, **bounds)
    assert err.value.message == message and err.value.code == "invalid_argument"


def test_in_range_paging_passes_and_pages_have_one_shape() -> None:
    check_page(1, 0)
    check_page(100, 10_000, max_limit=100, max_offset=10_000)
    check_page(10**6, 10**9)
    assert page_fields(45, 20, 20) == {"total": 45, "offset": 20, "truncated": True, "next_offset": 40}
    assert page_fields(45, 40, 5) == {"total": 45, "offset": 40, "truncated": False, "next_offset": None}
