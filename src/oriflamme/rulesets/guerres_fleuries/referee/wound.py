"""``"kind": "wound"``: a wound on a character, a monster or the Ptéradon — the location on d100,
the wound on d4 (GF Tableau des blessures sur les personnages; Blessures sur un Ptéradon; Blessure
sur un monstre)."""

from __future__ import annotations

from ..names import RefereeError, match
from ..wounds import SERIOUS, TABLES, data
from . import Ruling, kind
from ._fields import die, flag, only

FIELDS = {"table", "d100", "d4", "held", "stunned"}
SEVERITY_NAMES = {"serious": ["Blessure sérieuse", "sérieuse", "serious"],
                  "severe": ["Blessure sévère", "sévère", "severe"],
                  "critical": ["Blessure critique", "critique", "critical", "grave", "Blessé grièvement"],
                  "light": ["Blessure légère", "légère", "light", "Blessé légèrement"],
                  "cut": ["Coupure", "cut"], "wounded": ["Blessé", "wounded"],
                  "stunned": ["Etourdi", "stunned"], "blind": ["Aveugle", "blind"]}


@kind("wound")
def wound(situation: dict) -> dict:
    only(situation, FIELDS, "wound")
    w = data()
    r = Ruling("wound")
    table = match("table", situation.get("table"), TABLES)
    loc_table = w.location(table)
    roll = die(situation, "d100")
    loc = loc_table.read(roll, "d100")
    d4 = die(situation, "d4")
    cell = w.cells[(table, loc.result, d4)]
    r.fields.update({"table": table, "d100": roll, "d4": d4, "location": loc.result, "location_en": loc.result_en,
                     "wound": cell.printed, "wound_en": cell.text_en, "severity": cell.severity,
                     "state": cell.state})
    r.step(f"d100 {roll}: {loc.result} ({loc.low}–{loc.high})", loc.ref, loc.decision)
    r.step(f"d4 {d4}: {cell.printed}", cell.ref, cell.decision)
    dies = cell.dies
    held = situation.get("held") or []
    if not isinstance(held, list):
        raise RefereeError("field held: expected a list of the wounds already held (e.g. [\"Blessure sérieuse\"])")
    held_ids = [match(f"held[{i}]", h, SEVERITY_NAMES) for i, h in enumerate(held)]
    rule = w.rules[table]
    if not dies and cell.severity in SERIOUS and any(h in SERIOUS for h in held_ids):
        dies = True
        r.step(f"A second serious or critical wound kills: \"{rule.printed}\"", rule.ref, "GF-G2")
    if not dies and flag(situation, "stunned"):
        dies = True
        stun = w.cells[(table, loc_table.rows[0].result, 1)]
        r.step("Wounded while stunned (Etourdi) this turn: he dies", stun.ref)
    if dies and cell.dies:
        r.step("The cell reads \"Il meurt\": the victim dies")
    r.fields["dies"] = dies
    r.fields["wound_state_after"] = "dead" if dies else _worst([cell.state] + [_state(h) for h in held_ids])
    r.step(f"Wound state for morale and magic (the worst held): {r.fields['wound_state_after']}", "GF-G3")
    return r.to_json()


def _state(severity: str) -> str:
    return {"severe": "serious", "serious": "serious", "critical": "grave"}.get(severity, "light")


def _worst(states: list[str]) -> str:
    order = ["none", "light", "serious", "grave"]
    return max(states, key=order.index)
