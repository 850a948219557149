"""Moves on the table, continuous: a unit's allowance for a move type (GF-D1, D4, D6), the check of
a destination (direction, wheel, distance, table edge, other units, the 5 cm kept from an
enemy), the sample destinations ``legal_actions`` offers, and the automatic moves (a move
straight on as far as the rules let it go, a charge towards its target until contact).

A move is a straight path from the unit's centre to the destination's, turning at most 45° (its
cost: the path plus the arc its outer end travels, measured from the unit's end, l.680;
OR-GF37). Terrain penalties come from gf-geom's ``terrain.move_cost`` when it is there."""

from __future__ import annotations

import math
from fractions import Fraction

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from shapely.geometry import LineString, box

from .. import fire as fire_data
from .. import movement
from .rules import rules
from .state import Battle, Unit

FRACTIONS = (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
REF_NORMAL = "GF seed 003 l.588-590"
REF_WHEEL = "GF seed 003 l.680"
REF_OPEN = "GF seed 003 l.549-551"


def rate(unit: Unit, column: str) -> float:
    medium = "air" if unit.flyer and unit.altitude else "ground"
    rows = movement.rates()
    row = rows.get((unit.mover, medium)) or rows[(unit.mover, "ground")]
    return float(getattr(row, column))


def allowance(unit: Unit, column: str, fires: bool = False) -> tuple[float, list[dict]]:
    """The distance ``unit`` may cover with the rate column ``column``, and the steps (cited)."""
    rows = movement.rates()
    medium = "air" if unit.flyer and unit.altitude else "ground"
    row = rows.get((unit.mover, medium)) or rows[(unit.mover, "ground")]
    base = Fraction(getattr(row, column))
    steps = [{"text": f"{unit.mover} {column}: {base} cm", "ref": row.ref, "decision": row.decision}]
    value = base
    if unit.open_order:
        bonus = Fraction(movement.formations()["ordre_ouvert"].bonus)
        value = value * (1 + bonus)
        steps.append({"text": f"open order +{bonus}: {float(value):g} cm", "ref": REF_OPEN, "decision": "GF-D1"})
    if fires:
        weapon = missile_weapon(unit)
        fam = movement.fire_and_move().get(weapon) if weapon else None
        if fam is not None:
            frac = Fraction(getattr(fam, unit.race or "homme", "0") or "0")
            value = value * (1 - frac)
            label = fire_data.weapons()[weapon].names[0] if weapon in fire_data.weapons() else weapon
            steps.append({"text": f"moving and firing ({label}) −{frac}: {float(value):g} cm", "ref": fam.ref,
                          "decision": "GF-D6"})
    return float(value), steps


def formation_change_left(unit: Unit) -> tuple[float, list[dict]]:
    """What is left of the normal move after a formation change or a turn on the spot (GF-D5, l.1414-1419:
    that fraction of the normal move is consumed, by class for the troops, one figure for a creature or
    monster; data/movement.toml [[formation_change]]; OR-GF111), computed as the part-1 movement
    referee does: the allowance (open order included) less the fraction of the printed normal rate. A
    mover without a row, or a class printed "tour entier", has nothing left."""
    budget, steps = allowance(unit, "normal")
    row = movement.formation_changes().get(unit.mover)
    cls = "M" if unit.cls == "fanatique" else (unit.cls or None)
    frac = row.fraction(cls) if row is not None else None
    if frac is None:
        steps.append({"text": f"no formation-change cost printed for {unit.mover}: the manoeuvre takes the whole move",
                      "ref": "GF seed 003 l.1414-1419", "decision": "OR-GF111"})
        return 0.0, steps
    cost = Fraction(rate(unit, "normal")).limit_denominator(1000) * frac
    left = max(Fraction(budget).limit_denominator(1000) - cost, Fraction(0))
    label = f" (class {cls})" if unit.kind == "troop" and cls else ""
    steps.append({"text": f"formation change{label}: {frac} of the normal move = {float(cost):g} cm consumed; "
                          f"{float(left):g} cm left", "ref": row.ref, "decision": "GF-D5, OR-GF111"})
    return float(left), steps


def missile_weapon(unit: Unit) -> str | None:
    known = fire_data.weapons()
    for w in unit.weapons:
        key = w.strip().lower()
        if key in known:
            return key
    return None


def angle_diff(a: float, b: float) -> float:
    """The smallest turn from heading ``a`` to heading ``b`` (−180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def footprint_at(unit: Unit, x: float, y: float, heading: float):
    return tt.footprint(tt.Pose(x, y, heading), unit.width, unit.depth)


def table_box():
    t = rules().table
    return box(0, 0, t.width_cm, t.height_cm)


def cost(unit: Unit, x: float, y: float, heading: float) -> tuple[float, float]:
    """(path length, wheel arc) of a move to (x, y, heading)."""
    path = math.hypot(x - unit.x, y - unit.y)
    wheel = unit.width / 2 * math.radians(abs(angle_diff(unit.heading, heading)))
    return path, wheel


def terrain_penalty(state: Battle, unit: Unit, x: float, y: float, heading: float, budget: float) -> tuple[float, list[dict]]:
    """What terrain takes of the move (gf-geom's move_cost when it is there), and its steps."""
    from . import terrain
    length = math.hypot(x - unit.x, y - unit.y)
    if length < 0.01:
        return 0.0, []
    medium = "air" if unit.flyer and unit.altitude else "ground"
    profile = terrain.MoverProfile(unit.mover, max(budget, 0.01), medium)
    # the reference point is the centre of the front edge (l.685)
    p0 = tt.moved(unit.pose, unit.depth / 2)
    p1 = tt.moved(tt.Pose(x, y, heading), unit.depth / 2)
    mc = terrain.move_cost(LineString([(p0.x, p0.y), (p1.x, p1.y)]), profile, state.battlefield)
    if mc.blocked_by:
        raise IllegalAction(f"{unit.name} cannot cross {mc.blocked_by}: " + "; ".join(mc.steps[-1:]),
                            "GF seed 003 l.774-776")
    if not mc.complete:
        # the terrain eats the allowance before the end of the path: report the whole cost as more than it
        return max(0.0, budget - length) + 0.01 + (length - mc.allowed_cm), [dict(p) for p in mc.penalties]
    return max(0.0, mc.spent_cm - length), [dict(p) for p in mc.penalties]


def obstacles_for(state: Battle, unit: Unit) -> tuple[list, list]:
    friends, enemies = [], []
    for o in state.units.values():
        if o.id == unit.id or not o.alive:
            continue
        if o.side != unit.side and o.base is not None:
            continue  # an enemy hidden on a movement base is not known (GF-K5); contact reveals it (OR-GF103)
        (friends if o.side == unit.side else enemies).append(o)
    return friends, enemies


def check_destination(state: Battle, unit: Unit, x: float, y: float, heading: float, *, budget: float,
                      direction: str, keep_heading: bool = False, allow_contact_with: str | None = None,
                      friend_gap: float = 0.0) -> dict:
    """Raise IllegalAction (with the rule) unless (x, y, heading) is a legal end of this move;
    return the move's explanation."""
    d = rules().distances
    steps = []
    turn = angle_diff(unit.heading, heading)
    if keep_heading and abs(turn) > 0.5:
        raise IllegalAction(f"{unit.name} must end facing its starting direction", "GF seed 003 l.401")
    if abs(turn) > d.wheel_deg + 1e-6:
        raise IllegalAction(f"{unit.name} may turn at most {d.wheel_deg:g}° in its move (asked {turn:.0f}°)",
                            REF_WHEEL)
    path, wheel = cost(unit, x, y, heading)
    if path > 0.05 and direction:
        head = tt.toward(unit.pose, x, y)
        ref_heading = unit.heading if direction == "forward" else unit.heading + 180
        off = abs(angle_diff(ref_heading, head))
        if off > d.wheel_deg + 1e-6:
            what = "forward" if direction == "forward" else "backward"
            raise IllegalAction(f"{unit.name} moves {what}: its path must stay within {d.wheel_deg:g}° of its "
                                f"{'front' if direction == 'forward' else 'rear'} (it is {off:.0f}° off)",
                                REF_NORMAL if direction == "forward" else "GF seed 003 l.618-620")
    if unit.altitude != "flight":
        _bodies_and_buildings(state, unit, footprint_at(unit, x, y, heading),
                              tt.swept(unit.pose, tt.Pose(x, y, heading), unit.width, unit.depth))
    penalty, terrain_steps = terrain_penalty(state, unit, x, y, heading, budget)
    total = path + wheel + penalty
    steps.append(f"path {path:.1f} cm + wheel {wheel:.1f} cm + terrain {penalty:.1f} cm = {total:.1f} cm "
                 f"of {budget:.1f} cm")
    if total > budget + 1e-6:
        raise IllegalAction(f"{unit.name} may move {budget:.1f} cm; this move costs {total:.1f} cm "
                            f"(path {path:.1f} + wheel {wheel:.1f} + terrain {penalty:.1f})",
                            "GF seed 003 l.588, l.680, l.705-712")
    fp = footprint_at(unit, x, y, heading)
    if not table_box().covers(fp):
        raise IllegalAction(f"{unit.name} would leave the table", "GF seed 003 l.628")
    sweep = tt.swept(unit.pose, tt.Pose(x, y, heading), unit.width, unit.depth)
    friends, enemies = obstacles_for(state, unit)
    high = unit.altitude == "flight"
    # at flight altitude a creature passes over everything; nothing on the ground stops at it (l.695)
    enemies = [o for o in enemies if (o.altitude == "flight") == high]
    friends = [o for o in friends if (o.altitude == "flight") == high]
    for o in enemies:
        if o.hidden:
            continue  # unseen in its building (l.784): the building stops the mover, who finds it there (OR-GF83)
        ofp = o.footprint()
        if o.id == allow_contact_with:
            if fp.intersection(ofp).area > 0.01:
                raise IllegalAction(f"{unit.name} would overlap {o.name}", "GF seed 003 l.596")
            continue
        gap = tt.nearest_distance(fp, ofp)
        if sweep.intersection(ofp).area > 0.01 or gap < d.enemy_standoff_cm - 1e-6:
            raise IllegalAction(f"{unit.name} may not come within {d.enemy_standoff_cm:g} cm of the enemy "
                                f"{o.name} ({gap:.1f} cm)", "GF seed 003 l.590, l.620")
    for o in friends:
        ofp = o.footprint()
        if o.kind == "character" or unit.kind == "character":
            continue  # characters pass through and are passed through (l.640)
        if fp.intersection(ofp).area > 0.01 or (friend_gap and tt.nearest_distance(fp, ofp) < friend_gap - 1e-6):
            raise IllegalAction(f"{unit.name} would stand on the friendly unit {o.name}", "GF seed 003 l.638-642")
    return {"path_cm": round(path, 2), "wheel_cm": round(wheel, 2), "terrain_cm": round(penalty, 2),
            "cost_cm": round(total, 2), "allowance_cm": round(budget, 2), "steps": steps,
            "terrain": terrain_steps}


def _bodies_and_buildings(state: Battle, unit: Unit, fp, sweep) -> None:
    """A dead monster's body is impassable (l.889, l.1003; OR-GF87); a unit goes into a standing
    building only by breaking its formation (l.788; OR-GF88), so a move may not end in one it was
    not already in."""
    from . import buildings_play, crash_play
    body = crash_play.carcass_in_the_way(state, sweep)
    if body is not None:
        raise IllegalAction(f"{unit.name} cannot pass the body of {body['name']}: an impassable obstacle",
                            crash_play.REF_CARCASS + "; OR-GF87")
    if unit.altitude is not None:
        return  # in the air: over the roofs
    start = unit.footprint()
    for el in buildings_play.elements(state):
        if buildings_play.standing(state, el.id) and fp.intersection(el.geometry).area > 0.01 \
                and start.intersection(el.geometry).area <= 0.01:
            raise IllegalAction(f"{unit.name} would go into {el.name or el.id}: a unit enters a building only with "
                                "the order 'casser sa formation', from within 5 cm", "GF seed 003 l.788; OR-GF88")


def samples(state: Battle, unit: Unit, budget: float, direction: str, keep_heading: bool) -> list[list[float]]:
    """A few legal destinations: straight on at 1/4, 1/2, 3/4 and the whole allowance, and 45°
    wheels (forward moves), on the spot or followed by a move — each checked by
    :func:`check_destination`. A wheel on the spot is how a unit standing off an enemy outside its
    front arc turns to face it: it may not come nearer than 5 cm without charging (l.590), and it
    charges only an enemy in its front (l.391-393)."""
    out = []
    sign = 1 if direction == "forward" else -1
    tries = [(0.0, float(f) * budget) for f in FRACTIONS]
    if not keep_heading and direction == "forward":
        arc = unit.width / 2 * math.radians(rules().distances.wheel_deg)
        if budget > arc + 1:
            for turn in (-rules().distances.wheel_deg, rules().distances.wheel_deg):
                tries.append((turn, 0.0))
                tries.append((turn, (budget - arc) * 0.5))
                tries.append((turn, budget - arc - 0.01))
    for turn, dist in tries:
        end = tt.moved(unit.pose, 0.0, turn)
        end = tt.moved(end, sign * dist, 0.0)
        x, y, h = round(end.x, 2), round(end.y, 2), round(end.heading, 2)
        try:
            check_destination(state, unit, x, y, h, budget=budget, direction=direction, keep_heading=keep_heading)
        except IllegalAction:
            continue
        out.append([x, y, h])
    return out


def farthest_straight(state: Battle, unit: Unit, budget: float, direction: str, *, heading: float | None = None,
                      friend_gap: float = 0.0, target: str | None = None) -> tuple[float, float, float, float]:
    """The farthest legal point straight on (forward, back, or along ``heading``), by bisection:
    (x, y, heading, distance). Used by automatic moves and charges."""
    h = unit.heading if heading is None else heading
    sign = -1 if direction == "back" else 1

    def at(dist: float):
        p = tt.moved(tt.Pose(unit.x, unit.y, h), sign * dist, 0.0)
        return round(p.x, 2), round(p.y, 2)

    def ok(dist: float) -> bool:
        x, y = at(dist)
        try:
            check_destination(state, unit, x, y, h, budget=budget + unit.width, direction="",
                              allow_contact_with=target, friend_gap=friend_gap)
        except IllegalAction:
            return False
        return True

    if ok(budget):
        x, y = at(budget)
        return x, y, h, budget
    lo, hi = 0.0, budget
    for _ in range(14):
        mid = (lo + hi) / 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    x, y = at(lo)
    return x, y, h, lo


def apply_move(unit: Unit, x: float, y: float, heading: float) -> None:
    unit.x, unit.y, unit.heading = float(x), float(y), float(heading) % 360.0
