"""What a reader is told about a file's bytes, so that nothing of a redacted secret can be worked out from it.

A note is only ever served redacted, so the SHA-256 of its stored bytes would be a check for guesses: with
``password: ?`` the only unknown, an offline search finds a weak password from the hash alone. Two values
replace it:

* :func:`served_sha256`: the SHA-256 of the file *as served* (a text redacted, a binary's bytes, which are
  served as they are): a client can check what it received, and it reveals nothing more than that.
* :meth:`FileVersions.of`: a **version** of the stored bytes, an HMAC-SHA256 under a key only the server
  holds (``<data_dir>/version.key``), so it reveals nothing without the key, stays the same across restarts,
  and changes with any change of the bytes, a secret's value included: what a writer sends back to say which
  version it edited (the editor's save, a proposal's reads).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["VERSION_KEY_BYTES", "FileVersions", "served_sha256"]

VERSION_KEY_BYTES = 32


def served_sha256(content: str | bytes) -> str:
    """The SHA-256 (hex) of what a reader is served: a text (redacted by the caller) as UTF-8, or bytes."""
    data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    return hashlib.sha256(data).hexdigest()


class FileVersions:
    """Keyed version tags of stored bytes: equal for equal bytes, different for different ones, and opaque
    without ``key`` (HMAC-SHA256 of the bytes' SHA-256 digest).

    Args:
        key: the server's version key (at least 32 bytes); ``None`` draws a random one, for a process that
            keeps no data dir (tests, tools): its versions then last as long as the process.

    Raises:
        ValueError: a key shorter than :data:`VERSION_KEY_BYTES`.
    """

    __slots__ = ("_key",)

    def __init__(self, key: bytes | None = None) -> None:
        key = secrets.token_bytes(VERSION_KEY_BYTES) if key is None else key
        if len(key) < VERSION_KEY_BYTES:
            raise ValueError(f"a version key needs at least {VERSION_KEY_BYTES} bytes")
        self._key = key

    def of(self, data: bytes | None) -> str:
        """The version (64 hex digits) of ``data``; ``""`` for an absent file (``None``)."""
        return "" if data is None else self.of_sha256(hashlib.sha256(data).hexdigest())

    def of_sha256(self, digest: str) -> str:
        """The version of the bytes whose SHA-256 is ``digest`` (hex), as :meth:`of` gives it; ``""`` stays
        ``""`` (absent). For hashes computed elsewhere (a planner's reads, a backup's sidecar)."""
        if not digest:
            return ""
        return hmac.new(self._key, bytes.fromhex(digest), hashlib.sha256).hexdigest()

    def __repr__(self) -> str:
        return "FileVersions(<key>)"
