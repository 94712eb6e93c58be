"""Reading the tool journal for its admin: verify it against the turns' stored hashes, and export it as
OpenTelemetry traces (the ``obsigate journal`` commands; the journal itself is
:mod:`obsigate.domain.storage.tool_journal`).

The export is OTLP/JSON (``ExportTraceServiceRequest``: ``resourceSpans`` → ``scopeSpans`` → ``spans``, ids as
hex strings, times as decimal strings of Unix nanoseconds; opentelemetry-proto ``trace/v1``), one span per call
named ``execute_tool <tool>`` with the GenAI semantic convention's attributes (``gen_ai.operation.name``
``execute_tool``, ``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.tool.type``,
``gen_ai.conversation.id``, ``error.type``) and ``obsigate.*`` for the rest. The trace id is derived from the
conversation (a call without one gets its own trace), the span id from the call id, the parent span from
``parent_call_id``: the same journal always exports the same ids.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from obsigate.domain.storage.atomic import atomic_write
from obsigate.domain.storage.private_files import make_private_dir
from obsigate.domain.storage.tool_journal import ToolJournal, TurnHash, VerifyReport, load_head, load_public_key

__all__ = ["SPANS_PER_FILE", "export_otlp", "load_head", "load_public_key", "otlp_span", "verify_journal"]

#: Spans per exported file (a file is one ``ExportTraceServiceRequest``).
SPANS_PER_FILE = 10_000
_SPAN_KIND_INTERNAL = 1
_STATUS_OK, _STATUS_ERROR = 1, 2


def verify_journal(
    journal: ToolJournal,
    anchors: Iterable[tuple[str, str, int, int, str]] = (),
    *,
    public_key: Ed25519PublicKey | None = None,
    kept_head: dict[str, Any] | None = None,
) -> VerifyReport:
    """:meth:`ToolJournal.verify` with the turns' stored hashes ``anchors`` (``(conversation, turn, rows,
    last_seq, cumulative_hash)``, as ``AgentStore.turn_hashes`` returns them) and ``public_key`` (default: the
    data dir's own key; a copy kept elsewhere, read with :func:`load_public_key`, also catches a key pair
    replaced with the journal) and ``kept_head``, a copy of ``journal.head`` kept elsewhere (:func:`load_head`),
    which finds the journal rolled back, rows, checkpoints and head together, to before it.

    Raises:
        sqlite3.Error: the journal cannot be read.
    """
    heads = [kept_head] if kept_head is not None else []
    return journal.verify([TurnHash(*a) for a in anchors], public_key=public_key, kept_heads=heads)


def _hex_id(text: str, nbytes: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()[: nbytes * 2]


def _nanos(ts: str) -> int:
    return int(datetime.fromisoformat(ts).timestamp() * 1_000_000) * 1000


def _attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    if isinstance(value, list):
        return {"key": key, "value": {"arrayValue": {"values": [{"stringValue": str(v)} for v in value]}}}
    return {"key": key, "value": {"stringValue": str(value)}}


def otlp_span(row: dict[str, Any]) -> dict[str, Any]:
    """One journal row (as :meth:`ToolJournal.record` gives it) as an OTLP/JSON span."""
    end = _nanos(row["ts"])
    start = end - int(float(row["duration_ms"] or 0) * 1_000_000)
    failed = row["outcome"] not in ("ok", "started", "rolled_back")
    attrs: list[dict[str, Any]] = [
        _attr("gen_ai.operation.name", "execute_tool"),
        _attr("gen_ai.tool.name", row["tool"]),
        _attr("gen_ai.tool.call.id", row["call_id"]),
        _attr("gen_ai.tool.type", "function"),
    ]
    if row.get("conversation"):
        attrs.append(_attr("gen_ai.conversation.id", row["conversation"]))
    if failed:
        attrs.append(_attr("error.type", row["outcome"]))
    for key in ("seq", "kind", "user", "auth_kind", "front", "turn", "action", "vault", "proposal", "error_id",
                "outcome", "args_digest", "result_digest", "result_size", "result_file_id", "row_hash", "paths",
                "backups"):  # fmt: skip
        value = row.get(key)
        if value is not None and value != []:
            attrs.append(_attr(f"obsigate.{key}", value))
    attrs.append(_attr("obsigate.args", json.dumps(row.get("args") or {}, ensure_ascii=False, sort_keys=True)))
    span: dict[str, Any] = {
        "traceId": _hex_id(f"conversation:{row['conversation']}" if row.get("conversation") else row["call_id"], 16),
        "spanId": _hex_id(row["call_id"], 8),
        "name": f"execute_tool {row['tool']}",
        "kind": _SPAN_KIND_INTERNAL,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": attrs,
        "status": {"code": _STATUS_ERROR, "message": row["outcome"]} if failed else {"code": _STATUS_OK},
    }
    if row.get("parent_call_id"):
        span["parentSpanId"] = _hex_id(row["parent_call_id"], 8)
    return span


def _request(spans: list[dict[str, Any]], version: str) -> dict[str, Any]:
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [_attr("service.name", "obsigate"), _attr("service.version", version)]},
                "scopeSpans": [{"scope": {"name": "obsigate.tool_journal", "version": "1"}, "spans": spans}],
            }
        ]
    }


def _calls(journal: ToolJournal, since: str | None) -> Iterator[dict[str, Any]]:
    for row in journal.iter_rows():
        if row["kind"] == "intent" or (since and row["ts"] < since):
            continue
        yield ToolJournal.record(row)


def export_otlp(journal: ToolJournal, out: Path, *, since: str | None = None, version: str = "") -> list[Path]:
    """Write the journal's calls and events (not the intent rows: a call's span is its outcome row) at or after
    ``since`` (ISO 8601 UTC) into ``out`` (created 0700) as OTLP/JSON files ``journal-<first seq>-<last seq>.json``
    of up to :data:`SPANS_PER_FILE` spans each; return their paths (``[]``: nothing to export).

    Raises:
        OSError: ``out`` cannot be created or written.
    """
    make_private_dir(out)
    written: list[Path] = []
    batch: list[dict[str, Any]] = []
    first = last = 0

    def flush() -> None:
        path = out / f"journal-{first:09d}-{last:09d}.json"
        atomic_write(path, json.dumps(_request(batch, version), ensure_ascii=False).encode("utf-8"), mode=0o600)
        written.append(path)

    for row in _calls(journal, since):
        if not batch:
            first = row["seq"]
        last = row["seq"]
        batch.append(otlp_span(row))
        if len(batch) >= SPANS_PER_FILE:
            flush()
            batch = []
    if batch:
        flush()
    return written
