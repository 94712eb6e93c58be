"""One declaration per tool: ``@tool`` carries the step label, the REST routes and the write properties, and
refuses a declaration a front could not use."""

from __future__ import annotations

import inspect

import pytest

from obsigate.agent.labels import step_label
from obsigate.services import mutations as svc
from obsigate.tools.api import REGISTRY
from obsigate.tools.catalog.files import ReadFileArgs, ReadFileResult
from obsigate.tools.catalog.vaults import ListVaultsArgs, ListVaultsResult
from obsigate.tools.catalog.write import MutationResult, PathArgs, write_tool
from obsigate.tools.registry import Rest, Risk, ToolKind, ToolRegistry, tool

DECLARED = REGISTRY.declared()


def test_every_catalogue_tool_has_a_label_in_both_languages() -> None:
    for spec in DECLARED:
        assert spec.label is not None and all(spec.label), spec.name
        assert step_label(spec.name, {}, "fr") != spec.name and step_label(spec.name, {}, "en") != spec.name


def test_step_labels_fill_the_declared_placeholders() -> None:
    assert step_label("read_file", {"vault": "v", "path": "Dir/A.md"}, "fr") == "Fichier lu : Dir/A.md"
    assert step_label("read_file", {"vault": "v", "path": "Dir/A.md"}, "en") == "File read: Dir/A.md"
    assert step_label("move_path", {"source_path": "A.md", "destination_dir": "B"}, "en") == "Item moved: A.md"
    assert step_label("list_directory", None, "en") == "Folder explored: /"
    assert step_label("search_fulltext", {"q": "x" * 200}, "en") == "Vault searched: " + "x" * 79 + "…"
    assert step_label("replace_in_files", {"find": "old", "replace": "new"}, "fr") == "Remplacements : old"
    assert step_label("list_trash", {"vault": "v"}, "en") == "Trash listed"
    assert step_label("restore_trash", {"vault": "v", "path": "Gone.md"}, "en") == "Restored from the trash: Gone.md"
    assert step_label("export_graph", {"vault": "v"}, "fr") == "Graphe complet du vault exporté"
    # a derived step or a name the model made up has no label: its name is shown
    assert step_label("propose_create_file", {"path": "a.md"}, "en") == "propose_create_file"
    assert step_label("no_such_tool", {}, "fr") == "no_such_tool"


def test_tools_are_real_functions_with_their_own_docstring() -> None:
    for spec in DECLARED:
        assert spec.func.__name__ == spec.name and spec.func.__name__ != "run", spec.name
        assert inspect.getdoc(spec.func) == spec.description, spec.name
    derived = [s for s in REGISTRY if s.kind is not ToolKind.TOOL]
    assert derived and all(s.label is None and s.rest == () for s in derived)


def test_a_write_tool_is_one_function_over_the_adapter() -> None:
    registry = ToolRegistry()

    @write_tool("drop", svc.plan_delete_file, title="Drop", risk=Risk.DANGEROUS, registry=registry, rebased=True)
    def drop(ctx, args: PathArgs) -> MutationResult:
        """Drop a file, for this test only."""

    spec = registry.get("drop")
    assert spec is not None and spec.func is drop and spec.description == "Drop a file, for this test only."
    assert spec.rebased and spec.planner is not None and spec.idempotent is False
    assert [s.name for s in registry] == ["drop", "propose_drop", "apply_drop"]


def _declare(**declaration) -> None:
    @tool("probe", title="Probe", registry=ToolRegistry(), **declaration)
    def probe(ctx, args: ReadFileArgs) -> ReadFileResult:
        """A probe, for this test only."""
        raise AssertionError


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({"label": ("Lu : {file}", "Read: {file}")}, "placeholders"),
        ({"label": ("Lu",)}, "French, English"),
        ({"rest": Rest("PUT", "/probe/{vault}", summary="s")}, "not a route"),
        ({"rest": Rest("GET", "/probe/{vault}/{id}", summary="s")}, "may only name"),
        ({"rest": Rest("GET", "probe", summary="s")}, "may only name"),
        ({"rest": Rest("GET", "/probe", summary="s", defaults={"limit": 3})}, "does not take"),
        ({"rest": Rest("GET", "/probe/{vault}", summary="s"), "risk": Risk.WRITE}, "not a route"),
        ({"rebased": True}, "rebased"),
    ],
)
def test_a_declaration_a_front_cannot_use_is_refused(declaration: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _declare(**declaration)


def test_a_route_cannot_name_the_vault_of_a_tool_without_one() -> None:
    with pytest.raises(ValueError, match="may only name"):

        @tool("probe", title="Probe", registry=ToolRegistry(), rest=Rest("GET", "/probe/{vault}", summary="s"))
        def probe(ctx, args: ListVaultsArgs) -> ListVaultsResult:
            """A probe, for this test only."""
            raise AssertionError
