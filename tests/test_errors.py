"""The one error catalogue: every code the code base raises is catalogued, and docs/mcp.md shows the table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from obsigate.services import errors
from obsigate.services.errors import CATALOGUE, ServiceError, render_catalogue

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "obsigate"
#: Domain errors whose first argument becomes a ServiceError code in services (``code=exc.code``).
CODE_FIRST = {"EditError"}


def codes_used() -> dict[str, str]:
    """``{code: where}`` for every literal code in src: ``code="x"`` arguments, ``code = "x"`` class
    attributes, ``{"code": "x"}`` dicts, status → code tables (``*_CODES``) and their ``.get`` fallbacks, and
    the first argument of :data:`CODE_FIRST` errors."""
    found: dict[str, str] = {}
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            values: list[ast.expr] = []
            if isinstance(node, ast.Call):
                values += [k.value for k in node.keywords if k.arg == "code"]
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in CODE_FIRST and node.args:
                    values.append(node.args[0])
                if name == "get" and isinstance(getattr(node.func, "value", None), ast.Name) and len(node.args) == 2:
                    if node.func.value.id.endswith("_CODES"):  # a code table's fallback: CODES.get(key, "x")
                        values.append(node.args[1])
            elif isinstance(node, ast.ClassDef):
                values += [
                    s.value for s in node.body
                    if isinstance(s, ast.Assign) and any(getattr(t, "id", None) == "code" for t in s.targets)
                ]  # fmt: skip
            elif isinstance(node, ast.Dict):  # {"code": "x"}, and {status: "x"} tables of HTTP statuses
                values += [
                    v for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and (k.value == "code" or type(k.value) is int)
                ]  # fmt: skip
            for v in values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    found.setdefault(v.value, f"{where}:{v.lineno}")
    return found


def test_every_code_used_is_catalogued() -> None:
    used = codes_used()
    assert len(used) > 30  # the scan sees the code base
    missing = {code: where for code, where in used.items() if code not in CATALOGUE}
    assert not missing, f"add these codes to services/errors.CATALOGUE: {missing}"


def test_every_catalogued_code_is_used() -> None:
    unused = set(CATALOGUE) - set(codes_used())
    assert not unused, f"catalogued but never raised: {sorted(unused)}"


def test_the_docs_show_the_catalogue() -> None:
    guide = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert render_catalogue() in guide, "docs/mcp.md error table is stale: run `make docs`"
    for code in CATALOGUE:
        assert f"| `{code}` |" in guide


def test_an_uncatalogued_code_cannot_be_raised() -> None:
    with pytest.raises(ValueError, match=r"not in services\.errors\.CATALOGUE"):
        ServiceError("x", code="no_such_code")


@pytest.mark.parametrize(
    "cls", [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, ServiceError)]
)
def test_each_class_default_code_is_catalogued(cls: type[ServiceError]) -> None:
    err = cls("x")
    assert err.code in CATALOGUE and err.http_status == CATALOGUE[err.code].http_status
    assert err.to_dict() == {"code": err.code, "message": "x"}
