"""The engine's architecture, checked: its import graph has no cycle, no module reaches for a
private name of another, and every action type has a handler (check, effect, preview)."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from oriflamme.rulesets.magna_carta.engine import handlers
from oriflamme.rulesets.magna_carta.engine.actions import ACTION_TYPES
from oriflamme.rulesets.magna_carta.engine.hooks import HOOKS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "src" / "oriflamme" / "rulesets" / "magna_carta" / "engine"


def _import_graph_tool():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "benchmarks" / "import_graph.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# the ≤ 3 cycle rule for the whole of src/ is tests/contract/test_seam.py's


def test_the_magna_carta_engine_is_acyclic():
    tool = _import_graph_tool()
    engine = [c for c in tool.strongly_connected(tool.graph())
              if len(c) > 1 and any(m.startswith("oriflamme.rulesets.magna_carta.engine") for m in c)]
    assert engine == []


def test_no_module_imports_a_private_name_of_another():
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                offenders += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert offenders == []


def test_every_action_type_has_a_handler():
    assert set(handlers.HANDLERS) == set(ACTION_TYPES)


def test_the_hooks_are_provided():
    assert HOOKS.names() == ["after_move_grab", "defensive_fire_on_enter", "defensive_fire_refusal", "offer_grab",
                            "resolve_fire"]
