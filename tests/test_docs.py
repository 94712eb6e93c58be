"""Every setting is documented (Datasette's habit: docs and code cannot drift apart)."""

from __future__ import annotations

from support import REPO

from obsigate.config import Settings


def test_every_setting_has_a_row_in_configuration_md() -> None:
    doc = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"| `{name}` |" in doc, name


def test_readme_quick_start_is_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make run", "make test"]
