"""/docs and /redoc run in a real browser under their Content-Security-Policy: the inline start-up script is
allowed by its hash, so the pages render with no CSP violation (each would be a console error, failing the test)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(("route", "ready"), [("/docs", ".opblock-tag"), ("/redoc", "[role=menuitem], .menu-content")])
def test_api_docs_render_under_their_csp(page: Any, open_server: Any, route: str, ready: str) -> None:
    if route == "/redoc":  # ReDoc's footer asks Redocly's CDN for its logo: the CSP refuses it, as it should
        page.watch.expect("cdn.redoc.ly")
    page.goto(f"{open_server.url}{route}")
    page.wait_for_selector(ready, timeout=20_000)
    assert "ObsiGate" in page.title()
