"""The curated 8-flag capability table: exact names, families, the conservative default."""

from __future__ import annotations

import pytest

from obsigate.agent.capabilities import FLAGS, capabilities, capability_table, known_models
from obsigate.agent.providers.catalog import PROVIDERS


def on(flags: dict[str, bool]) -> set[str]:
    return {name for name, value in flags.items() if value}


def test_the_eight_flags() -> None:
    assert FLAGS == ("chat", "embeddings", "rerank", "images", "video", "audio_speech", "audio_transcription", "vision")
    assert list(capabilities("openai", "gpt-4o")) == list(FLAGS)  # every answer has all 8, in order


def test_every_default_model_is_listed_first_class() -> None:
    table = capability_table()
    assert list(table) == list(PROVIDERS)
    for spec in PROVIDERS.values():
        if spec.default_model:
            assert known_models(spec.name)[0] == spec.default_model
            assert table[spec.name][spec.default_model]["chat"], spec.name
    assert known_models("custom") == [] and known_models("nope") == []


@pytest.mark.parametrize(
    ("provider", "model", "expected"),
    [
        ("deepseek", "deepseek-v4-flash", {"chat"}),  # exact: DeepSeek's API is text only
        ("openai", "gpt-4o", {"chat", "vision"}),
        ("openai", "text-embedding-3-small", {"embeddings"}),
        ("openai", "whisper-1", {"audio_transcription"}),
        ("gemini", "veo-3.0-generate-001", {"video"}),
        ("ollama", "llama3.2-vision:11b", {"chat", "vision"}),  # Ollama tag dropped
        ("ollama", "nomic-embed-text:latest", {"embeddings"}),
        ("openrouter", "openai/gpt-4o", {"chat", "vision"}),  # known under another provider
        ("openai", "gpt-4o-2024-08-06", {"chat", "vision"}),  # family
        ("custom", "bge-reranker-v2-m3", {"rerank"}),
        ("custom", "Qwen2-VL-7B-Instruct", {"chat", "vision"}),
        ("gemini", "gemini-3-pro-preview", {"chat", "vision"}),
        ("custom", "my-finetune", {"chat"}),  # unknown: chat only, nothing promised
        ("nope", "whatever", {"chat"}),
    ],
)
def test_capabilities(provider: str, model: str, expected: set[str]) -> None:
    assert on(capabilities(provider, model)) == expected
