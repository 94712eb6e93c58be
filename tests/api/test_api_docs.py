"""/docs and /redoc work offline: every asset they load is served by this server (issue 9)."""

from __future__ import annotations

import re

import httpx2
import pytest


@pytest.fixture
def server(live_server, small_vault):
    return live_server({"notes": small_vault}, auth_enabled=False)


def _asset_urls(html: str) -> list[str]:
    """Every URL the page loads: ``src=``/``href=`` attributes and Swagger UI's ``url:`` (the OpenAPI document)."""
    pattern = r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*["']([^"']+)["']"""
    return [a or b for a, b in re.findall(pattern, html)]


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_api_docs_load_only_same_origin_assets(server, page: str) -> None:
    r = httpx2.get(f"{server.url}{page}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "http://" not in r.text and "https://" not in r.text and "//cdn" not in r.text, r.text
    urls = _asset_urls(r.text)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    policy = r.headers["content-security-policy"]
    assert (
        "script-src 'self'" in policy
        and ("'sha256-" in policy) == (page == "/docs")
        and "unsafe-eval" not in policy
        and "https:" not in policy
    )


def test_swagger_assets_are_served_with_their_types(server) -> None:
    html = httpx2.get(f"{server.url}/docs").text
    js = re.search(r"""src=["']([^"']+\.js)["']""", html).group(1)
    css = re.search(r"""href=["']([^"']+\.css)["']""", html).group(1)
    r_js, r_css = httpx2.get(f"{server.url}{js}"), httpx2.get(f"{server.url}{css}")
    assert r_js.status_code == 200 and "javascript" in r_js.headers["content-type"]
    assert "SwaggerUIBundle" in r_js.text
    assert r_css.status_code == 200 and r_css.headers["content-type"].startswith("text/css")
    assert httpx2.get(f"{server.url}/openapi.json").json()["info"]["title"] == "ObsiGate"
