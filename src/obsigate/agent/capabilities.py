"""What a model can do: a curated, static table of 8 flags (seeds §6bis).

Flags: ``chat``, ``embeddings``, ``rerank``, ``images`` (generates images), ``video`` (generates video),
``audio_speech`` (text to speech), ``audio_transcription`` (speech to text), ``vision`` (reads images in a
chat). Nothing here asks a provider: the table lists the default and popular models of each provider (from
the providers' public model pages, 2026), then family patterns recognise their relatives (``gpt-4o-2024-08-06``,
``llama3.2-vision:11b``, ``openai/gpt-4o`` on OpenRouter), and an unknown model is assumed to chat and do
nothing else, so the UI never offers what a model may not do.

Beside the flags, each model's context window (:func:`context_window`, tokens): the vendors' published context
lengths by family (:data:`WINDOWS`), a configured override per model (``OBSIGATE_AI_CONTEXT_WINDOWS``, at most
:data:`MAX_WINDOW`), else :data:`DEFAULT_WINDOW`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from obsigate.agent.providers.catalog import PROVIDERS, normalise_name

__all__ = [
    "DEFAULT_WINDOW", "FLAGS", "MAX_WINDOW", "WINDOWS", "capabilities", "capability_table", "context_window",
    "known_models", "model_family",
]  # fmt: skip

#: The 8 capability flags, in the order the API lists them.
FLAGS: tuple[str, ...] = (
    "chat", "embeddings", "rerank", "images", "video", "audio_speech", "audio_transcription", "vision",
)  # fmt: skip

_CHAT = frozenset({"chat"})
_VISION = frozenset({"chat", "vision"})

#: provider → exact model name → flags set. The first models of each list are the ones the UI offers first.
_KNOWN: dict[str, dict[str, frozenset[str]]] = {
    "deepseek": {  # text only (llm.md §1.9); deepseek-chat/-reasoner are retired aliases still seen in configs
        "deepseek-v4-flash": _CHAT,
        "deepseek-v4-pro": _CHAT,
        "deepseek-flash": _CHAT,
        "deepseek-chat": _CHAT,
        "deepseek-reasoner": _CHAT,
    },
    "openai": {
        "gpt-4.1-mini": _VISION,
        "gpt-4.1": _VISION,
        "gpt-4.1-nano": _VISION,
        "gpt-4o": _VISION,
        "gpt-4o-mini": _VISION,
        "gpt-5": _VISION,
        "gpt-5-mini": _VISION,
        "gpt-5-nano": _VISION,
        "o3": _VISION,
        "o4-mini": _VISION,
        "text-embedding-3-small": frozenset({"embeddings"}),
        "text-embedding-3-large": frozenset({"embeddings"}),
        "gpt-image-1": frozenset({"images"}),
        "dall-e-3": frozenset({"images"}),
        "sora-2": frozenset({"video"}),
        "gpt-4o-mini-tts": frozenset({"audio_speech"}),
        "tts-1": frozenset({"audio_speech"}),
        "gpt-4o-transcribe": frozenset({"audio_transcription"}),
        "whisper-1": frozenset({"audio_transcription"}),
    },
    "openrouter": {
        "openai/gpt-4o-mini": _VISION,
        "openai/gpt-4.1-mini": _VISION,
        "anthropic/claude-sonnet-4": _VISION,
        "google/gemini-2.5-flash": _VISION,
        "deepseek/deepseek-chat": _CHAT,
        "meta-llama/llama-3.3-70b-instruct": _CHAT,
        "qwen/qwen-2.5-72b-instruct": _CHAT,
    },
    "ollama": {
        "llama3.1": _CHAT,
        "llama3.2": _CHAT,
        "qwen3": _CHAT,
        "qwen2.5": _CHAT,
        "mistral": _CHAT,
        "llama3.2-vision": _VISION,
        "gemma3": _VISION,
        "llava": _VISION,
        "qwen2.5vl": _VISION,
        "nomic-embed-text": frozenset({"embeddings"}),
        "mxbai-embed-large": frozenset({"embeddings"}),
    },
    "gemini": {
        "gemini-2.5-flash": _VISION,
        "gemini-2.5-pro": _VISION,
        "gemini-2.5-flash-lite": _VISION,
        "gemini-2.5-flash-image": frozenset({"chat", "images", "vision"}),
        "gemini-embedding-001": frozenset({"embeddings"}),
        "text-embedding-004": frozenset({"embeddings"}),
        "imagen-4.0-generate-001": frozenset({"images"}),
        "veo-3.0-generate-001": frozenset({"video"}),
        "gemini-2.5-flash-preview-tts": frozenset({"audio_speech"}),
    },
    "custom": {},
}

#: Families, tried in order on the model name (lower case, without an OpenRouter ``vendor/`` prefix and an
#: Ollama ``:tag``) when no exact name matches. Specific kinds (embedding, TTS...) come before chat families.
_FAMILIES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
    (re.compile(pattern), frozenset(flags))
    for pattern, flags in (
        (r"rerank", {"rerank"}),
        (r"embed", {"embeddings"}),
        (r"(^|-)tts($|-)|^tts-", {"audio_speech"}),
        (r"^whisper|transcribe", {"audio_transcription"}),
        (r"^(dall-e|gpt-image|imagen)", {"images"}),
        (r"^(sora|veo)", {"video"}),
        (r"^gemini-.*-image", {"chat", "images", "vision"}),
        (r"^(gpt-4o|gpt-4\.1|gpt-5|o[34]|gemini-|claude|gemma-?3|pixtral)", {"chat", "vision"}),
        (r"llava|vision|(^|[-_.])vl($|[-_.:])|qwen2\.5vl|minicpm-v", {"chat", "vision"}),
    )
)


def _known(provider: str) -> dict[str, frozenset[str]]:
    return _KNOWN.get(normalise_name(provider), {})


def _as_dict(flags: frozenset[str]) -> dict[str, bool]:
    return {flag: flag in flags for flag in FLAGS}


def capabilities(provider: str, model: str) -> dict[str, bool]:
    """The 8 flags of ``model`` on ``provider``: ``{flag: bool}`` in :data:`FLAGS` order.

    Matched by exact name for the provider, then the same name without an Ollama ``:tag`` or an OpenRouter
    ``vendor/`` prefix, then by family pattern; an unknown model (or provider) gets ``chat`` only.
    """
    table = _known(provider)
    name = model.strip()
    if name in table:
        return _as_dict(table[name])
    base = name.split(":", 1)[0]  # llama3.2-vision:11b → llama3.2-vision
    if base in table:
        return _as_dict(table[base])
    family = base.rsplit("/", 1)[-1].lower()  # openai/gpt-4o → gpt-4o; models/gemini-2.5-pro → gemini-2.5-pro
    for other in _KNOWN.values():  # a model known under another provider keeps its flags (OpenRouter, custom)
        if family in other:
            return _as_dict(other[family])
    for pattern, flags in _FAMILIES:
        if pattern.search(family):
            return _as_dict(flags)
    return _as_dict(_CHAT)


def known_models(provider: str) -> list[str]:
    """The models the table lists for ``provider`` (any case), most useful first; ``[]`` for ``custom`` or an
    unknown provider."""
    return list(_known(provider))


def capability_table() -> dict[str, dict[str, dict[str, bool]]]:
    """Every listed model's flags: ``{provider: {model: {flag: bool}}}``, providers in the catalog's order."""
    return {name: {model: _as_dict(flags) for model, flags in _known(name).items()} for name in PROVIDERS}


#: The largest context window a configuration may give a model (tokens).
MAX_WINDOW = 1_000_000
#: The window assumed for a model :data:`WINDOWS` does not know: a local engine's common setting (Qwen's and
#: Mistral's native length), large enough for the agent's ~5k tokens of tool schemas and a folder of notes. A local
#: engine's real window is what it was started with: configure it (``OBSIGATE_AI_CONTEXT_WINDOWS``).
DEFAULT_WINDOW = 32_768

#: Context windows (tokens) by model family (the vendors' published context lengths), matched on
#: :func:`model_family`; first match wins.
WINDOWS: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(p), n)
    for p, n in (
        (r"^gpt-4\.1", 1_047_576),
        (r"^gpt-5", 400_000),
        (r"^(gpt-4o|gpt-4-turbo|chatgpt-4o)", 128_000),
        (r"^o[134]", 200_000),
        (r"^gemini-", 1_048_576),
        (r"^claude", 200_000),
        (r"^deepseek", 128_000),
        (r"^(llama-?3\.[1-3]|llama3\.[1-3])", 131_072),
        (r"^gemma-?3", 131_072),
        (r"^(qwen3|qwen2\.5|mistral|mixtral|ministral)", 32_768),
    )
)


def model_family(model: str) -> str:
    """``model`` without an Ollama ``:tag`` or a ``vendor/`` prefix, lower case (``openai/GPT-4o`` → ``gpt-4o``)."""
    return model.strip().split(":", 1)[0].rsplit("/", 1)[-1].lower()


def context_window(model: str, overrides: Mapping[str, int] | None = None, default: int = 0) -> int:
    """The context window of ``model`` in tokens.

    ``overrides``: configured windows by model name (``OBSIGATE_AI_CONTEXT_WINDOWS``), matched on the exact name,
    then on :func:`model_family`; ``default``: a configured window for every other model (``OBSIGATE_AI_CONTEXT_WINDOW``,
    0: none); then :data:`WINDOWS`, then :data:`DEFAULT_WINDOW`. A configured value is capped at :data:`MAX_WINDOW`.
    """
    family = model_family(model)
    for key in (model.strip(), family):
        size = (overrides or {}).get(key, 0)
        if size > 0:
            return min(size, MAX_WINDOW)
    if default > 0:
        return min(default, MAX_WINDOW)
    return next((n for pattern, n in WINDOWS if pattern.search(family)), DEFAULT_WINDOW)
