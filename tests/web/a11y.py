"""An axe-core check for the browser tests (issue 19 item 7): ``assert_no_serious(page, "note view, dark")``.

axe-core's ``axe.min.js`` comes from the PyPI package ``axe-playwright-python`` (the test extra), never from
``frontend/node_modules`` (a fresh ``make test`` may not have them). It is injected into the page once per
document and run over the whole page (or ``include``, a CSS selector); only violations whose impact is
``serious`` or ``critical`` fail, with one readable line per failing node: rule, target, summary. Any screen can
be checked in two lines: open it, wait for its content, call :func:`assert_no_serious`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

#: axe-core rules off by default (tagged "experimental") that this project turns on: an accessible name that
#: does not contain the visible text (WCAG 2.5.3, "Label in Name") breaks speech control.
EXPERIMENTAL = ("label-content-name-mismatch",)
#: The impacts that fail a check (axe-core's scale: minor < moderate < serious < critical).
FAILING = ("serious", "critical")


@cache
def axe_source() -> str:
    """axe-core's script as shipped by ``axe-playwright-python`` (``axe.min.js`` in its package)."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def violations(page: Any, include: str | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on ``page`` now, as axe returns them (``id``, ``impact``,
    ``help``, ``nodes`` with ``target`` and ``failureSummary``). ``include``: a CSS selector to limit the run."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([include, EXTRA]) => {
            const result = await axe.run(include ? { include: [include] } : document, { resultTypes: ["violations"], rules: EXTRA });
            return result.violations;
        }""",
        [include, {rule: {"enabled": True} for rule in EXPERIMENTAL}],
    )
    return [v for v in found if v.get("impact") in FAILING]


def report(found: list[dict[str, Any]]) -> str:
    """The violations as lines: ``rule (impact): target -- summary`` per node."""
    lines = []
    for v in found:
        for node in v["nodes"]:
            summary = " ".join((node.get("failureSummary") or v["help"]).split())
            lines.append(f"{v['id']} ({v['impact']}): {' > '.join(map(str, node['target']))} -- {summary}")
    return "\n".join(lines)


def assert_no_serious(page: Any, context: str, include: str | None = None) -> None:
    """Fail with a readable list when axe-core finds a serious or critical violation on ``page``.
    ``context`` names the screen in the message (e.g. ``"graph, dark"``)."""
    found = violations(page, include)
    assert not found, f"axe-core, {context}: {sum(len(v['nodes']) for v in found)} serious/critical\n{report(found)}"
