"""Print the strongly connected components of the import graph of ``src/oriflamme``.

Every ``import`` and ``from ... import`` counts, at module level or hidden inside a function
(a function-level import still ties the two modules together; it only hides the cycle from
the interpreter). ``if TYPE_CHECKING:`` imports are counted too unless ``--runtime`` is given.
Components of more than one module are cycles; they are printed largest first.

    python benchmarks/import_graph.py            # the cycles, largest first
    python benchmarks/import_graph.py --all      # also the edges inside each cycle
    python benchmarks/import_graph.py --under oriflamme.rulesets.magna_carta
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, modules: set[str], runtime_only: bool) -> set[str]:
    """The project modules that ``path`` imports (resolved, package ``__init__`` included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and _is_type_checking(node):
                for sub in node.body:
                    for inner in ast.walk(sub):
                        skip.add(id(inner))
    found: set[str] = set()

    def add(target: str) -> None:
        # the deepest project module named by ``target`` (a.b.c -> a.b.c or a.b)
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                base = ".".join(base)
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            for alias in node.names:  # ``from . import x`` may name a submodule
                if f"{mod}.{alias.name}" in modules:
                    add(f"{mod}.{alias.name}")
                else:
                    add(mod)
    return found


def graph(runtime_only: bool = False) -> dict[str, set[str]]:
    files = {module_name(p): p for p in ROOT.rglob("*.py")}
    modules = set(files)
    return {name: imports_of(path, modules, runtime_only) for name, path in files.items()}


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components sorted largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in g:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(g[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                result.append(sorted(comp))
    result.sort(key=lambda c: (-len(c), c))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="print the edges inside each cycle")
    parser.add_argument("--runtime", action="store_true", help="ignore `if TYPE_CHECKING:` imports")
    parser.add_argument("--under", default="oriflamme", help="only modules under this package")
    args = parser.parse_args(argv)
    g = graph(args.runtime)
    cycles = [c for c in strongly_connected(g) if len(c) > 1 and all(m.startswith(args.under) for m in c)]
    print(f"{len(g)} modules, {sum(len(v) for v in g.values())} import edges; "
          f"{len(cycles)} cycle(s), largest {len(cycles[0]) if cycles else 1} module(s)")
    for comp in cycles:
        print(f"\n{len(comp)} modules:")
        members = set(comp)
        for m in comp:
            inner = sorted(g[m] & members)
            print(f"  {m}" + (f"  -> {', '.join(x.rpartition('.')[2] for x in inner)}" if args.all else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
