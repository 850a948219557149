"""``"kind": "morale"``: a morale test (GF Le moral; GF Tables récapitulatives > Moral; creatures'
and monsters' morale). GF-I1: score = base + Σ modifiers + d4, read in the result table."""

from __future__ import annotations

from .. import modifiers
from ..morale import STATES, data
from ..names import RefereeError, match
from . import Ruling, kind
from ._fields import die, flag, integer, only

FIELDS = {"tester", "class", "losses", "initial_strength", "wound_state", "d4", "modifiers", "character",
          "fanatic", "magic"}
MODIFIER_FILE = {"troops": "morale", "creature": "morale_creatures", "monster": "morale_monsters"}
GENERIC = {"creature": ["creature", "créature", "creatures"], "monster": ["monster", "monstre", "monsters"]}
CLASS_NAMES = {"A": ["A"], "B": ["B"], "C": ["C"], "M": ["M", "mercenaire", "mercenaires", "mercenary"]}


def wound_state(text, field: str = "wound_state") -> str:
    """The wound state (GF-G3) of a printed column head, a state word or a wound name."""
    return match(field, text, {s.id: s.names for s in data().states.values()})


@kind("morale")
def morale(situation: dict) -> dict:
    only(situation, FIELDS, "morale")
    m = data()
    r = Ruling("morale")
    choices = {t.id: t.names for t in m.testers.values()} | GENERIC
    tid = match("tester", situation.get("tester"), choices)
    tester = m.testers.get(tid)
    tkind = tester.kind if tester else tid
    r.fields["tester"] = tid
    r.fields["tester_kind"] = tkind

    # --- the column (class) read in the base and result tables ---
    given_class = situation.get("class")
    klass = match("class", given_class, CLASS_NAMES) if given_class is not None else None
    if tkind == "troops":
        if klass is None:
            raise RefereeError("field class: missing (A, B, C or M) for a troop unit")
        column = "C" if klass == "M" else klass
        if klass == "M":
            r.step("Class M reads the row of classes C and M and the result column C", "GF-I3")
    else:
        allowed = ("A", "B")
        if klass is not None and klass not in allowed:
            raise RefereeError(f"field class: creatures and monsters read column A or B, not {klass}")
        if tester is not None and tester.column:
            if klass is not None and klass != tester.column:
                raise RefereeError(f"field class: {tester.names[0]} reads column {tester.column}, not {klass} "
                                   f"({tester.ref}{'; ' + tester.decision if tester.decision else ''})")
            column = tester.column
            r.step(f"{tester.names[0]} reads column {column}", tester.ref, tester.decision)
        elif klass is None:
            raise RefereeError(f"field class: missing (A or B) for a generic {tid}; or name it "
                               f"(e.g. 'Jaguar', 'Ptéradon', 'Grand saurien')")
        else:
            column = klass
    r.fields["class"] = klass or column
    r.fields["column"] = column

    # --- the base: by losses (troops, creatures) or by wound state (Ptéradon, monsters) ---
    base_table = tester.base if tester else ("creature" if tid == "creature" else "monstres")
    losses, initial = situation.get("losses"), situation.get("initial_strength")
    removed = False
    if base_table in m.wound_bases:
        if losses is not None or initial is not None:
            field = "losses" if losses is not None else "initial_strength"
            raise RefereeError(f"field {field}: the morale of a Ptéradon or a monster follows its wounds, not "
                               f"losses (use wound_state; {m.wound_bases[base_table].ref})")
        wb = m.wound_bases[base_table]
        state = wound_state(situation["wound_state"]) if situation.get("wound_state") is not None else "none"
        base = wb.by_state[STATES.index(state)]
        r.fields["wound_state"] = state
        r.step(f"Base ({wb.printed}, wound state {m.states[state].names[1]}): {base}"
               + ("" if situation.get("wound_state") is not None else " (no wound_state given: unwounded)"),
               wb.ref, "GF-G3")
    else:
        if situation.get("wound_state") is not None:
            raise RefereeError("field wound_state: only the Ptéradon's and the monsters' morale follows wounds; "
                               "a unit's follows its losses (losses, initial_strength)")
        if (losses is None) != (initial is None):
            raise RefereeError(f"field {'initial_strength' if initial is None else 'losses'}: give losses and "
                               "initial_strength together (losses as a share of the initial strength)")
        step = m.losses.step_pct
        exempt = flag(situation, "fanatic") or flag(situation, "magic")
        if losses is not None:
            initial = integer(situation, "initial_strength", low=1)
            losses = integer(situation, "losses", low=0, high=initial)
            pct = losses * 100 / initial
            col = min(losses * 100 // initial // step * step, m.losses.last_column_pct)
            r.step(f"Losses {losses}/{initial} = {pct:.4g} %, rounded down to a multiple of {step} %: "
                   + (f"column -{col} %" if col else "no loss column (the base printed in brackets)"),
                   m.losses.ref, "GF-I2")
        else:
            initial, losses, pct, col = 1, 0, 0.0, 0
            r.step("No losses given: the base printed in brackets")
        row = m.base_row(base_table, klass if tkind == "troops" else column)
        base = row.by_losses[col // step]
        r.fields["losses_pct"] = round(pct, 2)
        r.fields["loss_column"] = -col
        r.step(f"Base (row {row.printed}): {base}", row.ref, row.decision)
        if losses * 100 > m.losses.last_column_pct * initial:
            if exempt:
                r.step(f"More than {m.losses.last_column_pct} % lost, but fanatics and magic are exempt: the "
                       f"-{m.losses.last_column_pct} % column is read",
                       m.losses.ref, "GF-I2")
            else:
                removed = True
    r.fields["base"] = base

    # --- modifiers, d4, score, result ---
    kind_file = MODIFIER_FILE[tkind]
    given = situation.get("modifiers")
    total, terms = modifiers.applied(kind_file, given, situation.get("character"))
    if tkind == "troops" and klass == "M" and not any(t["modifier"] == "mercenaries" for t in terms):
        merc = modifiers.modifiers(kind_file)["mercenaries"]
        total += merc.value
        terms.append({"modifier": "mercenaries", "printed": merc.printed, "value": merc.value, "count": 1,
                      "total": merc.value, "ref": merc.ref, "decision": merc.decision, "automatic": True})
        r.step(f"Class M: the modifier \"{merc.printed}\" ({merc.value:+d}) applies", merc.ref, "GF-B4")
    for t in terms:
        capped = f", capped at {t['capped_at']}" if "capped_at" in t else ""
        r.step(f"Modifier \"{t['printed']}\" {t['value']:+d} × {t['count']}{capped} = {t['total']:+d}",
               t["ref"], t["decision"])
    d4 = die(situation, "d4")
    score = base + total + d4
    res = m.result(tester.results if tester else ("creatures" if tid == "creature" else "monsters"), score)
    code = "DER" if removed else res.codes[column]
    r.fields.update({"modifiers": terms, "modifier_total": total, "d4": d4, "score": score, "result": code})
    r.step(f"Score = base {base} {total:+d} (modifiers) + d4 {d4} = {score}", "GF Le moral > Procédure pour un "
           "test de moral; GF seed 003 l.1039-1042", "GF-I1")
    if removed:
        r.fields["removed"] = True
        r.step(f"More than {m.losses.last_column_pct} % of the initial strength lost: the unit routs (DER) whatever the score and is "
               f"removed from play — \"{m.losses.printed}\"", m.losses.ref, "GF-I2")
    else:
        r.fields["removed"] = False
        r.step(f"Result table, score {res.printed}, column {column}: {code}", res.ref)
    c = m.codes[code]
    r.fields["result_fr"] = c.printed
    r.fields["result_en"] = c.text_en
    r.cite(c.ref)
    return r.to_json()
