"""The outbound guard's decision alone (services/net/guard.py), with a stub resolver: addresses off this machine
are judged here and never connected to (issue 18 item 5; security.md §3.1)."""

from __future__ import annotations

import pytest

from obsigate.services.net.guard import NetPolicy, Target, UrlNotAllowed, check_addresses, check_url, is_public

NOTHING = NetPolicy()


def decide(url: str, answer: list[str], policy: NetPolicy = NOTHING) -> list[str]:
    """What the client would connect to for ``url`` if the resolver answered ``answer``."""
    return check_addresses(check_url(url), answer, policy)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("169.254.169.254", "cloud metadata, link-local"),
        ("100.64.0.1", "CGNAT"),
        ("100.100.100.200", "Alibaba's metadata, CGNAT"),
        ("64:ff9b::7f00:1", "NAT64 of 127.0.0.1"),
        ("64:ff9b:1::a00:1", "local-use NAT64 of 10.0.0.1"),
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.1.1", "private"),
        ("fc00::1", "unique local IPv6"),
        ("fd00:ec2::254", "AWS IPv6 metadata"),
        ("fe80::1", "link-local IPv6"),
        ("2002:7f00:1::", "6to4 of 127.0.0.1"),
        ("2002:a9fe:a9fe::1", "6to4 of 169.254.169.254"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo of 127.0.0.1"),
        ("::ffff:169.254.169.254", "IPv4-mapped metadata"),
        ("::ffff:10.0.0.1", "IPv4-mapped private"),
        ("::127.0.0.1", "IPv4-compatible loopback"),
        ("127.0.0.1", "loopback"),
        ("::1", "IPv6 loopback"),
        ("0.0.0.0", "unspecified: reaches this host on Linux"),
        ("::", "IPv6 unspecified"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "IPv6 multicast"),
        ("198.18.0.1", "benchmarking"),
        ("192.0.2.1", "documentation"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "broadcast"),
    ],
)
def test_an_address_that_is_not_public_is_refused(address: str, why: str) -> None:
    with pytest.raises(UrlNotAllowed) as refused:
        decide("https://example.org/page", [address])
    assert refused.value.code == "url_not_allowed" and refused.value.details["reason"] == "address", why


def test_public_addresses_pass_on_the_web_ports_only() -> None:
    assert decide("https://example.org/", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]) == [
        "93.184.215.14",
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
    ]
    assert decide("http://example.org:443/", ["93.184.215.14"]) == ["93.184.215.14"]
    assert is_public(__import__("ipaddress").ip_address("64:ff9b::808:808"))  # NAT64 of 8.8.8.8: public
    for url in ("http://example.org:8080/", "https://example.org:22/", "http://example.org:6379/"):
        with pytest.raises(UrlNotAllowed) as refused:
            decide(url, ["93.184.215.14"])
        assert refused.value.details["reason"] == "port"


def test_one_private_address_in_an_answer_refuses_the_name() -> None:
    with pytest.raises(UrlNotAllowed, match=r"10\.0\.0\.7"):
        decide("https://mixed.example/", ["93.184.215.14", "10.0.0.7"])
    with pytest.raises(UrlNotAllowed, match="no address"):
        decide("https://empty.example/", [])


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("file:///etc/passwd", "scheme"),
        ("ftp://example.org/x", "scheme"),
        ("gopher://example.org:70/_x", "scheme"),
        ("data:text/html,hi", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("/relative/path", "scheme"),
        ("http://user:pw@example.org/", "userinfo"),
        ("http://pub@127.0.0.1/", "userinfo"),
        ("http://[::1/", "invalid_url"),
    ],
)
def test_what_needs_no_dns_is_refused_before_any_lookup(url: str, reason: str) -> None:
    with pytest.raises(UrlNotAllowed) as refused:
        check_url(url)
    assert refused.value.details["reason"] == reason


def test_the_url_is_read_as_the_client_reads_it() -> None:
    assert check_url("HTTPS://Example.ORG./a") == Target("https", "example.org", 443)
    assert check_url("http://[::ffff:127.0.0.1]:8080/") == Target("http", "::ffff:127.0.0.1", 8080)
    # ideographic full stops: folded by the parser the client uses, so the check sees the same host
    assert check_url("http://127。0。0。1/").host == "127.0.0.1"


def test_the_allow_list_is_the_only_way_through() -> None:
    policy = NetPolicy.parse("127.0.0.2/32, wiki.internal ,10.1.0.0/16,::1")
    assert decide("http://127.0.0.2:8123/", ["127.0.0.2"], policy) == ["127.0.0.2"]  # any port when listed
    assert decide("http://wiki.internal:8080/", ["10.9.9.9"], policy) == ["10.9.9.9"]
    assert decide("http://svc.internal/", ["10.1.2.3"], policy) == ["10.1.2.3"]
    assert decide("http://[::1]:9000/", ["::1"], policy) == ["::1"]
    for url, answer in (("http://127.0.0.1/", ["127.0.0.1"]), ("http://x.internal/", ["10.2.0.1"])):
        with pytest.raises(UrlNotAllowed):
            decide(url, answer, policy)
    with pytest.raises(UrlNotAllowed):  # a listed address and an unlisted private one: refused whole
        decide("http://both.example/", ["127.0.0.2", "127.0.0.1"], policy)
    with pytest.raises(ValueError, match="not a CIDR"):
        NetPolicy.parse("http://x/")
    assert NetPolicy.parse("") == NetPolicy() and NetPolicy.parse(None) == NetPolicy()
