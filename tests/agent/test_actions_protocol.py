"""The ``obsigate-action`` parser (issue 18 item 6): strict, bounded, never a silent drop; and the note that
rides on the answer when the conversation goes back to a model."""

from __future__ import annotations

import json

from obsigate.agent.actions_protocol import (
    ACTION_TAG,
    MAX_BLOCK_CHARS,
    MAX_BLOCKS,
    join_answers,
    note_message,
    parse_actions,
)


def block(data: object, fence: str = "```") -> str:
    return f"{fence}{ACTION_TAG}\n{data if isinstance(data, str) else json.dumps(data)}\n{fence}"


def test_blocks_become_tool_arguments_with_the_default_vault() -> None:
    text = "\n".join([
        "Sure.", block({"action": "create_file", "path": "a.md", "content": "x\n```\ny"}),
        "  " + block({"action": "create_directory", "path": "d", "vault": "other"}, "~~~~").replace("\n", "\n  "),
        "```python\nprint('not ours')\n```",
    ])  # fmt: skip
    parsed = parse_actions(text, "notes")
    assert parsed.errors == []
    assert [(a.index, a.tool, a.arguments) for a in parsed.actions] == [
        (1, "create_file", {"path": "a.md", "content": "x\n```\ny", "vault": "notes"}),
        (2, "create_directory", {"path": "d", "vault": "other"}),
    ]


def test_a_block_in_a_list_item_counts_an_indented_code_block_does_not() -> None:
    def indented(n: int, path: str) -> str:
        return block({"action": "create_directory", "path": path}).replace("\n", "\n" + " " * n)

    text = f"Steps:\n\n1. Make the folder:\n   {indented(3, 'listed')}\n2. Done.\n\n    {indented(4, 'code')}"
    assert [a.arguments["path"] for a in parse_actions(text, "notes").actions] == ["listed"]  # docs/assistant.md §9
    assert parse_actions("> " + indented(2, "quoted").replace("\n", "\n> "), "notes").actions == []


def test_blocks_inside_another_fence_are_quoted_not_asked_for() -> None:
    quoted = "````markdown\nTo create a note, write:\n" + block({"action": "create_directory", "path": "q"}) + "\n````"
    assert parse_actions(quoted, "notes").actions == []
    spaced = f"``` {ACTION_TAG} extra words\n" + json.dumps({"action": "create_directory", "path": "s"}) + "\n```"
    assert [a.arguments["path"] for a in parse_actions(spaced, "v").actions] == ["s"]  # the info's first word


def test_every_bad_block_is_an_error_naming_it() -> None:
    blocks = [
        "not json",
        "[1]",
        {"path": "a.md"},
        {"action": "rename_file", "path": "a.md"},
        {"action": "create_file", "path": "a.md"},
        {"action": "create_file", "path": "a.md", "content": "x", "mode": "overwrite"},
        {"action": "create_file", "path": 3, "content": "x"},
        {"action": "create_directory", "path": "d"},  # no vault anywhere
        "x" * (MAX_BLOCK_CHARS + 1),
    ]
    parsed = parse_actions("\n\n".join(block(b) for b in blocks), None)
    assert parsed.actions == []
    messages = [(e.index, e.message) for e in parsed.errors]
    assert [i for i, _ in messages] == list(range(1, 10))
    assert messages[0][1].startswith("not valid JSON") and messages[1][1] == "must be one JSON object"
    assert messages[2][1] == "unknown action None; use one of create_file, create_directory"
    assert messages[3][1].startswith("unknown action 'rename_file'")
    assert messages[4][1] == "create_file needs content" and messages[5][1] == "create_file takes no mode"
    assert messages[6][1] == "path must be text" and messages[7][1].startswith("names no vault")
    assert messages[8][1] == f"{MAX_BLOCK_CHARS + 1} characters, at most {MAX_BLOCK_CHARS}"
    assert parsed.errors[0].text().startswith(f"{ACTION_TAG} block 1: not valid JSON")


def test_the_count_is_bounded_and_a_cut_block_is_never_used() -> None:
    many = "\n".join(block({"action": "create_directory", "path": f"d{i}"}) for i in range(MAX_BLOCKS + 2))
    parsed = parse_actions(many, "v")
    assert len(parsed.actions) == MAX_BLOCKS
    assert [e.index for e in parsed.errors] == [MAX_BLOCKS + 1, MAX_BLOCKS + 2]
    cut = parse_actions(f"```{ACTION_TAG}\n" + json.dumps({"action": "create_file", "path": "a", "content": "x"}), "v")
    assert cut.actions == [] and cut.errors[0].message.startswith("not closed")


def test_a_note_rides_on_the_answer_before_it() -> None:
    answer = {"role": "assistant", "content": "Here.", "tool_calls": [], "raw": {"content": "Here."}}
    messages = [
        {"role": "user", "content": "go"},
        answer,
        note_message(["- a: applied"]),
        {"role": "user", "content": "ok"},
    ]
    joined = join_answers(messages)
    assert [m["role"] for m in joined] == ["user", "assistant", "user"]
    assert joined[1]["content"] == "Here.\n\n- a: applied" and joined[1]["raw"] is None
    assert join_answers([{"role": "user", "content": "x"}]) == [{"role": "user", "content": "x"}]
