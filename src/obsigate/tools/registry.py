"""The tool registry: one declaration per tool, read by every front (REST, MCP, the in-app agent).

A tool is a function ``fn(ctx: ToolContext, args: ArgsModel) -> ResultModel`` decorated with :func:`tool`.
Its docstring is the one description a model reads; the Pydantic models give the JSON Schemas
(``inputSchema``/``outputSchema`` in MCP terms); ``risk`` drives confirmation and MCP annotations.

The declaration also carries what the other fronts show of the tool: its step ``label`` in the assistant's
steps list (French, English) and its ``rest`` route(s) (:class:`Rest`: ``api/routes.py`` builds each route
from it, query parameters from the argument model).

A ``write`` or ``dangerous`` tool declared with a ``planner`` gets two derived tools, registered with it
(issue 4 item 4, ``security.md`` §4.2): ``propose_<name>`` (same arguments; runs the planner, changes
nothing, returns the planned change and a ``confirmation_token``) and ``apply_<name>`` (the token only; runs
the tool). ``call_tool`` runs both (:mod:`obsigate.tools.dispatch`); the model-facing fronts list them
instead of the raw tool (:func:`~obsigate.tools.dispatch.visible_tools`).
"""

from __future__ import annotations

import inspect
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field

from obsigate.services.changes import FileChange
from obsigate.services.results import Result
from obsigate.tools.schemas import lean_schema

TOOL_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
PROPOSE_PREFIX = "propose_"
APPLY_PREFIX = "apply_"
#: Result fields that are credentials: never put them in an LLM prompt of the in-app agent, never log them
#: (``tools.confirm.flow.strip_secret_fields``); their output-schema property carries ``"x-obsigate-secret": true``.
SECRET_RESULT_FIELDS = frozenset({"confirmation_token"})
#: The placeholders a step label may use (``agent/labels.step_label`` fills them): ``{path}`` the call's path
#: (``source_path`` for a move, ``dir`` for a listing), ``{q}`` its query, ``{pattern}`` replace_in_files' ``find``,
#: ``{url}`` its URL (fetch_url).
LABEL_FIELDS = frozenset({"path", "q", "pattern", "url"})
#: The HTTP methods a tool's route may use; a read tool's route is a GET or a POST (arguments as a JSON body).
REST_METHODS = frozenset({"GET", "POST", "PATCH", "DELETE"})


class Risk(StrEnum):
    """How much a tool can change: ``read`` runs directly; ``write`` and ``dangerous`` need confirmation."""

    READ = "read"
    WRITE = "write"
    DANGEROUS = "dangerous"


class Scope(StrEnum):
    """Which fronts may offer a tool to a model: the in-app assistant and/or MCP clients."""

    IN_APP = "in_app"
    MCP = "mcp"


class ToolKind(StrEnum):
    """A declared tool, or one of the two steps derived from a tool with a planner."""

    TOOL = "tool"
    PROPOSE = "propose"
    APPLY = "apply"


class ToolArgs(BaseModel):
    """Base of every argument model: unknown arguments are errors, strings are stripped of nothing, and types
    are strict (JSON types as the input schema says: ``"5"`` or ``true`` for an integer, ``"false"`` for a
    boolean, ``5`` for a string are ``invalid_argument``, never converted; an integer is accepted for a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    def service_args(self) -> dict[str, Any]:
        """The arguments as a service takes them, by name: every field but ``vault`` (the tool layer resolved it
        into ``ctx.vault``/``ctx.scope``), nested models as plain dicts."""
        return self.model_dump(exclude={"vault"})


#: Base of every result model: a service's typed result (``services.results.Result``), passed through unchanged.
ToolOutput = Result


class ConfirmArgs(ToolArgs):
    """Arguments of every ``apply_<name>`` tool."""

    confirmation_token: str = Field(
        min_length=1,
        max_length=8192,
        description="From the propose_ result, unchanged.",
    )


class ProposalResult(ToolOutput):
    """What every ``propose_<name>`` returns: the planned :class:`~obsigate.services.changes.Change` (``diffs``:
    its changes with their unified diffs) and the token; ``result``: the ``apply_`` result once applied
    inline (its schema is ``apply_<name>``'s output schema, not repeated here: it would cost every client
    the write tools' result schemas twice)."""

    status: Literal["proposed", "applied", "declined"] = Field(
        default="proposed",
        description="proposed: nothing changed, apply with the token; applied: the user confirmed inline and the "
        "change is done (see result); declined: the user refused it inline, nothing changed.",
    )
    tool: str = Field(description="The tool the proposal is for.")
    vault: str | None = Field(default=None, description="The vault it changes.")
    summary: str = Field(description="One sentence saying what the change does.")
    diffs: list[FileChange] = Field(default_factory=list, description="Per file: path, action, unified diff.")
    details: dict[str, Any] = Field(default_factory=dict, description="Tool-specific facts about the change.")
    confirmation_token: str | None = Field(
        default=None,
        description="Single-use token for the matching apply_ tool, bound to you, these arguments and the files "
        "as read now. Pass it unchanged; null once applied or declined.",
        json_schema_extra={"x-obsigate-secret": True},
    )
    expires_at: str | None = Field(default=None, description="When the token expires (ISO 8601, UTC).")
    expires_in: int | None = Field(default=None, description="Seconds until the token expires.")
    result: dict[str, Any] | None = Field(default=None, description="Once applied: the apply_ result.")


@dataclass(frozen=True)
class Rest:
    """A REST route that runs the tool: ``method`` and ``path`` under ``/api`` (``{vault}`` in it is the tool's
    ``vault`` argument), OpenAPI's ``summary`` and ``tag`` (default: the catalogue module's name), ``name`` (the
    endpoint's name, from which the operationId is made; default: the tool's). A GET or DELETE route takes the
    other arguments as query parameters derived from the argument model; a POST or PATCH route as a JSON body.
    ``defaults``: a REST-only default for an argument the tool requires (``GET /api/search`` without ``q``
    searches ``""``), so the parameter may be left out of a URL."""

    method: str
    path: str
    summary: str
    name: str | None = None
    tag: str | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def takes_query(self) -> bool:
        """Whether the arguments come as query parameters (GET, DELETE) rather than a JSON body."""
        return self.method in ("GET", "DELETE")


def _not_called_directly(ctx: Any, args: Any) -> Any:  # pragma: no cover - call_tool dispatches derived kinds
    raise RuntimeError("propose_/apply_ tools are run by call_tool")


@dataclass(frozen=True)
class ToolSpec:
    """One registered tool. ``func`` is sync (run in a worker thread) or async.

    ``planner`` (write/dangerous tools): ``(ctx, args) -> services.changes.Change``, computing the change
    without making it; ``rebased``: its apply does not check the files its proposal read (the write commutes with
    any other: an append lands after whatever was written meanwhile). ``label``: the step label, (French,
    English), with :data:`LABEL_FIELDS` placeholders; ``rest``: its REST routes. ``kind``/``origin``: a derived
    ``propose_``/``apply_`` spec and the tool it derives from (neither has a label or a route of its own).
    ``available``: ``(ToolRuntime) -> bool``, whether the server is set up for the tool (web_search without a
    search engine is not); ``None``: always. An unavailable tool is offered to no model.
    ``own_space``: a ``read``-risk tool that writes only the caller's own space (``<data-dir>/users/<user>/``,
    never a vault: the assistant's plans): it runs directly like a read, but its MCP annotations do not claim
    it is read-only.
    """

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
    planner: Callable[..., Any] | None = None
    rebased: bool = False
    label: tuple[str, str] | None = None
    rest: tuple[Rest, ...] = ()
    kind: ToolKind = ToolKind.TOOL
    origin: ToolSpec | None = None
    available: Callable[[Any], bool] | None = None
    own_space: bool = False

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema (2020-12) of the arguments, cleaned by :func:`~obsigate.tools.schemas.lean_schema`;
        root is always ``type: object``."""
        schema = lean_schema(self.args_model.model_json_schema())
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        return schema

    @cached_property
    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the structured result: structure and types only (no descriptions or defaults)."""
        return lean_schema(self.result_model.model_json_schema(), output=True)

    @property
    def takes_vault(self) -> bool:
        """Whether the tool works on a named vault (for ``apply_``: whether the proposed tool does)."""
        model = self.origin.args_model if self.origin is not None else self.args_model
        return "vault" in model.model_fields

    @property
    def annotations(self) -> dict[str, bool]:
        """MCP ``ToolAnnotations`` hints (MCP spec 2025-06-18+, ``schema.ts`` ToolAnnotations).

        Vault tools never reach outside the server, so ``openWorldHint`` is false. A ``propose_`` tool changes
        nothing in its environment (the vault): ``readOnlyHint: true``, so hosts may run it without asking, and
        the host's approval prompt lands on ``apply_``, where the change happens (``readOnlyHint: false``,
        ``destructiveHint`` from the tool's risk). Neither is idempotent: each proposal mints a new token and
        each token applies once.
        """
        if self.kind is ToolKind.PROPOSE:
            return {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False}
        return {
            "readOnlyHint": self.risk is Risk.READ and self.kind is ToolKind.TOOL and not self.own_space,
            "destructiveHint": self.risk is Risk.DANGEROUS,
            "idempotentHint": self.idempotent and self.kind is ToolKind.TOOL,
            "openWorldHint": False,
        }


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0].strip()


def derive_confirmation_specs(base: ToolSpec) -> tuple[ToolSpec, ToolSpec]:
    """The ``propose_<name>`` and ``apply_<name>`` specs of a tool with a planner.

    ``propose_``: ``base``'s arguments, risk ``read`` (it changes nothing), result :class:`ProposalResult`.
    ``apply_``: :class:`ConfirmArgs`, ``base``'s risk and result model. Both keep ``base``'s scopes.
    """
    propose = ToolSpec(
        name=f"{PROPOSE_PREFIX}{base.name}",
        title=f"Propose: {base.title}",
        description=(
            f"{base.description}\n\nThis changes NOTHING; {APPLY_PREFIX}{base.name} applies its "
            f"confirmation_token once the user agrees."
        ),
        risk=Risk.READ,
        scopes=base.scopes,
        args_model=base.args_model,
        result_model=ProposalResult,
        func=_not_called_directly,
        idempotent=False,
        kind=ToolKind.PROPOSE,
        origin=base,
    )
    apply = ToolSpec(
        name=f"{APPLY_PREFIX}{base.name}",
        title=f"Apply: {base.title}",
        description=f"Apply the {PROPOSE_PREFIX}{base.name} the user agreed to (token single-use; conflict: "
        f"propose again).",
        risk=base.risk,
        scopes=base.scopes,
        args_model=ConfirmArgs,
        result_model=base.result_model,
        func=_not_called_directly,
        idempotent=False,
        kind=ToolKind.APPLY,
        origin=base,
    )
    return propose, apply


class ToolRegistry:
    """Name → :class:`ToolSpec`, in registration order."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}

    def add(self, spec: ToolSpec) -> ToolSpec:
        """Register ``spec`` and, when it has a planner, its ``propose_``/``apply_`` pair right after it.

        Raises:
            ValueError: a duplicate name (the derived ones included), an invalid name (MCP: 1–128 of
                ``[A-Za-z0-9_.-]``), a planner on a ``read`` tool or on a tool without a ``vault`` argument,
                a result model with ``UNBOUNDED`` (never cut to the result budget) on a tool offered to a
                model, or a derived spec passed in directly (register its tool instead).
        """
        if spec.kind is not ToolKind.TOOL:
            raise ValueError(
                f"{spec.name!r} is derived from {spec.origin.name if spec.origin else '?'!r}; register that tool"
            )
        if getattr(spec.result_model, "UNBOUNDED", False) and spec.scopes:
            raise ValueError(
                f"tool {spec.name!r}: an unbounded result is only for tools offered to no model (scopes=())"
            )
        specs = [spec]
        if spec.planner is not None:
            if spec.risk is Risk.READ:
                raise ValueError(f"tool {spec.name!r}: a planner only makes sense on a write or dangerous tool")
            if "vault" not in spec.args_model.model_fields:
                raise ValueError(f"tool {spec.name!r}: a tool with a planner must take a `vault` argument")
            specs.extend(derive_confirmation_specs(spec))
        for s in specs:
            if s.name in self._tools:
                raise ValueError(f"tool {s.name!r} registered twice")
            if not 1 <= len(s.name) <= 128 or set(s.name) - TOOL_NAME_CHARS:
                raise ValueError(f"invalid tool name {s.name!r}")
        for s in specs:
            self._tools[s.name] = s
        return spec

    def order_by(self, rank: Callable[[ToolSpec], int]) -> None:
        """Reorder the tools by ``rank`` (ascending), keeping registration order between equal ranks."""
        self._tools = dict(sorted(self._tools.items(), key=lambda item: rank(item[1])))

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    def for_scope(self, scope: Scope) -> list[ToolSpec]:
        """Tools offered on ``scope``, in registration order."""
        return [t for t in self._tools.values() if scope in t.scopes]

    def declared(self) -> list[ToolSpec]:
        """The declared tools only (no derived ``propose_``/``apply_``): what to ``add`` to another registry."""
        return [t for t in self._tools.values() if t.kind is ToolKind.TOOL]

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
    idempotent: bool | None = None,
    planner: Callable[..., Any] | None = None,
    rebased: bool = False,
    label: tuple[str, str] | None = None,
    rest: Rest | Iterable[Rest] = (),
    registry: ToolRegistry | None = None,
    available: Callable[[Any], bool] | None = None,
    own_space: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a tool. The function's docstring becomes its description; its annotations give the models.

    Args:
        risk: ``read`` (runs directly), ``write`` or ``dangerous`` (needs a confirmation: ``ctx.confirmed``).
        idempotent: the MCP ``idempotentHint``; default true for ``read`` tools, false otherwise.
        planner: for ``write``/``dangerous`` tools, ``planner(ctx, args) -> services.changes.Change`` (same
            ``args`` model as the tool, sync or async) that changes nothing. Registers ``propose_<name>`` and
            ``apply_<name>`` with the tool. The tool itself then runs with ``ctx.confirmed=True`` and, when
            reached through ``apply_<name>``, ``ctx.expected_reads`` = the proposal's ``reads``: it must refuse
            (``services.errors.Conflict``) if any of those files changed, and write nothing, unless ``rebased``.
        rebased: the write commutes with any other, so its apply is not checked against its proposal's reads.
        label: the assistant's step label, ``(French, English)``; placeholders from :data:`LABEL_FIELDS`.
        rest: the tool's REST route, or several (see :class:`Rest`).
        available: ``(ToolRuntime) -> bool``: whether the server is configured for the tool (see :class:`ToolSpec`).
        own_space: a ``read`` tool that writes the caller's own space only (see :class:`ToolSpec`).

    Raises:
        TypeError: the function is not ``(ctx, args: ToolArgs subclass) -> ToolOutput subclass``, has no
            docstring, or ``planner`` is not ``(ctx, args)``.
        ValueError: a label that is not two texts or uses another placeholder; a route with another method, a
            path placeholder other than ``{vault}`` (or ``{vault}`` on a tool without that argument), a
            default for an argument the tool does not take, a write tool on GET; ``rebased`` without a planner;
            see also :meth:`ToolRegistry.add`.
    """
    routes = (rest,) if isinstance(rest, Rest) else tuple(rest)

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
        if planner is not None and len(inspect.signature(planner).parameters) != 2:
            raise TypeError(f"tool {name}: planner signature must be (ctx, args)")
        if own_space and risk is not Risk.READ:
            raise ValueError(f"tool {name}: own_space is for read-risk tools (they run without a confirmation)")
        if rebased and planner is None:
            raise ValueError(f"tool {name}: only a tool with a planner can be rebased")
        _check_label(name, label)
        for route in routes:
            _check_route(name, route, risk, args_model)
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
                idempotent=(risk is Risk.READ) if idempotent is None else idempotent,
                is_async=inspect.iscoroutinefunction(func),
                planner=planner,
                rebased=rebased,
                label=label,
                rest=routes,
                available=available,
                own_space=own_space,
            )
        )
        return func

    return decorate


def _check_label(name: str, label: tuple[str, str] | None) -> None:
    if label is None:
        return
    if not (isinstance(label, tuple) and len(label) == 2 and all(isinstance(t, str) and t for t in label)):
        raise ValueError(f"tool {name}: label must be (French, English)")
    used = {field for text in label for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    if used - LABEL_FIELDS:
        raise ValueError(
            f"tool {name}: label placeholders {sorted(used - LABEL_FIELDS)} are not {sorted(LABEL_FIELDS)}"
        )


def _check_route(name: str, route: Rest, risk: Risk, args_model: type[ToolArgs]) -> None:
    fields = args_model.model_fields
    if route.method not in REST_METHODS or (route.method == "GET" and risk is not Risk.READ):
        raise ValueError(f"tool {name}: {route.method} {route.path} is not a route for a {risk} tool")
    placeholders = {f for _, f, _, _ in string.Formatter().parse(route.path) if f is not None}
    if not route.path.startswith("/") or placeholders - {"vault"} or ("vault" in placeholders) > ("vault" in fields):
        raise ValueError(f"tool {name}: {route.path} may only name {{vault}}, an argument of the tool")
    if set(route.defaults) - set(fields):
        raise ValueError(f"tool {name}: {route.path} gives defaults to arguments the tool does not take")
