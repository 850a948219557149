"""An encounter battle's pre-battle steps on the table (GF Avant la bataille, seed 003 l.483-511;
OR-GF100): reconnaissance and the ambush (GF-K3), the deployment order and the movement bases
(GF-K5), the flank marches (GF-K4). The rules are part 1's pure functions
(:mod:`.prebattle_play`); this module plays them in the battle: at set-up (:func:`start`), in the
deployment (the ``ambush``, ``place_base`` and ``flank_march`` actions), and at the start of each
turn (:func:`turn_start`: the preliminary detection phase of :mod:`.fog`, then the flank forces'
tries). A scenario is an encounter battle when it says ``"encounter": true``."""

from __future__ import annotations

import math

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from .. import army as army_mod, prebattle
from . import fog, moves, prebattle_play
from .actions import Action, emit
from .deploy import zones
from .state import FLANK, SIDES, Battle, Unit

EDGES = ("left", "right")
REF_AMBUSH = "GF seed 003 l.485; GF-K3, OR-GF28"
REF_DEPLOY = "GF seed 003 l.491-495; GF-K5, OR-GF101"
REF_FLANK = "GF seed 003 l.505-511; GF-K4, OR-GF104"


def is_encounter(state: Battle) -> bool:
    return bool(getattr(state.scenario, "encounter", False))


def pochteca(state: Battle, side: str) -> int:
    """The side's reconnaissance potential: its army's pochteca figures (l.485, army builder)."""
    return army_mod._pochteca(state.scenario.armies[side].get("pochteca", 0))


# --- set-up ----------------------------------------------------------------------------------------
def start(state: Battle) -> None:
    """Reconnaissance compared, the deployment order, the movement bases of the side(s) using them."""
    enc = fog.data()["encounter"]
    pot = {s: pochteca(state, s) for s in SIDES}
    rec = prebattle_play.reconnaissance(pot)
    order = prebattle_play.deployment_order(rec["discovered"])
    found = [s for s in SIDES if rec["discovered"][s]]
    emit(state, "reconnaissance",
         f"Reconnaissance: side A {pot['A']} pochteca, side B {pot['B']}: "
         + (f"side {found[0]} is discovered" if found else "neither side is discovered"),
         f"Reconnaissance : camp A {pot['A']} pochteca, camp B {pot['B']} : "
         + (f"le camp {found[0]} est découvert" if found else "aucun camp n'est découvert"),
         ref=enc.ref, decision="GF-K3, OR-GF100", potentials=pot, discovered=rec["discovered"],
         ambush=rec["ambush"], ruling={"explanation": rec["explanation"], "citations": rec["citations"]})
    first = order["on_table_first"]
    queue = [first, state.other(first)] if first else list(SIDES)
    emit(state, "deployment_order",
         (f"Side {first} sets up on the table first; side {state.other(first)} deploys on movement bases" if first
          else "Both sides deploy on movement bases, A then B, each seeing only the other's bases"),
         (f"Le camp {first} s'installe d'abord sur la table ; le camp {state.other(first)} se déploie sur des bases "
          f"de mouvement" if first else "Les deux camps se déploient sur des bases de mouvement, A puis B, chacun "
          "ne voyant que les bases de l'autre"),
         ref=REF_DEPLOY, queue=queue, movement_bases=order["movement_bases"],
         ruling={"explanation": order["explanation"], "citations": order["citations"]})
    state.fog = {"discovered": dict(rec["discovered"]), "queue": queue, "bases_sides": list(order["movement_bases"]),
                 "ambush": rec["ambush"], "ambush_unit": None, "bases": {}, "flank": {"A": {}, "B": {}},
                 "hidden_pass": False}
    for side in order["movement_bases"]:
        make_bases(state, side)


def make_bases(state: Battle, side: str) -> None:
    """One base per unit (a brigade of its own, OR-GF101) + 1d6 − 2 decoys (GF-K5); the base ids are
    drawn in a random order so that an id tells nothing; the decoys wait at the back of the zone."""
    units = state.side_units(side)
    res = prebattle_play.deployment_bases(len(units), state.dice)
    n = res["bases"]
    ids = [f"{side}-base-{k}" for k in range(1, n + 1)]
    for i in range(n - 1, 0, -1):  # Fisher-Yates with the game's dice
        j = state.dice.roll(i + 1) - 1
        ids[i], ids[j] = ids[j], ids[i]
    b_row = fog.data()["base"]
    zone = zones(state)[side]
    minx, miny, maxx, maxy = zone.bounds
    decoys = n - len(units)
    heading = 0.0 if side == "A" else 180.0
    y = (maxy - b_row.depth_cm / 2 - 0.5) if side == "A" else (miny + b_row.depth_cm / 2 + 0.5)
    for k, bid in enumerate(ids):
        entry = {"side": side, "x": 0.0, "y": 0.0, "heading": heading, "placed": False}
        if k < len(units):
            units[k].base = bid
            entry.update(x=units[k].x, y=units[k].y)
        else:
            i = k - len(units)
            entry.update(x=round(minx + (maxx - minx) * (i + 1) / (decoys + 1), 2), y=round(y, 2))
        state.fog["bases"][bid] = entry
    emit(state, "movement_bases", f"Side {side} deploys on {n} movement bases ({decoys} decoys)",
         f"Le camp {side} se déploie sur {n} bases de mouvement ({decoys} leurres)", side=side, ref=REF_DEPLOY,
         private=side, bases=n, decoys=decoys, die=res["die"],
         ruling={"explanation": res["explanation"], "citations": res["citations"] + [fog.data()["base"].ref]})
    emit(state, "movement_bases_public", f"Side {side} deploys on {n} movement bases",
         f"Le camp {side} se déploie sur {n} bases de mouvement", side=side, ref=REF_DEPLOY, bases=n)


# --- the deployment's actions -------------------------------------------------------------------
def unplaced_decoys(state: Battle, side: str) -> list[str]:
    return [bid for bid, b in sorted(fog.bases(state).items())
            if b["side"] == side and not b["placed"] and fog.carried(state, bid) is None]


def ambush_candidates(state: Battle, side: str) -> list[Unit]:
    if not state.fog or state.fog.get("ambush") != side or state.fog.get("ambush_unit"):
        return []
    return [u for u in state.side_units(side) if not u.moved and u.kind == "troop"]


def check_ambush(state: Battle, u: Unit, x: float, y: float, heading: float) -> dict:
    if state.fog.get("ambush") != u.side:
        raise IllegalAction(f"side {u.side} did not discover its enemy: no ambush", REF_AMBUSH)
    if state.fog.get("ambush_unit"):
        raise IllegalAction(f"side {u.side} has placed its one unit in ambush already", REF_AMBUSH)
    if u.moved:
        raise IllegalAction(f"{u.name} has already been placed", REF_AMBUSH)
    fp = moves.footprint_at(u, x, y, heading)
    enemies = {o.id: o.footprint() for o in state.units.values() if o.side != u.side and o.alive and o.base is None}
    friends = {o.id: o.footprint() for o in state.side_units(u.side) if o.id != u.id}
    verdict = prebattle_play.ambush_position(u.side, fp, state.battlefield, enemies, friends)
    if not verdict["allowed"]:
        raise IllegalAction(f"{u.name} may not stand in ambush there: " + "; ".join(verdict["explanation"]),
                            REF_AMBUSH)
    for o in state.side_units(u.side):
        if o.id != u.id and fp.intersection(o.footprint()).area > 0.01 and "character" not in (o.kind, u.kind):
            raise IllegalAction(f"{u.name} would stand on {o.name}", REF_DEPLOY)
    return verdict


def ambush_samples(state: Battle, side: str) -> list[Action]:
    """The ambush points found when the side began its deployment (:func:`prepare_ambush`), still
    legal (samples; any point the rule allows is accepted)."""
    out = []
    if not ambush_candidates(state, side):
        return out
    for uid, x, y, h in state.fog.get("ambush_hints", []):
        u = state.units.get(uid)
        if u is None or u.moved or not u.alive:
            continue
        try:
            check_ambush(state, u, x, y, h)
        except IllegalAction:
            continue
        out.append(Action("ambush", side, unit=uid, x=x, y=y, heading=h))
    return out


def prepare_ambush(state: Battle, limit: int = 2) -> None:
    """When the ambushing side's deployment begins (the enemy stands on the table), look once for
    points out of the enemy zone and sight for its narrowest troop (a grid of the table, from the
    centre line back); kept in ``fog["ambush_hints"]`` for :func:`ambush_samples`."""
    side = state.fog.get("ambush")
    cands = ambush_candidates(state, side) if side else []
    if not cands or "ambush_hints" in state.fog:
        return
    u = min(cands, key=lambda v: (v.width, v.id))
    t = state.battlefield
    heading = 0.0 if side == "A" else 180.0
    enemy_zone = zones(state)[state.other(side)]
    ys = [t.height / 2 + k * 10.0 * (1 if side == "A" else -1) for k in range(-3, 7)]
    from oriflamme.geometry.tabletop import line_of_sight

    from .table import unit_obstacle
    enemies = [(o.id, o.footprint()) for o in state.units.values() if o.side != side and o.alive and o.base is None]
    screens = t.obstacles() + [unit_obstacle(o.id, o.footprint()) for o in state.side_units(side) if o.id != u.id]
    sights = [(g, screens + [unit_obstacle(k, h) for k, h in enemies if k != uid]) for uid, g in enemies]
    hints = []
    for y in ys:
        for x in [t.width / 2 + k * 10.0 for k in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8)]:
            fp = moves.footprint_at(u, x, y, heading)
            if not t.outline.covers(fp) or fp.intersection(enemy_zone).area > 0:
                continue
            if any(line_of_sight(g, fp, others).visible for g, others in sights):
                continue  # seen: the quick test before the rule's own (the same lines of sight)
            try:
                check_ambush(state, u, round(x, 2), round(y, 2), heading)
            except IllegalAction:
                continue
            hints.append([u.id, round(x, 2), round(y, 2), heading])
            if len(hints) >= limit:
                break
        if len(hints) >= limit:
            break
    state.fog["ambush_hints"] = hints


def check_place_base(state: Battle, a: Action) -> None:
    b = fog.bases(state).get(a.base or "")
    if b is None or b["side"] != a.side or fog.carried(state, a.base) is not None:
        raise IllegalAction(f"{a.base!r} is not a decoy base of side {a.side}", REF_DEPLOY)
    if b["placed"]:
        raise IllegalAction(f"base {a.base} has already been placed", REF_DEPLOY)
    row = fog.data()["base"]
    fp = tt.footprint(tt.Pose(a.x, a.y, b["heading"]), row.width_cm, row.depth_cm)
    if not zones(state)[a.side].buffer(0.01).covers(fp):
        raise IllegalAction(f"base {a.base} must stand inside side {a.side}'s deployment zone", REF_DEPLOY)


def place_base_samples(state: Battle, side: str) -> list[Action]:
    out = []
    for bid in unplaced_decoys(state, side):  # every decoy listed: each is a choice of its own
        b = fog.bases(state)[bid]
        for dx in (5.0, -5.0, 0.0):
            a = Action("place_base", side, base=bid, x=round(b["x"] + dx, 2), y=b["y"])
            try:
                check_place_base(state, a)
            except IllegalAction:
                continue
            out.append(a)
            break
    return out


def flank_points(state: Battle, side: str) -> int:
    return sum(u.points for u in state.side_units(side, alive=False) if u.status == FLANK)


def check_flank(state: Battle, a: Action) -> dict:
    u = state.units.get(a.unit or "")
    fm = prebattle.data().flank_march
    if u is None or u.side != a.side or not u.alive:
        raise IllegalAction(f"{a.unit!r} is not a unit of side {a.side} on the table", REF_FLANK)
    if u.moved:
        raise IllegalAction(f"{u.name} has been placed on the table this deployment", REF_FLANK)
    if a.edge not in EDGES:
        raise IllegalAction(f"a flank march enters by a side edge ('left' or 'right'), not {a.edge!r}", fm.ref)
    existing = state.fog["flank"][a.side].get(a.edge)
    if existing and (abs(existing["y"] - a.y) > 1e-6 or existing["first_try_turn"] != a.turn):
        raise IllegalAction(f"all the units of a side on one edge are one force entering on the same turn at "
                            f"the place written (y = {existing['y']:g}, turn {existing['first_try_turn']})", fm.ref)
    members = [state.units[m] for m in (existing or {}).get("units", [])] + [u]
    force = prebattle_play.FlankForce(side=a.side, edge=a.edge, y=a.y, first_try_turn=a.turn,
                                      points=flank_points(state, a.side) + u.points)
    army = sum(v.points for v in state.side_units(a.side, alive=False))
    verdict = prebattle_play.flank_march_plan(force, army, state.battlefield)
    if not verdict["allowed"]:
        raise IllegalAction("flank march refused: " + "; ".join(verdict["explanation"]), fm.ref)
    return {"verdict": verdict, "members": members}


def flank_samples(state: Battle, side: str) -> list[Action]:
    """One sample a unit: the left edge, the middle of the side's half, the earliest turn (or the
    force's own place and turn)."""
    out = []
    fm = prebattle.data().flank_march
    h = state.battlefield.height
    for u in state.side_units(side):
        if u.moved or u.kind not in ("troop", "character"):
            continue
        f = state.fog["flank"][side].get("left")
        y, turn = (f["y"], f["first_try_turn"]) if f else (round(h * (0.75 if side == "A" else 0.25), 2), fm.earliest_turn)
        a = Action("flank_march", side, unit=u.id, edge="left", y=y, turn=turn)
        try:
            check_flank(state, a)
        except IllegalAction:
            continue
        out.append(a)
    return out


def check_hide(state: Battle, u: Unit, at: tuple | None = None) -> list[str]:
    """May ``u`` stay off the table, hidden where it stands (l.497, OR-GF105)? Mostly in a house, a
    large building, jungle or a wood, or against a building. ``at``: the (x, y, heading) a unit not yet
    placed is placed at first (the deployment's own check: its zone, no friend under it). Returns the steps."""
    hide = fog.data()["hide"]
    if u.base is not None:
        raise IllegalAction(f"{u.name} is hidden already (on a movement base or in cover)", hide.ref)
    if u.kind not in ("troop", "character"):
        raise IllegalAction(f"{u.name}: only troops and characters hide in houses or the jungle", hide.ref)
    if at is not None:
        from . import turn
        if u.moved:
            raise IllegalAction(f"{u.name} has already been placed: it hides where it stands (undo to change it)",
                                turn.REF_DEPLOY)
        turn.check_place(state, u, *at)
    fp = u.footprint() if at is None else moves.footprint_at(u, *at)
    for el in state.battlefield.at(fp):
        if el.kind in hide.in_kinds and el.geometry.area > 0 and el.geometry.intersection(fp).area >= fp.area / 2:
            return [f"{u.name} stands mostly in {terrain_name(el.kind)}: it may stay off the table, its place written"]
    for el in state.battlefield.elements:
        if el.kind in hide.behind_kinds and el.geometry.distance(fp) <= hide.behind_cm:
            return [f"{u.name} stands against {terrain_name(el.kind)}: it may stay off the table, its place written"]
    raise IllegalAction(f"{u.name} is neither mostly in a house, a building, jungle or a wood, nor against a "
                        f"building: it is set up on the table", hide.ref)


def terrain_name(kind: str) -> str:
    from . import terrain
    return terrain.kind(kind).name_en


def hide_samples(state: Battle, side: str) -> list[Action]:
    out = []
    for u in state.side_units(side):
        if u.base is None:
            try:
                check_hide(state, u)
            except IllegalAction:
                continue
            out.append(Action("hide", side, unit=u.id))
    return out


def deploy_actions(state: Battle, side: str) -> list[Action]:
    """The encounter's deployment samples for ``side`` (legal_actions adds them to the placements)."""
    if not state.fog:
        return []
    out = ambush_samples(state, side)
    if side in state.fog.get("bases_sides", []):
        out += place_base_samples(state, side)
    return out + hide_samples(state, side) + flank_samples(state, side)


def check(state: Battle, a: Action) -> None:
    if not state.fog:
        raise IllegalAction(f"{a.type}: only in an encounter battle", fog.data()["encounter"].ref)
    if a.type == "ambush":
        u = state.units.get(a.unit or "")
        if u is None or u.side != a.side or not u.alive:
            raise IllegalAction(f"{a.unit!r} is not a unit of side {a.side} on the table", REF_AMBUSH)
        check_ambush(state, u, a.x, a.y, a.heading)
    elif a.type == "place_base":
        if a.side not in state.fog.get("bases_sides", []):
            raise IllegalAction(f"side {a.side} deploys on the table, not on movement bases", REF_DEPLOY)
        check_place_base(state, a)
    elif a.type == "flank_march":
        check_flank(state, a)
    elif a.type == "hide":
        u = state.units.get(a.unit or "")
        if u is None or u.side != a.side or not u.alive:
            raise IllegalAction(f"{a.unit!r} is not a unit of side {a.side} on the table", fog.data()["hide"].ref)
        check_hide(state, u, hide_at(a, u))


def hide_at(a: Action, u: Unit) -> tuple | None:
    """The place a ``hide`` action writes for a unit not yet placed (x, y, heading: its own if left out)."""
    if a.x is None or a.y is None:
        return None
    return (a.x, a.y, u.heading if a.heading is None else a.heading)


def apply(state: Battle, a: Action) -> None:
    if a.type == "ambush":
        u = state.units[a.unit]
        verdict = check_ambush(state, u, a.x, a.y, a.heading)
        moves.apply_move(u, a.x, a.y, a.heading)
        u.moved = True
        state.fog["ambush_unit"] = u.id
        emit(state, "ambush", f"{u.name} is placed in ambush at ({a.x:.1f}, {a.y:.1f})",
             f"{u.name} est placée en embuscade en ({a.x:.1f}, {a.y:.1f})", side=a.side, ref=REF_AMBUSH,
             private=a.side, unit=u.id, to=[a.x, a.y, a.heading],
             ruling={"explanation": verdict["explanation"], "citations": verdict["citations"] + ["OR-GF28"]})
    elif a.type == "place_base":
        b = state.fog["bases"][a.base]
        b.update(x=a.x, y=a.y, placed=True)
        emit(state, "place_base", f"Decoy base {a.base} is placed at ({a.x:.1f}, {a.y:.1f})",
             f"La base leurre {a.base} est placée en ({a.x:.1f}, {a.y:.1f})", side=a.side, ref=REF_DEPLOY,
             private=a.side, base=a.base, to=[a.x, a.y])
    elif a.type == "hide":
        u = state.units[a.unit]
        at = hide_at(a, u)
        steps = check_hide(state, u, at)
        if at is not None:   # placed where it hides, on the battle plan (l.497)
            moves.apply_move(u, *at)
        u.base = fog.IN_COVER
        u.moved = True  # placed where it hides
        hide = fog.data()["hide"]
        emit(state, "hide", f"{u.name} stays hidden off the table, its place written on the battle plan",
             f"{u.name} reste cachée hors de la table, sa position écrite sur le plan de bataille", side=a.side,
             ref=hide.ref, decision=hide.decision, private=a.side, unit=u.id,
             ruling={"explanation": steps, "citations": [hide.ref, hide.decision]})
    elif a.type == "flank_march":
        out = check_flank(state, a)
        u = state.units[a.unit]
        forces = state.fog["flank"][a.side]
        f = forces.setdefault(a.edge, {"side": a.side, "edge": a.edge, "y": a.y, "first_try_turn": a.turn,
                                       "units": [], "failures": 0, "entered": False, "lost": False})
        f["units"].append(u.id)
        if u.base in state.fog["bases"]:
            # its base stays on the table, empty: the enemy sees no base vanish (OR-GF104)
            state.fog["bases"][u.base].update(x=u.x, y=u.y, heading=u.heading, placed=True)
        u.base = None
        u.status = FLANK
        members = [state.units[m] for m in f["units"]]
        f["with_character"] = any(m.kind == "character" for m in members)
        f["all_class_b"] = all(m.kind == "character" or (m.kind == "troop" and m.klass == "B") for m in members) \
            and any(m.kind == "troop" for m in members)
        f["points"] = sum(m.points for m in members)
        emit(state, "flank_march", f"{u.name} marches off the table to enter by the {a.edge} edge at y = {a.y:g} "
             f"(first try on turn {a.turn})", f"{u.name} marche hors de la table pour entrer par le bord "
             f"{'gauche' if a.edge == 'left' else 'droit'} en y = {a.y:g} (premier essai au tour {a.turn})",
             side=a.side, ref=REF_FLANK, private=a.side, unit=u.id, edge=a.edge, y=a.y, first_try_turn=a.turn,
             ruling={"explanation": out["verdict"]["explanation"], "citations": out["verdict"]["citations"]})


# --- decoys moving in phase 6 (OR-GF101) ----------------------------------------------------------
def decoy_allowance(state: Battle, side: str) -> float:
    """As far as the normal move of the side's fastest unit still on a base (or of any of its units)."""
    col = fog.data()["base"].decoy_move
    pool = [u for u in state.side_units(side) if u.base is not None and not fog.in_cover(u)] or state.side_units(side)
    return max((moves.allowance(u, col)[0] for u in pool), default=0.0)


def decoys_to_move(state: Battle, side: str) -> list[str]:
    """The side's decoys that may move now: phase 6, the hidden units' turn (l.293), once a turn."""
    if not state.fog or state.phase != 6 or not state.fog.get("hidden_pass"):
        return []
    return [bid for bid, b in sorted(fog.bases(state).items()) if b["side"] == side
            and fog.carried(state, bid) is None and b.get("moved_turn") != state.turn]


def check_move_base(state: Battle, a: Action) -> float:
    row = fog.data()["base"]
    if a.base not in decoys_to_move(state, a.side):
        raise IllegalAction(f"{a.base!r} is no decoy base of side {a.side} that may move now (in phase 6, with the "
                            f"hidden units, once a turn)", row.ref)
    b = fog.bases(state)[a.base]
    dist = ((a.x - b["x"]) ** 2 + (a.y - b["y"]) ** 2) ** 0.5
    limit = decoy_allowance(state, a.side)
    if dist > limit + 1e-6:
        raise IllegalAction(f"base {a.base} may move {limit:g} cm (the normal move of the side's fastest unit on a "
                            f"base); this move is {dist:.1f} cm", row.ref)
    fp = tt.footprint(tt.Pose(a.x, a.y, a.heading), row.width_cm, row.depth_cm)
    if not moves.table_box().covers(fp):
        raise IllegalAction(f"base {a.base} would leave the table", "GF seed 003 l.628")
    return dist


def move_base_samples(state: Battle, side: str) -> list[Action]:
    out = []
    limit = decoy_allowance(state, side)
    for bid in decoys_to_move(state, side):
        b = fog.bases(state)[bid]
        h = math.radians(b["heading"])  # heading 0 faces y = 0, clockwise
        fx, fy = math.sin(h), -math.cos(h)
        for share in (1.0, 0.5, 0.0):  # (0: it stays, so that every decoy that may move is listed)
            a = Action("move_base", side, base=bid, x=round(b["x"] + fx * limit * share, 2),
                       y=round(b["y"] + fy * limit * share, 2), heading=b["heading"])
            try:
                check_move_base(state, a)
            except IllegalAction:
                continue
            out.append(a)
    return out


def move_base(state: Battle, a: Action) -> None:
    dist = check_move_base(state, a)
    fog.bases(state)[a.base].update(x=a.x, y=a.y, heading=a.heading, moved_turn=state.turn)
    emit(state, "move_base", f"Decoy base {a.base} moves {dist:.1f} cm", f"La base leurre {a.base} se déplace de {dist:.1f} cm",
         side=a.side, ref=fog.data()["base"].ref, private=a.side, base=a.base, to=[a.x, a.y, a.heading])


# --- each turn -----------------------------------------------------------------------------------
def turn_start(state: Battle) -> None:
    """Before phase 1: the preliminary detection phase (l.250), then the flank forces' tries (l.509)."""
    if not state.fog:
        return
    state.fog["hidden_pass"] = False
    fog.sight_reveals(state)
    fog.detection_phase(state)
    for side in SIDES:
        for edge in EDGES:
            f = state.fog["flank"][side].get(edge)
            if f and not f["entered"] and not f["lost"]:
                try_entry(state, f)


def try_entry(state: Battle, f: dict) -> None:
    fm = prebattle.data().flank_march
    turns = prebattle.flank_march_turns(f["first_try_turn"])
    if f["failures"] >= len(turns) or state.turn != turns[f["failures"]]:
        return
    force = prebattle_play.FlankForce(side=f["side"], edge=f["edge"], y=f["y"], first_try_turn=f["first_try_turn"],
                                      points=f["points"], with_character=f["with_character"],
                                      all_class_b=f["all_class_b"], failures=f["failures"])
    p = sum(1 for d in range(1, fm.die + 1) if prebattle.flank_march_enters(
        d, with_character=force.with_character, all_class_b=force.all_class_b)) / fm.die
    res = prebattle_play.flank_march_attempt(force, state.turn, state.dice)
    f["failures"] = res["force"].failures
    steps = [f"chance to enter: {p:.0%}"] + res["explanation"]
    ruling = {"explanation": steps, "citations": res["citations"]}
    side = f["side"]
    if not res["enters"]:
        f["lost"] = res["lost"]
        emit(state, "flank_try", f"Side {side}'s flank march ({f['edge']} edge) tries to enter: d6 {res['die']} — "
             + ("it will not come" if res["lost"] else "not yet"),
             f"La marche de flanc du camp {side} (bord {'gauche' if f['edge'] == 'left' else 'droit'}) tente d'entrer : "
             f"d6 {res['die']} — " + ("elle ne viendra pas" if res["lost"] else "pas encore"),
             side=side, ref=REF_FLANK, private=side, edge=f["edge"], die=res["die"], chance=p, lost=res["lost"],
             ruling=ruling)
        return
    f["entered"] = True
    placed = enter(state, f)
    emit(state, "flank_entry", f"Side {side}'s flank march enters by the {f['edge']} edge: "
         + ", ".join(state.units[u].name for u in placed),
         f"La marche de flanc du camp {side} entre par le bord {'gauche' if f['edge'] == 'left' else 'droit'} : "
         + ", ".join(state.units[u].name for u in placed),
         side=side, ref=REF_FLANK, edge=f["edge"], die=res["die"], chance=p, units=placed, ruling=ruling)


def enter(state: Battle, f: dict) -> list[str]:
    """The force's units stand against the edge at the written y, facing in, side by side inwards;
    each as close to the edge as the units already there allow (OR-GF104)."""
    gap = fog.data()["flank_entry"].gap_cm
    t = state.battlefield
    heading = 90.0 if f["edge"] == "left" else 270.0
    placed = []
    offset = 0.5
    for uid in f["units"]:
        u = state.units[uid]
        u.status = "ok"
        half_w = u.width / 2
        y = min(max(f["y"], half_w + 0.5), t.height - half_w - 0.5)
        while True:
            dx = offset + u.depth / 2
            x = dx if f["edge"] == "left" else t.width - dx
            fp = moves.footprint_at(u, x, y, heading)
            clash = any(o.id != u.id and o.alive and fp.intersection(o.footprint()).area > 0.01
                        for o in state.units.values())
            if not clash or offset > t.width / 2:
                break
            offset += 5.0
        moves.apply_move(u, round(x, 2), round(y, 2), heading)
        u.figures_turn_start = u.figures
        offset += u.depth + gap
        placed.append(uid)
    return placed
