"""``"kind": "table"``: one roll on a die table of ``data/tables/`` — the magic failure table, the
divine intervention table, the priest's magic protection, the magic weapons' curses (gf-army's
``curses.toml``), the wound locations: any ``data/tables/<name>.toml``, by its name or its title
as printed."""

from __future__ import annotations

from .. import d100
from ..names import RefereeError, fold, match
from . import Ruling, kind
from ._fields import only

ALIASES = {"magic_failure": ["échecs magiques", "Table des échecs magiques", "magic failure"],
           "divine_intervention": ["interventions divines", "intervention divine", "divine intervention"],
           "priest_protection": ["protection magique", "table des armes", "magic protection"],
           "curses": ["malédictions", "malédiction", "Table des malédiction", "curse"]}


@kind("table")
def table(situation: dict) -> dict:
    only(situation, {"table", "d100", "d10", "d6", "d4"}, "table")
    names = d100.names()
    choices = {name: [d100.table(name).head.title, d100.table(name).head.title_en, *ALIASES.get(name, [])]
               for name in names}
    given = situation.get("table")
    for name, aliases in ALIASES.items():  # a table the seed prints but whose data file is not here
        if name not in names and isinstance(given, str) and fold(given) in {fold(a) for a in [name, *aliases]}:
            raise RefereeError(f"field table: {given!r} has no data file here (data/tables/{name}.toml)")
    t = d100.table(match("table", given, choices))
    field = f"d{t.head.die}"
    roll = situation.get(field)
    row = t.read(roll, field)
    r = Ruling("table")
    r.fields.update({"table": t.name, "title": t.head.title, "title_en": t.head.title_en, field: roll,
                     "range": [row.low, row.high], "result": row.result, "result_en": row.result_en})
    r.step(f"{t.head.title}: {field} {roll} is in {row.low}–{row.high}: {row.result}",
           t.head.ref, row.ref, row.decision)
    return r.to_json()
