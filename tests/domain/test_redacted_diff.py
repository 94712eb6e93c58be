"""redacted_diff: what a caller is shown of a change: secrets redacted, binaries and sizes bounded, cut to a budget."""

from __future__ import annotations

import json

from obsigate.domain.diff import redacted_diff

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


def test_diffs_never_carry_a_secret() -> None:
    old = f'# Keys\napi_key = "{SECRET}"\n'.encode()
    new = b"# Keys\nrotated\n"
    diff, truncated = redacted_diff(old, new, path="Keys.md", old_label="old", new_label="new")
    assert SECRET not in diff and '-api_key = "[REDACTED:openai-api-key]"' in diff and not truncated
    pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabcdefghijklmnop\n-----END PRIVATE KEY-----\n"
    diff, _ = redacted_diff(b"", pem.encode(), path="k.md", old_label="a", new_label="b")
    assert "MIIEvQ" not in diff and "[REDACTED:private-key]" in diff


def test_binary_lossy_line_endings_and_truncation() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00"
    note, truncated = redacted_diff(png, png + b"\x00", path="pic.png", old_label="a", new_label="b")
    assert note == "Binary file pic.png differs (a: 10 bytes, b: 11 bytes)" and not truncated
    assert redacted_diff(png, png, path="pic.png", old_label="a", new_label="b") == ("", False)
    lossy, _ = redacted_diff(b"caf\xe9\n", b"cafe\n", path="Menu.md", old_label="a", new_label="b")
    assert "-caf\ufffd" in lossy and "+cafe" in lossy
    crlf, _ = redacted_diff(b"\xef\xbb\xbfa\r\nb\r\n", b"a\nb\n", path="N.md", old_label="a", new_label="b")
    assert "differ only in line endings" in crlf
    old = "".join(f"line {i}\n" for i in range(5000)).encode()
    new = "".join(f"LINE {i}\n" for i in range(5000)).encode()
    cut, truncated = redacted_diff(old, new, path="Long.md", old_label="a", new_label="b", max_chars=5_000)
    assert truncated and cut.endswith("compare narrower versions or read the backup\n")
    assert len(json.dumps(cut.rsplit("…", 1)[0])) <= 5_002
