"""The web app's foundations in a real Chromium (issue 11 items 1 and 3): the page and its CSP, the cookie
session as a page sees it, and cross-site writes refused."""

from __future__ import annotations

import re
from pathlib import Path

from support import journal_text

CSP = re.compile(
    r"default-src 'self'; script-src 'self'; style-src 'self' 'nonce-[A-Za-z0-9_-]{24}'; img-src 'self' data: blob:; "
    r"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
INDEX = Path(__file__).parents[2] / "src" / "obsigate" / "web" / "index.html"

FETCH = """async ([method, url, body]) => {
    const init = {method, headers: {}};
    if (body !== null) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    const res = await fetch(url, init);
    const text = await res.text();
    let json = null; try { json = JSON.parse(text); } catch (e) {}
    return {status: res.status, json};
}"""


def call(page, method: str, url: str, body: object = None) -> dict:
    """``fetch`` from inside the page (its origin, its cookies): ``{"status", "json"}``."""
    return page.evaluate(FETCH, [method, url, body])


def test_the_page_loads_with_the_strict_csp_and_no_console_errors(page, open_server) -> None:
    response = page.goto(f"{open_server.url}/", wait_until="networkidle")
    assert response.status == 200 and CSP.fullmatch(response.headers["content-security-policy"])
    assert (
        response.headers["x-content-type-options"] == "nosniff" and response.headers["referrer-policy"] == "same-origin"
    )
    deep = page.goto(f"{open_server.url}/v/notes/Projects/Plan.md", wait_until="networkidle")
    assert deep.status == 200 and CSP.fullmatch(deep.headers["content-security-policy"])  # a reload of an app route
    problems = page.watch.problems()
    page.watch.console_errors.clear()
    assert problems == []  # no CSP violation, no script error: the app keeps to 'self'
    assert 'src="/static/app.js"' in INDEX.read_text(encoding="utf-8")


def test_sign_in_sets_a_cookie_no_script_can_read(page, web_server, web_vault, alice) -> None:
    page.goto(f"{web_server.url}/api/health")  # any page of the server's origin, whatever the app's state
    page.watch.expect("401")  # the browser logs the refused request below
    assert call(page, "GET", "/api/auth/me")["status"] == 401
    signed = call(page, "POST", "/api/auth/session", alice)
    assert signed == {"status": 200, "json": {"user": {"name": "alice", "is_admin": False, "vaults": ["notes"]}}}
    assert page.evaluate("document.cookie") == ""  # HttpOnly: invisible to scripts, injected ones included
    (cookie,) = page.context.cookies()
    assert cookie["name"] == "obsigate_session" and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    me = call(page, "GET", "/api/auth/me")
    assert me["status"] == 200 and me["json"]["name"] == "alice"
    hits = call(page, "GET", "/api/search?q=tidepool")
    assert hits["status"] == 200 and hits["json"]["hits"]
    # A write from the page itself: the browser adds this origin's Origin header, which passes.
    created = call(page, "POST", "/api/file/notes", {"path": "From the page.md", "content": "hello\n"})
    assert created["status"] == 200 and (web_vault / "From the page.md").read_text() == "hello\n"
    assert call(page, "DELETE", "/api/auth/session")["status"] == 204
    assert page.context.cookies() == [] and call(page, "GET", "/api/auth/me")["status"] == 401


def test_a_cross_site_write_with_the_cookie_is_refused(page, web_server, web_vault, alice) -> None:
    page.goto(f"{web_server.url}/api/health")
    assert call(page, "POST", "/api/auth/session", alice)["status"] == 200
    # The browser's own cookie jar, with a foreign Origin (what a forged cross-site request would carry).
    forged = page.context.request.post(
        f"{web_server.url}/api/file/notes", data={"path": "evil.md", "content": "x"},
        headers={"Origin": "https://evil.example"},
    )  # fmt: skip
    assert forged.status == 403 and forged.json()["code"] == "forbidden_origin"
    deleted = page.context.request.delete(
        f"{web_server.url}/api/file/notes?path=Home.md", headers={"Origin": "https://evil.example"}
    )
    assert deleted.status == 403 and (web_vault / "Home.md").exists()
    # A real page on another site (localhost is another site than 127.0.0.1) posting a "simple" request,
    # the kind that needs no CORS preflight: SameSite=Strict keeps the cookie home, so it is not signed in.
    other = web_server.url.replace("127.0.0.1", "localhost")
    page.goto(f"{other}/api/health")
    page.watch.expect("status of 401")
    page.evaluate(
        """async (url) => { await fetch(url, {method: 'POST', mode: 'no-cors', credentials: 'include',
            headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({path: 'evil.md', content: 'x'})}); }""",
        f"{web_server.url}/api/file/notes",
    )
    assert any("status of 401" in m for m in page.watch.console_errors)  # the server saw no session
    assert not (web_vault / "evil.md").exists()
    audit = journal_text(web_server.settings.data_dir)
    assert "evil.md" not in audit  # refused before any tool ran


def test_the_watch_stops_and_reports_requests_off_loopback(page, open_server) -> None:
    page.goto(f"{open_server.url}/api/health")
    page.watch.expect("net::ERR_FAILED")
    failed = page.evaluate(
        "async () => { try { await fetch('https://cdn.example.org/x.js'); return false; } catch (e) { return true; } }"
    )
    assert failed and page.watch.foreign_requests == ["https://cdn.example.org/x.js"]
    page.watch.foreign_requests.clear()  # seen and stopped: this test is about the guard itself
