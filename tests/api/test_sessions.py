"""The web app's cookie session (issue 11 items 1 and 11) on a real server on loopback: the cookie's flags,
sign-out, expiry, bearer precedence, the web budget, MCP refusing the cookie and the cross-site checks on
every write route when the credential is the cookie."""

from __future__ import annotations

import time
from http.cookies import SimpleCookie

import httpx2
import pytest
from conftest import LiveServer
from support import PW, add_alice_and_bob, free_port, journal_records, journal_text

from obsigate.auth.tokens import TokenService
from obsigate.config import load_settings

FOREIGN = "https://evil.example"


def _session(server, username: str = "alice", password: str = PW, **headers: str) -> httpx2.Response:
    return httpx2.post(
        f"{server.url}/api/auth/session", json={"username": username, "password": password}, headers=headers
    )


def _cookie_of(response: httpx2.Response) -> SimpleCookie:
    jar = SimpleCookie()
    jar.load(response.headers["set-cookie"])
    return jar


@pytest.fixture
def server(live_server, small_vault):
    return add_alice_and_bob(live_server({"notes": small_vault}, auth_enabled=True))


@pytest.fixture
def cookie(server) -> dict[str, str]:
    r = _session(server)
    assert r.status_code == 200
    return {"obsigate_session": _cookie_of(r)["obsigate_session"].value}


def test_sign_in_sets_an_httponly_strict_cookie(server) -> None:
    r = _session(server)
    assert r.status_code == 200 and r.json() == {"user": {"name": "alice", "is_admin": False, "vaults": ["notes"]}}
    morsel = _cookie_of(r)["obsigate_session"]
    assert morsel.value.count(".") == 2  # a JWT
    assert morsel["httponly"] and morsel["samesite"].lower() == "strict" and morsel["path"] == "/"
    assert morsel["max-age"] == str(server.settings.token_ttl) and not morsel["secure"]  # plain-http loopback
    assert morsel.value not in r.text  # the token is never in the body: page scripts never see it


def test_the_cookie_is_secure_behind_https(small_vault, tmp_path) -> None:
    port = free_port()  # behind a TLS proxy: the public URL is https, the server itself listens on loopback
    settings = load_settings(data_dir=tmp_path / "data", port=port, vaults={"notes": {"path": str(small_vault)}},
                             public_url="https://notes.example.org")  # fmt: skip
    server = LiveServer(settings)
    server.url = f"http://127.0.0.1:{port}"
    server.start()
    try:
        server.app.state.auth.users.add_user("alice", PW, vaults=["notes"])
        assert _cookie_of(_session(server))["obsigate_session"]["secure"]
    finally:
        server.stop()


def test_sign_in_errors_are_the_logins(server, live_server, small_vault, tmp_path) -> None:
    bad = _session(server, password="wrong password here")
    assert bad.status_code == 401 and bad.json()["code"] == "unauthenticated" and "set-cookie" not in bad.headers
    login = httpx2.post(f"{server.url}/api/auth/login", json={"username": "alice", "password": "wrong password here"})
    assert login.status_code == 401 and login.json()["code"] == bad.json()["code"]
    assert _session(server, username="nobody").status_code == 401
    for _ in range(4):
        _session(server, password="still wrong")
    assert _session(server).json()["code"] == "rate_limited"  # the login limiter: 5 per account a minute
    off = live_server({"notes": small_vault}, auth_enabled=False, data_dir=tmp_path / "off")
    r = _session(off)
    assert r.status_code == 400 and r.json()["code"] == "auth_disabled"


def test_the_cookie_authenticates_and_sign_out_ends_it(server, cookie) -> None:
    me = httpx2.get(f"{server.url}/api/auth/me", cookies=cookie)
    assert me.status_code == 200 and me.json()["name"] == "alice" and me.json()["auth_kind"] == "jwt"
    assert httpx2.get(f"{server.url}/api/search", params={"q": "tidepool"}, cookies=cookie).json()["hits"]
    out = httpx2.delete(f"{server.url}/api/auth/session", cookies=cookie)
    assert out.status_code == 204
    cleared = _cookie_of(out)["obsigate_session"]
    assert cleared.value == "" and cleared["max-age"] == "0" and cleared["path"] == "/"
    again = httpx2.get(f"{server.url}/api/auth/me", cookies=cookie)  # a copy of the old cookie
    assert again.status_code == 401 and again.json()["details"]["reason"] == "revoked"
    assert httpx2.delete(f"{server.url}/api/auth/session").status_code == 204  # no session: still 204


def test_an_expired_or_forged_cookie_is_401(server) -> None:
    auth = server.app.state.auth
    past = TokenService(auth.tokens._secret_path, clock=lambda: time.time() - 7200)
    expired = past.issue(auth.users.get_user("alice"), ttl_s=3600)
    r = httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": expired})
    assert r.status_code == 401 and r.json()["details"]["reason"] == "expired"
    assert httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": "x.y.z"}).status_code == 401
    _, key = auth.users.create_api_key("alice")
    r = httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": key})  # keys never ride in a cookie
    assert r.status_code == 401 and r.json()["details"]["reason"] == "invalid_session"
    script = auth.tokens.issue(auth.users.get_user("alice"))  # `obsigate token create`: a bearer, not a session
    r = httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": script})
    assert r.status_code == 401 and r.json()["details"]["reason"] == "invalid_session"
    assert httpx2.get(f"{server.url}/api/auth/me", headers={"Authorization": f"Bearer {script}"}).status_code == 200


def test_a_bearer_header_wins_over_the_cookie(server, cookie) -> None:
    bob = server.app.state.auth.tokens.issue(server.app.state.auth.users.get_user("bob"))
    me = httpx2.get(f"{server.url}/api/auth/me", cookies=cookie, headers={"Authorization": f"Bearer {bob}"})
    assert me.json()["name"] == "bob"
    bad = httpx2.get(f"{server.url}/api/auth/me", cookies=cookie, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401  # a bad header is not rescued by the cookie


def test_people_in_the_web_app_have_their_own_budget(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=True, tool_rate_limit=60)
    users = server.app.state.auth.users
    users.add_user("alice", PW, vaults=["notes"])
    cookie = {"obsigate_session": _cookie_of(_session(server))["obsigate_session"].value}
    _, key = users.create_api_key("alice")
    with httpx2.Client(base_url=server.url) as http:
        web = [http.get("/api/search", params={"q": f"tide{i}"}, cookies=cookie).status_code for i in range(100)]
        assert web == [200] * 100
        agent = [http.get("/api/search", params={"q": f"tide{i}"}, headers={"Authorization": f"Bearer {key}"}).status_code
                 for i in range(61)]  # fmt: skip
    assert agent[:60] == [200] * 60 and agent[60] == 429  # the agents' budget is untouched by the person's
    records = journal_records(server.settings.data_dir)
    assert sum(r["front"] == "web" for r in records) == 100


def test_with_auth_off_the_pages_own_requests_get_the_web_budget(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False, tool_rate_limit=5)
    with httpx2.Client(base_url=server.url) as http:
        page = [
            http.get("/api/search", params={"q": "x"}, headers={"Sec-Fetch-Site": "same-origin"}).status_code
            for _ in range(10)
        ]
        script = [http.get("/api/search", params={"q": "x"}).status_code for _ in range(6)]
    assert page == [200] * 10 and script[-1] == 429


def test_mcp_does_not_accept_the_cookie(server, cookie) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    accept = {"Accept": "application/json, text/event-stream", "Origin": server.url}
    r = httpx2.post(f"{server.url}/mcp", json=init, headers=accept, cookies=cookie)
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer ")
    token = server.app.state.auth.tokens.issue(server.app.state.auth.users.get_user("alice"))
    ok = httpx2.post(f"{server.url}/mcp", json=init, headers={**accept, "Authorization": f"Bearer {token}"})
    assert ok.status_code == 200  # the same JWT as a bearer header is fine


#: A value for each path parameter: one the route accepts (a known text action), so what answers is its origin check.
FILL = {"{vault}": "notes", "{conversation_id}": "c1", "{action}": "improve", "{skill_id}": "s1", "{run_id}": "r1"}


def _write_routes(app) -> list[tuple[str, str]]:
    """Every (method, path) of the API that changes something (from its OpenAPI document, which lists every
    route: tests/api/test_route_table.py), path parameters filled in."""
    out = []
    for path, ops in app.openapi()["paths"].items():
        for method in sorted(m.upper() for m in ops):
            # /mcp (bearer only, its own Origin check: tests/mcp) is in the document since issue 18
            if method in {"POST", "PUT", "PATCH", "DELETE"} and path.startswith("/api/") and path != "/api/auth/login":
                for name, value in FILL.items():
                    path = path.replace(name, value)
                out.append((method, path))
    return out


def test_every_write_route_refuses_a_foreign_origin_with_the_cookie(server, cookie, small_vault) -> None:
    routes = _write_routes(server.app)
    assert len(routes) >= 20 and ("DELETE", "/api/file/notes") in routes and ("POST", "/api/ai/bookslm/agent") in routes
    assert ("DELETE", "/api/ai/conversations/c1") in routes and ("DELETE", "/api/auth/session") in routes
    before = sorted(p.relative_to(small_vault) for p in small_vault.rglob("*"))
    with httpx2.Client(base_url=server.url) as http:
        for method, path in routes:
            headers = {"Origin": FOREIGN, "Content-Type": "application/json"}
            r = http.request(method, path, params={"path": "Home.md"}, content=b"{}", headers=headers, cookies=cookie)
            assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin"), (method, path, r.text)
            # a browser that says "cross-site" without an Origin, and a form-style body, are refused too
            fetch = {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}
            r = http.request(method, path, params={"path": "Home.md"}, content=b"{}", headers=fetch, cookies=cookie)
            assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin"), (method, path, r.text)
            if method != "DELETE":
                r = http.request(method, path, content=b"{}", headers={"Content-Type": "text/plain"}, cookies=cookie)
                assert (r.status_code, r.json()["code"]) == (400, "unsupported_media_type"), (method, path, r.text)
    assert sorted(p.relative_to(small_vault) for p in small_vault.rglob("*")) == before  # nothing written


def test_a_same_origin_cookie_write_works(server, cookie, small_vault) -> None:
    r = httpx2.post(f"{server.url}/api/file/notes", json={"path": "Web.md", "content": "from the page"},
                    headers={"Origin": server.url, "Sec-Fetch-Site": "same-origin"}, cookies=cookie)  # fmt: skip
    assert r.status_code == 200 and (small_vault / "Web.md").read_text() == "from the page"
    gone = httpx2.delete(
        f"{server.url}/api/file/notes", params={"path": "Web.md"}, headers={"Origin": server.url}, cookies=cookie
    )
    assert gone.status_code == 200 and not (small_vault / "Web.md").exists()


def test_the_session_routes_refuse_a_foreign_origin(server) -> None:
    r = _session(server, Origin=FOREIGN)  # login CSRF: another site cannot sign the browser in
    assert r.status_code == 403 and "set-cookie" not in r.headers
    assert httpx2.delete(f"{server.url}/api/auth/session", headers={"Origin": FOREIGN}).status_code == 403


def test_tokens_are_never_logged(server, caplog) -> None:
    caplog.set_level("DEBUG")
    r = _session(server)
    token = _cookie_of(r)["obsigate_session"].value
    httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": token})
    httpx2.delete(f"{server.url}/api/auth/session", cookies={"obsigate_session": token})
    httpx2.get(f"{server.url}/api/auth/me", cookies={"obsigate_session": token})
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    mcp = httpx2.post(
        f"{server.url}/mcp",
        json=init,
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"},
    )
    assert mcp.status_code == 401  # signed out on every front; the refusal is logged, with its reason only
    # the server's records only: the test's own HTTP client logs the headers it receives at DEBUG
    server_logs = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore")))
    assert "revoked" in server_logs and token not in server_logs and PW not in server_logs
    assert token not in journal_text(server.settings.data_dir)


def test_the_web_front_follows_rests_rules(server) -> None:
    from obsigate.auth.principal import ANONYMOUS
    from obsigate.tools.context import MODES, ToolContext
    from obsigate.tools.dispatch import visible_tools
    from obsigate.tools.pipeline import MODEL_MODES

    runtime = server.app.state.runtime
    assert "web" in MODES and "web" not in MODEL_MODES  # a person's confirmed action, not a model's
    web, rest = (visible_tools(ToolContext(principal=ANONYMOUS, runtime=runtime, mode=m)) for m in ("web", "rest"))
    assert [s.name for s in web] == [s.name for s in rest] and "delete_file" in {s.name for s in web}
    assert runtime.web_limiter is not None and runtime.web_limiter is not runtime.limiter
