"""The built-in table of LLM providers: what each name means before any configuration.

Six names (issue 10): five speak the OpenAI Chat Completions dialect (``deepseek``, the default, ``openai``,
``openrouter``, ``ollama`` for any local OpenAI-compatible server such as Ollama, llama.cpp, vLLM or LM
Studio, and ``custom``) and one speaks Gemini's native ``generateContent`` (``gemini``). Base URLs stop at
``/v1`` (``/v1beta`` for Gemini), without a trailing slash (``llm.md`` §1.1, §2.1). Default models are only a
starting point: provider model names change (``llm.md`` §1.9), so every one can be overridden.

Each provider reads ``<NAME>_API_KEY``, ``<NAME>_BASE_URL`` and ``<NAME>_MODEL`` from the environment;
``AI_DEFAULT_PROVIDER`` names the default. How those combine with ``config.json`` and ``api_keys.json`` is
:mod:`obsigate.agent.settings`'s business.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from obsigate.agent.providers.base import Dialect, ProviderError

__all__ = [
    "DEFAULT_PROVIDER", "DEFAULT_PROVIDER_ENV", "PROVIDERS", "ProviderSpec", "get_spec", "is_local_engine",
    "normalise_name",
]  # fmt: skip

#: The provider used when neither the request, ``config.json`` nor ``AI_DEFAULT_PROVIDER`` names one.
DEFAULT_PROVIDER = "deepseek"
#: The environment variable naming the default provider (seeds §6).
DEFAULT_PROVIDER_ENV = "AI_DEFAULT_PROVIDER"


@dataclass(frozen=True, slots=True)
class ProviderSpec:
    """One built-in provider.

    ``base_url``: the public endpoint (``None`` for ``custom``: it must be configured). ``default_model``:
    the model used when nothing else names one (``None``: it must be configured). ``key_required``: whether
    a call without an API key is refused before it is sent (Ollama and other local servers take none;
    ``custom`` sends one only when set). ``label``: a human name for the UI and the CLI.
    """

    name: str
    dialect: Dialect
    base_url: str | None
    default_model: str | None
    key_required: bool
    label: str

    @property
    def api_key_env(self) -> str:
        """``<NAME>_API_KEY``, e.g. ``DEEPSEEK_API_KEY``."""
        return f"{self.name.upper()}_API_KEY"

    @property
    def base_url_env(self) -> str:
        """``<NAME>_BASE_URL``: the URL up to and including ``/v1`` (``/v1beta`` for Gemini)."""
        return f"{self.name.upper()}_BASE_URL"

    @property
    def model_env(self) -> str:
        """``<NAME>_MODEL``: the provider's default model."""
        return f"{self.name.upper()}_MODEL"


#: Every provider ObsiGate knows, in the order the UI and ``obsigate ai status`` list them.
PROVIDERS: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec("deepseek", "openai", "https://api.deepseek.com/v1", "deepseek-v4-flash", True, "DeepSeek"),
        ProviderSpec("openai", "openai", "https://api.openai.com/v1", "gpt-4.1-mini", True, "OpenAI"),
        ProviderSpec("openrouter", "openai", "https://openrouter.ai/api/v1", "openai/gpt-4o-mini", True, "OpenRouter"),
        ProviderSpec("ollama", "openai", "http://127.0.0.1:11434/v1", "llama3.1", False, "Ollama (local)"),
        ProviderSpec(
            "gemini",
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta",
            "gemini-2.5-flash",
            True,
            "Google Gemini",
        ),
        ProviderSpec("custom", "openai", None, None, False, "Custom OpenAI-compatible server"),
    )
}


def normalise_name(name: str) -> str:
    """A provider name as the table spells it: surrounding spaces dropped, lower case (``"DeepSeek"`` →
    ``"deepseek"``). Does not check that it is known."""
    return name.strip().lower()


def get_spec(name: str) -> ProviderSpec:
    """The built-in entry of provider ``name`` (any case).

    Raises:
        ProviderError (``provider_not_configured``): not a known provider; the message lists the known ones.
    """
    spec = PROVIDERS.get(normalise_name(name)) if isinstance(name, str) else None
    if spec is None:
        shown = name[:64] if isinstance(name, str) else type(name).__name__
        raise ProviderError(
            f"unknown AI provider {shown!r}; known providers: {', '.join(PROVIDERS)}",
            code="provider_not_configured",
            hint="pick one of " + ", ".join(PROVIDERS),
        )
    return spec


#: Host name endings of a local network (RFC 6762 ``.local``, RFC 8375 ``.home.arpa``, and common LAN usage).
_LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".internal", ".home.arpa")


def is_local_engine(name: str, base_url: str) -> bool:
    """Whether provider ``name`` at ``base_url`` is a local engine, on this machine or the local network: the
    ``ollama`` provider, or a base URL whose host is ``localhost``, a loopback, private or link-local address,
    a single-label name (a container's service name, ``http://ollama:11434/v1``) or ends in ``.local``,
    ``.lan``, ``.internal``, ``.home.arpa``, ``.localhost``. Such an engine often runs on a CPU and answers a
    non-streamed request only when the whole answer is generated (:attr:`ProviderConfig.local_timeout_s`).
    A hosted API (any public host name or address) is not one; an unparsable URL is not one either."""
    if normalise_name(name) == "ollama":
        return True
    try:
        host = (urlsplit(base_url).hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or "." not in host or host.endswith(_LOCAL_SUFFIXES)
    return address.is_loopback or address.is_private or address.is_link_local
