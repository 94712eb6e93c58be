"""The SSE reader against the WHATWG event-stream rules, fed whole and in every split of its input."""

from __future__ import annotations

import pytest

from obsigate.agent.providers.sse import SSEDecoder, SSEEvent


def decode(*chunks: bytes) -> list[SSEEvent]:
    decoder = SSEDecoder()
    return [event for chunk in chunks for event in decoder.feed(chunk)]


def data(*chunks: bytes) -> list[str]:
    return [e.data for e in decode(*chunks)]


@pytest.mark.parametrize("nl", [b"\n", b"\r\n", b"\r"])
def test_events_end_at_a_blank_line_whatever_the_line_ending(nl: bytes) -> None:
    body = b"data: one" + nl + nl + b"data: two" + nl + nl
    assert data(body) == ["one", "two"]


def test_comments_and_blank_lines_dispatch_nothing() -> None:
    body = b": keep-alive\n\n\n\n: OPENROUTER PROCESSING\n\ndata: x\n\n:\n\n"
    assert data(body) == ["x"]


def test_data_lines_are_joined_with_newlines_and_one_leading_space_is_dropped() -> None:
    assert data(b"data: a\ndata:b\ndata:  c\ndata\n\n") == ["a\nb\n c\n"]


def test_event_and_id_fields_are_kept_and_unknown_fields_ignored() -> None:
    events = decode(b"event: ping\nid: 7\nretry: 100\nfoo: bar\ndata: {}\n\ndata: next\n\n")
    assert events == [SSEEvent("{}", "ping", "7"), SSEEvent("next", "message", "7")]


def test_an_unfinished_last_event_is_discarded() -> None:
    assert data(b'data: complete\n\ndata: {"cut') == ["complete"]
    assert data(b"data: no blank line after it\n") == []


def test_a_leading_bom_is_dropped_even_when_split() -> None:
    assert data(b"\xef", b"\xbb", b"\xbfdata: x\n\n") == ["x"]
    assert data("data: ☃\n\n".encode()) == ["☃"]


def test_every_split_of_the_input_gives_the_same_events() -> None:
    """Events cut across reads: mid-line, between \\r and \\n, inside a multi-byte character."""
    body = 'data: é ☃ "x"\r\n\r\n: c\r\ndata: a\r\ndata: b\r\rdata: z\n\n'.encode()
    expected = data(body)
    assert expected == ['é ☃ "x"', "a\nb", "z"]
    for cut in range(1, len(body)):
        assert data(body[:cut], body[cut:]) == expected, cut
    assert data(*[body[i : i + 1] for i in range(len(body))]) == expected


def test_a_crlf_split_between_reads_is_one_line_end() -> None:
    # "\r" ends a read: the "\n" of the next read belongs to it, it is not a second (blank) line
    assert data(b"data: a\r", b"\ndata: b\r\n\r\n") == ["a\nb"]


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    assert data(b"data: \xff\n\n") == ["\ufffd"]
