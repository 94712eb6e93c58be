"""Plain chat's ``obsigate-action`` path against the real engine (issue 18 item 6): SmolLM2-135M through
``llama-cpp-python``'s server (``llama_engine.py``), asked to answer with one block.

What the model writes cannot be steered reliably: with the ``chatml-function-calling`` template the prompt's
quotes reach it as ``&#34;`` entities, and in our runs it paraphrased, wrapped the JSON in a ``text`` fence or
wrote entities instead of quotes (docs/assistant.md, "Plain chat's actions"). So this test asserts the parse path on whatever it
produces: each ``obsigate-action`` block of the real answer became exactly one outcome (a usable one a proposal
on the confirmation card or a refused proposal, a bad one an ``action_invalid`` notice), nothing was written
without an approval, and the stream ended with ``done``. The fake provider's tests (``test_plain_chat_actions.py``) cover
the proposals, approvals and refusals themselves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llama_engine import Engine, start_engine

from obsigate.agent.actions_protocol import parse_actions

BLOCK = (
    '```obsigate-action\n{"action": "create_file", "vault": "notes", "path": "Engine.md", "content": "# Engine"}\n```'
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The engine with a small context: the plain chat's prompt is ~300 tokens, and a chat sends no token limit,
    so the context bounds the answer (a 135M model may ramble until it is full: minutes on a loaded CPU)."""
    engine = start_engine(tmp_path_factory.mktemp("engine"), n_ctx=640)
    try:
        yield engine
    finally:
        engine.stop()


def test_a_real_plain_chat_answer_goes_through_the_action_parser(
    engine: Engine, assistant: Any, small_vault: Path
) -> None:
    a = assistant(env={"AI_DEFAULT_PROVIDER": "custom", "CUSTOM_BASE_URL": engine.base, "CUSTOM_MODEL": "smollm2-135m"})
    files_before = sorted(p.relative_to(a.vault) for p in a.vault.rglob("*"))
    started = time.monotonic()
    # no vault in the request: no tree in the prompt (shorter); the block names its vault
    out = a.chat({"message": f"Create the note Engine.md. Answer only with this block:\n{BLOCK}"}, timeout=600)
    text = "".join(d["text"] for d in out.named("delta"))
    print(f"\n[real engine] plain chat with actions: {time.monotonic() - started:.1f} s; answer {text!r}")
    assert out.status == 200 and not out.named("error"), out.items
    assert [e for e, _ in out.items][-1] == "done"
    parsed = parse_actions(text, None)
    proposed = out.named("confirmation")[0]["actions"] if out.named("confirmation") else []
    refused = out.tools("error")
    invalid = [n["message"] for n in out.named("notice") if n["code"] == "action_invalid"]
    print(f"[real engine] blocks: {len(parsed.actions)} usable ({len(proposed)} proposed, {len(refused)} refused), "
          f"{len(parsed.errors)} bad: {invalid}")  # fmt: skip
    assert len(proposed) + len(refused) == len(parsed.actions), out.items  # none dropped, none invented
    assert invalid == [e.text() for e in parsed.errors], out.items
    blocks = len(parsed.actions) + len(parsed.errors)
    done = out.one("done")
    assert done["stopped"] == ("awaiting_confirmation" if proposed else "completed"), done
    assert sorted(p.relative_to(a.vault) for p in a.vault.rglob("*")) == files_before  # nothing before approval
    messages = a.get(f"/api/ai/conversations/{done['conversation_id']}").json()["messages"]
    assert messages[1]["content"] == text  # the answer is kept as the model wrote it
    if blocks > len(proposed):  # what could not be used is in the conversation
        assert messages[-1].get("note") == "obsigate-action"
