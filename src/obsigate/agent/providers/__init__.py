"""LLM provider clients: one OpenAI-compatible class (DeepSeek, OpenAI, OpenRouter, Ollama, llama.cpp, vLLM,
LM Studio, custom) and one native Gemini class, behind :class:`~obsigate.agent.providers.base.Provider`."""

from __future__ import annotations

from obsigate.agent.providers.base import Provider, ProviderConfig
from obsigate.agent.providers.gemini import GeminiProvider
from obsigate.agent.providers.openai_compat import OpenAICompatProvider

__all__ = ["make_provider"]


def make_provider(config: ProviderConfig) -> Provider:
    """The client for ``config``'s dialect (``openai`` or ``gemini``), with its own connection pool."""
    if config.dialect == "gemini":
        return GeminiProvider(config)
    return OpenAICompatProvider(config)
