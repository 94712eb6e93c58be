"""The registry matches the frozen catalogue (tests/catalogue.py): names, parameters, risk, scopes, order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from catalogue import EXPECTED, FRONT_WRITES, IN_APP_ONLY, LISTED_ORDER, OWN_SPACE, REBASED, WEB_ONLY, WRITES

from obsigate.tools.api import REGISTRY, Scope
from obsigate.tools.catalog.links import ExportGraphArgs, ExportGraphResult
from obsigate.tools.registry import Risk, ToolKind, ToolRegistry, tool


def test_catalog_is_frozen() -> None:
    tools = {spec.name: spec for spec in REGISTRY if spec.kind is ToolKind.TOOL}
    assert {n: list(s.input_schema["properties"]) for n, s in tools.items() if s.risk == "read"} == EXPECTED
    writes = {n: (s.risk, list(s.input_schema["properties"])) for n, s in tools.items() if s.risk != "read"}
    assert writes == WRITES | FRONT_WRITES
    assert all(REGISTRY.get(f"propose_{name}") is None for name in FRONT_WRITES)
    for name in WRITES:
        propose, apply = REGISTRY.get(f"propose_{name}"), REGISTRY.get(f"apply_{name}")
        assert propose is not None and list(propose.input_schema["properties"]) == list(
            tools[name].input_schema["properties"]
        )
        assert apply is not None and list(apply.input_schema["properties"]) == ["confirmation_token"]


def test_the_rebased_writes_are_frozen() -> None:
    assert {s.name for s in REGISTRY.declared() if s.rebased} == REBASED
    assert all(REGISTRY.get(name).planner is not None for name in REBASED)


def test_read_tools_are_read_only_and_offered_everywhere() -> None:
    for spec in REGISTRY:
        scopes = frozenset() if spec.name in WEB_ONLY else {Scope.IN_APP} if spec.name in IN_APP_ONLY else None
        assert spec.scopes == (scopes if scopes is not None else {Scope.IN_APP, Scope.MCP}), spec.name
        assert spec.input_schema["type"] == "object"
        assert "truncated" in spec.output_schema["properties"]
        assert len(spec.description) > 40
        if spec.risk == "read" and spec.kind is ToolKind.TOOL:
            assert spec.own_space is (spec.name in OWN_SPACE), spec.name
            assert spec.annotations == {
                "readOnlyHint": spec.name not in OWN_SPACE,
                "destructiveHint": False,
                "idempotentHint": spec.name not in OWN_SPACE,
                "openWorldHint": False,
            }


def test_write_tools_say_what_they_risk() -> None:
    for name, (risk, _) in WRITES.items():
        apply = REGISTRY.get(f"apply_{name}")
        assert apply.annotations["readOnlyHint"] is False
        assert apply.annotations["destructiveHint"] is (risk is Risk.DANGEROUS)
        assert REGISTRY.get(f"propose_{name}").annotations["readOnlyHint"] is True


def test_an_uncut_result_is_never_offered_to_a_model() -> None:
    with pytest.raises(ValueError, match="unbounded"):

        @tool("dump", title="Dump", registry=ToolRegistry())  # offered in-app and over MCP by default
        def dump(ctx, args: ExportGraphArgs) -> ExportGraphResult:
            """A whole vault, uncut."""
            raise AssertionError


def test_the_catalogue_keeps_its_order() -> None:
    """Discovered modules still register in the order tools/list has always shown (a pinned order, not the
    file names' alphabetical one)."""
    assert [spec.name for spec in REGISTRY if spec.kind is ToolKind.TOOL] == LISTED_ORDER


def test_a_catalogue_module_without_an_order_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import obsigate.tools.catalog as catalog

    (tmp_path / "zz_extra.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(catalog, "__path__", [*catalog.__path__, str(tmp_path)])
    catalog.load.cache_clear()
    try:
        with pytest.raises(TypeError, match="zz_extra: ORDER"):
            catalog.load()
    finally:
        monkeypatch.undo()
        catalog.load.cache_clear()
        catalog.load()
        sys.modules.pop("obsigate.tools.catalog.zz_extra", None)
