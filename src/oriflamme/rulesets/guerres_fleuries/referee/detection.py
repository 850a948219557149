"""``"kind": "detection"``: revealing a movement base (GF Tables récapitulatives > Détection (si
aucun des 2 camps n'est reconnu)). GF-K1."""

from __future__ import annotations

from .. import modifiers
from ..detection import data
from ..names import match
from . import Ruling, kind
from ._fields import die, flag, number, only

FIELDS = {"target_position", "distance_cm", "shifts", "d10", "fired"}


@kind("detection")
def detection(situation: dict) -> dict:
    only(situation, FIELDS, "detection")
    d = data()
    r = Ruling("detection")
    pos = d.positions[match("target_position", situation.get("target_position"),
                            {p.id: [p.printed, *p.names] for p in d.positions.values()})]
    dist = number(situation, "distance_cm")
    roll = die(situation, "d10", required=False)
    r.fields.update({"target_position": pos.id, "target_position_printed": pos.printed, "distance_cm": dist})
    if flag(situation, "fired"):
        note = d.notes[0]
        r.fields.update({"automatic": True, "revealed": True})
        r.step(f"\"{note.printed}\"", note.ref)
        return r.to_json()
    first = d.column_of(dist)
    r.step(f"Distance {dist:g} cm: column {d.columns[first].printed} (columns are \"up to\" N cm)",
           d.columns[first].ref, "GF-K1")
    total, terms = modifiers.applied("detection", situation.get("shifts"), field="shifts")
    for t in terms:
        way = "right" if t["value"] > 0 else "left"
        r.step(f"Shift \"{t['printed']}\": {abs(t['value'])} {way} × {t['count']} = {t['total']:+d}",
               t["ref"], t["decision"])
    wanted = first + total
    col = min(max(wanted, 0), len(d.columns) - 1)
    if col != wanted:
        r.step(f"Shifts total {total:+d} would leave the table: they stop at column {d.columns[col].printed}",
               "GF-K1")
    cell = pos.cells[col]
    r.fields.update({"shift_total": total, "shifts": terms, "column": d.columns[col].printed, "cell": cell})
    r.step(f"Row {pos.printed}, column {d.columns[col].printed}: {cell}", pos.ref)
    if cell == "..":
        r.fields.update({"automatic": True, "revealed": True})
        r.step("\"..\": the base is revealed automatically", "GF-K1")
    elif cell == "imp":
        r.fields.update({"impossible": True, "revealed": False})
        r.step("\"imp\": detection is impossible", "GF-K1")
    else:
        need = int(cell)
        r.fields["need_d10_at_least"] = need
        if roll is not None:
            r.fields["d10"] = roll
            r.fields["revealed"] = roll >= need
            r.step(f"d10 {roll} {'≥' if roll >= need else '<'} {need}: the base is "
                   f"{'revealed' if roll >= need else 'not revealed'}", d.rules.ref, "GF-K1")
        else:
            r.step(f"A d10 of {need} or more reveals the base", d.rules.ref, "GF-K1")
    return r.to_json()
