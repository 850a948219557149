"""The seam, checked statically on the source: the platform's packages reach a ruleset only
through the registry, and the modules of ``src/oriflamme`` have no large import cycle.

Every ``import`` and ``from … import`` statement counts, wherever it is (module level, inside a
function, under ``if TYPE_CHECKING``): a late import is still a dependency. The graph comes from
``benchmarks/import_graph.py`` (the tool that prints it), so there is one reading of imports.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROOT = "oriflamme"
PLATFORM = ("core", "web", "cli", "store", "ai")
MAX_CYCLE = 3


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", REPO / "benchmarks" / "import_graph.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()


def import_graph() -> dict[str, set[str]]:
    return TOOL.graph(runtime_only=False)


def test_the_graph_tools_work_on_a_known_case():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert TOOL.strongly_connected(g)[0] == ["a", "b", "c"]
    # a relative import is resolved (engine/view.py: from .game import legal_actions)
    assert "oriflamme.rulesets.magna_carta.engine.game" in import_graph()["oriflamme.rulesets.magna_carta.engine.view"]


def rulesets_imports(package: str) -> list[str]:
    prefix = f"{ROOT}.{package}"
    return sorted(f"{m} -> {d}" for m, deps in import_graph().items() if m == prefix or m.startswith(prefix + ".")
                  for d in deps if d == f"{ROOT}.rulesets" or d.startswith(f"{ROOT}.rulesets."))


@pytest.mark.parametrize("package", PLATFORM)
def test_the_platform_imports_no_ruleset(package):
    """core, web, cli, store and ai reach a ruleset only through ``oriflamme.core.registry``."""
    bad = rulesets_imports(package)
    assert not bad, f"oriflamme.{package} imports a ruleset's modules: {bad}"


def test_no_large_import_cycle():
    """The largest strongly connected component of the import graph of ``src/oriflamme``
    (every import statement, function-level ones included) has at most 3 modules."""
    comps = TOOL.strongly_connected(import_graph())
    assert len(comps[0]) <= MAX_CYCLE, f"{len(comps[0])} modules import each other: {comps[0]}"
