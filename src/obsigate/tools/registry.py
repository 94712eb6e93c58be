"""The tool registry: one declaration per tool, read by every front (REST, MCP, the in-app agent).

A tool is a function ``fn(ctx: ToolContext, args: ArgsModel) -> ResultModel`` decorated with :func:`tool`.
Its docstring is the one description a model reads; the Pydantic models give the JSON Schemas
(``inputSchema``/``outputSchema`` in MCP terms); ``risk`` drives confirmation and MCP annotations.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict

TOOL_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


class Risk(StrEnum):
    """How much a tool can change: ``read`` runs directly; ``write`` and ``dangerous`` need confirmation."""

    READ = "read"
    WRITE = "write"
    DANGEROUS = "dangerous"


class Scope(StrEnum):
    """Which fronts may offer a tool to a model: the in-app assistant and/or MCP clients."""

    IN_APP = "in_app"
    MCP = "mcp"


class ToolArgs(BaseModel):
    """Base of every argument model: unknown arguments are errors, strings are stripped of nothing."""

    model_config = ConfigDict(extra="forbid")


class ToolOutput(BaseModel):
    """Base of every result model. ``truncated`` is true when anything was cut (page end or size budget);
    ``notice`` says what was cut and how to get the rest."""

    truncated: bool = False
    notice: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    """One registered tool. ``func`` is sync (run in a worker thread) or async."""

    name: str
    title: str
    description: str
    risk: Risk
    scopes: frozenset[Scope]
    args_model: type[ToolArgs]
    result_model: type[ToolOutput]
    func: Callable[..., Any]
    idempotent: bool = True
    is_async: bool = field(default=False)

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema (2020-12) of the arguments; root is always ``type: object``."""
        schema = self.args_model.model_json_schema()
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        schema.pop("title", None)
        return schema

    @cached_property
    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the structured result."""
        schema = self.result_model.model_json_schema()
        schema.pop("title", None)
        return schema

    @property
    def annotations(self) -> dict[str, bool]:
        """MCP ``ToolAnnotations`` hints (MCP spec 2025-06-18+, ``schema.ts`` ToolAnnotations).

        Vault tools never reach outside the server, so ``openWorldHint`` is false.
        """
        return {
            "readOnlyHint": self.risk is Risk.READ,
            "destructiveHint": self.risk is Risk.DANGEROUS,
            "idempotentHint": self.idempotent,
            "openWorldHint": False,
        }


class ToolRegistry:
    """Name → :class:`ToolSpec`, in registration order."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}

    def add(self, spec: ToolSpec) -> ToolSpec:
        """Register ``spec``. Raises ValueError on a duplicate or an invalid name (MCP: 1–128 of [A-Za-z0-9_.-])."""
        if spec.name in self._tools:
            raise ValueError(f"tool {spec.name!r} registered twice")
        if not 1 <= len(spec.name) <= 128 or set(spec.name) - TOOL_NAME_CHARS:
            raise ValueError(f"invalid tool name {spec.name!r}")
        self._tools[spec.name] = spec
        return spec

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    def for_scope(self, scope: Scope) -> list[ToolSpec]:
        """Tools offered on ``scope``, in registration order."""
        return [t for t in self._tools.values() if scope in t.scopes]

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


REGISTRY = ToolRegistry()


def tool(
    name: str,
    *,
    title: str,
    risk: Risk = Risk.READ,
    scopes: Iterable[Scope] = (Scope.IN_APP, Scope.MCP),
    idempotent: bool = True,
    registry: ToolRegistry | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a tool. The function's docstring becomes its description; its annotations give the models.

    Raises:
        TypeError: the function is not ``(ctx, args: ToolArgs subclass) -> ToolOutput subclass`` or has no docstring.
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        hints = get_type_hints(func)
        params = list(inspect.signature(func).parameters)
        if len(params) != 2:
            raise TypeError(f"tool {name}: signature must be (ctx, args)")
        args_model, result_model = hints.get(params[1]), hints.get("return")
        if not (isinstance(args_model, type) and issubclass(args_model, ToolArgs)):
            raise TypeError(f"tool {name}: args must be annotated with a ToolArgs subclass")
        if not (isinstance(result_model, type) and issubclass(result_model, ToolOutput)):
            raise TypeError(f"tool {name}: return must be annotated with a ToolOutput subclass")
        doc = inspect.getdoc(func)
        if not doc:
            raise TypeError(f"tool {name}: the docstring is the model-facing description and is required")
        (registry if registry is not None else REGISTRY).add(
            ToolSpec(
                name=name,
                title=title,
                description=doc,
                risk=risk,
                scopes=frozenset(scopes),
                args_model=args_model,
                result_model=result_model,
                func=func,
                idempotent=idempotent,
                is_async=inspect.iscoroutinefunction(func),
            )
        )
        return func

    return decorate
