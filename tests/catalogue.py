"""The frozen tool catalogue: every tool's name, arguments, risk, fronts and place in tools/list, and the size
budget of tools/list. Adding a tool means adding it here (tests/tools/test_catalog.py checks the registry against
this; tests/support.py derives MCP_TOOLS from it; tests/tools/test_tool_definitions_size.py reads the budget)."""

from __future__ import annotations

from obsigate.tools.registry import Risk

EXPECTED = {
    "list_vaults": [],
    "list_directory": ["vault", "path", "limit", "offset"],
    "list_all_files": ["vault", "dir", "limit", "recursive", "offset"],
    "get_vault_config": ["vault"],
    "read_file": ["vault", "path", "offset"],
    "read_file_raw": ["vault", "path", "offset"],
    "search_fulltext": ["q", "vault", "tag", "limit", "offset"],
    "list_tags": ["vault", "limit", "offset"],
    "search_paths": ["q", "vault", "limit", "offset"],
    "suggest_tags": ["q", "vault", "limit", "offset"],
    "get_backlinks": ["vault", "path", "limit", "offset", "unlinked"],
    "get_graph": ["vault", "path", "depth", "scope", "tag", "limit"],
    "export_graph": ["vault", "tag"],
    "list_recent": ["vault", "limit", "mode", "offset"],
    "search_advanced": [
        "q",
        "vault",
        "tag",
        "limit",
        "offset",
        "sort",
        "case_sensitive",
        "whole_word",
        "regex",
        "include_paths",
        "exclude_paths",
        "created",
        "modified",
        "size",
    ],
    "list_backups": ["vault", "path", "limit", "offset"],
    "diff_backup": ["vault", "path", "version", "compare_with"],
    "list_trash": ["vault", "limit", "offset"],
    "query_base": ["vault", "path", "view", "this", "block"],  # Obsidian Bases (tools/catalog/bases.py), web only
    # the fronts' own operations, offered to no model (tools/catalog/fronts.py)
    "bookslm_context": ["mode", "vault", "directory", "files", "extra_files", "extra_directories"],
    "download_file": ["vault", "path"],
    "vault_switches": [],
    "text_action_input": ["action", "text", "value"],  # the editor's AI text actions (tools/catalog/text_actions.py)
    # the in-app assistant's web tools (tools/catalog/web.py), never offered over MCP
    "web_search": ["query", "max_results", "category", "language", "page"],
    "fetch_url": ["url", "max_chars"],
    # the caller's own file space (tools/catalog/user_files.py): two tools for models, four operations for the fronts
    "list_user_files": ["limit", "offset"],
    "read_user_file": ["file_id", "offset"],
    "user_file_info": ["file_id"],
    "download_user_file": ["file_id"],
    # the assistant's plans (tools/catalog/plans.py): read risk, they write only the caller's own space
    "update_plan": ["explanation", "plan", "revision"],
    "get_plan": [],
    "get_context_usage": ["conversation_id"],  # the context gauge (tools/catalog/context_usage.py)
}
# The seeds' write catalog (risk M = write, D = dangerous); each also gets propose_<tool> / apply_<tool>.
WRITES = {
    "create_file": (Risk.WRITE, ["vault", "path", "content"]),
    "create_directory": (Risk.WRITE, ["vault", "path"]),
    "edit_file": (Risk.WRITE, ["vault", "path", "content", "find", "replace", "expected_count", "heading"]),
    "append_to_file": (Risk.WRITE, ["vault", "path", "content"]),
    "restore_backup": (Risk.WRITE, ["vault", "path", "version"]),
    "rename_file": (Risk.DANGEROUS, ["vault", "path", "new_name"]),
    "rename_directory": (Risk.DANGEROUS, ["vault", "path", "new_name"]),
    "move_path": (Risk.DANGEROUS, ["vault", "source_path", "destination_dir"]),
    "replace_in_files": (
        Risk.DANGEROUS,
        [
            "find",
            "replace",
            "vault",
            "case_sensitive",
            "whole_word",
            "regex",
            "include_paths",
            "exclude_paths",
            "replace_all",
            "dry_run",
        ],
    ),
    "delete_file": (Risk.DANGEROUS, ["vault", "path"]),
    "delete_directory": (Risk.DANGEROUS, ["vault", "path", "recursive"]),
    "restore_trash": (Risk.WRITE, ["vault", "path", "kind"]),
}
#: Writes of the fronts' own operations, the person's action only (REST, the web app), offered to no model: no
#: propose_/apply_ pair (the caller's own file space, tools/catalog/user_files.py).
FRONT_WRITES = {
    "upload_user_file": (Risk.WRITE, ["name", "content", "conversation"]),
    "delete_user_file": (Risk.DANGEROUS, ["file_id"]),
}
#: Writes applied to the file as it is then (they commute with any other write), not refused when it changed since
#: the proposal: each is declared ``rebased=True``.
REBASED = {"create_file", "create_directory", "append_to_file"}
#: The web app's own tools (its trash view, the whole-vault graph): REST, the web app and the CLI only, never
#: offered to a model (a graph export may be bigger than a model's context).
WEB_ONLY = {
    *["list_trash", "restore_trash", "propose_restore_trash", "apply_restore_trash", "export_graph"],
    *["bookslm_context", "download_file", "vault_switches"],  # the fronts' own operations (tools/catalog/fronts.py)
    "text_action_input",  # the editor's AI text actions (tools/catalog/text_actions.py)
    "get_vault_config",  # the vault's .obsidian/ settings, for the web app's rendering and commands
    "query_base",  # Obsidian Bases for the web app's base views: tools/list has no room left under its 50k target
    *["upload_user_file", "user_file_info", "download_user_file", "delete_user_file"],  # the file space's fronts
}
#: The in-app assistant's own tools: offered to its model, never over MCP (nor REST): they reach outside the server.
IN_APP_ONLY = {"web_search", "fetch_url", "get_context_usage"}  # + the context gauge: an MCP client keeps its own
#: Read-risk tools that run directly but write the caller's own space (``own_space``: not ``readOnlyHint``).
OWN_SPACE = {"update_plan"}

#: The catalogue's size budget (test_tool_definitions_size.py): a new tool raises it by its cost, here, with
#: the tool's entry above.
#: Where tools/list is now with json.dumps' default separators (53.4k; 136k before issue 8): a ratchet. What is
#: left is structure: 37 tools' names, titles and hints (~9k), input schemas (~17k, every bound kept) and
#: result schemas (~23k: types only; 11 propose_ and 11 apply_ tools share two result shapes). The compact
#: JSON actually sent is under the 50k target (asserted below). Issue 9 gave list_backups its limit/offset and
#: page fields (+314 chars), paid in part by shorter read/backup tool descriptions (-114): 53.7k. Issue 17 bounded
#: the search tools' optional vault name at 64 characters like every other vault argument (+95): 53.8k.
#: Issue 19 taught search_fulltext Obsidian's search syntax, named in its q description (+21): 53.8k.
#: Issue 21 gave every client the caller's own file space (list_user_files, read_user_file) and the plans
#: (update_plan, get_plan), +4.3k: 58.1k.
MAX_TOOLS_LIST_CHARS = 58_101
#: The compact JSON actually sent: under the 50k target until issue 21, whose file space tools (list_user_files,
#: read_user_file: 2.0k compact) and plans (update_plan, get_plan: 1.95k) the issue asks for over MCP too; a ratchet.
MAX_TOOLS_LIST_WIRE_CHARS = 53_493

#: tools/list order: the catalogue's families by their ORDER (tools/catalog/__init__.py), each in declaration order.
LISTED_ORDER = [
    *["list_vaults", "list_directory", "list_all_files", "get_vault_config", "read_file", "read_file_raw"],
    *["get_backlinks", "get_graph", "export_graph"],
    *["search_fulltext", "search_advanced", "list_tags", "search_paths", "suggest_tags", "list_recent"],
    *["list_backups", "diff_backup", "list_trash"],
    *["create_file", "create_directory", "edit_file", "append_to_file", "restore_backup", "restore_trash"],
    *["rename_file", "rename_directory", "move_path", "replace_in_files", "delete_file", "delete_directory"],
    *["bookslm_context", "download_file", "vault_switches"],
    *["web_search", "fetch_url"],
    "text_action_input",
    *["list_user_files", "read_user_file", "upload_user_file", "user_file_info", "download_user_file"],
    "delete_user_file",  # tools/catalog/user_files.py (ORDER 11)
    "query_base",  # tools/catalog/bases.py (ORDER 34)
    "get_context_usage",  # tools/catalog/context_usage.py (ORDER 47)
    *["update_plan", "get_plan"],  # tools/catalog/plans.py (ORDER 214)
]

#: What an MCP client with vault access sees in tools/list: every tool offered to models, a write tool only as
#: its propose_/apply_ pair.
MCP_TOOLS = {name for name in EXPECTED if name not in WEB_ONLY | IN_APP_ONLY} | {
    f"{step}_{name}" for name in WRITES if name not in WEB_ONLY for step in ("propose", "apply")
}
