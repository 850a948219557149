"""``"kind": "automatic_movement"``: ``{"table": "troops"|"creatures"|"monsters", "d100"}`` ->
``result`` (the printed action), ``result_en``."""

from __future__ import annotations

from .. import d100
from ..names import match
from . import Ruling, kind
from ._checks import integer, known

TABLES = {"troops": ["troops", "troupes", "unités", "units"],
          "creatures": ["creatures", "créatures"],
          "monsters": ["monsters", "monstres"]}


@kind("automatic_movement")
def automatic_movement(situation: dict) -> dict:
    known(situation, {"table", "d100"})
    name = match("table", situation.get("table"), TABLES)
    roll = integer(situation, "d100", 1, 100)
    table = d100.table(f"automatic_{name}")
    row = table.read(roll)
    r = Ruling("automatic_movement")
    r.step(f"{table.head.title}: d100 {roll} reads row {row.low}–{row.high}", table.head.ref)
    r.step(f"result: {row.result}", row.ref, row.decision)
    if roll == 100:
        r.cite("GF-A2")
    r.fields.update({"table": name, "d100": roll, "row": [row.low, row.high], "result": row.result,
                     "result_en": row.result_en})
    return r.to_json()
