"""Who may fire, at whom, and the fire ruling (the seed's fire rules, l.3-9 and l.15-24, with
the house fire table, LB house §5).

Modes: ``B`` (step B, l.4-9), ``D2`` (l.15, l.21), ``defensive`` and ``offensive`` (D4,
l.18-19, l.22-23). Each function answers with the rule's citation so that a refusal names it.
"""

from __future__ import annotations

from fractions import Fraction

from .board import front_hexes, in_arc
from .queries import H, adjacent_enemies, live_units
from .rules import rules
from .state import State, Unit

SEED = "LB seed 001"


def mode_of(state: State) -> str | None:
    if state.step in ("B", "D2"):
        return state.step
    if state.step == "D4" and state.current is not None:
        stage = state.combats[state.current].stage
        if stage in ("defensive", "offensive"):
            return stage
    return None


def why_not_shooter(state: State, unit: Unit, mode: str) -> tuple[str, str] | None:
    """(reason, ref) when ``unit`` may not fire now in ``mode``; None when it may."""
    r = rules()
    if unit.broken:
        return f"{unit.name} is broken", r.victory.ref
    if unit.spec.fire <= 0:
        return f"{unit.name} has no fire capability", unit.spec.ref
    if unit.id in state.fired:
        return f"{unit.name} has already fired in this step", "LB house §5.1"
    if mode == "B":
        order = r.fire_order[state.b_index]
        if unit.side != state.role_side(order.side) or unit.spec.category != order.category:
            who = f"the {order.side}'s {order.category}"
            if unit.spec.category not in ("artillery", "archers"):
                return (f"only artillery and archers fire in step B; {unit.name} may not, whatever its fire "
                        "capability", f"{SEED} l.9")
            return f"step B fires in a fixed order: now {who}", order.ref
        return None
    if mode == "D2":
        if unit.side != state.active_side or unit.leader != state.active_leader:
            return "at D2 fire only the units the activated leader commands", f"{SEED} l.13, l.15"
        return None
    combat = state.combats[state.current]
    if mode == "defensive":
        if unit.id not in combat.defenders:
            return "defensive fire is reserved to the units targeted by the melee", f"{SEED} l.22-23"
        return None
    # offensive
    if unit.id in combat.attackers:
        return None
    here = [state.units[a] for a in combat.attackers if not state.units[a].broken and state.units[a].hex == unit.hex]
    if not here:
        return ("offensive fire is reserved to units that will melee or are stacked with one", f"{SEED} l.22")
    if unit.spec.category == "artillery" and not any(a.spec.category == "infantry" for a in here):
        return ("artillery fires offensively only when stacked with infantry that will melee", f"{SEED} l.22")
    if unit.side != state.active_side:
        return "offensive fire belongs to the active player", f"{SEED} l.19"
    return None


def why_not_target(state: State, unit: Unit, target: Unit, mode: str) -> tuple[str, str] | None:
    """(reason, ref) when ``unit`` may not fire at ``target`` in ``mode``."""
    k = unit.spec
    if target.broken or target.side == unit.side:
        return f"{target.name} is not an enemy on the map", "LB house §5.1"
    a, b = H(unit.hex), H(target.hex)
    d = a.distance(b)
    if d > k.range:
        return f"{target.name} is {d} hexes away, beyond the range of {k.range}", k.ref
    if mode == "defensive":
        return None  # any direction, any target (l.23)
    if mode == "offensive":
        combat = state.combats[state.current]
        if target.id not in combat.defenders:
            return "offensive fire is at the units of the combat", "LB house §5.1"
    if not in_arc(a, unit.facing, b):
        return f"{target.name} is outside the front arc of {unit.name}", "LB house §2.2"
    if mode in ("B", "D2") and adjacent_enemies(state, unit):
        # l.21: a unit next to an enemy does not fire before the combats; l.24: except at an
        # adjacent enemy in a front hex across a hexside (or rule) that forbids combat with it
        if d == 1 and b in front_hexes(a, unit.facing) and not state.board.combat_allowed(a, b):
            return None
        return (f"{unit.name} is adjacent to an enemy: before the combats it fires only at an adjacent "
                "enemy in a front hex with which combat is impossible", f"{SEED} l.4, l.21, l.24")
    return None


def shooters(state: State, side: str, mode: str) -> list[Unit]:
    return [u for u in live_units(state, side) if why_not_shooter(state, u, mode) is None]


def targets(state: State, unit: Unit, mode: str) -> list[Unit]:
    return [t for t in live_units(state, state.enemy(unit.side)) if why_not_target(state, unit, t, mode) is None]


# --- the ruling -----------------------------------------------------------------------------
def ruling(state: State, unit: Unit, target: Unit, mode: str) -> dict:
    """Everything but the die: fire points, column, modifiers, and the exact probability of each
    result (LB house §5.2-5.3)."""
    r = rules()
    k = unit.spec
    a, b = H(unit.hex), H(target.hex)
    points = unit.steps * k.fire
    col = min(points, len(r.fire.columns)) - 1
    mods = []
    d = a.distance(b)
    if d >= k.long_from:
        mods.append(r.fire_modifiers["long_range"])
    if state.board.terrain_of(b).cover:
        mods.append(r.fire_modifiers["target_cover"])
    if unit.disordered:
        mods.append(r.fire_modifiers["shooter_disordered"])
    total = sum(m.value for m in mods)
    probs: dict[str, Fraction] = {}
    cells = []  # the table cell each die reads (die, modified die, result)
    for die in range(1, 11):
        row = max(1, min(10, die + total))
        res = r.fire.cell(col, row)
        cells.append({"die": die, "row": row, "result": res})
        probs[res] = probs.get(res, Fraction(0)) + Fraction(1, 10)
    mode_ref = {"B": f"{SEED} l.3-9", "D2": f"{SEED} l.15, l.21", "defensive": f"{SEED} l.18, l.22-23",
                "offensive": f"{SEED} l.19, l.22"}[mode]
    if mode in ("B", "D2") and d == 1:
        mode_ref += ", l.24"
    steps_en = [f"{unit.name} ({k.name_en}, {unit.steps} step(s) x {k.fire}) fires at {target.name}, {d} hex(es): "
                f"{points} fire point(s), column {r.fire.columns[col]}"]
    steps_fr = [f"{unit.name} ({k.name_fr}, {unit.steps} pas x {k.fire}) tire sur {target.name}, à {d} hex : "
                f"{points} point(s) de tir, colonne {r.fire.columns[col]}"]
    for m in mods:
        steps_en.append(f"+{m.value} to the die: {m.label_en} ({m.ref})")
        steps_fr.append(f"+{m.value} au dé : {m.label_fr} ({m.ref})")
    return {"kind": "fire", "mode": mode, "shooter": unit.id, "target": target.id, "points": points,
            "column": r.fire.columns[col], "column_index": col, "modifier": total,
            "modifiers": [m.id for m in mods], "steps": steps_en, "steps_fr": steps_fr,
            "citations": [mode_ref, r.fire.ref] + [m.ref for m in mods],
            "outcomes": [{"result": k2, "label": r.fire_results[k2].label_en, "label_fr": r.fire_results[k2].label_fr,
                          "p": float(p), "p_exact": str(p)} for k2, p in sorted(probs.items())],
            "table": "fire", "cells": cells}


def cell(ruling_: dict, die: int) -> tuple[int, str]:
    r = rules()
    modified = max(1, min(10, die + ruling_["modifier"]))
    return modified, r.fire.cell(ruling_["column_index"], modified)
