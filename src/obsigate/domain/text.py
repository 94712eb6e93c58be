"""Unicode normalisation shared by the note parser and the search index.

Kept apart so that link targets, indexed words and query words all go through the *same* NFC step: a
mismatch between two copies would make a note stored from macOS (NFD) unreachable by a query typed in NFC.
"""

from __future__ import annotations

import unicodedata

__all__ = ["nfc"]


def nfc(s: str) -> str:
    """``s`` in Unicode NFC; ASCII text is returned as is (the common case costs one scan)."""
    return s if s.isascii() else unicodedata.normalize("NFC", s)
