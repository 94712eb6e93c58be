"""Loopback web servers for the outbound client's tests (fixture ``sites``): ``site`` on 127.0.0.2 (the allowed "public" site, with
pages, redirects, a drip, a 50 MB body and a fake SearXNG speaking its real JSON shape), ``other`` on 127.0.0.3
(a second allowed host, echoing what it was sent) and ``secret`` on 127.0.0.1 (never allowed: counting its hits)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

PAGE = (
    "<html><head><title>Field notes</title></head><body><nav>Home | About | Contact</nav>"
    "<article><h1>Field notes</h1><p>" + "The heron waited by the reeds for a long time. " * 12 + "</p>"
    "<p>Read <a href='/more'>more</a>.</p></article><footer>© 2026 nobody</footer></body></html>"
)
#: An article holding secrets in words that trafilatura's markdown escapes (``_``): they must reach no model.
SECRETS = ("ghp_" + "a" * 36, "sk_live_" + "abcdefghijklmnopqrstuvwx", "github_pat_11ABCDEFG0123456789_" + "x" * 40)
SECRET_PAGE = (
    "<html><head><title>Ops</title></head><body><article><h1>Ops notes</h1><p>"
    + "The deploy job reads its tokens from the vault. " * 8
    + "</p><p>GitHub: "
    + SECRETS[0]
    + " and Stripe: "
    + SECRETS[1]
    + " and "
    + SECRETS[2]
    + ".</p></article></body></html>"
)
BIG = 50 * 1024 * 1024


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF showing ``text`` in Helvetica, built by hand (objects, xref table, trailer: ISO 32000-1 §7.5)."""
    content = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def searxng_answer(query: str, count: int) -> dict[str, Any]:
    """A SearXNG 200 body as searx/webutils.py:get_json_response writes it (no number_of_results: removed 2026-05)."""
    return {
        "query": query,
        "results": [
            {
                "url": f"https://example.org/{i}",
                "title": f"Result {i} for {query}",
                "content": f"snippet {i}  text",
                "engine": "duckduckgo",
                "engines": ["duckduckgo", "brave"],
                "parsed_url": ["https", "example.org", f"/{i}", "", "", ""],
                "template": "default.html",
                "positions": [i + 1],
                "score": 1.0 / (i + 1),
                "category": "general",
                "publishedDate": "2026-11-02T00:00:00" if i == 0 else None,
                "pubdate": "",
                "thumbnail": "",
                "img_src": "",
                "iframe_src": "",
                "audio_src": "",
                "author": "",
                "priority": "",
                "open_group": False,
                "close_group": False,
            }
            for i in range(count)
        ],
        "answers": [{"answer": "42", "url": None, "engine": "wikidata", "template": "answer/legacy.html"}],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [f"{query} meaning"],
        "unresponsive_engines": [["bing", "timeout"]],
    }


@dataclass
class Site:
    """A running loopback server: ``url`` (``http://host:port``), the ``paths`` requested with their headers and
    their ``queries``, ``sent`` bytes of the big body."""

    host: str
    port: int = 0
    paths: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    sent: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


def _handler(site: Site, links: dict[str, str]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def reply(self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8", **headers: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k.replace("_", "-"), v)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            site.paths.append((url.path, dict(self.headers)))
            site.queries.append(url.query)
            if url.path == "/page":
                self.reply(200, PAGE.encode(), Set_Cookie="sid=abc")
            elif url.path == "/secrets":
                self.reply(200, SECRET_PAGE.encode())
            elif url.path == "/echo":
                self.reply(200, json.dumps(dict(self.headers)).encode(), "application/json")
            elif url.path == "/text":
                self.reply(200, b"plain words\nsecond line", "text/plain; charset=utf-8")
            elif url.path.startswith("/to/"):  # /to/<name>: a redirect to links[name]
                self.reply(302, b"", Location=links[url.path[4:]])
            elif url.path == "/report.pdf":
                self.reply(200, tiny_pdf("Heron migration report"), "application/pdf")
            elif url.path == "/broken.pdf":
                self.reply(200, b"%PDF-1.4 this is not a PDF", "application/pdf")
            elif url.path == "/data.json":
                self.reply(200, b'{"bird":"heron","count":3}', "application/json")
            elif url.path == "/image":
                self.reply(200, b"\x89PNG\r\n\x1a\n" + b"0" * 100, "image/png")
            elif url.path == "/missing":
                self.reply(404, b"<h1>no</h1>")
            elif url.path == "/drip":
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                try:
                    for _ in range(1000):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(0.05)
                except OSError:
                    return
            elif url.path == "/big":
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Connection", "close")
                self.end_headers()
                chunk, total = b"y" * 65536, 0
                try:
                    while total < BIG:
                        self.wfile.write(chunk)
                        total += len(chunk)
                except OSError:
                    pass
                site.sent.append(total)
                self.close_connection = True
            elif url.path == "/search":
                q = parse_qs(url.query)
                query = q.get("q", [""])[0]
                if q.get("format") != ["json"]:
                    self.reply(403, b"<h1>Forbidden</h1>")
                elif not query:
                    self.reply(400, b'{"error": "No query"}', "application/json")
                elif query == "broken engine":
                    self.reply(500, b'{"error": "search error"}', "application/json")
                elif query == "bad words":
                    self.reply(400, b'{"error": "searx.exceptions.SearxParameterException"}', "application/json")
                elif query == "json off":
                    self.reply(403, b"<h1>Forbidden</h1>")
                else:
                    self.reply(200, json.dumps(searxng_answer(query, 30)).encode(), "application/json")
            else:
                self.reply(200, f"{site.host} secret".encode(), "text/plain")

    return Handler


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:  # a client hanging up is a test case
        pass


def _serve(site: Site, links: dict[str, str]) -> ThreadingHTTPServer:
    server = _Server((site.host, site.port), _handler(site, links))
    server.daemon_threads = True
    site.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@dataclass
class Sites:
    site: Site
    other: Site
    secret: Site
    links: dict[str, str]


@pytest.fixture(scope="module")
def sites() -> Iterator[Sites]:
    links: dict[str, str] = {}
    made = Sites(Site("127.0.0.2"), Site("127.0.0.3"), Site("127.0.0.1"), links)
    servers = [_serve(s, links) for s in (made.site, made.other, made.secret)]
    links.update({
        "secret": f"{made.secret.url}/secret",
        "secret-decimal": f"http://2130706433:{made.secret.port}/secret",
        "secret-mapped": f"http://[::ffff:127.0.0.1]:{made.secret.port}/secret",
        "localhost": f"http://localhost:{made.secret.port}/secret",
        "file": "file:///etc/passwd",
        "page": "/page",
        "other-echo": f"{made.other.url}/echo",
        "self-echo": "/echo",
        "loop": "/to/loop",
    })  # fmt: skip
    yield made
    for server in servers:
        server.shutdown()
        server.server_close()
