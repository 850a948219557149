"""The melee of one declared combat (D4.3, LB seed 001 l.20) on the house combat table: odds
columns rounded in the defender's favour, column shifts, a d10 (LB house §6)."""

from __future__ import annotations

from fractions import Fraction

from .board import front_hexes
from .queries import H
from .rules import rules
from .state import Combat, State, Unit


def strongest(units: list[Unit]) -> Unit:
    """The unit that takes a step loss: the one with most steps, then the first listed (§6.3)."""
    return sorted(units, key=lambda u: -u.steps)[0]


def live(state: State, ids: list[str]) -> list[Unit]:
    return [state.units[i] for i in ids if not state.units[i].broken]


def ruling(state: State, combat: Combat) -> dict:
    r = rules()
    att, dfn = live(state, combat.attackers), live(state, combat.defenders)
    target = H(combat.hex)
    a_pts = sum(u.steps * u.spec.attack for u in att)
    d_pts = sum(u.steps * u.spec.defence for u in dfn)
    base = 0
    for i, (num, den) in enumerate(r.combat.ratios):
        if a_pts * den >= d_pts * num:
            base = i
    shifts = []
    lead = strongest(dfn)
    fronts = set(front_hexes(target, lead.facing))
    if any(H(u.hex) not in fronts for u in att):
        shifts.append(r.combat_shifts["flank"])
    if any(u.disordered for u in dfn):
        shifts.append(r.combat_shifts["defender_disordered"])
    ter = state.board.terrain_of(target)
    if ter.defence_shift:
        shifts.append(r.combat_shifts["defender_terrain"])
    if any((hs := state.board.hexside(H(u.hex), target)) is not None and hs.attack_shift for u in att):
        shifts.append(r.combat_shifts["across_bridge"])
    col = max(0, min(len(r.combat.columns) - 1, base + sum(s.value for s in shifts)))
    probs: dict[str, Fraction] = {}
    cells = [{"die": die, "row": die, "result": r.combat.cell(col, die)} for die in range(1, 11)]
    for die in range(1, 11):
        res = r.combat.cell(col, die)
        probs[res] = probs.get(res, Fraction(0)) + Fraction(1, 10)
    names = ", ".join(u.name for u in att)
    dnames = ", ".join(u.name for u in dfn)
    steps_en = [f"{names} attack {dnames} in {combat.hex}: {a_pts} against {d_pts}, column {r.combat.columns[base]}"]
    steps_fr = [f"{names} attaquent {dnames} en {combat.hex} : {a_pts} contre {d_pts}, colonne {r.combat.columns[base]}"]
    for s in shifts:
        steps_en.append(f"{s.value:+d} column: {s.label_en} ({s.ref})")
        steps_fr.append(f"{s.value:+d} colonne : {s.label_fr} ({s.ref})")
    if shifts:
        steps_en.append(f"resolved on column {r.combat.columns[col]}")
        steps_fr.append(f"résolu sur la colonne {r.combat.columns[col]}")
    return {"kind": "melee", "hex": combat.hex, "attack": a_pts, "defence": d_pts,
            "base_column": r.combat.columns[base], "column": r.combat.columns[col], "column_index": col,
            "shifts": [s.id for s in shifts], "steps": steps_en, "steps_fr": steps_fr, "table": "combat", "cells": cells,
            "citations": ["LB seed 001 l.17, l.20", r.combat.ref] + [s.ref for s in shifts],
            "outcomes": [{"result": k, "label": r.combat_results[k].label_en, "label_fr": r.combat_results[k].label_fr,
                          "p": float(p), "p_exact": str(p)} for k, p in sorted(probs.items())]}
