"""The client's address, for the sign-in throttle (``auth/throttle.py``).

The socket peer (``request.client.host``: uvicorn runs with ``proxy_headers=False``) is the client, unless it is
one of the reverse proxies the admin lists in ``trusted_proxies`` (``OBSIGATE_TRUSTED_PROXIES``, IPs or CIDRs).
Only then is ``X-Forwarded-For`` read, from the right: each proxy appends the address it received the request
from, so the rightmost entry that is not itself a trusted proxy is the client (entries further left were written
by that client and prove nothing). Anyone else's ``X-Forwarded-For`` is ignored: a client cannot pick the address
it is throttled under.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from fastapi import Request

__all__ = ["Networks", "client_address", "forwarded_client", "parse_networks"]

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
#: The address used when the server cannot tell (an ASGI server that gives no peer).
UNKNOWN = "unknown"


def parse_networks(entries: Iterable[str]) -> Networks:
    """``["10.0.0.1", "192.168.0.0/16", "::1"]`` as networks (a bare address is a /32 or /128; host bits allowed).

    Raises:
        ValueError: an entry that is not an IP address or network.
    """
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as proxies write it: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``, ``[::1]``, ``[::1]:5678``; else
    ``None``. An IPv4-mapped IPv6 address counts as its IPv4 address."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _trusted(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, trusted: Networks) -> bool:
    return any(ip.version == net.version and ip in net for net in trusted)


def forwarded_client(peer: str | None, forwarded_for: Sequence[str], trusted: Networks) -> str:
    """The client address of a request from socket peer ``peer`` carrying the ``X-Forwarded-For`` header values
    ``forwarded_for`` (every occurrence, in order), given the ``trusted`` proxies.

    * ``peer`` not a trusted proxy (or no proxy trusted): ``peer``, whatever the header says;
    * else the rightmost header entry that is not a trusted proxy; all of them trusted: the leftmost one;
    * no header, or an entry that is not an address where the client should be: ``peer`` (the proxy: the attempts
      are then throttled under the proxy's address, never under one the client chose).

    Returns the address in its canonical text form, or ``"unknown"`` when there is no peer.
    """
    if not peer:
        return UNKNOWN
    peer_ip = _ip(peer)
    if peer_ip is None or not trusted or not _trusted(peer_ip, trusted):
        return str(peer_ip) if peer_ip is not None else peer
    hops = [h for value in forwarded_for for h in value.split(",") if h.strip()]
    client = peer_ip
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            return str(peer_ip)
        client = ip
        if not _trusted(ip, trusted):
            break
    return str(client)


def client_address(request: Request) -> str:
    """The client address of ``request`` (:func:`forwarded_client` with the app's ``state.trusted_proxies``)."""
    trusted: Networks = getattr(request.app.state, "trusted_proxies", ())
    peer = request.client.host if request.client else None
    return forwarded_client(peer, request.headers.getlist("x-forwarded-for"), trusted)
