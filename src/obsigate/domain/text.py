"""Unicode normalisation shared by the note parser and the search index.

Kept apart so that link targets, indexed words and query words all go through the *same* NFC step: a
mismatch between two copies would make a note stored from macOS (NFD) unreachable by a query typed in NFC.
"""

from __future__ import annotations

import unicodedata

__all__ = ["fold", "has_lone_surrogate", "nfc"]


def nfc(s: str) -> str:
    """``s`` in Unicode NFC; ASCII text is returned as is (the common case costs one scan)."""
    return s if s.isascii() else unicodedata.normalize("NFC", s)


def has_lone_surrogate(value: object) -> bool:
    """True if ``value`` (a str, or lists/dicts of them, e.g. decoded JSON) holds a lone UTF-16 surrogate.

    JSON allows ``"\\ud800"`` escapes that decode to such code points; they are not Unicode scalar values,
    cannot be encoded as UTF-8 (file names, the audit log, the index) and are refused at the door.
    """
    if isinstance(value, str):
        if value.isascii():
            return False
        try:  # at C speed: strict UTF-8 refuses exactly the surrogates (a whole note's text is checked)
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(has_lone_surrogate(v) for v in value)
    return False


def fold(s: str) -> str:
    """``s`` lower-cased without accents, for forgiving comparisons: ``"Café"``, ``"cafe\u0301"`` → ``"cafe"``.

    Decomposes (NFKD) and drops combining marks (Unicode category ``Mn``); ASCII is only lower-cased.
    """
    if s.isascii():
        return s.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", s) if unicodedata.category(c) != "Mn").lower()
