"""Every REST route that only runs one tool, as one table; :func:`build_router` turns the rows into routes.

A row says the HTTP method, the path under ``/api``, the tool it runs and where the tool's arguments come
from: ``{vault}`` in the path is the ``vault`` argument; ``query`` lists the query parameters (name, type,
default, description), each passed under its own name, or ``into="group.key"`` to nest it (two flat
``created_after``/``created_before`` parameters → ``{"created": {"after", "before"}}``); ``body`` takes a JSON
object of the tool's arguments (the path's ``vault`` wins over the body's). Parameters the client did not
send (``None``) are left out, so the tool applies its own defaults. Every route answers with the tool's
result as JSON and every failure with the JSON error shape (``api/render.py``). A ``write`` row runs as the
caller's own confirmed action after the cross-site checks (``routes_write.confirmed_context``).

The routes that do more than run one tool are written by hand, each short:
``GET /api/health`` (``app.py``), ``/api/auth/login`` and ``/api/auth/me`` (``routes_auth.py``),
``GET /api/file/{vault}/raw`` (the bytes, ``routes_files.py``), ``GET /api/graph/{vault}/export`` (the
whole graph with an ETag, ``routes_graph.py``), ``POST /api/file/{vault}/save``
(the editor's version check, ``routes_write.py``) and ``POST /api/ai/bookslm/context`` (the assistant's
context, ``routes_assistant_context.py``).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query

from obsigate.api.deps import get_tool_context
from obsigate.api.render import run_tool
from obsigate.api.routes_write import ARGS, confirmed_context
from obsigate.tools.api import ToolContext

REQUIRED = ...  # a query parameter's default when the client must send it


@dataclass(frozen=True)
class Param:
    """One query parameter: ``name``, its type, its default (:data:`REQUIRED`: none), and ``into``, the
    ``"group.key"`` it goes to when the tool takes it nested rather than under ``name``."""

    name: str
    type: Any = str
    default: Any = None
    description: str | None = None
    into: str | None = None


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


LIMIT = Param("limit", int | None)
OFFSET = Param("offset", int | None)
VAULT = Param("vault", str | None)
TAG = Param("tag", str | None)
PATH = Param("path", str, REQUIRED, "Vault-relative path")
SINCE = "ISO 8601 date or date-time, inclusive"
UNTIL = "ISO 8601 date or date-time, exclusive"

# fmt: off
ROUTES: dict[str, tuple[Route, ...]] = {  # OpenAPI tag → its routes, in /docs order
    "vaults": (
        Route("GET", "/vaults", "list_vaults", "Vaults you can use", name="get_vaults"),
        Route("GET", "/browse/{vault}", "list_directory", "List one folder", name="browse", query=(
            Param("path", str, "", "Folder, relative to the vault root"), LIMIT, OFFSET)),
        Route("GET", "/vault/{vault}/files", "list_all_files", "Every file of a vault", name="vault_files", query=(
            Param("dir", str, "", "Only under this folder"), Param("recursive", bool | None), LIMIT, OFFSET)),
        Route("GET", "/recent", "list_recent", "Recently modified or created files", name="recent", query=(
            Param("vault", str | None, None, "Only this vault; default: every vault you can use"), LIMIT, OFFSET,
            Param("mode", str | None, None, "'modified' (default) or 'created'"))),
    ),
    "files": (
        Route("GET", "/file/{vault}", "read_file", "Read a note: content, frontmatter, tags, links, headings",
              name="get_file", query=(PATH, OFFSET)),
        Route("GET", "/file/{vault}/source", "read_file_raw",
              "A file as stored: the whole text with its frontmatter (secrets redacted), or base64 chunks",
              name="get_file_source", query=(PATH, OFFSET)),
    ),
    "backups": (
        Route("GET", "/file/{vault}/backups", "list_backups",
              "A file's backups, newest first; without path, every backed-up path", query=(
            Param("path", str | None, None, "Vault-relative path; omit to list all"), LIMIT, OFFSET)),
        Route("GET", "/file/{vault}/diff", "diff_backup",
              "Unified diff from a backup to the current file or another backup", query=(
            PATH, Param("version", str, REQUIRED, "Backup version id (from /backups)"),
            Param("compare_with", str | None, None, "Another version id; default: the current file"))),
        Route("GET", "/trash/{vault}", "list_trash",
              "Deleted files still gone, a deleted folder as one entry, newest first", query=(LIMIT, OFFSET)),
    ),
    "links": (
        Route("GET", "/backlinks/{vault}", "get_backlinks", "Notes linking to a file, with the linking lines",
              name="backlinks", query=(
            Param("path", str, REQUIRED, "Vault-relative path of the linked file"), LIMIT, OFFSET,
            Param("unlinked", bool | None, None, "Also list plain-text mentions that are not links"))),
        Route("GET", "/graph/{vault}", "get_graph",
              "Link graph: nodes and edges, local (around a note) or the whole vault", name="graph", query=(
            Param("path", str | None, None, "Centre note (local) or folder (vault scope)"),
            Param("depth", int | None), Param("scope", str | None, None, "'local' or 'vault'"), TAG, LIMIT)),
    ),
    "search": (
        Route("GET", "/search", "search_fulltext", "Full-text search (BM25, title boosted)", name="search", query=(
            Param("q", str, "", "Words to find (plain text)"), VAULT, TAG, LIMIT, OFFSET)),
        Route("GET", "/search/advanced", "search_advanced",
              "Exact or regex search with path, tag, date and size filters", query=(
            Param("q", str, "", "Text to find (literal), or a regular expression with regex=true"),
            VAULT, TAG, LIMIT, OFFSET, Param("sort", str | None, None, "relevance, path, modified, created or size"),
            Param("case_sensitive", bool | None), Param("whole_word", bool | None), Param("regex", bool | None),
            Param("include_paths", list[str] | None, None, "Glob on the vault-relative path; repeat for several"),
            Param("exclude_paths", list[str] | None, None, "Glob to leave out; repeat for several"),
            Param("created_after", str | None, None, SINCE, into="created.after"),
            Param("created_before", str | None, None, UNTIL, into="created.before"),
            Param("modified_after", str | None, None, SINCE, into="modified.after"),
            Param("modified_before", str | None, None, UNTIL, into="modified.before"),
            Param("size_min", int | None, None, "Bytes, inclusive", into="size.min"),
            Param("size_max", int | None, None, "Bytes, inclusive", into="size.max"))),
        Route("POST", "/search/advanced", "search_advanced", "Advanced search with the tool's arguments as a JSON body",
              name="search_advanced_post", body="search_advanced arguments"),
        Route("GET", "/tags", "list_tags", "Tags with note counts", name="tags", query=(VAULT, LIMIT, OFFSET)),
        Route("GET", "/tree-search", "search_paths", "Find files by a fuzzy match on their path and title",
              name="tree_search", query=(Param("q", str, "", "Words of the path"), VAULT, LIMIT, OFFSET)),
    ),
    "write": (  # the caller's own confirmed action, after the cross-site checks
        Route("POST", "/file/{vault}", "create_file", "Create a file (never overwrites)", body=ARGS, write=True),
        Route("PATCH", "/file/{vault}", "edit_file", "Edit a file: whole content, find/replace, or a heading's section",
              body=ARGS, write=True),
        Route("DELETE", "/file/{vault}", "delete_file", "Delete a file (kept in the backups)", query=(PATH,), write=True),
        Route("POST", "/file/{vault}/append", "append_to_file", "Append text to a file (created if missing)",
              name="append_file", body=ARGS, write=True),
        Route("POST", "/file/{vault}/rename", "rename_file", "Rename a file; links to it are rewritten",
              body=ARGS, write=True),
        Route("POST", "/file/{vault}/restore", "restore_backup", "Restore a backup version of a file",
              name="restore_file", body=ARGS, write=True),
        Route("POST", "/trash/{vault}/restore", "restore_trash",
              "Restore a deleted file, or every file of a deleted folder (never overwrites)", body=ARGS, write=True),
        Route("POST", "/directory/{vault}", "create_directory", "Create a folder", body=ARGS, write=True),
        Route("PATCH", "/directory/{vault}", "rename_directory", "Rename a folder; links into it are rewritten",
              body=ARGS, write=True),
        Route("DELETE", "/directory/{vault}", "delete_directory", "Delete a folder (every file kept in the backups)",
              query=(Param("path", str, REQUIRED), Param("recursive", bool, False)), write=True),
        Route("POST", "/move/{vault}", "move_path", "Move a file or folder into another folder; links are rewritten",
              body=ARGS, write=True),
        Route("POST", "/search/replace", "replace_in_files", "Replace text across notes (dry_run to preview)",
              body=ARGS, write=True),
    ),
}
# fmt: on


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
        annotation = Annotated[p.type, Query(description=p.description)]
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
    for tag, rows in table.items():
        for row in rows:
            endpoint = _endpoint(row)
            router.add_api_route(
                row.path, endpoint, methods=[row.method], name=row.endpoint_name, summary=row.summary, tags=[tag]
            )
    return router


router = build_router()
