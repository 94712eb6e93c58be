"""The SSRF guard's decision: may this URL be fetched, and which resolved addresses may be connected to.

Pure functions over a :class:`NetPolicy`; no I/O (the client resolves, then asks :func:`check_addresses`). What is
refused follows ``security.md`` §3.1 (research of 2026-11-30): only ``http``/``https``; ports 80 and 443; no
userinfo; every resolved address must be *global* (Python's ``ipaddress.is_global``, IANA special-purpose
registries) and not multicast, after unwrapping the IPv6 forms that carry an IPv4 address (IPv4-mapped
``::ffff:a.b.c.d``, IPv4-compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96`` and ``64:ff9b:1::/48``, 6to4
``2002::/16``, Teredo ``2001::/32``), which Python 3.11 counts as global or mis-classifies. One bad address in
a name's answer refuses the name (a name answering a public and a private address is a rebinding tool).

The one way through: the admin's allow list (``OBSIGATE_FETCH_ALLOW``: CIDRs or host names). An allowed name or
an address inside an allowed network passes whatever its class, on any port.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import httpx2

from obsigate.services.errors import Forbidden

__all__ = [
    "DEFAULT_PORTS",
    "NetPolicy",
    "Target",
    "UrlNotAllowed",
    "check_addresses",
    "check_url",
    "is_public",
    "unwrap",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_PORTS = frozenset({80, 443})
SCHEMES = {"http": 80, "https": 443}
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_TEREDO = ipaddress.ip_network("2001::/32")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


class UrlNotAllowed(Forbidden):
    """A URL or a resolved address the guard refuses (``url_not_allowed``); ``details.reason`` says which rule."""

    code = "url_not_allowed"


@dataclass(frozen=True)
class NetPolicy:
    """What the guard lets through beyond public addresses on ports 80/443: ``networks`` and ``hosts`` (lower-case
    names) from ``OBSIGATE_FETCH_ALLOW``; ``ports``: the ports any public address may use."""

    networks: tuple[IPNetwork, ...] = ()
    hosts: frozenset[str] = frozenset()
    ports: frozenset[int] = field(default=DEFAULT_PORTS)

    @classmethod
    def parse(cls, entries: str | Iterable[str] | None) -> NetPolicy:
        """The policy of an allow list: comma-separated (or listed) CIDRs, IP addresses or host names.

        Raises:
            ValueError: an entry that is neither an address, a network nor a host name.
        """
        items = entries.split(",") if isinstance(entries, str) else list(entries or ())
        networks: list[IPNetwork] = []
        hosts: set[str] = set()
        for raw in items:
            entry = raw.strip().lower()
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                continue
            except ValueError:
                pass
            name = entry.rstrip(".")
            if not name or any(not (c.isalnum() or c in "-._") for c in name):
                raise ValueError(f"fetch allow entry {raw.strip()!r} is not a CIDR, an IP address or a host name")
            hosts.add(name)
        return cls(networks=tuple(networks), hosts=frozenset(hosts))

    def with_host(self, host: str) -> NetPolicy:
        """This policy plus ``host`` allowed (an admin-configured endpoint such as the SearXNG instance)."""
        return replace(self, hosts=self.hosts | {host.lower().rstrip(".")})

    def allows_host(self, host: str) -> bool:
        return host.lower().rstrip(".") in self.hosts

    def allows_address(self, ip: IPAddress) -> bool:
        return any(ip.version == net.version and ip in net for net in self.networks)


@dataclass(frozen=True)
class Target:
    """A checked URL's parts: ``scheme`` (``http``/``https``), ``host`` (lower case, IPv6 without brackets),
    ``port`` (the scheme's default when absent)."""

    scheme: str
    host: str
    port: int


def check_url(url: str | httpx2.URL) -> Target:
    """Parse ``url`` as the client will (httpx2's parser: no parser differential) and check what needs no DNS.

    Raises:
        UrlNotAllowed: not http(s), userinfo present, no host, or unparseable.
    """
    try:
        parsed = url if isinstance(url, httpx2.URL) else httpx2.URL(url)
    except (httpx2.InvalidURL, TypeError, ValueError) as exc:
        raise _refuse(f"not a valid URL ({exc})", "invalid_url") from None
    scheme = parsed.scheme.lower()
    if scheme not in SCHEMES:
        raise _refuse(f"only http and https URLs can be fetched, not {scheme or 'a relative URL'!r}", "scheme")
    if parsed.userinfo:
        raise _refuse("URLs with a user name or password are refused", "userinfo")
    host = parsed.host.lower().strip("[]").rstrip(".")
    if not host:
        raise _refuse("the URL names no host", "no_host")
    return Target(scheme=scheme, host=host, port=parsed.port or SCHEMES[scheme])


def unwrap(ip: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo's client), else ``ip``."""
    if isinstance(ip, ipaddress.IPv4Address):
        return ip
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _SIX_TO_FOUR and ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _TEREDO and ip.teredo is not None:
        return ip.teredo[1]
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if any(ip in net for net in _NAT64):
        return low32
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:  # ::a.b.c.d (deprecated); :: and ::1 stay IPv6
        return low32
    return ip


def is_public(ip: IPAddress) -> bool:
    """Whether ``ip`` (unwrapped) is a global unicast address: not loopback, private, link-local, CGNAT, reserved,
    documentation, benchmarking, unspecified or multicast."""
    inner = unwrap(ip)
    return inner.is_global and not inner.is_multicast


def check_addresses(target: Target, addresses: Iterable[str], policy: NetPolicy) -> list[str]:
    """The addresses of ``target`` (its host's resolution, in order) that may be connected to: all of them, or
    a refusal.

    Raises:
        UrlNotAllowed: no address; or one address neither public nor in an allowed network (the whole answer is
            refused); or a port other than the policy's for a destination the allow list does not name.
    """
    found = [ipaddress.ip_address(a.split("%", 1)[0]) for a in addresses]
    if not found:
        raise _refuse(f"{target.host} resolves to no address", "no_address")
    named = policy.allows_host(target.host)
    listed = named or all(policy.allows_address(unwrap(ip)) or policy.allows_address(ip) for ip in found)
    if not named:
        for ip in found:
            if not (policy.allows_address(ip) or policy.allows_address(unwrap(ip)) or is_public(ip)):
                named_as = target.host if target.host == str(ip) else f"{target.host} resolves to {ip}, which"
                raise _refuse(
                    f"{named_as} is not a public address (loopback, private, link-local or reserved); only "
                    "public addresses can be fetched",
                    "address",
                )
    if target.port not in policy.ports and not listed:
        raise _refuse(f"port {target.port} is not allowed; only {sorted(policy.ports)}", "port")
    return [str(ip) for ip in found]


def _refuse(message: str, reason: str) -> UrlNotAllowed:
    return UrlNotAllowed(message, details={"reason": reason}, hint="fetch another, public http(s) URL")
