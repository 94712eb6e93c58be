"""The guarded client against real loopback servers (tests/net/conftest.py): what the allow list lets through
works; with nothing allowed, every hostile form is refused before a byte is sent (the 127.0.0.1 server counts
its hits); redirects, the deadline, the byte cap, the content types and the pinned address (issue 18 item 5)."""

from __future__ import annotations

import json
import time
import tracemalloc

import anyio
import pytest
from fakes.web_sites import Sites

from obsigate.services.errors import ServiceError
from obsigate.services.net.client import fetch
from obsigate.services.net.guard import NetPolicy
from obsigate.services.net.web import WebAccess, fetch_readable

ALLOWED = NetPolicy.parse("127.0.0.2/32,127.0.0.3/32")
NOTHING = NetPolicy()


def run(coro_fn, *args, **kwargs):
    return anyio.run(lambda: coro_fn(*args, **kwargs))


def refused(url: str, policy: NetPolicy = NOTHING, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        run(fetch, url, policy, **kwargs)
    return caught.value


def test_an_allowed_page_is_read_as_text_with_its_title(sites: Sites) -> None:
    result = run(fetch_readable, WebAccess(policy=ALLOWED), f"{sites.site.url}/page", 20_000)
    assert result.url == f"{sites.site.url}/page" and result.content_type == "text/html"
    assert result.title == "Field notes"
    assert "The heron waited by the reeds" in result.text
    assert "Home | About" not in result.text and "nobody" not in result.text  # boilerplate dropped
    short = run(fetch_readable, WebAccess(policy=ALLOWED), f"{sites.site.url}/page", 500)
    assert len(short.text) == 500 and short.truncated and short.chars > 500
    text = run(fetch_readable, WebAccess(policy=ALLOWED), f"{sites.site.url}/text", 20_000)
    assert (text.text, text.title) == ("plain words\nsecond line", None)


def test_pdf_and_json_are_read_as_text(sites: Sites) -> None:
    web = WebAccess(policy=ALLOWED)
    pdf = run(fetch_readable, web, f"{sites.site.url}/report.pdf", 20_000)
    assert (pdf.content_type, pdf.text) == ("application/pdf", "Heron migration report")
    data = run(fetch_readable, web, f"{sites.site.url}/data.json", 20_000)
    assert data.text == '{\n  "bird": "heron",\n  "count": 3\n}'
    with pytest.raises(ServiceError) as broken:
        run(fetch_readable, web, f"{sites.site.url}/broken.pdf", 20_000)
    assert (broken.value.code, broken.value.details["reason"]) == ("fetch_failed", "pdf")


def test_with_nothing_allowed_every_loopback_form_is_refused_unsent(sites: Sites) -> None:
    port = sites.secret.port
    before = len(sites.secret.paths)
    for url in (
        f"http://127.0.0.1:{port}/",
        f"http://localhost:{port}/",
        f"http://127.1:{port}/",
        f"http://2130706433:{port}/",
        f"http://0x7f.1:{port}/",
        f"http://[::1]:{port}/",
        f"http://[::ffff:127.0.0.1]:{port}/",
        f"http://0.0.0.0:{port}/",
        f"http://127.0.0.2:{sites.site.port}/page",  # the test site itself, once not allowed
        "file:///etc/passwd",
    ):
        error = refused(url)
        assert error.code == "url_not_allowed", (url, error.code, error.message)
    assert len(sites.secret.paths) == before


@pytest.mark.parametrize("target", ["secret", "secret-decimal", "secret-mapped", "localhost", "file"])
def test_a_redirect_from_an_allowed_site_to_a_refused_one_is_refused(sites: Sites, target: str) -> None:
    before = len(sites.secret.paths)
    error = refused(f"{sites.site.url}/to/{target}", ALLOWED)
    assert error.code == "url_not_allowed"
    assert len(sites.secret.paths) == before


def test_redirects_are_followed_within_bounds_and_credentials_stay_with_their_host(sites: Sites) -> None:
    same = run(fetch, f"{sites.site.url}/to/page", ALLOWED)
    assert same.url == f"{sites.site.url}/page" and same.redirects == 1
    headers = {"Authorization": "Bearer s3cret", "Cookie": "a=1"}
    kept = json.loads(run(fetch, f"{sites.site.url}/to/self-echo", ALLOWED, headers=headers).body)
    assert kept["Authorization"] == "Bearer s3cret" and kept["Cookie"] == "a=1"
    moved = json.loads(run(fetch, f"{sites.site.url}/to/other-echo", ALLOWED, headers=headers).body)
    assert "Authorization" not in moved and "Cookie" not in moved
    assert refused(f"{sites.site.url}/to/loop", ALLOWED).details["reason"] == "redirects"


def test_environment_proxies_are_ignored(sites: Sites, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY"):
        monkeypatch.setenv(name, f"{sites.secret.url}")
    before = len(sites.secret.paths)
    assert run(fetch, f"{sites.site.url}/text", ALLOWED).body == b"plain words\nsecond line"
    assert len(sites.secret.paths) == before


def test_a_slow_drip_ends_at_the_total_deadline(sites: Sites) -> None:
    started = time.monotonic()
    error = refused(f"{sites.site.url}/drip", ALLOWED, deadline_s=0.8)
    assert error.code == "timeout"
    assert time.monotonic() - started < 2.0


def test_a_50_mb_body_is_cut_while_it_streams(sites: Sites) -> None:
    tracemalloc.start()
    try:
        started = time.monotonic()
        error = refused(f"{sites.site.url}/big", ALLOWED, max_bytes=2_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.code == "too_large" and error.details["max_bytes"] == 2_000_000
    assert peak < 12_000_000, peak  # the cap and a chunk, not the body
    assert time.monotonic() - started < 5


def test_other_content_types_and_error_statuses_are_refused(sites: Sites) -> None:
    error = refused(f"{sites.site.url}/image", ALLOWED)
    assert (error.code, error.details["content_type"]) == ("unsupported_content_type", "image/png")
    error = refused(f"{sites.site.url}/missing", ALLOWED)
    assert (error.code, error.details["status"]) == ("fetch_failed", 404)
    error = refused(f"http://127.0.0.2:{sites.secret.port + 1 if sites.secret.port < 65535 else 1}/", ALLOWED)
    assert error.code in ("fetch_failed", "timeout")
    error = refused("http://no-such-host.invalid/", ALLOWED)  # resolved offline in the tests (tests/conftest.py)
    assert error.code == "fetch_failed" and "does not resolve" in error.message


def test_the_checked_address_is_the_one_connected_to(sites: Sites) -> None:
    """A resolver that would answer differently the second time cannot rebind: it is asked once, and the
    connection goes to the address it was checked as."""
    answers = [["127.0.0.2"], ["127.0.0.1"]]
    asked: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[min(len(asked) - 1, 1)]

    got = run(fetch, f"http://rebind.test:{sites.site.port}/page", ALLOWED, resolver=rebinding)
    assert got.body.decode().startswith("<html>") and asked == ["rebind.test"]
    assert got.connected == [("rebind.test", "127.0.0.2")]
    assert sites.site.paths[-1][1]["Host"] == f"rebind.test:{sites.site.port}"  # the name, not the pin
    # a new connection (here after a redirect) is a new lookup, checked again: the rebound answer is refused
    asked.clear()
    error = refused(f"http://rebind.test:{sites.site.port}/to/page", ALLOWED, resolver=rebinding)
    assert error.code == "url_not_allowed" and asked == ["rebind.test", "rebind.test"]

    async def mixed(host: str, port: int) -> list[str]:
        return ["127.0.0.2", "127.0.0.1"]

    assert refused(f"http://mixed.test:{sites.site.port}/page", ALLOWED, resolver=mixed).code == "url_not_allowed"
