"""Every REST route that only runs one tool, built from the tool's own declaration (``@tool(..., rest=Rest(...))``).

:func:`rows` makes each declared :class:`~obsigate.tools.registry.Rest` a :class:`Route`: ``{vault}`` in the path is
the ``vault`` argument; a GET or DELETE route takes the other arguments as query parameters made from the argument
model (type, bounds, description; a nested group such as search_advanced's ``created`` becomes flat
``created_after``/``created_before``), a POST or PATCH route as a JSON object (the path's ``vault`` wins). A
parameter the client did not send (``None``) is left out, so the tool applies its own default. Every route answers
the tool's result as JSON, every failure with the JSON error shape (``api/render.py``); a write tool's route runs as
the caller's own confirmed action after the cross-site checks (``routes_write.confirmed_context``). The OpenAPI tag
is the declaration's, else the catalogue module's name. Routes that do more than run one tool are written by hand
(``routes_files.py``, ``routes_graph.py``, ``routes_write.py``...; ``tests/api/test_route_table.py`` lists them).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, get_args

from fastapi import APIRouter, Body, Depends, Query
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from obsigate.api.deps import get_tool_context
from obsigate.api.render import run_tool
from obsigate.api.routes_write import ARGS, confirmed_context
from obsigate.tools.api import REGISTRY, Risk, ToolContext, ToolSpec

REQUIRED = ...  # a query parameter's default when the client must send it
_BOUNDS = ("gt", "ge", "lt", "le", "min_length", "max_length")  # what a field's metadata may constrain


@dataclass(frozen=True)
class Param:
    """One query parameter: ``name``, type, default (:data:`REQUIRED`: none), ``description``, ``into`` (the
    ``"group.key"`` of a nested argument) and ``bounds`` (``Query`` keywords: ``ge``, ``max_length``...)."""

    name: str
    type: Any = str
    default: Any = None
    description: str | None = None
    into: str | None = None
    bounds: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Route:
    """One route that runs ``tool``; see the module docstring for where the arguments come from."""

    method: str
    path: str  # under /api
    tool: str
    summary: str  # OpenAPI's summary, shown in /docs
    query: tuple[Param, ...] = ()
    body: str | None = None  # the JSON body's description; None: the route takes no body
    write: bool = False
    name: str | None = None  # the endpoint's name, from which OpenAPI's operationId is made; default: the tool's

    @property
    def endpoint_name(self) -> str:
        return self.name or self.tool

    @property
    def takes_vault(self) -> bool:
        """Whether the path names the vault (``{vault}``), passed to the tool as its ``vault`` argument."""
        return "{vault}" in self.path


def query_params(spec: ToolSpec, defaults: dict[str, Any], *, skip_vault: bool) -> tuple[Param, ...]:
    """The query parameters of ``spec``'s arguments, in the model's order, typed and bounded as its fields:
    required where the tool requires them (unless the route gives a default), else ``None`` (left out); a nested
    model's fields as ``<group>_<key>`` parameters (described by the field, else by the group)."""
    params = []
    for name, info in spec.args_model.model_fields.items():
        group = _group(info.annotation)
        if group is not None:
            params += [_param(f"{name}_{k}", f, None, f.description or info.description, f"{name}.{k}")
                       for k, f in group.model_fields.items()]  # fmt: skip
        elif not (name == "vault" and skip_vault):
            default = defaults.get(name, REQUIRED if info.is_required() else None)
            params.append(_param(name, info, default, info.description))
    return tuple(params)


def _group(annotation: Any) -> type[BaseModel] | None:
    """The model of an argument that groups others (``TimeRange | None``), else ``None``."""
    kinds = get_args(annotation) or (annotation,)
    return next((t for t in kinds if isinstance(t, type) and issubclass(t, BaseModel)), None)


def _param(name: str, info: FieldInfo, default: Any, description: str | None, into: str | None = None) -> Param:
    bounds = {key: getattr(m, key) for m in info.metadata for key in _BOUNDS if getattr(m, key, None) is not None}
    annotation: Any = info.annotation
    kind = annotation if default is not None else annotation | None  # optional: may be left out
    return Param(name, kind, default, description, into, bounds)


def rows(specs: Iterable[ToolSpec]) -> dict[str, tuple[Route, ...]]:
    """OpenAPI tag → the routes the tools of ``specs`` declare, in registration order."""
    table: dict[str, list[Route]] = {}
    for spec in specs:
        for rest in spec.rest:
            write = spec.risk is not Risk.READ
            tag = rest.tag or spec.func.__module__.rsplit(".", 1)[-1]
            query = (
                query_params(spec, dict(rest.defaults), skip_vault="{vault}" in rest.path) if rest.takes_query else ()
            )
            body = None if rest.takes_query else ARGS if write else f"{spec.name} arguments"
            route = Route(rest.method, rest.path, spec.name, rest.summary, query, body, write, rest.name)
            table.setdefault(tag, []).append(route)
    return {tag: tuple(routes) for tag, routes in table.items()}


ROUTES = rows(REGISTRY.declared())


def tool_arguments(row: Route, values: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments from one request's ``values`` (by parameter name: ``vault``, ``body`` and the
    query parameters): the body first, then the query parameters, nested where ``into`` says, then the path's
    ``vault``. A nested group none of whose parameters was sent is left out."""
    args: dict[str, Any] = dict(values.get("body") or {})
    for param in row.query:
        value = values[param.name]
        if param.into is None:
            args[param.name] = value
        elif value is not None:
            group, key = param.into.split(".")
            args.setdefault(group, {})[key] = value
    if row.takes_vault:
        args["vault"] = values["vault"]
    return args


def _endpoint(row: Route) -> Any:
    """An async endpoint for ``row`` whose signature FastAPI reads as real parameters (so /docs lists them)."""

    async def endpoint(**values: Any) -> dict[str, Any]:
        return await run_tool(values["ctx"], row.tool, tool_arguments(row, values))

    keyword = inspect.Parameter.KEYWORD_ONLY
    context = confirmed_context if row.write else get_tool_context
    params = [inspect.Parameter("ctx", keyword, annotation=Annotated[ToolContext, Depends(context)])]
    if row.takes_vault:
        params.append(inspect.Parameter("vault", keyword, annotation=str))
    for p in row.query:
        default = inspect.Parameter.empty if p.default is REQUIRED else p.default
        annotation = Annotated[p.type, Query(description=p.description, **p.bounds)]  # type: ignore[name-defined]  # a run-time type
        params.append(inspect.Parameter(p.name, keyword, default=default, annotation=annotation))
    if row.body is not None:
        body = Annotated[dict[str, Any], Body(description=row.body)]
        params.append(inspect.Parameter("body", keyword, annotation=body))
    endpoint.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    endpoint.__name__ = endpoint.__qualname__ = row.endpoint_name
    return endpoint


def build_router(table: dict[str, tuple[Route, ...]] = ROUTES) -> APIRouter:
    """An ``/api`` router with one route per row of ``table``, tagged with its group, in the table's order."""
    router = APIRouter(prefix="/api")
    for tag, routes in table.items():
        for row in routes:
            endpoint = _endpoint(row)
            router.add_api_route(
                row.path, endpoint, methods=[row.method], name=row.endpoint_name, summary=row.summary, tags=[tag]
            )
    return router


router = build_router()
