"""The one guarded HTTP client: every outbound request a tool makes goes through :func:`fetch`.

How it holds (``security.md`` §3, ``arsenal.md`` §f): the URL is checked (:func:`.guard.check_url`); the host is
resolved once per connection, inside the connection seam (:class:`PinnedBackend`), every address is checked
(:func:`.guard.check_addresses`) and the TCP connection goes to that checked address, never to a second lookup
(the TLS SNI and ``Host`` stay the name); redirects are followed here, one hop at a time, each hop checked
again, ``Authorization``/``Cookie`` dropped when the host changes; proxies from the environment are ignored
(``trust_env=False``: a proxy would resolve the name itself); a total deadline bounds the whole exchange (a body
dripped a byte at a time under the read timeout still ends) and the body is counted while it streams (decoded
bytes: a gzip bomb is cut too).
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import anyio
import httpcore2
import httpx2

from obsigate.services.errors import PayloadTooLarge, ServiceError, Unavailable
from obsigate.services.net.guard import NetPolicy, Target, UrlNotAllowed, check_addresses, check_url

__all__ = [
    "DOCUMENT_TYPES",
    "Fetched",
    "GuardedTransport",
    "PinnedBackend",
    "Resolver",
    "fetch",
    "system_resolver",
]

#: ``(host, port) -> addresses``: how a name is resolved (a stub in tests).
Resolver = Callable[[str, int], Awaitable[list[str]]]

#: The media types fetch_url reads (``text/html`` and XHTML, plain text, markdown, JSON, PDF).
DOCUMENT_TYPES = frozenset(
    {"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/json", "application/pdf"}
)
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")
_USER_AGENT = "ObsiGate-fetch/1 (+self-hosted notes assistant)"


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives ``host`` (glibc: ``127.1``, ``2130706433`` and ``0x7f.1`` are
    IPv4 literals to it), distinct, in its order. Raises ``OSError`` (``socket.gaierror``) for an unknown name."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class PinnedBackend(httpcore2.AsyncNetworkBackend):
    """httpcore's network backend with the guard at its seam: resolve ``host`` once with ``resolver``, check
    every address against ``policy``, connect to the first checked address that answers. ``connections``
    records ``(host, address)`` of each connection made (what tests assert the pin with)."""

    def __init__(
        self, policy: NetPolicy, resolver: Resolver | None = None, inner: httpcore2.AsyncNetworkBackend | None = None
    ) -> None:
        self.policy = policy
        self.resolver = resolver or system_resolver
        self.inner = inner or httpcore2.AnyIOBackend()
        self.connections: list[tuple[str, str]] = []

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        """Connect to a checked address of ``host``.

        Raises:
            UrlNotAllowed: an address of ``host`` is refused by the policy.
            httpcore2.ConnectError: the name does not resolve, or no address answers.
        """
        try:
            with anyio.fail_after(timeout or 10):
                addresses = await self.resolver(host, port)
        except OSError as exc:
            raise httpcore2.ConnectError(f"{host} does not resolve ({exc})") from None
        allowed = check_addresses(Target("", host, port), addresses, self.policy)
        last: Exception = httpcore2.ConnectError(f"{host}: no address answered")
        for address in allowed:  # the checked literal: never a second lookup of the name
            try:
                stream = await self.inner.connect_tcp(
                    address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:
                last = exc
                continue
            self.connections.append((host, address))
            return stream
        raise last

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.AsyncNetworkStream:
        raise httpcore2.ConnectError("unix sockets are never reached by the outbound client")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


@cache
def _tls() -> ssl.SSLContext:
    """The verifying TLS context, made once (loading the CA bundle takes a noticeable fraction of a second)."""
    return httpx2.create_ssl_context(trust_env=False)


class GuardedTransport(httpx2.AsyncHTTPTransport):
    """An httpx2 transport whose connections all go through ``backend`` (:class:`PinnedBackend`); no proxy, no
    environment (``trust_env=False``: ``HTTP(S)_PROXY`` and ``SSL_CERT_FILE`` are not read), HTTP/1.1."""

    def __init__(self, backend: PinnedBackend) -> None:
        super().__init__(verify=_tls(), trust_env=False)
        # httpx2 builds its pool with the default backend; the same pool, built on ours (httpcore2's public
        # network_backend argument). The pinned tests fail if a new httpx2 stops reading `_pool`.
        self._pool = httpcore2.AsyncConnectionPool(
            ssl_context=_tls(),
            max_connections=4,
            network_backend=backend,
        )


@dataclass(frozen=True)
class Fetched:
    """A fetched answer: the final ``url`` (after redirects), ``status``, ``content_type`` (lower case, no
    parameters), ``charset`` (from the header, or ``None``), ``body`` (at most the cap), ``redirects`` taken."""

    url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    redirects: int = 0
    connected: list[tuple[str, str]] = field(default_factory=list)


async def fetch(
    url: str,
    policy: NetPolicy,
    *,
    max_bytes: int = 5_000_000,
    deadline_s: float = 20.0,
    max_redirects: int = 5,
    accept: frozenset[str] = DOCUMENT_TYPES,
    headers: Mapping[str, str] | None = None,
    resolver: Resolver | None = None,
    errors_as_results: bool = False,
) -> Fetched:
    """GET ``url`` through the guard, following up to ``max_redirects`` redirects, within ``deadline_s`` seconds
    in all, reading at most ``max_bytes`` bytes of (decoded) body.

    Args:
        accept: the media types a 2xx answer may have.
        headers: extra request headers (``Authorization`` and ``Cookie`` are dropped when a redirect changes host).
        resolver: how names resolve (default :func:`system_resolver`).
        errors_as_results: return a 4xx/5xx answer (its body capped too) instead of raising ``fetch_failed``.

    Raises:
        UrlNotAllowed: ``url_not_allowed``: the URL, a redirect target or a resolved address is refused.
        ServiceError: ``fetch_failed`` (unreachable, an error status, too many redirects), ``timeout`` (the
            deadline), ``too_large`` (a body over ``max_bytes``), ``unsupported_content_type``.
    """
    backend = PinnedBackend(policy, resolver)
    sent = dict(headers or {})
    sent.setdefault("user-agent", _USER_AGENT)
    sent.setdefault("accept-encoding", "gzip, deflate")
    per_op = httpx2.Timeout(min(10.0, deadline_s))
    try:
        current = httpx2.URL(url)
        check_url(current)  # before anything is set up
        with anyio.fail_after(deadline_s):
            async with httpx2.AsyncClient(
                transport=GuardedTransport(backend), trust_env=False, follow_redirects=False, timeout=per_op
            ) as client:
                for hop in range(max_redirects + 1):
                    target = check_url(current)
                    async with client.stream("GET", current, headers=sent) as response:
                        location = response.headers.get("location")
                        if response.status_code in _REDIRECTS and location:
                            following = current.join(location)
                            moved = check_url(following)  # its scheme, before anything else
                            if (moved.host, moved.port) != (target.host, target.port):
                                sent = {k: v for k, v in sent.items() if k.lower() not in _CREDENTIAL_HEADERS}
                                client.cookies.clear()
                            current = following
                            continue
                        fetched = await _read(response, str(current), hop, max_bytes, accept, errors_as_results)
                        return replace(fetched, connected=list(backend.connections))
                raise ServiceError(
                    f"more than {max_redirects} redirects from {url}",
                    code="fetch_failed",
                    details={"reason": "redirects"},
                )
    except TimeoutError:
        raise Unavailable(
            f"fetching {url} took longer than {deadline_s:g} s in all", code="timeout", hint="try another source"
        ) from None
    except httpx2.InvalidURL as exc:
        raise UrlNotAllowed(f"not a valid URL ({exc})", details={"reason": "invalid_url"}) from None
    except httpx2.TimeoutException:
        raise Unavailable(f"{url} did not answer in time", code="timeout", hint="try another source") from None
    except httpx2.HTTPError as exc:
        raise ServiceError(
            f"could not fetch {url}: {exc or type(exc).__name__}", code="fetch_failed", details={"reason": "network"}
        ) from None


async def _read(
    response: httpx2.Response, url: str, hops: int, max_bytes: int, accept: frozenset[str], errors_ok: bool
) -> Fetched:
    status = response.status_code
    content_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    failed = status >= 400
    if failed and not errors_ok:
        raise ServiceError(
            f"{url} answered HTTP {status}", code="fetch_failed", details={"status": status, "reason": "status"}
        )
    if not failed and content_type not in accept:
        raise ServiceError(
            f"{url} is {content_type or 'of no declared type'}, not one of {', '.join(sorted(accept))}",
            code="unsupported_content_type",
            details={"content_type": content_type},
        )
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes and not failed:
        raise _too_large(url, max_bytes)
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if len(body) > max_bytes:
            if failed:  # an error page: what fits is enough to say what went wrong
                del body[max_bytes:]
                break
            raise _too_large(url, max_bytes)
    return Fetched(
        url=url, status=status, content_type=content_type, charset=response.charset_encoding, body=bytes(body),
        redirects=hops,
    )  # fmt: skip


def _too_large(url: str, max_bytes: int) -> PayloadTooLarge:
    return PayloadTooLarge(
        f"{url} is larger than {max_bytes:,} bytes", hint="fetch a smaller page", details={"max_bytes": max_bytes}
    )
