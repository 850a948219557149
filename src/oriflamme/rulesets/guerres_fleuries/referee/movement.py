"""``"kind": "movement"``: how far a mover goes in one move.

``{"unit", "move", "formation"?, "terrain"?, "obstacles"?: [{"type", "at_cm"}], "medium"?,
"class"?, "formation_change"?, "firing"?, "flight"?}`` -> ``distance_cm`` (and the steps).
See :mod:`oriflamme.rulesets.guerres_fleuries.movement` for the readings applied."""

from __future__ import annotations

from fractions import Fraction

from .. import beings
from .. import movement as mv
from ..names import RefereeError, match
from ..percent import exact, number
from . import Ruling, kind
from ._checks import boolean, known
from ._checks import number as num

FIELDS = {"unit", "move", "formation", "terrain", "obstacles", "medium", "class", "formation_change",
          "firing", "flight"}
MEDIA = {"ground": ["ground", "sol", "terre", "sur terre", "au sol"],
         "air": ["air", "airs", "dans les airs", "en vol"]}
FIRING_MOVES = ("normal", "retraite")  # l.590, l.620; not double (l.594), charge (l.598), evasion (l.616)
WEAPONS = {"javeline": ["Javeline", "javelin"], "fronde": ["Fronde", "sling"], "arc": ["Arc", "bow"]}


def _choices(rows: dict) -> dict[str, list[str]]:
    return {rid: list(r.names) for rid, r in rows.items()}


def _terrain(field: str, text):
    every = {**_choices(mv.terrain_columns()), **_choices(mv.terrain_others())}
    tid = match(field, text, every)
    return tid, mv.terrain_columns().get(tid), mv.terrain_others().get(tid)


@kind("movement")
def movement(situation: dict) -> dict:
    known(situation, FIELDS)
    r = Ruling("movement")
    sort, mid = beings.mover("unit", situation.get("unit"))
    name = beings.printed_name(mid)
    move = mv.moves()[match("move", situation.get("move"), _choices(mv.moves()))]
    flight = situation.get("flight")
    medium = "air" if flight is not None else match("medium", situation.get("medium", "ground"), MEDIA)
    if flight is not None and situation.get("medium") is not None and match("medium", situation["medium"], MEDIA) != "air":
        raise RefereeError("field medium: a flight manoeuvre is made in the air")
    rate = mv.rates().get((mid, medium))
    if rate is None:
        raise RefereeError(f"field medium: {name} has no movement {'in the air' if medium == 'air' else 'on the ground'} "
                           f"printed (GF LES CREATURES > Mouvement en cm)")
    base = Fraction(getattr(rate, move.column))
    r.step(f"{name}, {move.id} ({'in the air' if medium == 'air' else 'on the ground'}): column "
           f"{move.column} = {base} cm", rate.ref, rate.decision)
    r.cite(move.ref, move.decision)
    allowance = base

    # formation (troops only)
    formation = None
    if sort == "race":
        formation = match("formation", situation.get("formation", "ligne"), _choices(mv.formations()))
        if move.column_only and formation != "colonne":
            raise RefereeError(f"field move: a double move needs a unit in column more than 50 cm from the "
                               f"nearest enemy with an order 'avancer' (GF seed 003 l.353, l.594); formation is "
                               f"{formation!r}")
        bonus = Fraction(mv.formations()[formation].bonus)
        if bonus:
            allowance += base * bonus
            r.step(f"open order: + {bonus} = {mv._cm(allowance)} cm", mv.formations()[formation].ref,
                   mv.formations()[formation].decision)
    elif situation.get("formation") is not None:
        raise RefereeError(f"field formation: {name} moves at its printed rate; formations are the troops' "
                           f"(creatures and monsters are not formed in line or column, GF seed 003 l.553, l.687)")

    # formation change: that fraction of the normal move is consumed (GF-D5)
    if boolean(situation, "formation_change"):
        if move.id == "charge":
            raise RefereeError("field formation_change: a charging unit cannot change formation "
                               "(GF seed 003 l.598)")
        fc = mv.formation_changes()[mid]
        cls = None
        if sort == "race":
            if situation.get("class") is None:
                raise RefereeError("field class: a formation change costs by class (A, B, C or M): missing")
            cls = beings.troop_class("class", situation["class"])
            cls = "M" if cls == "fanatique" else cls
        frac = fc.fraction(cls)
        cost = Fraction(rate.normal) * frac
        allowance = max(Fraction(0), allowance - cost)
        r.step(f"formation change{f' (class {cls})' if cls else ''}: {frac} of the normal move "
               f"({rate.normal} cm) = {mv._cm(cost)} cm consumed; {mv._cm(allowance)} cm left", fc.ref, fc.decision)
    elif situation.get("class") is not None and sort == "race":
        beings.troop_class("class", situation["class"])

    # fire and movement (GF-D6)
    if situation.get("firing") is not None:
        weapon = match("firing", situation["firing"], WEAPONS)
        if sort != "race":
            raise RefereeError(f"field firing: {name} has no missile weapon")
        if move.id not in FIRING_MOVES:
            raise RefereeError(f"field firing: a {move.id} move does not allow firing "
                               f"(GF seed 003 l.594, l.598, l.616, l.624); only normal and retreat moves")
        fam = mv.fire_and_move()[weapon]
        frac = Fraction(getattr(fam, mid))
        allowance -= allowance * frac
        r.step(f"moves and fires ({weapon}): - {frac} of the move; {mv._cm(allowance)} cm left; the fire "
               f"percentage is unchanged", fam.ref, fam.decision)

    # flight manoeuvres
    if flight is not None:
        fl = mv.flights()[match("flight", flight, _choices(mv.flights()))]
        ground = mv.rates().get((mid, "ground"))
        air_cost = Fraction(fl.air_cost)
        ground_cost = Fraction(fl.ground_cost) * (ground.normal if ground else 0)
        allowance = allowance * (1 - air_cost)
        r.step(f"{fl.names[0]}: costs {fl.ground_cost} of the ground move ({mv._cm(ground_cost)} cm) and "
               f"{fl.air_cost} of the move in the air; {mv._cm(allowance)} cm left in the air", fl.ref, fl.decision)
        r.fields["ground_cost_cm"] = number(ground_cost)

    # area terrain the mover is in (GF-D2, GF-D3)
    terrain_given = situation.get("terrain")
    obstacles = situation.get("obstacles") or []
    if (terrain_given is not None or obstacles) and medium == "air":
        raise RefereeError("field terrain/obstacles: terrain effects are printed for movement on the ground; "
                           "a mover in the air gives none (docs/guerres-fleuries/referee-rules.md, OR-GF3)")
    mods = mv.terrain_mods()[mid]
    if terrain_given is not None:
        tid, col, other = _terrain("terrain", terrain_given)
        if tid == "batiment":  # inside a building: irregular ground (l.788)
            tid, col, other = "maquis_marais", mv.terrain_columns()["maquis_marais"], None
            r.step("inside a building: irregular ground (GF seed 003 l.788)", "GF seed 003 l.788", "OR-GF2")
        if col is not None:
            if col.shape == "linear":
                raise RefereeError(f"field terrain: {col.printed!r} is a linear obstacle: give it in obstacles "
                                   f"with its at_cm (GF-D2)")
            frac = mods.fraction(col.id)
            allowance = allowance * (1 - frac)
            r.step(f"in {col.printed}: - {frac} while inside: {mv._cm(allowance)} cm", mods.ref, col.decision)
        else:
            _other_as_terrain(other, r)

    if not isinstance(obstacles, list):
        raise RefereeError('field obstacles: expected a list of {"type": NAME, "at_cm": N}')
    items = []
    for i, ob in enumerate(obstacles):
        where = f"obstacles[{i}]"
        if not isinstance(ob, dict):
            raise RefereeError(f'field {where}: expected {{"type": NAME, "at_cm": N}}')
        tid, col, other = _terrain(f"{where}.type", ob.get("type"))
        at = num(ob, "at_cm", 0, 10000)
        at = Fraction(at).limit_denominator(1000)
        if col is not None:
            items.append((at, mods.fraction(col.id), col.printed))
            r.cite(mods.ref, col.ref, col.decision)
        elif other.effect == "none":
            r.step(f"{other.names[0]} at {mv._cm(at)} cm: no effect on movement", other.ref, other.decision)
        elif other.effect in ("whole_move", "impassable"):
            items.append((at, Fraction(1), other.names[0]))
            r.cite(other.ref)
        else:
            raise RefereeError(f"field {where}.type: {other.names[0]!r}: the seed prints a penalty without a "
                               f"value ({other.ref}); not ruled")
    distance, steps = mv.through(allowance, items)
    for s in steps:
        r.step(s, "GF seed 003 l.710", "GF-D2")
    r.step(f"distance covered: {mv._cm(distance)} cm")
    r.fields.update({"unit": name, "move": move.id, "medium": medium, "formation": formation,
                     "rate_cm": number(base), "allowance_cm": number(allowance),
                     "distance_cm": number(distance), "distance_exact": exact(distance)})
    return r.to_json()


def _other_as_terrain(other, r: Ruling) -> None:
    if other.effect == "none":
        r.step(f"{other.names[0]}: no effect on movement", other.ref, other.decision)
    elif other.effect == "impassable":
        raise RefereeError(f"field terrain: {other.names[0]!r} is impassable ({other.ref})")
    else:
        raise RefereeError(f"field terrain: {other.names[0]!r}: the seed prints a penalty without a value "
                           f"({other.ref}); not ruled")
