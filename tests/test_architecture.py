"""Imports flow one way: domain → services → tools → transports (docs/architecture.md).

``violations()`` parses every module of the package with ``ast`` and resolves each import of obsigate code to the
top-level *unit* it reaches (``domain``, ``services``, ``cli``, …; ``obsigate`` for the root package itself):
absolute and relative imports (resolved against the file's own package, ``__init__.py`` included),
``from obsigate import unit``, ``import obsigate.unit.x [as y]``, ``importlib.import_module`` / ``__import__``
with a literal name, and ``obsigate.unit`` attribute access on the root package. Imports nested in functions,
``if TYPE_CHECKING:`` blocks and try/except count the same: each is still a dependency the layer must not have.

ALLOWED is an allow-list: a new edge, or a new unit without a rule, fails until someone writes it down. A
consequence of the table: config (the settings) is imported only by bootstrap and cli; everything else gets its
values passed in. Not seen: module names computed at run time (reported as ``<dynamic>``), exec/eval, sys.modules.
"""

from __future__ import annotations

import ast
import functools
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "obsigate"
ROOT = "obsigate"  # the root package (only __version__): every unit may import it
DYNAMIC = "<dynamic>"  # import_module(name) with a name that is not a literal: unverifiable, so a violation

# unit → the units it MAY import (ROOT is always allowed)
_RULES: dict[str, set[str]] = {
    ROOT: set(),
    "domain": {"domain"},
    "services": {"domain", "services"},
    "auth": {"domain", "services", "auth"},  # beside services: fronts authenticate, tools authorise
    "tools": {"domain", "services", "auth", "tools"},
    # transports see tools (and auth, to authenticate), never the layers below, the settings or bootstrap
    "api": {"tools", "auth", "api", "mcp", "agent"},  # api/app.py mounts the MCP endpoint and the assistant's routes
    "mcp": {"tools", "auth", "mcp"},
    "agent": {"tools", "auth", "agent"},  # the in-app assistant: providers, the loop, its stores
    "web": {"tools", "auth", "web"},
    "bootstrap": {"domain", "services", "auth", "tools", "config", "api", "mcp", "agent"},  # the composition root
    "config": set(),
    "__main__": {"cli"},
}
_RULES["cli"] = set(_RULES) | {"cli"}  # the command wires everything
ALLOWED: dict[str, frozenset[str]] = {unit: frozenset(ok) for unit, ok in _RULES.items()}
TRANSPORTS = ("api", "mcp", "agent", "web")


def _unit_of_file(rel: Path) -> str:
    """``api/app.py`` → ``api``, ``cli.py`` → ``cli``, ``__init__.py`` → the root package."""
    return ROOT if rel == Path("__init__.py") else rel.parts[0].removesuffix(".py")


def _resolve(level: int, module: str | None, package: Sequence[str]) -> list[str] | None:
    """The absolute module path of a (possibly relative) import made from ``package``; None above the top."""
    if level > len(package):
        return None  # "beyond top-level package": an ImportError, it reaches nothing
    base = list(package[: len(package) - level + 1]) if level else []
    return base + (module.split(".") if module else [])


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _arg(call: ast.Call, pos: int, name: str) -> ast.expr | None:
    if len(call.args) > pos:
        return call.args[pos]
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _below_own_package(name: ast.expr | None, package: ast.expr | None) -> bool:
    """``import_module(f".{x}", __name__)``: a computed name, but relative to the importing package itself, so it
    stays in that package (tools/catalog discovers its modules this way)."""
    head = name.values[0] if isinstance(name, ast.JoinedStr) and name.values else None
    relative = isinstance(head, ast.Constant) and isinstance(head.value, str) and head.value.startswith(".")
    return relative and isinstance(package, ast.Name) and package.id in ("__name__", "__package__")


def _callee(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _reached(tree: ast.AST, package: Sequence[str], units: set[str]) -> Iterator[tuple[int, str, str]]:
    """Yield ``(line, unit, source text)`` for every obsigate unit the module's code reaches, at any depth."""

    def unit(dotted: Sequence[str] | None, name: str | None = None) -> str | None:
        if not dotted or dotted[0] != ROOT:
            return None  # not obsigate code
        if len(dotted) > 1:
            return dotted[1]
        # ``from obsigate import X``: X is a unit if it names one, else an attribute of the root (__version__)
        return name if name in units else ROOT

    # names bound to the root package (``import obsigate [as o]``): ``o.services.x`` reaches services too
    roots = {ROOT} | {
        a.asname for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names if a.name == ROOT and a.asname
    }
    for node in ast.walk(tree):  # the whole tree, not the body: imports in functions, ifs and trys count
        if isinstance(node, ast.Import):
            hits = [unit(a.name.split(".")) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            dotted = _resolve(node.level, node.module, package)
            hits = [unit(dotted, a.name) for a in node.names]
        elif isinstance(node, ast.Call) and _callee(node.func) in ("import_module", "__import__"):
            name = _literal(_arg(node, 0, "name"))
            if name is None and _below_own_package(_arg(node, 0, "name"), _arg(node, 1, "package")):
                hits = [unit(list(package))]  # import_module(f".{x}", __name__): a module of its own package
            elif name is None:
                hits = [DYNAMIC]
            elif name.startswith("."):  # import_module(".x", "obsigate.y"): relative to a literal package
                level = len(name) - len(name.lstrip("."))
                pkg = _literal(_arg(node, 1, "package"))
                hits = [unit(_resolve(level, name[level:] or None, pkg.split("."))) if pkg else DYNAMIC]
            else:
                hits = [unit(name.split("."))]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in roots:
            hits = [node.attr] if node.attr in units else []
        else:
            continue
        for hit in {h for h in hits if h}:
            yield node.lineno, hit, ast.unparse(node)


@functools.cache  # the self-tests re-check ~25 copies of the same files: parse each text once
def _file_hits(source: bytes, package: tuple[str, ...], units: frozenset[str]) -> tuple[tuple[int, str, str], ...]:
    return tuple(_reached(ast.parse(source), package, units))


def violations(root: Path) -> list[str]:
    """Every import under ``root`` (src/obsigate or a copy) that ALLOWED forbids, and every unit without a rule.

    Lines read ``src/obsigate/mcp/server.py:12 imports services (from ..services import errors)``.
    """
    files = sorted(root.rglob("*.py"))
    on_disk = {_unit_of_file(p.relative_to(root)) for p in files}
    units = (on_disk | set(ALLOWED)) - {ROOT}
    shown = root.parent.parent  # messages start at src/, so they can be opened from the repo root
    found = [
        f"{(root / u).relative_to(shown).as_posix()}: unit {u!r} has no rule in ALLOWED"
        for u in sorted(on_disk - set(ALLOWED))
    ]
    for path in files:
        rel = path.relative_to(root)
        package = (ROOT, *rel.parts[:-1])  # relative imports start here, for __init__.py as for any module
        allowed = ALLOWED.get(_unit_of_file(rel), frozenset()) | {ROOT}
        hits = set(_file_hits(path.read_bytes(), package, frozenset(units)))  # a set: one line per unit
        found += [
            f"{path.relative_to(shown).as_posix()}:{line} imports {unit} ({text})"
            for line, unit, text in sorted(hits)
            if unit not in allowed
        ]
    return found


# --- transports reach the tool layer through its facade only ---------------------------------------------------

#: The tool-layer modules a transport may import: the facade that runs tools and the error leaf.
TOOL_FACADES = frozenset({"api", "errors"})
#: The fronts held to it: the transports and the command line.
FACADE_USERS = (*TRANSPORTS, "cli")


def _tool_modules(tree: ast.AST, package: Sequence[str]) -> Iterator[tuple[int, str, str]]:
    """Yield ``(line, module, source text)`` for every module of ``obsigate.tools`` the code reaches: ``api`` for
    ``obsigate.tools.api`` (``dispatch`` for ``obsigate.tools.dispatch.x``), ``""`` for the package itself. Same
    forms as :func:`_reached`: absolute, relative, package-form, plain, ``import_module``/``__import__`` with a
    literal name and ``obsigate.tools.x`` attribute access, at any depth."""

    def modules(dotted: Sequence[str] | None, names: Sequence[str] = ()) -> list[str]:
        if not dotted or list(dotted[:1]) != [ROOT]:
            return []
        if len(dotted) == 1:  # from obsigate import tools
            return ["" for name in names if name == "tools"]
        if dotted[1] != "tools":
            return []
        if len(dotted) > 2:
            return [dotted[2]]
        return list(names) or [""]  # from obsigate.tools import api, dispatch / import obsigate.tools

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hits = [m for a in node.names for m in modules(a.name.split("."))]
        elif isinstance(node, ast.ImportFrom):
            hits = modules(_resolve(node.level, node.module, package), [a.name for a in node.names])
        elif isinstance(node, ast.Call) and _callee(node.func) in ("import_module", "__import__"):
            name = _literal(_arg(node, 0, "name"))
            if name is None:
                continue  # a computed name is the rule table's DYNAMIC violation already
            level = len(name) - len(name.lstrip("."))
            pkg = _literal(_arg(node, 1, "package"))
            dotted = _resolve(level, name[level:] or None, pkg.split(".")) if level and pkg else name.split(".")
            hits = modules(dotted) if not level or pkg else []
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "tools"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == ROOT
        ):
            hits = [node.attr]
        else:
            continue
        for hit in set(hits):
            yield node.lineno, hit, ast.unparse(node)


def facade_violations(root: Path) -> list[str]:
    """Every import, in a front (:data:`FACADE_USERS`) under ``root``, of a tool-layer module other than the
    facade (:data:`TOOL_FACADES`). Lines read ``src/obsigate/api/render.py:16 imports tools.dispatch (...)``."""
    shown = root.parent.parent
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if _unit_of_file(rel) not in FACADE_USERS:
            continue
        tree = ast.parse(path.read_bytes())
        for line, module, text in sorted(set(_tool_modules(tree, (ROOT, *rel.parts[:-1])))):
            if module not in TOOL_FACADES:
                found.append(
                    f"{path.relative_to(shown).as_posix()}:{line} imports tools.{module or '(package)'} ({text})"
                )
    return found


def test_fronts_import_only_the_tool_facade() -> None:
    found = facade_violations(SRC)
    assert not found, f"{len(found)} import(s) around tools/api.py and tools/errors.py:\n" + "\n".join(found)


def test_the_error_leaf_and_the_command_line_do_not_load_the_catalogue() -> None:
    # the catalogue loads where tools run (tools/api.py); raising an error or starting the CLI must not pay for it
    code = (
        "import sys, obsigate.tools.errors; leaf = 'obsigate.tools.catalog.files' in sys.modules\n"
        "import obsigate.cli; print(leaf, 'obsigate.tools.catalog.files' in sys.modules, 'obsigate.tools.api' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "False"]


def test_imports_follow_the_rule_table() -> None:
    found = violations(SRC)
    assert not found, f"{len(found)} forbidden import(s):\n" + "\n".join(found)


def test_rule_table_keeps_transports_thin_and_config_at_the_root() -> None:
    # the table is the contract: loosening it must also change these lines, not slip in as a quiet edit above
    assert {unit for unit, ok in ALLOWED.items() if "config" in ok} == {"bootstrap", "cli"}
    for transport in TRANSPORTS:
        assert not ALLOWED[transport] & {"domain", "services", "config", "bootstrap"}, transport


def test_mcp_never_calls_the_rest_api() -> None:
    # MCP reaches tools in-process, like every transport; an HTTP hop to the REST front would be a second path.
    # The one HTTP client is the stdio relay (mcp/forward.py), MCP to a running server's /mcp, never to /api/.
    offenders = [
        f"{p.relative_to(SRC)}: {needle}"
        for p in sorted((SRC / "mcp").rglob("*.py"))
        for needle in ("httpx", "/api/")
        if needle in p.read_text(encoding="utf-8") and not (needle == "httpx" and p.name == "forward.py")
    ]
    assert not offenders, offenders


# --- self-tests: the guard must see every form, planted in a copy of the package --------------------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of src/obsigate (at tmp/src/obsigate, so messages read like the real ones) to plant imports in."""
    return Path(shutil.copytree(SRC, tmp_path / "src" / ROOT, ignore=shutil.ignore_patterns("__pycache__")))


def _plant(root: Path, rel: str, code: str) -> range:
    """Append ``code`` to ``root/rel`` (created if missing); return the line numbers it now occupies."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    if before and not before.endswith("\n"):
        before += "\n"
    path.write_text(before + code + "\n", encoding="utf-8")
    first = len(before.splitlines()) + 1
    return range(first, first + len(code.splitlines()))


# (file in the copy, code, unit that its line marked "# planted" must be reported as importing)
PLANTED = [
    pytest.param("mcp/_p.py", "from obsigate.services.errors import NotFound  # planted", "services", id="absolute"),
    pytest.param("mcp/_p.py", "from ..services import errors  # planted", "services", id="relative"),
    pytest.param("mcp/__init__.py", "from .. import domain  # planted", "domain", id="relative-in-init"),
    pytest.param(
        "config.py", "from .bootstrap import build_runtime  # planted", "bootstrap", id="relative-in-root-module"
    ),
    pytest.param("config.py", "from . import services  # planted", "services", id="relative-package-form"),
    pytest.param("domain/index/_p.py", "from ...tools import registry  # planted", "tools", id="relative-two-up"),
    pytest.param("api/_p.py", "from obsigate import services  # planted", "services", id="package-form"),
    pytest.param(
        "api/_p.py", "from obsigate import tools, bootstrap  # planted", "bootstrap", id="package-form-second-name"
    ),
    pytest.param("mcp/_p.py", "import obsigate.domain.vault  # planted", "domain", id="plain-import"),
    pytest.param("mcp/_p.py", "import obsigate.services as s  # planted", "services", id="plain-import-as"),
    pytest.param(
        "mcp/_p.py", "import obsigate as o\nx = o.services.files  # planted", "services", id="attribute-of-root"
    ),
    pytest.param(
        "api/_p.py", "def f():\n    from obsigate.domain import text  # planted", "domain", id="function-local"
    ),
    pytest.param(
        "mcp/_p.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from obsigate.services.workspace import Workspace  # planted",
        "services",
        id="type-checking",
    ),
    pytest.param(
        "api/_p.py",
        "try:\n    import obsigate.config  # planted\nexcept ImportError:\n    pass",
        "config",
        id="try-except",
    ),
    pytest.param("tools/_p.py", "from obsigate import config  # planted", "config", id="config-in-tools"),
    pytest.param(
        "domain/_p.py", "from obsigate.tools.registry import tool  # planted", "tools", id="domain-imports-tools"
    ),
    pytest.param(
        "mcp/_p.py",
        "import importlib\nimportlib.import_module('obsigate.services.x')  # planted",
        "services",
        id="import_module",
    ),
    pytest.param(
        "auth/_p.py",
        "from importlib import import_module\nimport_module('.tools', 'obsigate')  # planted",
        "tools",
        id="import_module-rel",
    ),
    pytest.param("mcp/_p.py", "__import__('obsigate.domain')  # planted", "domain", id="dunder-import"),
    pytest.param(
        "api/_p.py", "import importlib\nimportlib.import_module(NAME)  # planted", DYNAMIC, id="import_module-dynamic"
    ),
    pytest.param("agent/__init__.py", "from obsigate.services import files  # planted", "services", id="future-agent"),
    pytest.param(
        "mcp/_p.py",
        "import importlib\nimportlib.import_module(f'.{X}', 'obsigate')  # planted",
        DYNAMIC,
        id="import_module-computed-relative-to-a-literal",
    ),
]


@pytest.mark.parametrize(("rel", "code", "unit"), PLANTED)
def test_guard_reports_a_planted_import(copy: Path, rel: str, code: str, unit: str) -> None:
    lines = _plant(copy, rel, code)
    line = lines[next(i for i, text in enumerate(code.splitlines()) if "# planted" in text)]
    expected = f"src/obsigate/{rel}:{line} imports {unit} ("
    assert any(v.startswith(expected) for v in violations(copy)), expected


def test_guard_accepts_allowed_forms(copy: Path) -> None:
    # the other half of the contract: a guard that flags legal imports gets switched off
    allowed_code = {
        "domain/_ok.py": "from obsigate import __version__\nfrom .. import __version__ as v\nfrom . import text\n"
        "from .markdown import note\nimport obsigate\nfrom ... import x  # above the top: reaches nothing",
        "mcp/_ok.py": "from ..tools import api\nfrom . import server\nimport obsigate.auth.principal\nimport json, importlib\n"
        "importlib.import_module('json')\nimport obsigate as o\no.__version__",
        "config.py": "from . import __version__\nimport obsigate",
        "bootstrap.py": "from .config import Settings\nfrom . import config",
        "cli.py": "from . import api, mcp, web, bootstrap\nimport obsigate.agent",
    }
    planted = {f"src/obsigate/{rel}:{n} " for rel, code in allowed_code.items() for n in _plant(copy, rel, code)}
    assert not [v for v in violations(copy) if v.startswith(tuple(planted))]


@pytest.mark.parametrize("rel", ["newthing/__init__.py", "newthing/deep/mod.py", "newmod.py"])
def test_guard_fails_on_a_unit_without_a_rule(copy: Path, rel: str) -> None:
    _plant(copy, rel, '"""Imports nothing: the missing rule alone must fail."""')
    name = Path(rel).parts[0].removesuffix(".py")
    assert f"src/obsigate/{name}: unit {name!r} has no rule in ALLOWED" in violations(copy)


# (file in the copy, code, tool-layer module its line marked "# planted" must be reported as importing)
PLANTED_AROUND_THE_FACADE = [
    pytest.param("api/_p.py", "from obsigate.tools.dispatch import call_tool  # planted", "dispatch", id="absolute"),
    pytest.param("mcp/_p.py", "from ..tools import pipeline  # planted", "pipeline", id="relative-package-form"),
    pytest.param("mcp/_p.py", "from ..tools.registry import ToolKind  # planted", "registry", id="relative"),
    pytest.param("agent/_p.py", "import obsigate.tools.context  # planted", "context", id="plain-import"),
    pytest.param("agent/providers/_p.py", "from ...tools import api, door  # planted", "door", id="second-name"),
    pytest.param("web/_p.py", "from obsigate import tools  # planted", "(package)", id="the-package"),
    pytest.param(
        "api/_p.py", "def f():\n    from obsigate.tools.confirm.flow import settle  # planted", "confirm", id="local"
    ),
    pytest.param(
        "mcp/_p.py",
        "import importlib\nimportlib.import_module('obsigate.tools.prompts')  # planted",
        "prompts",
        id="import_module",
    ),
    pytest.param("cli.py", "import obsigate\nx = obsigate.tools.registry  # planted", "registry", id="attribute"),
]


@pytest.mark.parametrize(("rel", "code", "module"), PLANTED_AROUND_THE_FACADE)
def test_facade_guard_reports_a_planted_import(copy: Path, rel: str, code: str, module: str) -> None:
    lines = _plant(copy, rel, code)
    line = lines[next(i for i, text in enumerate(code.splitlines()) if "# planted" in text)]
    expected = f"src/obsigate/{rel}:{line} imports tools.{module} ("
    assert any(v.startswith(expected) for v in facade_violations(copy)), expected


def test_facade_guard_accepts_the_facade(copy: Path) -> None:
    allowed_code = {
        "api/_ok.py": "from obsigate.tools.api import call_tool\nfrom obsigate.tools import api, errors\n"
        "import obsigate.tools.errors",
        "mcp/_ok.py": "from ..tools.api import ToolContext\nfrom ..tools import errors as e",
        "agent/providers/_ok.py": "from ...tools.errors import ServiceError",
        # the tool layer itself and the composition root are not fronts
        "tools/_ok.py": "from obsigate.tools.dispatch import call_tool",
        "bootstrap.py": "from obsigate.tools.context import ToolRuntime",
    }
    planted = {f"src/obsigate/{rel}:{n} " for rel, code in allowed_code.items() for n in _plant(copy, rel, code)}
    assert not [v for v in facade_violations(copy) if v.startswith(tuple(planted))]
