"""Issue 16, item 5: what the in-app assistant sends its provider (the scripted fake, over a real socket) holds
no bare AWS secret key and no name's key id: the context of a chat, a read the model asks for, a folder it
lists by the redacted name it was shown."""

from __future__ import annotations

import json
from typing import Any

from fakes import openai_replies as o

K = "AKIAQWERTYUIOPASDF23"
R = "[REDACTED:aws-access-key]"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK3h8qLmN0"
PAIR = f"# Deploy\n\nThe pair IAM handed out:\n\n{K}\n{AWS_SECRET}\n\n**Secrets**: [[Ideas]]\n"


def _sent(a: Any) -> str:
    return json.dumps([r.json for r in a.fake.requests])


def test_a_chat_on_a_note_never_sends_the_bare_secret(assistant: Any, small_vault) -> None:
    (small_vault / "Deploy.md").write_text(PAIR)
    a = assistant()
    a.fake.add(o.stream_text(["Rotate it."]))
    out = a.chat({"message": "what is in this note?", "mode": "files", "vault": "notes", "files": ["Deploy.md"]})
    assert out.one("done")["stopped"] == "completed"
    sent = _sent(a)
    assert "The pair IAM handed out" in sent  # the note is in context
    assert AWS_SECRET not in sent and K not in sent and "[REDACTED:aws-secret-key]" in sent
    assert "**Secrets**: [[Ideas]]" in sent  # a link, not a secret


def test_the_agent_reads_a_secret_named_folder_by_the_name_it_was_shown(assistant: Any, small_vault) -> None:
    (small_vault / K).mkdir()
    (small_vault / K / "keys.md").write_text(PAIR)
    a = assistant()
    a.fake.add(
        o.stream_tool_calls([("c1", "list_directory", {"vault": "notes", "path": ""})]),
        o.stream_tool_calls([("c2", "list_directory", {"vault": "notes", "path": R})]),
        o.stream_tool_calls([("c3", "read_file", {"vault": "notes", "path": f"{R}/keys.md"})]),
        o.stream_text(["Found it."]),
    )
    out = a.agent({"message": "find the deploy keys", "vault": "notes"})
    assert out.status == 200, out.raw
    assert [t["status"] for t in out.tools() if t["status"] != "running"] == ["ok", "ok", "ok"]
    sent = _sent(a)
    assert f"{R}/keys.md" in sent and "The pair IAM handed out" in sent  # listed, then read, by its shown name
    assert AWS_SECRET not in sent and K not in sent and K not in out.raw
