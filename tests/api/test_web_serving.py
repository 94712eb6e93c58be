"""How the web app is served (issue 11 item 3): the page at ``/`` and every ``/v/...`` path with the strict
CSP, ``/static`` with its cache rules, the JSON 404 of unknown API paths kept."""

from __future__ import annotations

import re
from pathlib import Path

import httpx2
import pytest
from starlette.applications import Starlette
from support import free_port, uvicorn_thread

from obsigate.api.app import IMMUTABLE, WEB_CSP, WebStatic

#: The policy, with the per-response nonce that only the app's own <style> elements carry (CodeMirror).
CSP = re.compile(
    r"default-src 'self'; script-src 'self'; style-src 'self' 'nonce-([A-Za-z0-9_-]{24})'; img-src 'self' data: blob:; "
    r"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


@pytest.fixture
def server(live_server, small_vault):
    return live_server({"notes": small_vault}, auth_enabled=True)


@pytest.mark.parametrize("path", ["/", "/v/notes", "/v/notes/Projects/Plan.md", "/v/notes/Ünïcode%20note.md?x=1"])
def test_the_page_is_served_with_the_strict_policy(server, path: str) -> None:
    r = httpx2.get(f"{server.url}{path}")  # no credential needed: the page itself asks for sign-in
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    policy = CSP.fullmatch(r.headers["content-security-policy"])
    assert policy and r.headers["content-security-policy"] == WEB_CSP.format(nonce=policy[1])
    page = (Path(__file__).parents[2] / "src/obsigate/web/index.html").read_text(encoding="utf-8")
    assert r.text == page.replace("__CSP_NONCE__", policy[1])  # the page names the same nonce
    again = httpx2.get(f"{server.url}{path}").headers["content-security-policy"]
    assert CSP.fullmatch(again)[1] != policy[1]  # a new one every time
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "same-origin"


def test_unknown_api_paths_keep_the_json_404(server) -> None:
    for path in ("/api/nope", "/api/v/notes", "/nope"):
        r = httpx2.get(f"{server.url}{path}")
        assert r.status_code == 404 and r.json()["code"] == "not_found", path


def test_static_files(server) -> None:
    r = httpx2.get(f"{server.url}/static/app.js")
    assert (
        r.status_code == 200
        and r.headers["cache-control"] == "no-cache"
        and r.headers["x-content-type-options"] == "nosniff"
    )
    assert r.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert httpx2.get(f"{server.url}/static/missing.js").status_code == 404
    assert httpx2.get(f"{server.url}/static/../index.html").status_code == 404  # no way out of the folder
    assert httpx2.get(f"{server.url}/app.js").status_code == 404  # the placeholder page's script is gone


def test_hashed_assets_are_cached_for_good_others_revalidated(tmp_path: Path) -> None:
    (tmp_path / "chunks").mkdir()
    (tmp_path / "chunks" / "main-3f9a1c.js").write_text("export {};\n")
    (tmp_path / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    app = Starlette()
    app.mount("/static", WebStatic(directory=tmp_path), name="static")
    port = free_port()
    with uvicorn_thread(app, port):
        hashed = httpx2.get(f"http://127.0.0.1:{port}/static/chunks/main-3f9a1c.js")
        plain = httpx2.get(f"http://127.0.0.1:{port}/static/favicon.svg")
        again = httpx2.get(
            f"http://127.0.0.1:{port}/static/favicon.svg", headers={"If-None-Match": plain.headers["etag"]}
        )
    assert hashed.headers["cache-control"] == IMMUTABLE and hashed.headers["content-type"].startswith("text/javascript")
    assert plain.headers["cache-control"] == "no-cache" and again.status_code == 304


def test_static_files_are_gzipped_for_browsers_that_ask(server) -> None:
    plain = httpx2.get(f"{server.url}/static/app.js", headers={"Accept-Encoding": "identity"})
    packed = httpx2.get(f"{server.url}/static/app.js", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200 and "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip" and "accept-encoding" in packed.headers["vary"].lower()
    assert packed.content == plain.content  # the client decoded it: the same bytes
    # bytes on the wire (a file over one 64 KiB chunk is gzipped as a stream: no content-length then)
    assert packed.num_bytes_downloaded < len(plain.content) / 2
    assert packed.headers["x-content-type-options"] == "nosniff"
