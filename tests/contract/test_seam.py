"""The seam, checked statically on the source: the platform's packages reach a ruleset only
through the registry, and the modules of ``src/oriflamme`` have no large import cycle.

Every ``import`` and ``from … import`` statement counts, wherever it is (module level, inside a
function, under ``if TYPE_CHECKING``): a late import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ROOT = "oriflamme"
PLATFORM = ("core", "web", "cli", "store", "ai")
MAX_CYCLE = 3


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / ROOT).rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``oriflamme`` modules that ``name``'s source imports (``from pkg import mod`` counts
    as importing ``pkg.mod`` when that is a module, ``pkg`` otherwise)."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT:
                    out.add(_nearest(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else _nearest(target, known))
    out.discard(name)
    return out


def _nearest(dotted: str, known: set[str]) -> str:
    while dotted and dotted not in known:
        dotted = dotted.rpartition(".")[0]
    return dotted


def import_graph() -> dict[str, set[str]]:
    mods = all_modules()
    known = set(mods)
    return {m: imports_of(m, p, known) for m, p in mods.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the strongly connected components, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    comps: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    comps.append(sorted(comp))
    return sorted(comps, key=len, reverse=True)


def test_the_graph_tools_work_on_a_known_case():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert strongly_connected(g)[0] == ["a", "b", "c"]
    known = set(all_modules())
    # a function-level, relative import is found (view.py imports game inside view())
    deps = imports_of("oriflamme.rulesets.magna_carta.engine.view",
                      all_modules()["oriflamme.rulesets.magna_carta.engine.view"], known)
    assert "oriflamme.rulesets.magna_carta.engine.game" in deps


def _current_cycle() -> list[str]:
    return strongly_connected(import_graph())[0]




def rulesets_imports(package: str) -> list[str]:
    graph = import_graph()
    prefix = f"{ROOT}.{package}"
    return sorted(f"{m} -> {d}" for m, deps in graph.items() if m == prefix or m.startswith(prefix + ".")
                  for d in deps if d == f"{ROOT}.rulesets" or d.startswith(f"{ROOT}.rulesets."))


@pytest.mark.parametrize("package", PLATFORM)
def test_the_platform_imports_no_ruleset(package):
    """core, web, cli, store and ai reach a ruleset only through ``oriflamme.core.registry``."""
    bad = rulesets_imports(package)
    assert not bad, f"oriflamme.{package} imports a ruleset's modules: {bad}"


def test_no_large_import_cycle():
    """The largest strongly connected component of the import graph of ``src/oriflamme``
    (every import statement, function-level ones included) has at most 3 modules."""
    comps = strongly_connected(import_graph())
    assert len(comps[0]) <= MAX_CYCLE, f"{len(comps[0])} modules import each other: {comps[0]}"
