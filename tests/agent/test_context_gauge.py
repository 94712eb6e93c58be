"""The context gauge (issue 21 item 5) end to end: a real ObsiGate on loopback, the fake providers over HTTP
reporting the usage a real one would (each request's own tokens, counted on the wire with a tokenizer that is not
the gauge's: ``fakes/token_counts.py``), the conversations' usage in real SQLite.

The gauge's estimate of the next request (``GET /api/ai/conversations/{id}/context`` between two requests) is held
within 5 % of what the provider then reports for it, in both dialects; the breakdown sums to the total; the levels
fire at 70/85/95 %; a model change keeps each model's totals apart; another person gets ``not_found``.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx2
from fakes import gemini_replies as g
from fakes import openai_replies as o
from fakes.token_counts import counted, gemini_prompt_tokens, openai_prompt_tokens
from support import alice_and_bob

from obsigate.agent.gauge import PARTS, ContextGauge, level_of, scale_parts
from obsigate.agent.providers.base import ChatRequest, ToolDef, Usage
from obsigate.agent.store import AgentStore

ASK = {"message": "What is in my notes about the tidepool buoy?", "vault": "notes", "mode": "directory"}

#: A long note the model reads: prose in two languages, a table and code, so the tool result is several
#: thousand tokens and not all of one kind.
LONG_NOTE = "\n\n".join(
    f"## Section {i}\n\nThe tidepool buoy logs salinity, temperature and pH every {i + 5} minutes; la bouée "
    f"envoie ses mesures par LoRa quand la marée le permet (fenêtre n°{i}).\n\n| sensor | unit | drift |\n"
    f"|---|---|---|\n| salinity | PSU | 0.0{i} |\n| temp | °C | 0.{i} |\n\n```python\ndef read_{i}(port):\n"
    f"    return port.read({i * 16}).decode('utf-8')\n```"
    for i in range(40)
)


def _answer(n: int) -> str:
    return " ".join(f"Point {k}: the buoy's sensor {k} needs calibration before tide {n}." for k in range(30 * n))


def _openai_text(text: str, cached: int = 0) -> Any:
    def build(prompt: int) -> Any:
        usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": 50, "total_tokens": prompt + 50}
        if cached:
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        return o.stream_text([text], usage=usage)

    return counted(build)


def _openai_calls(calls: list[Any]) -> Any:
    return counted(lambda prompt: o.stream_tool_calls(calls, usage={"prompt_tokens": prompt, "completion_tokens": 9}))


def _gemini_text(text: str, cached: int = 0) -> Any:
    return counted(lambda p: g.stream_text([text], usage_metadata=g.usage(prompt=p, cached=min(cached, p))), "gemini")


def _gemini_calls(calls: list[Any]) -> Any:
    return counted(lambda p: g.stream_calls(calls, usage_metadata=g.usage(prompt=p)), "gemini")


def _gauge(a: Any, cid: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    response = a.get(f"/api/ai/conversations/{cid}/context", headers=headers)
    assert response.status_code == 200, response.text
    gauge = response.json()
    assert sum(gauge["breakdown"].values()) == gauge["total"] == gauge["used"] + gauge["reserved"]
    assert gauge["encoding"] == "cl100k_base" and gauge["provider"] and gauge["conversation_id"] == cid
    assert set(gauge["breakdown"]) == {*PARTS, "reserved"}
    return gauge


def _reported(a: Any, request: int, dialect: str) -> int:
    body = a.fake.requests[request].json
    return gemini_prompt_tokens(body) if dialect == "gemini" else openai_prompt_tokens(body)


def _replay(a: Any, dialect: str, extra: dict[str, Any] | None = None) -> list[tuple[int, int]]:
    """Four requests in one conversation (a long note read, long answers, a search); before each request after
    the first, the gauge's ``used``; returns ``(estimate, reported)`` pairs: the provider's count of that next
    request's first call, less the new message's own tokens (not in the conversation when the gauge was read)."""
    text, calls = (_gemini_text, _gemini_calls) if dialect == "gemini" else (_openai_text, _openai_calls)
    read = ("read_file", {"vault": "notes", "path": "Long.md"})
    search = ("search_fulltext", {"q": "buoy", "vault": "notes"})
    if dialect == "openai":
        read, search = ("c1", *read), ("c2", *search)
    a.fake.add(calls([read]), text(_answer(1)))
    first = a.agent({**ASK, **(extra or {})})
    assert first.status == 200 and first.one("done")["stopped"] == "completed", first.raw
    cid = first.one("done")["conversation_id"]
    pairs = []
    for n, reply in enumerate([[text(_answer(3))], [calls([search]), text(_answer(2))], [text("Short.")]]):
        gauge = _gauge(a, cid)
        assert gauge["source"] == "estimate"  # the last answer was added since the last call
        sent = len(a.fake.requests)
        a.fake.add(*reply)
        message = f"And what about tide {n}?"
        out = a.agent({**ASK, **(extra or {}), "message": message, "conversation_id": cid})
        assert out.one("done")["stopped"] == "completed", out.raw
        body = a.fake.requests[sent].json
        own = 4 + len(message) // 4 + 2  # the new message, as either fake counts it
        pairs.append((gauge["used"], _reported(a, sent, dialect) - own))
        assert body is not None
    return pairs


def test_openai_estimate_within_5_percent_and_live_events(assistant: Any, small_vault: Path) -> None:
    (small_vault / "Long.md").write_text(LONG_NOTE, encoding="utf-8")  # indexed before the first request
    a = assistant()
    pairs = _replay(a, "openai")
    print("openai (estimate, reported):", pairs)
    for estimate, reported in pairs:
        assert abs(estimate - reported) <= 0.05 * reported, pairs
    assert pairs[-1][1] > 8000  # the conversation grew: the figures are not dominated by a constant


def test_gemini_estimate_within_5_percent_and_cached_tokens(assistant: Any, small_vault: Path) -> None:
    (small_vault / "Long.md").write_text(LONG_NOTE, encoding="utf-8")  # indexed before the first request
    a = assistant()
    pairs = _replay(a, "gemini", {"provider": "gemini"})
    print("gemini (estimate, reported):", pairs)
    for estimate, reported in pairs:
        assert abs(estimate - reported) <= 0.05 * reported, pairs
    a.fake.add(_gemini_text("Cached.", cached=1200))
    cid = a.get("/api/ai/conversations").json()["conversations"][0]["id"]
    done = a.agent({**ASK, "provider": "gemini", "message": "again", "conversation_id": cid})
    context = done.named("context")[-1]
    assert context["last_usage"]["cached_tokens"] == 1200 and done.one("done")["usage"]["cached_tokens"] == 1200
    assert context["source"] == "provider" and context["used"] == context["last_usage"]["prompt_tokens"]
    (total,) = context["totals"]
    assert total["model"] == "gemini-fake" and total["calls"] == 7 and total["cached_tokens"] == 1200


def test_every_provider_call_sends_a_context_event_with_its_real_count(assistant: Any) -> None:
    a = assistant()
    a.fake.add(_openai_calls([("c1", "read_file", {"vault": "notes", "path": "Ideas.md"})]), _openai_text("Done.", 64))
    out = a.agent(ASK)
    events = out.named("context")
    assert len(events) == 2  # one per provider call
    for n, event in enumerate(events):
        assert event["source"] == "provider" and event["used"] == _reported(a, n, "openai")
        assert sum(event["breakdown"].values()) == event["total"]
    last = events[-1]
    assert last["breakdown"]["tool_results"] > 0 and last["breakdown"]["context_files"] > 0
    assert last["breakdown"]["tool_definitions"] > last["breakdown"]["system_prompt"] > 0
    assert last["last_usage"]["cached_tokens"] == 64 and last["window"] == 32_768 and last["model"] == "fake-model"
    # the order matters to the web app: the gauge of a call comes before the run's end
    names = [e for e, _ in out.items]
    assert names.index("context") < names.index("done")


def test_usage_is_kept_per_model_when_the_model_changes(assistant: Any) -> None:
    a = assistant()
    a.fake.add(_openai_text("One."))
    cid = a.agent(ASK).one("done")["conversation_id"]
    a.fake.add(_gemini_text("Two."), _gemini_text("Three."))
    switched = a.agent({**ASK, "message": "more", "conversation_id": cid, "provider": "gemini"}).one("context")
    assert switched["model"] == "gemini-fake" and switched["window"] == 1_048_576  # the model just called
    assert switched["source"] == "provider" and switched["used"] == _reported(a, 1, "gemini")
    a.agent({**ASK, "message": "again", "conversation_id": cid, "provider": "gemini"})
    gauge = _gauge(a, cid)
    assert gauge["model"] == "gemini-fake" and gauge["window"] == 1_048_576
    totals = {t["model"]: t for t in gauge["totals"]}
    assert totals["fake-model"]["calls"] == 1 and totals["gemini-fake"]["calls"] == 2
    assert totals["fake-model"]["prompt_tokens"] == _reported(a, 0, "openai")
    assert totals["gemini-fake"]["prompt_tokens"] == _reported(a, 1, "gemini") + _reported(a, 2, "gemini")
    with sqlite3.connect(a.data / "assistant.sqlite3") as db:
        rows = db.execute("SELECT model, prompt_tokens FROM usage WHERE conversation_id = ? ORDER BY seq", (cid,))
        assert [r[0] for r in rows] == ["fake-model", "gemini-fake", "gemini-fake"]


def test_levels_with_a_small_configured_window(assistant: Any) -> None:
    a = assistant(env={"OBSIGATE_AI_CONTEXT_WINDOWS": "fake-model=9000"})
    a.fake.add(_openai_text("Hi."))
    out = a.agent({**ASK, "accept_large_context": True})  # over the share of so small a window: accepted
    event = out.one("context")
    assert event["window"] == 9000 and event["reserved"] == 9000 // 8
    assert event["percent"] == round(100 * event["total"] / 9000, 1)
    assert event["level"] == level_of(event["percent"]) and event["level"] != "ok", event


def test_another_person_gets_not_found(assistant: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    alice, bob = alice_and_bob(data)
    a = assistant(auth_enabled=True, data_dir=data)
    a.fake.add(_openai_text("Mine."))
    cid = a.agent(ASK, headers=alice).one("done")["conversation_id"]
    assert _gauge(a, cid, alice)["used"] > 0
    for who in (bob, alice):
        missing = a.get(f"/api/ai/conversations/{cid if who is bob else 'f' * 32}/context", headers=who)
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert a.get(f"/api/ai/conversations/{cid}/context").status_code == 401
    # bob's model asks for alice's conversation by id: the tool answers not_found, and his own gauge works
    a.fake.add(_openai_calls([("c1", "get_context_usage", {"conversation_id": cid})]), _openai_text("No."))
    out = a.agent(ASK, headers=bob)
    (step,) = out.tools("error")
    assert step["name"] == "get_context_usage" and "no such conversation" in step["summary"]
    (answer,) = [m for m in a.fake.requests[-1].json["messages"] if m["role"] == "tool"]
    assert json.loads(answer["content"])["error"]["code"] == "not_found"


def test_the_model_reads_its_own_gauge(assistant: Any) -> None:
    a = assistant()
    a.fake.add(_openai_calls([("c1", "get_context_usage", {})]), _openai_text("Plenty of room."))
    out = a.agent(ASK)
    (step,) = out.tools("ok")
    assert step["label"] == "Context usage checked"
    answer = a.fake.requests[-1].json["messages"][-1]
    assert answer["role"] == "tool"
    result = json.loads(answer["content"])
    assert result["source"] == "estimate" and result["used"] > _reported(a, 0, "openai")  # its own call added since
    assert result["totals"][0]["calls"] == 1 and result["conversation_id"] == out.one("done")["conversation_id"]
    a.fake.add(_openai_calls([("c2", "get_context_usage", {})]), _openai_text("ok"))
    fr = a.agent({**ASK, "language": "fr", "message": "encore", "conversation_id": result["conversation_id"]})
    assert fr.tools("ok")[0]["label"] == "Jauge de contexte consultée"


# --- the gauge over a real store, no server -------------------------------------------------------------


def test_breakdown_scaling_and_levels() -> None:
    assert scale_parts({"a": 1, "b": 1, "c": 1}, 100) == {"a": 34, "b": 33, "c": 33}
    assert sum(scale_parts({"a": 7, "b": 0, "c": 13}, 12_345).values()) == 12_345
    assert scale_parts({"history": 0, "x": 0}, 5) == {"history": 5, "x": 0}
    assert [level_of(p) for p in (0, 69.9, 70, 84.9, 85, 94.9, 95, 120)] == [
        "ok", "ok", "warn70", "warn70", "warn85", "warn85", "warn95", "warn95",
    ]  # fmt: skip


def test_levels_at_70_85_95_percent(tmp_path: Path) -> None:
    store = AgentStore(tmp_path / "a.sqlite3")
    gauge = ContextGauge(store, windows={"m": 10_000})
    tool = ToolDef("t", "a tool", {"type": "object", "properties": {}})
    seen = {}
    for prompt in (5000, 5749, 5750, 7249, 7250, 8249, 8250, 9900):
        cid = store.create_conversation("u", title="t", mode="general", vault=None, provider="p", model="m")
        request = ChatRequest(system="You help.", messages=[{"role": "user", "content": "hi"}], tools=[tool])
        gauge.record("u", cid, "p", "m", request, Usage(prompt, 5, prompt + 5))
        report = gauge.report("u", cid)
        assert report["used"] == prompt and report["reserved"] == 1250 and report["source"] == "provider"
        seen[prompt] = report["level"]
    assert seen == {5000: "ok", 5749: "ok", 5750: "warn70", 7249: "warn70", 7250: "warn85", 8249: "warn85",
                    8250: "warn95", 9900: "warn95"}  # fmt: skip
    store.close()


def test_an_older_store_gains_the_usage_table(tmp_path: Path) -> None:
    path = tmp_path / "assistant.sqlite3"
    with sqlite3.connect(path) as db:  # the schema before issue 21
        db.executescript(
            "CREATE TABLE conversations (id TEXT PRIMARY KEY, user TEXT NOT NULL, title TEXT NOT NULL, mode TEXT NOT "
            "NULL, vault TEXT, provider TEXT NOT NULL, model TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT "
            "NULL); CREATE TABLE messages (conversation_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT "
            "NULL, PRIMARY KEY (conversation_id, seq));"
            "INSERT INTO conversations VALUES ('c1', 'u', 'old', 'general', NULL, 'p', 'gpt-4o', 1, 1);"
            """INSERT INTO messages VALUES ('c1', 0, '{"role": "user", "content": "an old question"}');"""
        )
    store = AgentStore(path)
    report = ContextGauge(store).report("u", "c1")  # no call recorded: the messages, estimated
    assert report["source"] == "estimate" and report["window"] == 128_000 and report["last_usage"] is None
    assert report["used"] == report["breakdown"]["history"] > 0
    store.delete_conversation("u", "c1")
    store.close()


def test_the_tokenizer_works_offline(tmp_path: Path) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    script = textwrap.dedent("""
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network is off in this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        from obsigate.agent.tokens import count_tokens
        print(count_tokens("hello world, this is a test of the tokenizer. Bonjour à tous!"))
    """)
    env = {"TIKTOKEN_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin", "HTTPS_PROXY": "http://127.0.0.1:9"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={**env, **_pythonpath()},
                         timeout=60, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "16"  # cl100k_base, as tiktoken's own cl100k_base counts it
    assert list(cache.iterdir()) == []  # nothing fetched, nothing cached


def _pythonpath() -> dict[str, str]:
    return {"PYTHONPATH": ":".join(p for p in sys.path if p)}


def test_unknown_conversation_over_rest_is_not_found(assistant: Any) -> None:
    a = assistant()
    response = httpx2.get(f"{a.url}/api/ai/conversations/{'0' * 32}/context")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    # an id no conversation can have: 404 as on the plan's route (and every conversation route), not a 400
    for route in ("context", "plan"):
        response = httpx2.get(f"{a.url}/api/ai/conversations/{'x' * 5000}/{route}")
        assert response.status_code == 404 and response.json()["code"] == "not_found", route


# --- cached tokens as each wire format reports them ------------------------------------------------------


def _turn(fake: Any, dialect: str) -> Any:
    import anyio

    from obsigate.agent.providers.base import ProviderConfig
    from obsigate.agent.providers.gemini import GeminiProvider
    from obsigate.agent.providers.openai_compat import OpenAICompatProvider

    base = f"{fake.base_url}/v1beta" if dialect == "gemini" else f"{fake.base_url}/v1"
    config = ProviderConfig(name=dialect, dialect=dialect, base_url=base, model="m", api_key="k-0000", timeout_s=5)
    provider = (GeminiProvider if dialect == "gemini" else OpenAICompatProvider)(config)
    request = ChatRequest(system="s", messages=[{"role": "user", "content": "hi"}])

    async def run() -> Any:
        try:
            return await provider.chat(request)
        finally:
            await provider.aclose()

    return anyio.run(run)


def test_cached_tokens_of_each_wire_format(fake: Any) -> None:
    fake.add(
        o.stream_text(["a"], usage={"prompt_tokens": 900, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 768}}),
        o.stream_text(["b"], usage={"prompt_tokens": 900, "completion_tokens": 5, "prompt_cache_hit_tokens": 640}),  # DeepSeek
        o.stream_text(["c"], usage={"prompt_tokens": 900, "completion_tokens": 5, "prompt_tokens_details": None}),
        g.stream_text(["d"], usage_metadata=g.usage(prompt=900, cached=512)),
        g.stream_text(["e"], usage_metadata=g.usage(prompt=900)),
    )  # fmt: skip
    got = [_turn(fake, d).usage for d in ("openai", "openai", "openai", "gemini", "gemini")]
    assert [u.cached_tokens for u in got] == [768, 640, 0, 512, 0]
    assert all(u.prompt_tokens == 900 for u in got)
    assert got[0].as_dict()["cached_tokens"] == 768 and "cached_tokens" not in got[2].as_dict()  # the old shape
