"""The in-app assistant's context (BooksLM) as a tool-layer entry point: not a model tool, but like every call
into the vaults it goes through the one door (one rate-limit hit and one audit record, ``action`` ``ai_context``,
per collection, however many files it reads), one validation of its arguments and one vault-grant check
(:func:`~obsigate.tools.pipeline.permit`); the service (:mod:`obsigate.services.assistant_context`) then reads
the permitted vault in a worker thread.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

import anyio
from pydantic import Field, model_validator

from obsigate.domain.redaction import redact_payload
from obsigate.services import assistant_context as svc
from obsigate.services.redacted_paths import locate
from obsigate.tools.context import ToolContext
from obsigate.tools.door import door
from obsigate.tools.pipeline import parse, permit
from obsigate.tools.registry import Risk, Scope, ToolArgs, ToolOutput, ToolSpec

__all__ = ["MAX_NAMED_DIRECTORIES", "MAX_NAMED_FILES", "ContextArgs", "collect_context"]

MAX_NAMED_FILES = 500  # per list; well above the 200-file cap, far below a request that only costs
MAX_NAMED_DIRECTORIES = 50

_File = Annotated[str, Field(min_length=1, max_length=1024)]
_Folder = Annotated[str, Field(max_length=1024)]  # "" is the vault root


class ContextArgs(ToolArgs):
    """The arguments of one collection, strict (unknown fields and wrong JSON types are ``invalid_argument``).

    ``directory`` mode needs ``vault`` (``directory`` defaults to its root); ``files`` mode needs ``vault``
    and a non-empty ``files``; ``general`` mode takes neither ``directory`` nor ``files``. ``extra_files`` and
    ``extra_directories`` (the ``@``-mentions) join any mode and are paths in ``vault``."""

    mode: Literal["directory", "files", "general"]
    vault: str | None = Field(default=None, min_length=1, max_length=64)
    directory: str | None = Field(default=None, max_length=1024)
    files: list[_File] | None = Field(default=None, max_length=MAX_NAMED_FILES)
    extra_files: list[_File] | None = Field(default=None, max_length=MAX_NAMED_FILES)
    extra_directories: list[_Folder] | None = Field(default=None, max_length=MAX_NAMED_DIRECTORIES)

    @model_validator(mode="after")
    def _per_mode(self) -> ContextArgs:
        if self.mode != "general" and self.vault is None:
            raise ValueError(f"{self.mode} mode needs a vault")
        if self.mode == "files" and not self.files:
            raise ValueError("files mode needs a non-empty 'files' list")
        if self.mode != "files" and self.files:
            raise ValueError("'files' is for files mode; use extra_files to add files to another mode")
        if self.mode != "directory" and self.directory is not None:
            raise ValueError("'directory' is for directory mode; use extra_directories to add a folder")
        if self.vault is None and (self.extra_files or self.extra_directories):
            raise ValueError("extra_files and extra_directories need a vault")
        return self


def _not_a_model_tool(ctx: Any, args: Any) -> Any:  # pragma: no cover - the spec only describes the call
    raise RuntimeError("bookslm_context is run by tools.assistant_context.collect_context")


#: What ``permit`` needs to know of this call: it only reads (no ``aiDestructiveTools`` switch applies). It
#: is not registered: no front offers it to a model.
_SPEC = ToolSpec(
    name="bookslm_context",
    title="Assistant context",
    description="The files the in-app assistant starts a conversation from.",
    risk=Risk.READ,
    scopes=frozenset({Scope.IN_APP}),
    args_model=ContextArgs,
    result_model=ToolOutput,
    func=_not_a_model_tool,
)


async def collect_context(
    ctx: ToolContext,
    *,
    mode: Any,
    vault: Any = None,
    directory: Any = None,
    files: Any = None,
    extra_files: Any = None,
    extra_directories: Any = None,
    include_content: bool = True,
) -> dict[str, Any]:
    """Collect the assistant's context for ``ctx``'s caller (arguments as :class:`ContextArgs`; ``None``:
    not given), audited as ``bookslm_context``.

    Returns:
        ``services.assistant_context.AssistantContext.to_dict``: ``{"mode", "vault", "directory", "tree",
        "vaults", "files": [{"path", "chars", "full_chars", "truncated", "content"?}], "skipped": [{"path",
        "reason"}], "skipped_more", "total_chars", "truncated", "limits"}``, redacted; ``content`` only with
        ``include_content``. ``vaults``: the vaults the caller may use in ``general`` mode without a vault,
        else the named one.

    Raises:
        ServiceError: ``invalid_argument`` (bad arguments, a bad path), ``vault_access_denied``,
            ``not_found`` (the vault, ``directory``), ``path_outside_vault`` (a path leaving the vault or naming
            a hidden entry), ``rate_limited``; anything unexpected as ``internal_error``.
    """
    given = {
        "mode": mode, "vault": vault, "directory": directory, "files": files,
        "extra_files": extra_files, "extra_directories": extra_directories,
    }  # fmt: skip
    args = {k: v for k, v in given.items() if v is not None}
    async with door(ctx, _SPEC.name, args, action="ai_context") as call:
        parsed = cast(ContextArgs, parse(ContextArgs, args))
        granted = permit(ctx, _SPEC, parsed.vault)  # the one grant check; extra_* paths are in this vault

        def run() -> svc.AssistantContext:
            def shown(paths: Any) -> Any:  # paths as a reader was shown them: a name holding a secret redacted
                if granted.vault is None or paths is None:
                    return paths
                if isinstance(paths, str):
                    return locate(ctx.workspace, granted.vault, paths)
                return [locate(ctx.workspace, granted.vault, p) for p in paths]

            return svc.collect_context(
                ctx.workspace,
                granted.vault,
                mode=parsed.mode,
                directory=shown(parsed.directory),
                files=shown(parsed.files) or (),
                extra_files=shown(parsed.extra_files) or (),
                extra_directories=shown(parsed.extra_directories) or (),
                vaults=granted.scope,
            )

        collected = await anyio.to_thread.run_sync(run)
        data = redact_payload(collected.to_dict(include_content=include_content))  # as finish does for a tool
        call.paths = [f["path"] for f in data["files"]] or None
        return data
