"""``"kind": "fire"``: one unit's fire (GF Le tir > Procédure de tir; Tirs > PBT).

``{"shooter_race", "weapon", "distance_cm", "target_armour", "firing_figures", "target",
"propulseur"?, "modifiers", "shooter_class"?, "target_ranks"?, "firing_ranks"?, "from_woods"?,
"target_altitude"?, "d100"?}`` -> ``in_range``, ``band``, ``base_pct``, ``modifier_total``,
``modified_pct``, ``multiplied_pct``, ``final_pct``, ``eliminated``, ``residual_pct``,
``extra_if_d100_at_most`` (and ``extra`` with a ``d100``)."""

from __future__ import annotations

from fractions import Fraction

from .. import beings
from .. import fire as fd
from .. import movement as mv
from ..names import RefereeError, match
from ..percent import exact, number
from . import Ruling, kind
from ._checks import boolean, integer, known
from ._checks import number as num
from ._mods import casualties, gather, row_decision

FIELDS = {"shooter_race", "weapon", "distance_cm", "target_armour", "firing_figures", "target", "propulseur",
          "modifiers", "shooter_class", "target_ranks", "firing_ranks", "from_woods", "target_altitude", "d100"}


@kind("fire")
def fire(situation: dict) -> dict:
    known(situation, FIELDS)
    r = Ruling("fire")
    race = beings.race("shooter_race", situation.get("shooter_race"))
    weapon = fd.weapons()[match("weapon", situation.get("weapon"), fd.choices(fd.weapons()))]
    armour = match("target_armour", situation.get("target_armour"), fd.choices(fd.armours()))
    target = fd.targets()[match("target", situation.get("target", "unit"), fd.choices(fd.targets()))]
    figures = integer(situation, "firing_figures", 0, 1000)
    d100 = integer(situation, "d100", 1, 100, required=False)
    row = fd.pbt()[(race, weapon.id)]
    distance = Fraction(num(situation, "distance_cm", 0, 10000)).limit_denominator(1000)
    r.step(f"{beings.printed_name(race)} {weapon.names[0]}: short ≤ {row.courte}, medium ≤ {row.moyenne}, "
           f"long ≤ {row.longue} cm", row.ref, row_decision(row.decision, armour))
    r.cite("GF-E7")

    # firing ranks (GF-E8)
    rk = fd.ranks()[weapon.id]
    max_ranks = 1 if boolean(situation, "from_woods") else getattr(rk, race)
    r.fields["max_firing_ranks"] = max_ranks
    firing_ranks = integer(situation, "firing_ranks", 1, 50, required=False)
    if firing_ranks is not None and firing_ranks > max_ranks:
        why = "only the first rank fires from woods (GF seed 003 l.726)" if situation.get("from_woods") \
            else f"{weapon.names[0]} fires on {max_ranks} rank(s) ({rk.ref}, GF-E8)"
        raise RefereeError(f"field firing_ranks: {firing_ranks} ranks cannot fire: {why}")

    # flying target at flight altitude: +50 cm (GF-E7)
    if situation.get("target_altitude") is not None:
        alt = mv.altitudes()[match("target_altitude", situation["target_altitude"],
                                   {a.id: list(a.names) for a in mv.altitudes().values()})]
        if alt.extra_range_cm:
            distance += alt.extra_range_cm
            r.step(f"target at {alt.names[0]}: + {alt.extra_range_cm} cm = {mv._cm(distance)} cm", alt.ref,
                   alt.decision)
    longue = row.longue
    if boolean(situation, "propulseur"):
        if not weapon.propulseur_cm:
            raise RefereeError(f"field propulseur: only javelins are thrown with a propulseur (GF seed 003 l.1480)")
        longue += weapon.propulseur_cm
        r.step(f"propulseur: + {weapon.propulseur_cm} cm to the long range only: long ≤ {longue} cm",
               weapon.ref, "GF-E3")
    band = None
    for bid, limit in (("courte", row.courte), ("moyenne", row.moyenne), ("longue", longue)):
        if distance <= limit:
            band = fd.bands()[bid]
            break
    r.fields.update({"shooter_race": beings.printed_name(race), "weapon": weapon.id, "target": target.id,
                     "target_armour": armour, "distance_cm": number(distance), "casualties": target.casualties})
    if band is None:
        r.step(f"{mv._cm(distance)} cm is beyond the maximum range ({longue} cm): the target cannot be hit",
               "GF seed 003 l.854")
        r.fields.update({"in_range": False, "band": None, "base_pct": None, "modifier_total": 0,
                         "modified_pct": None, "multiplied_pct": 0, "final_pct": 0, "eliminated": 0,
                         "residual_pct": 0, "extra_if_d100_at_most": 0})
        if d100 is not None:
            r.fields.update({"d100": d100, "extra": False})
        return r.to_json()
    base = getattr(row, armour)
    r.step(f"{mv._cm(distance)} cm: {band.id} range; base {base} % against {fd.armours()[armour].names[0]}",
           row.ref, row_decision(row.decision, armour))

    implied = []
    if target.auto_modifier:
        implied.append((target.auto_modifier, 1, f"the target is a {target.id}"))
    if situation.get("shooter_class") is not None:
        cls = beings.troop_class("shooter_class", situation["shooter_class"])
        if cls == "A":
            implied.append(("shooter_class_a", 1, "the shooter is class A"))
        elif cls == "C":
            implied.append(("shooter_class_c", 1, "the shooter is class C"))
    target_ranks = integer(situation, "target_ranks", 1, 50, required=False)
    if target_ranks is not None:
        implied.append(("per_enemy_rank", target_ranks, f"the target has {target_ranks} rank(s), the first "
                                                        f"included (GF-E4)"))
    total, terms = gather("fire", situation.get("modifiers"), implied, None, r,
                          forbidden={"per_enemy_rank": "target_ranks"} if target_ranks is not None else None)
    modified = base + total
    multiplied = modified * figures
    final = Fraction(multiplied, band.divisor)
    r.step(f"modified {base} {total:+d} = {modified} %; × {figures} figures = {multiplied} %; "
           f"÷ {band.divisor} ({band.id}) = {mv._cm(final)} %", "GF seed 003 l.1467-1469", "GF-E6")
    if final < 0:
        final = Fraction(0)
        r.step("a negative final percentage is 0", "GF-E5")
    r.fields.update({"in_range": True, "band": band.id, "base_pct": base, "modifier_total": total,
                     "modifiers_applied": terms, "modified_pct": modified, "multiplied_pct": multiplied,
                     "final_pct": number(final), "final_exact": exact(final)})
    casualties(r, final, target, d100, "GF seed 003 l.1470", "GF seed 003 l.883")
    return r.to_json()
