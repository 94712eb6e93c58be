"""The registry's other kinds: MCP resources, prompts and completion, declared like tools (one decorated function
each, a Pydantic argument model, a docstring) and run by the same steps (:func:`obsigate.tools.dispatch.
call_operation`: door → parse → permit → run). This package holds the registry of them; its modules
:mod:`.prompts`, :mod:`.resources` and :mod:`.completion` declare them (``tools/api.py`` imports them).

They are not tools: no model is offered them through ``tools/list``; a person picks a prompt or a resource in
the MCP host, and the host asks for completions while they type. Each kind keeps the audit name and action
it always had (``prompts/get`` / ``mcp_prompt_get``, ``resources/read`` / ``mcp_resource_read``,
``completion/complete`` / ``mcp_completion``) and its own answer to an unknown name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_type_hints

from pydantic import BaseModel

from obsigate.services.errors import NotFound, ServiceError
from obsigate.tools.audit import summarize_args

__all__ = ["KINDS", "OPERATIONS", "Kind", "KindInfo", "Operation", "OperationRegistry", "operation"]


class Kind(StrEnum):
    """What an :class:`Operation` is to MCP."""

    RESOURCE = "resource"
    PROMPT = "prompt"
    COMPLETION = "completion"


@dataclass(frozen=True, slots=True)
class KindInfo:
    """How a kind's calls are audited and refused: ``door_name`` and ``action`` (the audit record's ``tool`` and
    ``action``), ``audit(name, raw)`` (what the record keeps of the raw arguments), ``door_args(raw)`` (what
    the door checks for Unicode and reads ``vault`` from; default the raw arguments) and ``unknown(name, raw)``
    (the error for a name no operation of the kind has); ``hint``: the ``invalid_argument`` error's hint."""

    door_name: str
    action: str
    audit: Callable[[str, dict[str, Any]], dict[str, Any]]
    unknown: Callable[[str, dict[str, Any]], ServiceError]
    door_args: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    hint: str = "see prompts/list"


def _prompt_audit(name: str, raw: dict[str, Any]) -> dict[str, Any]:
    # the topic is the user's words: the audit keeps only its length
    kept = {k: f"<{len(v)} chars>" if k == "topic" and isinstance(v, str) else v for k, v in raw.items()}
    return summarize_args({"name": name, **kept})


def _completion_view(raw: dict[str, Any]) -> dict[str, Any]:
    # the typed value and the chosen arguments are never refused (a lone surrogate completes to nothing)
    return {"ref": raw.get("ref"), "argument": raw.get("argument")}


#: Per kind, how its calls go through the door (see :class:`KindInfo`).
KINDS: dict[Kind, KindInfo] = {
    Kind.PROMPT: KindInfo(
        "prompts/get",
        "mcp_prompt_get",
        _prompt_audit,
        lambda name, raw: NotFound(f"no prompt named {name!r}", code="unknown_prompt", hint="see prompts/list"),
    ),
    Kind.RESOURCE: KindInfo(
        "resources/read",
        "mcp_resource_read",
        lambda name, raw: summarize_args({"uri": raw.get("uri")}),
        lambda name, raw: NotFound(
            f"no resource {raw.get('uri')!r}",
            hint="use vault://<vault>, vault://<vault>/<path> or obsigate://files/<file_id>",
        ),
        hint="see resources/templates/list",
    ),
    Kind.COMPLETION: KindInfo(
        "completion/complete",
        "mcp_completion",
        lambda name, raw: summarize_args(_completion_view(raw)),
        lambda name, raw: NotFound(f"no completion {name!r}"),
        door_args=_completion_view,
        hint="see prompts/list or resources/templates/list",
    ),
}


@dataclass(frozen=True, slots=True)
class Operation:
    """One declared operation: ``kind`` and ``name`` (a prompt's name, a resource template, ``complete``),
    ``title`` and ``description`` (the function's docstring, first paragraph: what ``prompts/list`` shows),
    ``args_model`` (validated by ``pipeline.parse``), ``func(ctx, args)`` (sync: run in a worker thread, or
    async) and ``vault_arg``: the argument whose vault ``pipeline.permit`` checks before ``func`` runs
    (``None``: the operation checks none, or resolves its own softly, as completion does)."""

    kind: Kind
    name: str
    title: str
    description: str
    args_model: type[BaseModel]
    func: Callable[..., Any]
    vault_arg: str | None = "vault"


class OperationRegistry:
    """``(kind, name)`` → :class:`Operation`, in declaration order."""

    def __init__(self) -> None:
        self._ops: dict[tuple[Kind, str], Operation] = {}

    def add(self, op: Operation) -> Operation:
        """Register ``op``.

        Raises:
            ValueError: a second operation of the same kind and name.
        """
        if (op.kind, op.name) in self._ops:
            raise ValueError(f"{op.kind} {op.name!r} declared twice")
        self._ops[op.kind, op.name] = op
        return op

    def get(self, kind: Kind, name: str) -> Operation | None:
        return self._ops.get((kind, name))

    def of_kind(self, kind: Kind) -> list[Operation]:
        """Every operation of ``kind``, in declaration order."""
        return [op for (k, _), op in self._ops.items() if k is kind]

    def __iter__(self) -> Iterator[Operation]:
        return iter(self._ops.values())


OPERATIONS = OperationRegistry()


def operation(
    kind: Kind, name: str, *, title: str, vault_arg: str | None = "vault", registry: OperationRegistry | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare an operation: ``fn(ctx, args: ArgsModel)``, its docstring's first paragraph the description.

    Raises:
        TypeError: not ``(ctx, args: BaseModel subclass)``, or no docstring.
        ValueError: see :meth:`OperationRegistry.add`.
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(func).parameters)
        model = get_type_hints(func).get(params[1]) if len(params) == 2 else None
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{kind} {name}: signature must be (ctx, args: a BaseModel subclass)")
        doc = inspect.getdoc(func)
        if not doc:
            raise TypeError(f"{kind} {name}: the docstring is its description and is required")
        description = doc.split("\n\n", 1)[0].replace("\n", " ").strip()
        (registry if registry is not None else OPERATIONS).add(
            Operation(kind, name, title, description, model, func, vault_arg)
        )
        return func

    return decorate
