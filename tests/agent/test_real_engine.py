"""The assistant against a real engine (issue 10, "Tests"; issue 16): ``llama-cpp-python``'s OpenAI-compatible
server serving SmolLM2-135M-Instruct on loopback (``llama_engine.py``), reached through the ``custom`` provider:
one streamed chat, one agent run that calls a read tool and answers, every tool forced once, and a prompt over
a small context.

That server answers a *streamed* request with tools by an empty event stream ("Automatic streaming tool choice
is not supported"); the agent must still work: the OpenAI-compatible client asks again without streaming, tools
kept.

A 135M model picks poor arguments, so a tool's result may be ``ok`` or ``error``: what must hold is that a read
tool ran to a final status and the run ended cleanly (``done``, no ``error``). ``make test`` installs the engine
and the model (Makefile target ``engine``, ``requirements-engine.txt``); without them, or when the engine cannot
start or dies, these tests fail with the cause (exit code or signal, its stderr's last lines), never skip. Each
phase's time is printed (``pytest -s``), never asserted.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from llama_engine import Engine, describe_exit, start_engine

#: the final statuses of a ``tool`` event (``running`` is not one)
FINAL = {"ok", "error", "deferred", "pending_confirmation"}


def _phase(name: str, started: float) -> None:
    """Print how long ``name`` took (visible with ``-s``)."""
    print(f"\n[real engine] {name}: {time.monotonic() - started:.2f} s", flush=True)


@pytest.fixture(scope="module")
def running_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The engine with SmolLM2's trained context (8192 tokens: the prompt with every tool is ~4,000), started
    once for the module and stopped at its end; a test that leaves it dead fails with the cause."""
    started = time.monotonic()
    engine = start_engine(tmp_path_factory.mktemp("engine"), n_ctx=8192)
    _phase("engine start (model loaded, /v1/models answers)", started)
    try:
        yield engine
    finally:
        engine.stop()


@pytest.fixture
def engine(running_engine: Engine) -> Iterator[str]:
    """The engine's base URL (``.../v1``); after the test, the engine must still be serving."""
    yield running_engine.base
    down = running_engine.down()
    assert down is None, f"the engine died during the test: {down}"


def _env(base: str) -> dict[str, str]:
    """The ``custom`` provider pointed at the engine, and tight limits so a looping model ends soon."""
    return {
        "AI_DEFAULT_PROVIDER": "custom", "CUSTOM_BASE_URL": base, "CUSTOM_MODEL": "smollm2-135m",
        "OBSIGATE_AI_MAX_ITERATIONS": "2", "BOOKSLM_MAX_TOOL_CALLS": "3",
    }  # fmt: skip


def _read_tools() -> set[str]:
    """The names of the registry's read tools (the registry is filled once an app was created)."""
    from obsigate.tools.api import Risk
    from obsigate.tools.registry import REGISTRY

    return {spec.name for spec in REGISTRY if spec.risk is Risk.READ}


def test_streamed_chat_token_by_token(engine: str, assistant: Any) -> None:
    """A chat through the ``custom`` provider streams several ``delta`` events, ends with ``done``
    ``completed`` (usage checked when the server reports it) and is stored as a conversation."""
    a = assistant(env=_env(engine))
    started = time.monotonic()
    out = a.chat({"message": "Say hello to me in one short sentence.", "mode": "general"}, timeout=60)
    _phase("streamed chat", started)
    assert out.status == 200, out.raw
    assert not out.named("error"), out.items
    deltas = [d["text"] for d in out.named("delta")]
    assert len(deltas) >= 3, out.items  # token by token, not one block
    text = "".join(deltas)
    assert text.strip(), out.items
    done = out.one("done")
    assert done["stopped"] == "completed"
    assert [e for e, _ in out.items][-1] == "done"  # nothing after done
    usage = done["usage"]
    if usage.get("total_tokens"):  # llama-cpp-python's streamed chat reports none; a server that does, counts
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    print(f"[real engine] chat answer ({len(deltas)} deltas): {text!r}; usage {usage}")
    stored = a.get(f"/api/ai/conversations/{done['conversation_id']}")
    assert stored.status_code == 200, stored.text
    messages = stored.json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[-1]["content"] == text


def test_an_editor_ai_action_streams_text(engine: str, assistant: Any) -> None:
    """An editor AI text action (``POST /api/ai/title``, issue 18: the shortest answer of the 16) through the
    ``custom`` provider streams non-empty text as ``delta`` events and ends with ``done`` holding that text."""
    a = assistant(env=_env(engine))
    started = time.monotonic()
    out = a.post("/api/ai/title", {"text": "The cat sat on the mat all day."}, timeout=180)
    _phase("editor AI action", started)
    assert out.status == 200, out.raw
    assert not out.named("error"), out.items
    text = "".join(d["text"] for d in out.named("delta"))
    assert text.strip(), out.items
    assert out.one("done")["text"] == text and [e for e, _ in out.items][-1] == "done"
    print(f"[real engine] title answer: {text!r}")


def test_agent_run_calls_a_read_tool_and_answers(engine: str, assistant: Any, small_vault: Path) -> None:
    """An agent run survives the engine's refusal of streamed tool turns (asked again non-streamed, tools
    kept), runs at least one read tool to a final status, replays the model's tool-call message on the next
    turn, and ends with ``done`` and no ``error``; nothing in the vault changes."""
    # aiDestructiveTools off: fewer tool schemas in the prompt, which the engine must read at every cold start
    a = assistant(env=_env(engine), vaults={"notes": {"path": str(small_vault), "aiDestructiveTools": False}})
    ideas, home = (a.vault / "Ideas.md").read_bytes(), (a.vault / "Home.md").read_bytes()
    files_before = sorted(p.relative_to(a.vault) for p in a.vault.rglob("*"))
    started = time.monotonic()
    out = a.agent({"message": "List the vaults you can see, then read Ideas.md in vault notes.", "vault": "notes"},
                  timeout=300)  # fmt: skip
    _phase("agent run", started)
    assert out.status == 200, out.raw
    assert not out.named("error"), out.items
    tools = out.tools()
    print(f"[real engine] tool events: {[(t['name'], t['status'], t['summary']) for t in tools]}")
    reads = _read_tools()
    assert reads, "the registry has no read tool"
    finished = [t for t in tools if t["name"] in reads and t["status"] in FINAL]
    assert finished, f"no read tool reached a final status: {out.items}"
    for t in tools:  # every call that started also ended
        if t["status"] == "running":
            assert any(u["id"] == t["id"] and u["status"] in FINAL for u in tools), t
    done = out.one("done")
    assert [e for e, _ in out.items][-1] == "done"
    assert done["stopped"] in {"completed", "max_iterations", "quota_exceeded", "awaiting_confirmation"}, done
    if done["stopped"] == "awaiting_confirmation":  # the model proposed a write: it waits, never applied
        assert out.one("confirmation")["run_id"] == done["run_id"]
    if done["stopped"] != "awaiting_confirmation":  # it answers: at its limit, a last turn with tool_choice none
        answer = out.one("message")["content"]
        assert isinstance(answer, str)
        print(f"[real engine] agent answer: {answer[:200]!r}")
    print(f"[real engine] agent stopped: {done['stopped']}; usage {done['usage']}")
    assert done["usage"]["total_tokens"] > 0  # the non-streamed tool turns report usage
    # nothing was written: a proposal waits for a person who never answers here
    assert (a.vault / "Ideas.md").read_bytes() == ideas and (a.vault / "Home.md").read_bytes() == home
    assert sorted(p.relative_to(a.vault) for p in a.vault.rglob("*")) == files_before
    stored = a.get(f"/api/ai/conversations/{done['conversation_id']}")
    assert stored.status_code == 200, stored.text
    roles = [m["role"] for m in stored.json()["messages"]]
    assert roles[0] == "user" and "tool" in roles


def _offered_tools() -> list[Any]:
    """Every in-app tool, dangerous ones included, as the agent offers them (``tool_defs``: lean schemas)."""
    import obsigate.tools.api  # noqa: F401  (fills the registry)
    from obsigate.agent.loop import tool_defs
    from obsigate.tools.registry import REGISTRY, Scope, ToolKind

    return tool_defs([s for s in REGISTRY.for_scope(Scope.IN_APP) if s.kind is ToolKind.TOOL])


def test_every_tool_forced_once_leaves_the_engine_up(engine: str, running_engine: Engine) -> None:
    """Every tool the assistant can offer, all of them in the request, each forced once (``tool_choice`` naming
    it): llama.cpp builds a grammar from that tool's schema and must answer with a call of it, and stay up
    (process alive, ``GET /v1/models`` 200) after each. The registry's raw bounds (``maxLength`` up to
    5,000,000) killed it on every tool taking a path; the schemas are offered without them."""
    from obsigate.agent.providers.openai_compat import build_tools

    defs = _offered_tools()
    assert len(defs) >= 20
    tools = build_tools(defs)
    times: list[tuple[str, float, str]] = []
    with httpx2.Client(timeout=httpx2.Timeout(10, read=600)) as client:
        for tool in defs:
            started = time.monotonic()
            response = client.post(f"{engine}/chat/completions", json={
                "model": "smollm2-135m", "temperature": 0, "max_tokens": 48, "tools": tools,
                "tool_choice": {"type": "function", "function": {"name": tool.name}},
                "messages": [{"role": "system", "content": "You are the assistant of an Obsidian vault named notes."},
                             {"role": "user", "content": f"Use {tool.name} on the vault notes."}],
            })  # fmt: skip
            elapsed = time.monotonic() - started
            down = running_engine.down()
            assert down is None, f"the engine died on the forced call of {tool.name}: {down}"
            assert response.status_code == 200, (tool.name, response.text[:500])
            message = response.json()["choices"][0]["message"]
            called = [c["function"]["name"] for c in message.get("tool_calls") or []]
            assert called == [tool.name], (tool.name, message)
            times.append((tool.name, elapsed, message["tool_calls"][0]["function"]["arguments"][:60]))
    for name, elapsed, arguments in times:
        print(f"[real engine] forced {name}: {elapsed:.1f} s, alive; arguments {arguments!r}")
    print(f"[real engine] {len(times)} tools forced, engine alive after each; {sum(t for _, t, _ in times):.0f} s")


@pytest.fixture(scope="module")
def small_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A second engine with a 512-token context: the assistant's prompt with its tools (~4,000 tokens) and a
    long message do not fit."""
    engine = start_engine(tmp_path_factory.mktemp("small-engine"), n_ctx=512)
    try:
        yield engine
    finally:
        engine.stop()


def test_a_prompt_over_the_engines_context_is_context_length_exceeded(small_engine: Engine, assistant: Any) -> None:
    """The engine answers a streamed prompt over its n_ctx with an empty event stream: asked again without
    streaming, it says why, and both the chat and the agent run end with ``context_length_exceeded`` (an
    ``error`` event, nothing after it); the engine is still up."""
    a = assistant(env=_env(small_engine.base))
    started = time.monotonic()
    chat = a.chat({"message": "Summarise this: " + "the tide rises and falls " * 400, "mode": "general"}, timeout=120)
    _phase("chat over the context", started)
    assert chat.status == 200, chat.raw
    error = chat.one("error")
    assert error["code"] == "context_length_exceeded", chat.items
    assert "512" in error["message"] and [e for e, _ in chat.items][-1] == "error"
    print(f"[real engine] chat over the context: {error}")
    started = time.monotonic()
    run = a.agent({"message": "List the vaults you can see.", "vault": "notes"}, timeout=120)
    _phase("agent run over the context", started)
    assert run.one("error")["code"] == "context_length_exceeded", run.items
    assert not run.named("done") and [e for e, _ in run.items][-1] == "error"
    down = small_engine.down()
    assert down is None, down


@pytest.mark.parametrize(("how", "expected"), [
    ("os.kill(os.getpid(), signal.SIGILL)", "killed by SIGILL (an instruction this CPU does not have"),
    ("os.kill(os.getpid(), signal.SIGSEGV)", "killed by SIGSEGV"),
    ("sys.exit(3)", "exited with code 3"),
], ids=["SIGILL", "SIGSEGV", "exit-3"])  # fmt: skip
def test_an_engine_that_cannot_start_fails_the_test_naming_the_cause(tmp_path: Path, how: str, expected: str) -> None:
    """How the tests report an engine that dies at start (a build for another CPU, a crash, a bad install): a
    failure with the exit code or the signal's name and the last lines of its stderr, never a skip."""
    script = f"import os, signal, sys; print('loading', file=sys.stderr); print('fatal: boom', file=sys.stderr); {how}"
    with pytest.raises(pytest.fail.Exception) as failed:
        start_engine(tmp_path, command=[sys.executable, "-c", script], ready_s=30)
    message = str(failed.value)
    assert message.startswith("the test engine could not start: llama_cpp.server ") and expected in message, message
    assert "last lines of its stderr" in message and message.rstrip().endswith("fatal: boom"), message


def test_exit_descriptions() -> None:
    assert describe_exit(0) == "exited with code 0"
    assert describe_exit(-signal.SIGKILL).startswith("killed by SIGKILL")
    assert describe_exit(-200) == "killed by signal 200"
