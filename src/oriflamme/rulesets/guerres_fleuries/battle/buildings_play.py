"""Buildings on the table (GF Le champ de bataille > Bâtiments domestiques, seed 003 l.782-821):
which terrain elements are buildings (their material, floors and capacity, OR-GF80), the order
*casser sa formation* that takes a unit in or out (l.361, l.670-673, l.788; OR-GF81), the
occupants hidden from the enemy until they fire, leave or are found by an enemy against the
building (l.784; OR-GF83), their fire through a wall, one rank per floor (l.790; OR-GF84), and
the building's damage: its defence value rolled when first damaged (l.800-810, GF-K2), magic
3, 4, … points a turn (l.802), fire 1, 2, … (l.814), the d100 of each figure inside or against it
from 50 % destroyed, the collapse (l.814, l.908; OR-GF85).

A unit in a building fills it: its footprint is the building's outline (``Unit.inside_points``),
so contact, sight, range and cover are read off the building itself; its place and heading are
kept for when it comes out. A building's state (``Battle.buildings[element id]``) holds its
rolled defence, its damage, its fire and whether it stands."""

from __future__ import annotations

import re

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from .. import buildings as bdata
from ..rows import Row, one
from .actions import emit
from .rules import rules
from .state import Battle, Unit

REF_ORDER = "GF seed 003 l.361, l.670-673"
REF_ENTER = "GF seed 003 l.670-673, l.788"
REF_HIDDEN = "GF seed 003 l.784"
REF_WAYS_OUT = "GF seed 003 l.788"
REF_FIRE_FROM = "GF seed 003 l.790"
REF_INSIDE = "GF seed 003 l.792"
REF_NO_BEASTS = "GF seed 003 l.798"
REF_DEFENCE = "GF seed 003 l.800-810"
REF_BURN = "GF seed 003 l.814"
REF_COLLAPSE = "GF seed 003 l.908"
REF_EXTINGUISH = "GF seed 003 l.816-820"
REF_FOLLOW = "GF seed 003 l.792"
REF_SPLIT = "GF seed 003 l.673, l.786"


def play():
    return bdata.data().play


# --- the buildings of the table ---------------------------------------------------------------------
def elements(state: Battle) -> list:
    """The terrain elements that are buildings (data/buildings.toml [[building_kind]])."""
    kinds = bdata.data().kinds
    return [e for e in state.battlefield.elements if e.kind in kinds]


def element(state: Battle, bid: str):
    for e in elements(state):
        if e.id == bid:
            return e
    raise IllegalAction(f"{bid!r} is not a building of this battlefield", REF_ENTER)


def record(state: Battle, bid: str) -> dict:
    """A building's state, created on first write: its rolled defence, damage, fire and fate."""
    return state.buildings.setdefault(bid, {"defence": None, "defence_roll": [], "damage": 0, "burning": False,
                                            "fire_turn": 0, "magic_turn": 0, "destroyed": False})


def burning(state: Battle, bid: str) -> bool:
    return bool(state.buildings.get(bid, {}).get("burning"))


def standing(state: Battle, bid: str) -> bool:
    return not state.buildings.get(bid, {}).get("destroyed", False)


def occupants(state: Battle, bid: str) -> list[Unit]:
    """The units in the building, wholly or in part (OR-GF142; a character who controls one goes in
    with it and is not counted)."""
    return [u for u in state.units.values() if u.alive and holds(u) == bid and u.kind != "character"]


def holds(u) -> str | None:
    """The building ``u`` stands in, wholly (``Unit.inside``) or in part (``Unit.split``, OR-GF142)."""
    split = getattr(u, "split", None)
    return getattr(u, "inside", None) or (split["building"] if split else None)


def figures_inside(u) -> int:
    """Its figures in a building: all of an occupant's, a split unit's part inside (OR-GF142), else 0."""
    if getattr(u, "inside", None):
        return u.figures
    split = getattr(u, "split", None)
    return split["inside"] if split else 0


def figures_outside(u) -> int:
    """Its figures on the table outside any building: ``figures_inside + figures_outside == figures``."""
    return u.figures - figures_inside(u)


def split_rule():
    return bdata.data().split


def material(el) -> str:
    """The building's structure (data/buildings.toml): the battlefield's, else its kind's (OR-GF80)."""
    return el.material or bdata.data().kinds[el.kind].material


def floors(el) -> int:
    return el.floors or bdata.data().kinds[el.kind].floors


def figure_area(kind: str = "troop") -> float:
    b = rules().bases[kind]
    return b.width_cm * b.depth_cm


def per_floor(el) -> int:
    """OR-GF80: the figures a floor holds, the building's area ÷ a troop's base."""
    return int(el.geometry.area // figure_area())


def capacity(el) -> int:
    return per_floor(el) * floors(el)


def structure(el):
    return bdata.data().structures[material(el)]


# --- the order "casser sa formation" -----------------------------------------------------------------
def targets(state: Battle, u: Unit) -> list[str]:
    """The targets of ``casser`` for ``u`` now: ``out`` in a building; else each standing, empty
    building within 5 cm (l.670, l.788) that holds the whole unit (OR-GF80). Troops only (l.798;
    characters take their four orders, l.343)."""
    return [t for t, why in target_checks(state, u) if why is None]


def target_checks(state: Battle, u: Unit) -> list[tuple[str, str | None]]:
    """Each building with why ``u`` may not break formation to enter it (None: it may)."""
    p = play()
    if holds(u):
        return [(p.leave_target, None)]
    if u.kind not in p.who:
        return []
    out = []
    fp = u.footprint()
    for el in elements(state):
        gap = tt.nearest_distance(fp, el.geometry)
        why = None
        if not standing(state, el.id):
            why = "it has been destroyed"
        elif gap > p.enter_within_cm + 1e-6:
            why = f"it is {gap:.1f} cm away (at most {p.enter_within_cm:g} cm)"
        elif burning(state, el.id):
            why = None  # it burns: the unit breaks its formation to fight the fire (l.816, OR-GF89)
        elif len(occupants(state, el.id)) >= p.units_per_building:
            why = "another unit holds it (OR-GF80)"
        elif capacity(el) < split_rule().min_inside:
            why = f"it holds {capacity(el)} figures ({per_floor(el)} a floor × {floors(el)}), not {u.figures} (OR-GF80)"
        elif u.altitude:
            why = "the unit is in the air"
        out.append((el.id, why))
    return out


def refusal(state: Battle, u: Unit, target: str | None) -> IllegalAction | None:
    """Why ``u`` may not be ordered to break formation towards ``target`` (None when it may)."""
    if u.kind != "troop":
        ref = REF_NO_BEASTS if u.kind in ("creature", "monster") else "GF seed 003 l.343"
        return IllegalAction(f"{u.name} cannot break formation to enter a building: "
                             f"{'a creature or monster cannot go in' if u.kind != 'character' else 'a character has four orders'}",
                             ref)
    checks = dict(target_checks(state, u))
    if target not in checks:
        return IllegalAction(f"{u.name}: 'casser sa formation' needs a building within {play().enter_within_cm:g} cm "
                             f"(or '{play().leave_target}' to leave one); got {target!r}", REF_ENTER)
    if checks[target] is not None:
        return IllegalAction(f"{u.name} cannot enter {target}: {checks[target]}", REF_ENTER)
    return None


def carry_out(state: Battle, u: Unit) -> None:
    """Phase 6: the unit breaks its formation — the whole phase (l.361) — and enters the building or
    leaves it; either way it is disordered and must reform (l.361, OR-GF81)."""
    target = u.target
    if target == play().leave_target:
        if u.inside:
            leave(state, u, u.heading, "order")
        elif u.split:
            come_out_of_part(state, u)
        return
    why = dict(target_checks(state, u)).get(target, "it is no longer within reach")
    if why is not None:
        emit(state, "manoeuvre_blocked", f"{u.name} cannot enter {target}: {why}",
             f"{u.name} ne peut pas entrer dans {target} : {_fr(why)}", side=u.side, ref=REF_ENTER,
             decision="OR-GF81", unit=u.id)
        return
    if burning(state, target):
        fight_fire(state, u, element(state, target))
        return
    enter(state, u, element(state, target))


FIGHTING = "fire_fighting"


def fight_fire(state: Battle, u: Unit, el) -> None:
    """l.816: the unit breaks its formation to fight the fire (OR-GF89): disordered, it rolls in phase 8."""
    u.moved = True
    u.set_disorder(True)
    u.mark(FIGHTING)
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    emit(state, "fight_fire", f"{u.name} breaks its formation to fight the fire of {name}",
         f"{u.name} casse sa formation pour lutter contre l'incendie de {name_fr}", side=u.side, ref=REF_EXTINGUISH,
         decision="OR-GF89", unit=u.id, building=el.id)


def enter(state: Battle, u: Unit, el, follow: str | None = None) -> None:
    """The unit goes in (by its order; or, ``follow``: the occupants it beat came out, l.792, OR-GF135);
    a unit larger than the building goes in as far as it holds (:func:`enter_in_part`, OR-GF142)."""
    if u.figures > capacity(el):
        enter_in_part(state, u, el, follow)
        return
    c = el.geometry.centroid
    u.inside, u.inside_points = el.id, [list(p) for p in el.points]
    u.x, u.y = round(c.x, 2), round(c.y, 2)
    u.moved = True
    u.set_disorder(True)
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    en, fr = f"{u.name} breaks its formation and enters {name}", f"{u.name} casse sa formation et entre dans {name_fr}"
    if follow is not None:
        en, fr = f"{u.name} follows {follow} into {name}", f"{u.name} suit {follow} et entre dans {name_fr}"
    emit(state, "enter_building", en, fr, side=u.side, ref=REF_FOLLOW if follow else REF_ENTER,
         decision="OR-GF81, OR-GF83" + (", OR-GF135" if follow else ""),
         unit=u.id, building=el.id,
         ruling={"explanation": [en,
                                 "the manoeuvre takes the whole phase; the unit must reform",
                                 "inside: dense cover; hidden from the enemy until it fires, leaves or an enemy "
                                 "stands against the building"],
                 "citations": [REF_ORDER, REF_ENTER, REF_HIDDEN, REF_INSIDE, "OR-GF81", "OR-GF83"]
                 + ([REF_FOLLOW, "OR-GF135"] if follow else [])})
    u.hidden = True  # after the entry is seen: from now on its events are its side's only (OR-GF83)
    c = state.units.get(u.led_by or "")
    if c is not None and c.alive:  # the character who controls it goes in with it (OR-GF41, OR-GF81)
        c.inside, c.inside_points, c.hidden = el.id, [list(p) for p in el.points], True
        c.x, c.y = u.x, u.y


# --- a unit too large for its building (l.673, l.786; OR-GF142, OR-GF143) -----------------------------
def enter_in_part(state: Battle, u: Unit, el, follow: str | None = None) -> None:
    """l.673: "Si la place n'est pas suffisante, le reste de l'unité ne rentre pas à l'intérieur. Elle
    garde sa formation en restant en contact avec le bâtiment." The building takes what it holds
    (OR-GF80's capacity); the rest keeps its formation — its frontage, fewer ranks — and its edge nearest
    the wall, moved up against it (OR-GF142). l.786: the unit is not disordered, it stays one unit."""
    from .fighters import ranks_for
    rule = split_rule()
    n_in = capacity(el)
    n_out = u.figures - n_in
    old_depth = u.depth
    u.split = {"building": el.id, "inside": n_in, "frontage": u.frontage, "points": [list(p) for p in el.points]}
    u.frontage = min(u.frontage, n_out)
    u.ranks = ranks_for(n_out, u.frontage)
    _place_against(state, u, el, old_depth)
    u.moved = True
    if rule.disordered:
        u.set_disorder(True)
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    who_en = f"{u.name} follows {follow}" if follow is not None else f"{u.name} breaks its formation"
    who_fr = f"{u.name} suit {follow}" if follow is not None else f"{u.name} casse sa formation"
    en = (f"{who_en}: {n_in} figure(s) enter {name} (it holds {capacity(el)}: {per_floor(el)} a floor × "
          f"{floors(el)}), {n_out} stay outside in formation against the wall")
    fr = (f"{who_fr} : {n_in} figurine(s) entrent dans {name_fr} (il en tient {capacity(el)}), "
          f"{n_out} restent dehors en formation contre le mur")
    steps = [en,
             f"the rest of the unit keeps its formation ({u.front} figure(s) a rank, {u.ranks} rank(s)) in contact "
             "with the building (l.673)",
             "a unit inside and outside a building is not disordered: it stays one unit (l.786)"
             + ("" if not u.disorder else "; it was disordered already and stays so"),
             "it is shot at, charged and fights through its part outside; its figures inside fire through the "
             "wall (l.790); casualties come off the part outside first; a retreat, a rout or a recoil moves the "
             "whole unit (l.786, OR-GF143)"]
    steps_fr = [fr,
                f"le reste de l'unité garde sa formation ({u.front} figurine(s) par rang, {u.ranks} rang(s)) au "
                "contact du bâtiment (l.673)",
                "une unité à l'intérieur et à l'extérieur d'un bâtiment n'est pas en désordre : elle reste une seule "
                "unité (l.786)" + ("" if not u.disorder else " ; elle était déjà en désordre et le reste"),
                "on lui tire dessus, on la charge et elle combat par sa partie extérieure ; ses figurines à "
                "l'intérieur tirent à travers le mur (l.790) ; les pertes sont retirées d'abord de la partie "
                "extérieure ; une retraite, une déroute ou un recul déplace toute l'unité (l.786, OR-GF143)"]
    emit(state, "enter_building", en, fr, side=u.side, ref=REF_SPLIT, decision=rule.decision
         + (", OR-GF135" if follow else ""), unit=u.id, building=el.id, inside=n_in, outside=n_out,
         ruling={"explanation": steps, "explanation_fr": steps_fr, "citations": [REF_ORDER, REF_SPLIT, rule.decision]
                 + ([REF_FOLLOW, "OR-GF135"] if follow else [])})


def _place_against(state: Battle, u: Unit, el, old_depth: float) -> None:
    """The outside part keeps the edge of the old footprint nearest the building (front or rear), then
    moves straight up against the wall when it stood apart (at most the 5 cm of the order, l.670),
    unless that would put it on another unit or off the table."""
    from shapely import affinity
    from shapely.geometry import box
    from shapely.ops import nearest_points
    lost = old_depth - u.depth
    poses = [tt.moved(u.pose, lost / 2), tt.moved(u.pose, -lost / 2)]
    best = min(poses, key=lambda p: (round(el.geometry.intersection(tt.footprint(p, u.width, u.depth)).area, 6),
                                     round(tt.nearest_distance(tt.footprint(p, u.width, u.depth), el.geometry), 6)))
    u.x, u.y = round(best.x, 4), round(best.y, 4)
    fp = u.footprint()
    gap = tt.nearest_distance(fp, el.geometry)
    if gap <= 1e-6:
        return
    a, b = nearest_points(fp, el.geometry)
    moved = affinity.translate(fp, b.x - a.x, b.y - a.y)
    table = box(0, 0, rules().table.width_cm, rules().table.height_cm)
    others = [o.footprint() for o in state.units.values() if o.alive and o.id != u.id and o.altitude is None
              and o.id != u.led_by]
    if table.covers(moved) and not any(moved.intersection(o).area > 0.01 for o in others) \
            and moved.intersection(el.geometry).area <= 0.01:
        u.x, u.y = round(u.x + b.x - a.x, 4), round(u.y + b.y - a.y, 4)


def rejoin(state: Battle, u: Unit) -> str:
    """The figures inside come out and rejoin the part outside (l.786 "toute l'unité effectue le
    mouvement"; OR-GF143): the unit takes its frontage back and its new ranks grow away from the wall.
    Returns the step for the caller's explanation."""
    from .fighters import ranks_for
    split = u.split
    if not split:
        return ""
    el = element(state, split["building"])
    old_depth = u.depth
    u.split = None
    u.frontage = max(1, min(split["frontage"], u.figures))
    u.ranks = ranks_for(u.figures, u.frontage)
    grown = u.depth - old_depth
    poses = [tt.moved(u.pose, -grown / 2), tt.moved(u.pose, grown / 2)]  # front kept, rear kept
    best = min(poses, key=lambda p: round(el.geometry.intersection(tt.footprint(p, u.width, u.depth)).area, 6))
    u.x, u.y = round(best.x, 4), round(best.y, 4)
    return (f"{u.name}: its {split['inside']} figure(s) in {el.name or el.id} come out and rejoin the unit, the whole "
            f"unit moves (l.786): {u.figures} figure(s), {u.ranks} rank(s) of {u.front}")


def come_out_of_part(state: Battle, u: Unit) -> None:
    """A split unit ordered to break its formation ``out``: its figures inside come out and rejoin the
    rest (l.788: "sortir volontairement ... et se reformer à l'extérieur"): disordered, it must reform
    (OR-GF81, OR-GF143)."""
    bid = u.split["building"]
    step = rejoin(state, u)
    u.set_disorder(True)
    u.moved = True
    en = f"{u.name} breaks its formation to leave {bid} with all its figures: it must reform"
    emit(state, "leave_building", en, f"{u.name} casse sa formation et sort de {bid} : elle doit se reformer",
         side=u.side, ref=REF_WAYS_OUT, decision="OR-GF81, OR-GF143", unit=u.id, building=bid,
         to=[u.x, u.y, u.heading],
         ruling={"explanation": [step, en], "citations": [REF_WAYS_OUT, REF_SPLIT, "OR-GF81", "OR-GF143"]})


def leave(state: Battle, u: Unit, heading: float, how: str, quiet: bool = False) -> str:
    """The unit comes out (l.788): ``order`` (it broke formation; it must reform), ``recoil`` (it is
    disordered), ``flee`` (a retreat or rout: the move goes on from there). It stands outside the wall
    on the side ``heading`` points to, facing that way (OR-GF81)."""
    bid = u.inside
    el = element(state, bid)
    x, y = place_outside(state, u, el, heading)
    u.inside, u.inside_points, u.hidden = None, None, False
    u.x, u.y, u.heading = x, y, heading % 360.0
    c = state.units.get(u.led_by or "")
    if c is not None and c.inside == bid:  # its controlling character comes out with it (OR-GF41)
        from .command import carry
        c.inside, c.inside_points, c.hidden = None, None, False
        carry(state, u)
    if how in ("order", "recoil"):
        u.set_disorder(True)
    u.moved = True
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    en = {"order": f"{u.name} breaks its formation and leaves {name}: it must reform",
          "recoil": f"{u.name} recoils out of {name}: disordered",
          "flee": f"{u.name} leaves {name} in its retreat or rout"}[how]
    fr = {"order": f"{u.name} casse sa formation et sort de {name_fr} : elle doit se reformer",
          "recoil": f"{u.name} recule hors de {name_fr} : en désordre",
          "flee": f"{u.name} sort de {name_fr} en retraite ou en déroute"}[how]
    if not quiet:  # quiet: a step of the caller's event (a recoil, a retreat or rout)
        emit(state, "leave_building", en, fr, side=u.side, ref=REF_WAYS_OUT, decision="OR-GF81", unit=u.id,
             building=bid, to=[x, y, u.heading],
             ruling={"explanation": [en], "citations": [REF_WAYS_OUT, REF_ORDER, "OR-GF81"]})
    return en


def place_outside(state: Battle, u: Unit, el, heading: float) -> tuple[float, float]:
    """Where the unit stands when it comes out: its rear edge against the wall on the ``heading`` side
    (the first place off the building, on the table, off the other units; else the first off the
    building), trying the heading, then turning by quarters."""
    from shapely.geometry import box
    table = box(0, 0, rules().table.width_cm, rules().table.height_cm)
    c = el.geometry.centroid
    w, d = u.front * u.base_w, max(u.ranks, 1) * u.base_d
    leader = state.units.get(u.led_by or "")
    behind = leader.base_d if leader is not None and leader.alive else 0.0  # room for him at its rear (OR-GF41)
    others = [o.footprint() for o in state.units.values() if o.alive and o.id != u.id and o.altitude is None]
    first = None
    for turn in (0, 90, -90, 180):
        h = (heading + turn) % 360.0
        dx, dy = tt.direction(h)
        step = 0.0
        while step < 200:
            fp = tt.footprint(tt.Pose(c.x + dx * step, c.y + dy * step, h), w, d + 2 * behind)
            if not fp.intersects(el.geometry):
                break
            step += 0.25
        x, y = round(c.x + dx * step, 2), round(c.y + dy * step, 2)
        fp = tt.footprint(tt.Pose(x, y, h), w, d)
        if first is None and table.covers(fp):
            first = (x, y)
        if table.covers(fp) and not any(fp.intersection(o).area > 0.01 for o in others):
            return x, y
    return first if first is not None else (round(c.x, 2), round(c.y, 2))


# --- the attacker going in (l.792, OR-GF135) -------------------------------------------------------------
class FollowIn(Row):
    printed: str
    text_en: str


def follow_rule() -> FollowIn:
    return one(FollowIn, bdata.FILE, "follow_in")


def occupancy(state: Battle) -> dict[str, list[str]]:
    """Each occupied building's units (before a melee: :func:`follow_in` reads who came out)."""
    out: dict[str, list[str]] = {}
    for u in state.units.values():
        if u.alive and holds(u) and u.kind != "character":
            out.setdefault(holds(u), []).append(u.id)
    return out


def why_not_in(state: Battle, w: Unit | None, el) -> tuple[str, str] | None:
    """Why the winner ``w`` does not follow the occupants it beat into ``el``, in English and French
    (None: it goes in)."""
    from .fighters import in_combat
    if w is None or not w.alive or w.status != "ok":
        return "it is not in good order", "elle n'est pas en bon ordre"
    if w.kind not in play().who:
        return ("only troops go into a building (l.798; a character has his four orders, l.343)",
                "seules les troupes entrent dans un bâtiment (l.798 ; un personnage a ses quatre ordres, l.343)")
    if w.pending and w.pending.get("move") == "poursuite":
        return ("it pursues the beaten occupants (l.1554: the pursuit is systematic)",
                "elle poursuit les occupants vaincus (l.1554 : la poursuite est systématique)")
    if in_combat(state, w):
        return "it fights another enemy", "elle combat un autre ennemi"
    if w.altitude:
        return "it is in the air", "elle est en l'air"
    if tt.nearest_distance(w.footprint(), el.geometry) > rules().distances.contact_tolerance_cm + 1e-6:
        return "it is not against the building", "elle n'est pas contre le bâtiment"
    if capacity(el) < split_rule().min_inside:  # a larger winner goes in as far as it holds (OR-GF142)
        return (f"the building holds {capacity(el)} figures (OR-GF80)",
                f"le bâtiment tient {capacity(el)} figurines (OR-GF80)")
    return None


def follow_in(state: Battle, before: dict[str, list[str]], start: int) -> None:
    """After the melee phase: a building whose occupants all came out of it (recoil, retreat, rout) is
    entered by the unit that beat them from against its wall, unless :func:`why_not_in` (OR-GF135)."""
    rule = follow_rule()
    for bid, ids in sorted(before.items()):
        if occupants(state, bid) or not standing(state, bid) or burning(state, bid):
            continue
        el = element(state, bid)
        for ev in list(state.log[start:]):
            if ev.get("type") != "melee_outcome" or ev.get("loser") not in ids or not ev.get("winner"):
                continue
            w, loser = state.units.get(ev["winner"]), state.units[ev["loser"]]
            why = why_not_in(state, w, el)
            if why is None:
                enter(state, w, el, follow=loser.name)
                break
            if w is not None:
                name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
                emit(state, "stays_outside", f"{w.name} does not go into {name}: {why[0]}",
                     f"{w.name} n'entre pas dans {name_fr} : {why[1]}", side=w.side, ref=rule.ref,
                     decision=rule.decision, unit=w.id, building=bid)


# --- hidden occupants (l.784) ------------------------------------------------------------------------
def visible_to(u: Unit, side: str | None) -> bool:
    """Whether ``side`` sees ``u``: a hidden occupant is seen by its own side only (OR-GF83)."""
    return not u.hidden or (side is not None and side == u.side)


def reveal(state: Battle, u: Unit, why: str, why_fr: str) -> None:
    if not u.hidden:
        return
    if u.behind:
        reveal_behind(state, u, why, why_fr)
        return
    u.hidden = False
    el = element(state, u.inside)
    emit(state, "revealed", f"{u.name} is seen in {el.name or el.id}: {why}",
         f"{u.name} est découverte dans {el.name_fr or el.name or el.id} : {why_fr}", side=u.side, ref=REF_HIDDEN,
         decision="OR-GF83", unit=u.id, building=el.id)


def detect(state: Battle) -> None:
    """l.784: an enemy against the building finds the hidden occupants (contact slack, OR-GF21)."""
    tol = rules().distances.contact_tolerance_cm
    for u in list(state.units.values()):
        if not (u.alive and u.hidden and u.inside):
            continue
        el = element(state, u.inside)
        for e in state.enemies(u.side):
            if e.altitude != "flight" and not e.inside and tt.nearest_distance(e.footprint(), el.geometry) <= tol + 1e-6:
                reveal(state, u, f"{e.name} stands against the building", f"{e.name} est contre le bâtiment")
                break
    from . import illusion
    spot_behind(state)  # units hidden behind a building that an enemy sees, or that moved (l.786, OR-GF145)
    for u in state.units.values():  # a unit that left (or died) is hidden no more — unless an illusion hides it
        if u.hidden and not u.behind and (not u.inside or not u.alive) and not (u.alive and illusion.invisible(state, u)):
            u.hidden = False
        elif u.behind and not u.alive:
            u.hidden, u.behind = False, None


# --- units hidden behind a building (l.786, l.798; OR-GF144, OR-GF145) -----------------------------------
REF_BEHIND = "GF seed 003 l.786"


def behind_rule():
    return bdata.data().behind


def lookers(state: Battle, side: str) -> list[Unit]:
    """The units of the enemy of ``side`` that may spot a unit of ``side``: on the table and seen by
    ``side`` (not on a movement base, marching on a flank, hidden in or behind a building): what a unit
    that hides knows of who looks at it (OR-GF144)."""
    return [e for e in state.enemies(side) if e.alive and e.base is None and e.status != "flank" and not e.hidden]


def seen_by(state: Battle, u: Unit) -> tuple[Unit | None, int]:
    """The first enemy unit (by id) that has a line of sight to ``u`` — the building, the terrain and the
    other units on the table stopping it (OR-GF23; as OR-GF105's sight check) — and how many looked."""
    from .table import unit_obstacle
    fp = u.footprint()
    screens = state.battlefield.obstacles()
    others = [unit_obstacle(o.id, o.footprint()) for o in state.units.values()
              if o.alive and o.id != u.id and o.base is None and o.status != "flank" and not o.behind]
    looking = sorted(lookers(state, u.side), key=lambda e: e.id)
    for e in looking:
        if tt.line_of_sight(e.footprint(), fp, screens + [o for o in others if o.id != e.id]).visible:
            return e, len(looking)
    return None, len(looking)


def hide_checks(state: Battle, u: Unit) -> tuple[str | None, str | None, list[str]]:
    """Whether ``u`` may hide behind a building now: (building id, why not, steps)."""
    rule = behind_rule()
    if u.kind not in rule.who:
        return None, f"{u.name} is not a unit that hides", []
    if not u.alive or u.status != "ok":
        return None, f"{u.name} is not in good order on the table (retreating, routing or off it)", []
    if u.base is not None or u.hidden or u.behind:
        return None, f"{u.name} is hidden already", []
    if u.inside or u.split:
        return None, f"{u.name} is in a building (l.784 hides it there)", []
    if u.altitude:
        return None, f"{u.name} is in the air", []
    from .fighters import in_combat
    if in_combat(state, u):
        return None, f"{u.name} is in combat", []
    fp = u.footprint()
    near = sorted((round(tt.nearest_distance(fp, el.geometry), 6), el.id) for el in elements(state)
                  if standing(state, el.id))
    near = [(d, bid) for d, bid in near if d <= rule.behind_cm + 1e-6]
    if not near:
        return None, f"{u.name} is not within {rule.behind_cm:g} cm of a standing building", []
    d, bid = near[0]
    e, n = seen_by(state, u)
    if e is not None:
        return bid, f"{e.name} sees it: it is not hidden behind {bid}", []
    return bid, None, [f"{u.name} stands {d:.1f} cm from {bid} (at most {rule.behind_cm:g} cm)",
                       f"none of the {n} enemy unit(s) on the table sees it: the building and the terrain stop every "
                       "sight line", "it is taken off the table, its place kept (l.786 \"ne sont pas mises sur la "
                       "table\"); it is placed again when an enemy sees it, when it moves, charges, fires or "
                       "fights, or when the building falls (OR-GF145)"]


def hide_candidates(state: Battle, side: str) -> list[Unit]:
    """The units of ``side`` that may hide behind a building now (its orders not yet given, OR-GF144)."""
    if state.phase != behind_rule().phase or state.orders_in.get(side):
        return []
    rule = behind_rule()
    out = []
    for u in sorted(state.side_units(side), key=lambda v: v.id):
        if u.kind not in rule.who or u.hidden or u.base is not None or holds(u):
            continue
        if not any(tt.nearest_distance(u.footprint(), el.geometry) <= rule.behind_cm + 1e-6 for el in elements(state)):
            continue
        if hide_checks(state, u)[1] is None:
            out.append(u)
    return out


def check_hide(state: Battle, u: Unit) -> list[str]:
    """Refuse (the rule named, the state untouched) unless ``u`` may hide behind a building now."""
    rule = behind_rule()
    if state.phase != rule.phase or state.orders_in.get(u.side):
        raise IllegalAction(f"{u.name}: a unit hides behind a building in its side's orders phase, before its "
                            "orders are given", f"{rule.ref}; OR-GF144")
    bid, why, steps = hide_checks(state, u)
    if why is not None:
        raise IllegalAction(f"{u.name} cannot hide behind a building: {why}", f"{rule.ref}; OR-GF144")
    return steps


def hide_behind(state: Battle, u: Unit) -> None:
    """l.786: "Les unités cachées derrière un bâtiment ne sont pas mises sur la table." The enemy sees it
    taken off (the event is public, naming the building), not where it stands afterwards (OR-GF144)."""
    rule = behind_rule()
    bid, why, steps = hide_checks(state, u)
    el = element(state, bid)
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    emit(state, "hide_behind", f"{u.name} is taken off the table, hidden behind {name}",
         f"{u.name} est retirée de la table, cachée derrière {name_fr}", side=u.side, ref=rule.ref,
         decision=rule.decision, unit=u.id, building=bid,
         ruling={"explanation": steps, "citations": [rule.ref, rule.decision]})
    u.hidden = True
    u.behind = {"building": bid, "at": [u.x, u.y, u.heading, u.formation]}


def reveal_behind(state: Battle, u: Unit, why: str, why_fr: str) -> None:
    """The unit is placed on the table again where it stands (l.786 "révélées et placées")."""
    bid = u.behind["building"]
    u.hidden, u.behind = False, None
    el = element(state, bid)
    emit(state, "revealed", f"{u.name} is placed on the table behind {el.name or el.id}: {why}",
         f"{u.name} est placée sur la table derrière {el.name_fr or el.name or el.id} : {why_fr}", side=u.side,
         ref=REF_BEHIND, decision="OR-GF145", unit=u.id, building=bid, at=[u.x, u.y, u.heading])


def spot_behind(state: Battle) -> None:
    """OR-GF145: a unit hidden behind a building is placed again when an enemy unit sees it (l.786
    "seulement si elles sont repérées"), when it has moved or changed formation (l.497), when it is in
    combat, retreats or routs, or when its building falls."""
    from .fighters import in_combat
    for u in sorted((v for v in state.units.values() if v.behind and v.alive), key=lambda v: v.id):
        x, y, h, formation = u.behind["at"]
        if not standing(state, u.behind["building"]):
            reveal_behind(state, u, "the building has fallen", "le bâtiment est tombé")
        elif (round(u.x, 4), round(u.y, 4), round(u.heading, 4), u.formation) != \
                (round(x, 4), round(y, 4), round(h, 4), formation):
            reveal_behind(state, u, "it moves", "elle se déplace")
        elif u.status != "ok" or in_combat(state, u):
            reveal_behind(state, u, "it fights", "elle combat")
        else:
            e, _ = seen_by(state, u)
            if e is not None:
                reveal_behind(state, u, f"{e.name} sees it", f"{e.name} la voit")


def blocked_by_hidden(state: Battle, u: Unit, x: float, y: float, heading: float) -> list[Unit]:
    """The enemies hidden behind a building that a move of ``u`` to (x, y, heading) would cross or end
    within 5 cm of (as a hidden base, OR-GF103): they are placed, the mover stays (OR-GF145)."""
    gap = rules().distances.enemy_standoff_cm
    sweep = tt.swept(u.pose, tt.Pose(x, y, heading), u.width, u.depth)
    return [o for o in state.units.values() if o.side != u.side and o.alive and o.behind
            and tt.nearest_distance(sweep, o.footprint()) < gap - 1e-6]


# --- fire from a building (l.790) ----------------------------------------------------------------------
def wall_facing(el, target_shape):
    """The wall facing the target — the one whose middle is nearest the target's centre, the figures
    firing through it (OR-GF84): (length, index)."""
    pts = list(el.geometry.exterior.coords)
    from shapely.geometry import LineString
    walls = [LineString([pts[i], pts[i + 1]]) for i in range(len(pts) - 1)]
    aim = target_shape.centroid
    best = min(range(len(walls)), key=lambda i: (round(walls[i].interpolate(0.5, normalized=True).distance(aim), 6),
                                                 -walls[i].length))
    return walls[best].length, best


def firing_figures(state: Battle, u: Unit, t) -> tuple[int, list[str]]:
    """l.790, OR-GF84: the figures against the wall facing the target fire, one rank a floor: the
    wall's length ÷ a figure's base × the floors (× ranks_per_floor), at most the unit's figures inside
    (all of an occupant's; a split unit's part inside, OR-GF143)."""
    el = element(state, holds(u))
    if t is None:
        length = max(el.geometry.exterior.length / max(len(el.points), 1), 0.0)
    else:
        length, _ = wall_facing(el, t.footprint())
    files = max(1, int(length // rules().bases["troop"].width_cm))
    ranks = floors(el) * play().ranks_per_floor
    n = min(figures_inside(u), files * ranks)
    return n, [f"from {el.name or el.id}: {files} figure(s) against the wall facing the target × {ranks} "
               f"floor(s) = {n} figure(s) fire (OR-GF84)"]


# --- damage, fire, collapse (l.800-816, l.908) --------------------------------------------------------
def roll_defence(state: Battle, el, dice) -> dict:
    """The defence value, rolled when the building is first damaged (GF-K2): the structure's dice."""
    rec = record(state, el.id)
    if rec["defence"] is None:
        s = structure(el)
        rolls = [dice.roll(s.sides) for _ in range(s.dice)]
        rec["defence"], rec["defence_roll"] = sum(rolls), rolls
    return rec


def damage(state: Battle, el, points: int, cause_en: str, cause_fr: str, dice) -> list[dict]:
    """``points`` of damage to a building: its defence rolled first (GF-K2); at 50 % the figures
    inside or against it test (l.814, ``fire`` causes only); at 100 % it collapses (OR-GF85)."""
    rec = roll_defence(state, el, dice)
    if rec["destroyed"]:
        return []
    s = structure(el)
    before = rec["damage"]
    rec["damage"] = before + points
    pct = 100 * rec["damage"] // max(rec["defence"], 1)
    name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
    steps = [f"{name} ({s.name_en}): defence value {s.printed_dice} = {rec['defence']} {rec['defence_roll']}",
             f"{cause_en}: {points} point(s) of damage, {before} → {rec['damage']} of {rec['defence']} ({pct} %)"]
    ev = emit(state, "building_damage", f"{name}: {points} point(s) of damage ({cause_en}), {rec['damage']} of {rec['defence']}",
              f"{name_fr} : {points} point(s) de dégâts ({cause_fr}), {rec['damage']} sur {rec['defence']}",
              ref=REF_DEFENCE, decision="GF-K2", building=el.id, points=points, damage=rec["damage"],
              defence=rec["defence"], ruling={"explanation": steps, "citations": [REF_DEFENCE, "GF-K2"]})
    if rec["damage"] >= rec["defence"]:
        collapse(state, el, dice)
    return [ev]


def magic_damage(state: Battle, bid: str, dice) -> list[dict]:
    """l.802: a spell's damage to a building, 3 points the first turn, 4 the second… (GF-K2)."""
    el = element(state, bid)
    rec = record(state, bid)
    rec["magic_turn"] += 1
    row = bdata.data().damage["magic"]
    return damage(state, el, row.on_turn(rec["magic_turn"]), f"magic, turn {rec['magic_turn']}",
                  f"magie, tour {rec['magic_turn']}", dice)


def set_alight(state: Battle, bid: str) -> None:
    """A building catches fire: only a flammable one (l.814)."""
    el = element(state, bid)
    if not structure(el).flammable:
        raise IllegalAction(f"{el.name or el.id} ({structure(el).name_en}) does not burn: only buildings of "
                            "flammable materials catch fire", REF_BURN)
    if not standing(state, bid):
        raise IllegalAction(f"{el.name or el.id} has been destroyed", REF_BURN)
    rec = record(state, bid)
    rec["burning"] = True
    emit(state, "building_fire", f"{el.name or el.id} catches fire", f"{el.name_fr or el.name or el.id} prend feu",
         ref=REF_BURN, building=bid)


def around(state: Battle, el) -> list[Unit]:
    """The units inside the building or against it (l.814 "à l'intérieur ou contre")."""
    tol = rules().distances.contact_tolerance_cm
    return sorted((u for u in state.units.values() if u.alive and u.altitude is None
                   and (holds(u) == el.id or tt.nearest_distance(u.footprint(), el.geometry) <= tol + 1e-6)),
                  key=lambda u: u.id)


def burn(state: Battle, dice) -> None:
    """Phase 8 (OR-GF85): each burning building takes its fire damage, 1 point the first turn, 2 the
    second… (l.814); from 50 % destroyed every figure inside or against it rolls d100 and dies on
    51 or more, a character takes a wound instead (l.814, GF-K2)."""
    for el in elements(state):
        rec = state.buildings.get(el.id)
        if not rec or not rec.get("burning") or rec.get("destroyed"):
            continue
        rec["fire_turn"] += 1
        row = bdata.data().damage["fire"]
        from .weather import fire_damage_factor  # the wind of Ehecatl doubles the fires (l.1314, OR-GF122)
        times = fire_damage_factor(state)
        damage(state, el, row.on_turn(rec["fire_turn"]) * times, f"fire, turn {rec['fire_turn']}"
               + (f", × {times} in the wind" if times != 1 else ""),
               f"incendie, tour {rec['fire_turn']}" + (f", × {times} dans le vent" if times != 1 else ""), dice)
        if rec["destroyed"]:
            continue
        fire = bdata.data().fire
        if 100 * rec["damage"] >= fire.evacuate_at_pct * rec["defence"]:
            for u in around(state, el):
                burn_test(state, u, el, dice)
        extinguish(state, el, dice)


def extinguish(state: Battle, el, dice) -> None:
    """l.816-820 (OR-GF89): each figure of the units fighting the fire rolls d100; each 50 or less
    takes a point of damage off; at 0 the fire is out and the fighters reform at no cost (l.820)."""
    fire = bdata.data().fire
    rec = record(state, el.id)
    tol = play().enter_within_cm
    fighters = [u for u in sorted(state.units.values(), key=lambda v: v.id)
                if u.alive and FIGHTING in u.markers and tt.nearest_distance(u.footprint(), el.geometry) <= tol + 1e-6]
    for u in fighters:  # the marker stays until the next turn: attacked meanwhile, they are flanked (l.818)
        if not rec["burning"] or rec["destroyed"]:
            continue
        rolls = [dice.roll(100) for _ in range(u.figures)]
        off = sum(1 for r in rolls if r <= fire.extinguish_on_d100_at_most) * fire.extinguish_reduces_by
        before = rec["damage"]
        rec["damage"] = max(0, before - off)
        out = rec["damage"] == 0
        steps = [f"{u.name} fights the fire: each figure on d100 1–{fire.extinguish_on_d100_at_most} "
                 f"({fire.extinguish_on_d100_at_most} %) takes a point off",
                 f"d100 {rolls}: damage {before} → {rec['damage']}"]
        if out:
            rec["burning"], rec["fire_turn"] = False, 0
            u.set_disorder(False)
            steps.append("the fire is out: the unit reforms at no cost")
        name, name_fr = el.name or el.id, el.name_fr or el.name or el.id
        emit(state, "extinguish", f"{u.name} fights the fire of {name}: damage {before} → {rec['damage']}"
             + (": the fire is out" if out else ""),
             f"{u.name} lutte contre l'incendie de {name_fr} : dégâts {before} → {rec['damage']}"
             + (" : le feu est éteint" if out else ""), side=u.side, ref=fire.ref, decision="OR-GF89", unit=u.id,
             building=el.id, d100=rolls, ruling={"explanation": steps, "citations": [REF_EXTINGUISH, "OR-GF89"]})


def burn_test(state: Battle, u: Unit, el, dice) -> None:
    from .casualties import remove_figures, wound
    fire = bdata.data().fire
    die_pct = 100 - fire.figure_dies_on_d100_at_least + 1
    name = el.name or el.id
    if u.kind == "troop":
        rolls = [dice.roll(100) for _ in range(u.figures)]
        dead = sum(1 for r in rolls if r >= fire.figure_dies_on_d100_at_least)
        steps = [f"{name} is 50 % destroyed or more: each figure inside or against it dies on d100 "
                 f"{fire.figure_dies_on_d100_at_least}–100 ({die_pct} %)",
                 f"{u.name}: d100 {rolls}: {dead} figure(s) die"]
        if dead:
            steps += remove_figures(u, dead)["explanation"]
        emit(state, "burn_test", f"{u.name} in the fire of {name}: {dead} of {len(rolls)} figure(s) die",
             f"{u.name} dans l'incendie de {el.name_fr or name} : {dead} figurine(s) sur {len(rolls)} meurent",
             side=u.side, ref=fire.ref, decision="GF-K2, OR-GF85", unit=u.id, building=el.id, d100=rolls, dead=dead,
             ruling={"explanation": steps, "citations": [REF_BURN, "GF-K2", "OR-GF85"]})
    else:
        ev = wound(u, dice)
        emit(state, "burn_test", f"{u.name} in the fire of {name}: a wound",
             f"{u.name} dans l'incendie de {el.name_fr or name} : une blessure", side=u.side, ref=fire.ref,
             decision="GF-K2", unit=u.id, building=el.id,
             ruling={"explanation": [f"{name} is 50 % destroyed or more: a character takes a wound"] + ev["explanation"],
                     "citations": [REF_BURN, "GF-K2"] + ev["citations"]})


def collapse(state: Battle, el, dice) -> None:
    """The building is destroyed (damage ≥ defence): it collapses; everyone inside and against it
    tests as under a crash, d100 below 50 survives (l.897, l.908; OR-GF85); the occupants stand in
    the ruins, outside, disordered; the building gives no cover any more and takes no one in."""
    from .. import crash as crash_data
    from .crash_play import crushed
    rec = record(state, el.id)
    rec["destroyed"], rec["burning"] = True, False
    name = el.name or el.id
    emit(state, "building_collapse", f"{name} collapses", f"{el.name_fr or name} s'effondre", ref=REF_COLLAPSE,
         decision="OR-GF85", building=el.id,
         ruling={"explanation": [f"{name} collapses: everyone inside and against it tests (d100 below "
                                 f"{crash_data.crash().killed.survives_below_pct} survives)"],
                 "citations": [REF_COLLAPSE, REF_DEFENCE, "OR-GF85"]})
    for u in around(state, el):
        was_inside = u.inside == el.id
        crushed(state, u, u.figures, dice, f"the collapse of {name}", f"l'effondrement de {el.name_fr or name}")
        if was_inside and u.alive:
            leave(state, u, u.heading, "recoil")
        elif was_inside:
            u.inside, u.inside_points, u.hidden = None, None, False
        elif u.split and u.split["building"] == el.id:  # its figures inside come out (OR-GF143)
            if u.alive:
                emit(state, "leave_building", rejoin(state, u), f"{u.name} sort des ruines de {el.name_fr or name}",
                     side=u.side, ref=REF_COLLAPSE, decision="OR-GF85, OR-GF143", unit=u.id, building=el.id)
                u.set_disorder(True)
            else:
                u.split = None


def view(state: Battle) -> list[dict]:
    """The buildings as every side sees them (their state is public; their occupants are not)."""
    out = []
    for el in elements(state):
        rec = state.buildings.get(el.id, {})
        s = structure(el)
        out.append({"id": el.id, "material": material(el), "material_name": s.name_en, "material_name_fr": s.printed,
                    "floors": floors(el), "capacity": capacity(el), "defence_dice": s.printed_dice,
                    "defence": rec.get("defence"), "damage": rec.get("damage", 0),
                    "burning": rec.get("burning", False), "destroyed": rec.get("destroyed", False),
                    "flammable": s.flammable, "ref": REF_DEFENCE})
    return out


_FR = {"it has been destroyed": "il a été détruit", "the unit is in the air": "l'unité est en l'air",
       "another unit holds it (OR-GF80)": "une autre unité l'occupe (OR-GF80)",
       "it is no longer within reach": "il n'est plus à portée"}


def _fr(why: str) -> str:
    if why in _FR:
        return _FR[why]
    m = re.match(r"it is ([\d.]+) cm away \(at most ([\d.]+) cm\)", why)
    if m:
        return f"il est à {m.group(1)} cm (au plus {m.group(2)} cm)"
    m = re.match(r"it holds (\d+) figures \((\d+) a floor × (\d+)\), not (\d+) \(OR-GF80\)", why)
    if m:
        return f"il tient {m.group(1)} figurines ({m.group(2)} par étage × {m.group(3)}), pas {m.group(4)} (OR-GF80)"
    return why
