"""The fronts' own operations, registered like every tool but offered to no model (``scopes=()``): the in-app
assistant's context (``bookslm_context``: the files a conversation starts from), a file's bytes for a
download (``download_file``) and the declared vaults' switches for the admins' settings (``vault_switches``). The fronts run them with ``call_tool(..., front_call=True)``
(:mod:`obsigate.tools.operations`): the door, one validation, one grant check (``permit``) and ``finish`` apply
to them as to any tool; a model naming one is refused as an unknown tool.
"""

from __future__ import annotations

import base64
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, model_validator

from obsigate.services import assistant_context as svc
from obsigate.services.errors import Forbidden
from obsigate.services.files import read_file_bytes
from obsigate.services.redacted_paths import locate
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool

#: Position of this family in the registry (tools/catalog/__init__.py): last, after the model-facing tools.
ORDER = 8

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


class ContextResult(ToolOutput):
    """The collected context (``context``: ``AssistantContext.to_dict`` with contents), redacted by
    ``pipeline.finish`` and never cut to the result budget (the service bounds it to the context's own limits;
    offered to no model as a tool). Audited as ``ai_context`` with the paths of the files read."""

    UNBOUNDED: ClassVar[bool] = True
    AUDIT_ACTION: ClassVar[str] = "ai_context"

    context: dict[str, Any]

    @classmethod
    def audit_paths(cls, data: dict[str, Any]) -> list[str] | None:
        """The audit record's ``paths``: every file the context holds, as redacted (``None``: none)."""
        return [f["path"] for f in data["context"]["files"]] or None


@tool(
    "bookslm_context",
    title="Assistant context",
    scopes=(),
    label=("Contexte de l’assistant rassemblé", "Assistant context gathered"),
)
def bookslm_context(ctx: ToolContext, args: ContextArgs) -> ContextResult:
    """The files the in-app assistant starts a conversation from."""
    vault = ctx.vault  # permitted; ``None`` in general mode without a vault

    def shown(paths: Any) -> Any:  # paths as a reader was shown them: a name holding a secret redacted
        if vault is None or paths is None:
            return paths
        if isinstance(paths, str):
            return locate(ctx.workspace, vault, paths)
        return [locate(ctx.workspace, vault, p) for p in paths]

    collected = svc.collect_context(
        ctx.workspace,
        vault,
        mode=args.mode,
        directory=shown(args.directory),
        files=shown(args.files) or (),
        extra_files=shown(args.extra_files) or (),
        extra_directories=shown(args.extra_directories) or (),
        vaults=ctx.scope,
    )
    return ContextResult(context=collected.to_dict(include_content=True))


class DownloadArgs(ToolArgs):
    """The file to download: ``vault`` and the ``path`` in it, as a reader was shown it."""

    vault: str
    path: str


class DownloadResult(ToolOutput):
    """The file's bytes (``content``, base64, exact: never redacted or cut by ``pipeline.finish``; the service
    bounds them to ``max_read_bytes``) and its ``mime_type``. Offered to no model, so not cut to the budget."""

    UNBOUNDED: ClassVar[bool] = True

    content: str
    mime_type: str

    def exact_fields(self) -> tuple[str, ...]:
        """``content``: exact bytes (a note's are redacted by the service, before encoding)."""
        return ("content",)


@tool(
    "download_file",
    title="Download a file",
    scopes=(),
    label=("Fichier téléchargé : {path}", "File downloaded: {path}"),
)
def download_file(ctx: ToolContext, args: DownloadArgs) -> DownloadResult:
    """The bytes of a file as stored (a note redacted) and its MIME type, for the web app's downloads and viewers."""
    _, data, mime = read_file_bytes(ctx.workspace, ctx.permitted_vault, args.path)
    return DownloadResult(content=base64.b64encode(data).decode("ascii"), mime_type=mime)


class NoArgs(ToolArgs):
    """A tool that takes no arguments."""


class VaultSwitch(BaseModel):
    """One declared vault's switches: ``read_only`` (declared at start) and ``destructive_tools``, the live
    ``aiDestructiveTools`` switch every dangerous tool call checks."""

    name: str
    read_only: bool
    destructive_tools: bool


class VaultSwitches(ToolOutput):
    """Every declared vault's switches, in declaration order."""

    vaults: list[VaultSwitch]


@tool(
    "vault_switches",
    title="Vaults' switches",
    scopes=(),
    label=("Réglages des vaults consultés", "Vault settings viewed"),
)
def vault_switches(ctx: ToolContext, args: NoArgs) -> VaultSwitches:
    """Every declared vault and its switches, whatever the caller's grants: for the admins' settings (no vault content)."""
    if not ctx.principal.is_admin:
        raise Forbidden("only an admin may see the vaults' settings", code="forbidden")
    ws = ctx.workspace
    return VaultSwitches(
        vaults=[
            VaultSwitch(name=n, read_only=v.read_only, destructive_tools=ws.destructive.get(n, True))
            for n, v in ws.vaults.items()
        ]
    )
