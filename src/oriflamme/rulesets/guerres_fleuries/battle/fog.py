"""The fog of war of an encounter battle (GF Avant la bataille > Déploiement, seed 003 l.491-497;
Détection l.1342-1367; data/encounter.toml): movement bases and what they hide.

A unit of a side deployed "sur les bases de mouvement" stands on its own base (``Unit.base``; one
brigade a base, and brigades are one unit in the battle, OR-GF101): the enemy sees the base, an
anonymous counter where the unit stands, never what it carries; decoy bases carry nothing. A base is
revealed by the preliminary detection phase of each turn (l.250, part 1's ``detection`` referee), when
its unit fires (l.1363) or charges, or when an enemy comes within 5 cm of it (l.497, OR-GF103); a
revealed decoy is taken off the table. The state: ``state.fog["bases"]`` = {base id: {"side", "x",
"y", "heading", "decoy", "placed"}} (a real base's place is its unit's)."""

from __future__ import annotations

from functools import lru_cache

from shapely.geometry import LineString

from oriflamme.geometry import tabletop as tt

from .. import referee
from ..detection import data as detection_data
from ..rows import Row, one
from . import terrain
from .table import unit_obstacle
from .actions import emit
from .state import SIDES, Battle, Unit

FILE = "encounter.toml"


class Printed(Row):
    printed: str
    text_en: str


class BaseRow(Printed):
    width_cm: float
    depth_cm: float
    units_per_base: int
    decoy_move: str


class DetectionRow(Printed):
    from_kind: str
    high_terrain: list[str]
    low_terrain: list[str]
    linear_obstacle: list[str]


class RevealRow(Printed):
    contact_cm: float


class FlankEntryRow(Printed):
    gap_cm: float


class ShiftsRow(Printed):
    half_hidden_share: float
    sight_corners: int


class HideRow(Printed):
    in_kinds: list[str]
    behind_kinds: list[str]
    behind_cm: float


#: ``Unit.base`` of a unit hidden in cover without a base (l.497, OR-GF105)
IN_COVER = "in-cover"


@lru_cache(maxsize=1)
def data() -> dict:
    out = {"encounter": one(Printed, FILE, "encounter"), "base": one(BaseRow, FILE, "base"),
           "detection": one(DetectionRow, FILE, "detection"), "reveal": one(RevealRow, FILE, "reveal"),
           "hidden_last": one(Printed, FILE, "hidden_last"), "flank_entry": one(FlankEntryRow, FILE, "flank_entry"),
           "hide": one(HideRow, FILE, "hide"), "shifts": one(ShiftsRow, FILE, "detection_shifts")}
    det, hide = out["detection"], out["hide"]
    for kid in det.high_terrain + det.low_terrain + det.linear_obstacle + hide.in_kinds + hide.behind_kinds:
        terrain.kind(kid)  # an unknown terrain kind is refused, naming it
    return out


# --- who sees what ---------------------------------------------------------------------------------
def active(state: Battle) -> bool:
    return bool(state.fog)


def hidden_from(u: Unit, side: str | None) -> bool:
    """Whether ``side`` (None: a spectator) may not see ``u``: on a movement base or marching on a
    flank, or hidden in a building (l.784, OR-GF83: ``Unit.hidden``), to anyone but its own side."""
    return (u.base is not None or u.status == "flank" or u.hidden) and u.side != side


def unseen(state: Battle, u: Unit, side: str | None) -> bool:
    """Whether ``side`` may not see ``u`` now: hidden (:func:`hidden_from`), or, in an encounter's
    deployment, a unit of a side still writing its plan and setting up (OR-GF100)."""
    if hidden_from(u, side):
        return True
    return bool(state.fog) and state.phase == 0 and u.side != side and u.side not in state.done


def bases(state: Battle) -> dict[str, dict]:
    return state.fog.get("bases", {}) if state.fog else {}


def carried(state: Battle, bid: str) -> Unit | None:
    return next((u for u in state.units.values() if u.base == bid), None)


def base_pose(state: Battle, bid: str) -> tuple[float, float, float]:
    u = carried(state, bid)
    if u is not None:
        return u.x, u.y, u.heading
    b = bases(state)[bid]
    return b["x"], b["y"], b["heading"]


def base_shape(state: Battle, bid: str):
    x, y, h = base_pose(state, bid)
    b = data()["base"]
    return tt.footprint(tt.Pose(x, y, h), b.width_cm, b.depth_cm)


def bases_json(state: Battle, side: str | None) -> list[dict]:
    """The bases on the table as ``side`` sees them: its own with what they carry, the enemy's as
    anonymous counters (position, facing, size; l.493)."""
    out = []
    b_row = data()["base"]
    for bid, b in sorted(bases(state).items()):
        if state.phase == 0 and b["side"] != side and b["side"] not in state.done:
            continue  # still being placed (OR-GF100)
        x, y, h = base_pose(state, bid)
        corners = tt.corners(tt.Pose(x, y, h), b_row.width_cm, b_row.depth_cm)
        item = {"id": bid, "side": b["side"], "x": round(x, 2), "y": round(y, 2), "heading": round(h, 2),
                "width": b_row.width_cm, "depth": b_row.depth_cm,
                "corners": [[round(cx, 2), round(cy, 2)] for cx, cy in corners], "ref": b_row.ref}
        if b["side"] == side:
            u = carried(state, bid)
            item.update({"decoy": u is None, "unit": u.id if u else None})
        out.append(item)
    return out


# --- revealing a base ------------------------------------------------------------------------------------
def reveal(state: Battle, bid: str, why_en: str, why_fr: str, ref: str, **extra) -> dict | None:
    """Take base ``bid`` off: its unit is shown where it stands, a decoy is removed (l.493)."""
    if bid not in bases(state):
        return None
    u = carried(state, bid)
    side = state.fog["bases"].pop(bid)["side"]
    if u is not None:
        u.base = None
        return emit(state, "base_revealed", f"Base {bid} is revealed ({why_en}): it carries {u.name} ({u.id})",
                    f"La base {bid} est dévoilée ({why_fr}) : elle porte {u.name} ({u.id})", side=u.side, ref=ref,
                    base=bid, units=[u.id], at=[u.x, u.y, u.heading], decoy=False, **extra)
    return emit(state, "base_revealed", f"Base {bid} is revealed ({why_en}): a decoy, taken off the table",
                f"La base {bid} est dévoilée ({why_fr}) : un leurre, retiré de la table", side=side, ref=ref,
                base=bid, units=[], decoy=True, **extra)


def in_cover(u: Unit) -> bool:
    """Hidden in a house, behind a building or in the jungle, off the table (l.497): no base."""
    return u.base == IN_COVER


def reveal_unit(state: Battle, u: Unit, why_en: str, why_fr: str, ref: str) -> None:
    from . import illusion
    if illusion.invisible(state, u):  # « Illusion de Tezcatlipoca » (l.1240, OR-GF126)
        illusion.reveal(state, u, why_en, why_fr, ref)
    elif in_cover(u):
        u.base = None
        emit(state, "unit_revealed", f"{u.name} ({u.id}) hidden in cover is revealed ({why_en})",
             f"{u.name} ({u.id}), cachée à couvert, est dévoilée ({why_fr})", side=u.side, ref=ref,
             units=[u.id], at=[u.x, u.y, u.heading])
    elif u.base is not None:
        reveal(state, u.base, why_en, why_fr, ref)


def sight_reveals(state: Battle) -> None:
    """A unit hidden in cover that an enemy unit on the table sees is placed on the table (l.497
    "…ou si un ennemi les voit"; checked at the start of each turn, OR-GF105)."""
    hidden = [u for u in state.units.values() if in_cover(u) and u.alive]
    if not hidden:
        return
    ref = data()["hide"].ref
    screens = state.battlefield.obstacles()
    for u in hidden:
        fp = u.footprint()
        others = screens + [unit_obstacle(o.id, o.footprint()) for o in state.units.values()
                            if o.alive and o.id != u.id and o.base is None]
        for e in state.units.values():
            if e.side == u.side or not e.alive or e.base is not None:
                continue
            if tt.line_of_sight(e.footprint(), fp, [o for o in others if o.id != e.id]).visible:
                reveal_unit(state, u, f"{e.name} sees it", f"{e.name} la voit", ref)
                break


def contacts(state: Battle, u: Unit) -> list[Unit]:
    """The hidden enemies within the contact distance of ``u`` (l.497, l.590)."""
    gap = data()["reveal"].contact_cm
    fp = u.footprint()
    return [o for o in state.units.values() if o.side != u.side and o.alive and o.base is not None
            and tt.nearest_distance(fp, o.footprint()) < gap - 1e-6]


def reveal_contacts(state: Battle) -> None:
    """Every unit on a base an enemy unit has come within 5 cm of is revealed (OR-GF103); and a
    decoy an enemy unit stands on or against."""
    if not bases(state):
        return
    r = data()["reveal"]
    for u in list(state.units.values()):
        if not u.alive or u.status == "flank":
            continue
        for o in contacts(state, u):
            reveal_unit(state, o, f"{u.name} comes into contact", f"{u.name} arrive à son contact", r.ref)
    for bid, b in list(bases(state).items()):
        if carried(state, bid) is not None:
            continue
        shape = base_shape(state, bid)
        near = [u for u in state.units.values() if u.side != b["side"] and u.alive and u.base is None
                and tt.nearest_distance(shape, u.footprint()) < r.contact_cm - 1e-6]
        if near:
            reveal(state, bid, f"{near[0].name} comes into contact", f"{near[0].name} arrive à son contact", r.ref)


def blocked_move(state: Battle, u: Unit, x: float, y: float, heading: float) -> list[Unit]:
    """The hidden enemies a move of ``u`` to (x, y, heading) would cross or end within 5 cm of."""
    gap = data()["reveal"].contact_cm
    sweep = tt.swept(u.pose, tt.Pose(x, y, heading), u.width, u.depth)
    return [o for o in state.units.values() if o.side != u.side and o.alive and o.base is not None
            and tt.nearest_distance(sweep, o.footprint()) < gap - 1e-6]


def reveal_chargers(state: Battle) -> None:
    """A unit on a base that charges is revealed when the orders are (its target is named, l.283); so is
    an invisible one (it will move, l.1240, OR-GF126; the cape's bearer engages a combat, l.236, OR-GF148)."""
    from . import illusion
    for u in list(state.units.values()):
        if (u.base is not None or illusion.invisible(state, u)) and u.order == "charger" and u.alive:
            reveal_unit(state, u, "it charges", "elle charge", "GF seed 003 l.283; OR-GF103"
                        if illusion.invisible(state, u) is None or illusion.reveals_on_move(state, u)
                        else "GF seed 003 l.236; OR-GF148")
        elif illusion.invisible(state, u) and not illusion.reveals_on_move(state, u) and u.alive:
            led = state.units.get(u.leads or "")  # the cape's bearer fights with the unit he controls (l.995)
            if led is not None and led.alive and led.order == "charger":
                reveal_unit(state, u, f"{led.name}, which he controls directly, charges",
                            f"{led.name}, qu'il contrôle directement, charge", "GF seed 003 l.236, l.995; OR-GF148")


def reveal_firers(state: Battle) -> None:
    """A unit that fires is revealed (l.1363): one on a base with an order to fire and a target; and an
    invisible one (l.1240: "si elle ne bouge ni ne tire", OR-GF126; the cape's bearer, l.1363, OR-GF148)."""
    from . import fire_play, illusion
    for u in list(state.units.values()):
        seen_by_illusion = illusion.invisible(state, u) is not None
        if (u.base is None and not seen_by_illusion) or u.order != fire_play.FIRE_ORDER or not u.alive:
            continue
        ok, _ = fire_play.can_fire(state, u)
        if ok and fire_play.choose_target(state, u)[0] is not None:
            reveal_unit(state, u, "it fires", "elle tire",
                        illusion.firing_ref(state, u) if seen_by_illusion else "GF seed 003 l.1363")


# --- the detection phase (l.250, l.1342-1367) ---------------------------------------------------------
def position_of(state: Battle, bid: str, looker: Unit) -> tuple[str, str]:
    """The base's row of the detection table (its id) and why: the terrain it mostly occupies
    (l.1367), or a linear obstacle when a hedge, a wall, another unit or base stands between the
    character and it (l.1365), else open ground."""
    det = data()["detection"]
    label = (lambda pid: detection_data().positions[pid].names[0])
    shape = base_shape(state, bid)
    best, area = None, 0.0
    for el in state.battlefield.at(shape):
        a = el.geometry.intersection(shape).area if el.geometry.area > 0 else 0.0
        if a > area + 1e-9:
            best, area = el, a
    kind = best.kind if best is not None and area >= shape.area / 2 else None
    for pid in ("high_terrain", "low_terrain"):
        if kind in getattr(det, pid):
            return pid, f"the base stands mostly on {terrain.kind(kind).name_en}: {label(pid)}"
    line = LineString([(looker.x, looker.y), base_pose(state, bid)[:2]])
    why = line_stopped(state, bid, looker, line, shape)
    if why is not None:
        return "linear_obstacle", why
    return "open", f"nothing hides the base: {label('open')}"


def line_stopped(state: Battle, bid: str, looker: Unit, line, shape=None) -> str | None:
    """What stops the sight line from ``looker`` to base ``bid`` (l.1365): a linear obstacle on it (or
    against the base), another unit or base on it; None when nothing does."""
    det = data()["detection"]
    for el in state.battlefield.elements:
        if el.kind in det.linear_obstacle and (el.geometry.intersects(line)
                                              or (shape is not None and el.geometry.distance(shape) < 0.5)):
            return f"{terrain.kind(el.kind).name_en} between the character and the base: " \
                f"{detection_data().positions['linear_obstacle'].names[0]}"
    between = any(o.id != looker.id and o.alive and o.base != bid and o.status != "flank"
                  and o.footprint().intersects(line) for o in state.units.values())
    between = between or any(other != bid and carried(state, other) is None and base_shape(state, other).intersects(line)
                             for other in bases(state))
    if between:
        return "a unit or a base stands between the character and the base (l.1365)"
    return None


def ground(state: Battle, x: float, y: float) -> float:
    """The ground's level at (x, y): the height of the hill it stands on, 0 off the hills (OR-GF132)."""
    pt = tt.Point(x, y)
    level = 0.0
    for el in state.battlefield.elements:
        k = terrain.kind(el.kind)
        rule = terrain.sight_rules()[k.sight]
        if rule.rule == "hill" and el.geometry.area > 0 and el.geometry.covers(pt):
            level = max(level, rule.height)
    return level


def shifts(state: Battle, bid: str, looker: Unit, pos: str) -> tuple[list[dict], list[str]]:
    """The detection shifts that hold (l.1351-1353; OR-GF132-134): the referee's ``shifts`` and why."""
    row, det = data()["shifts"], data()["detection"]
    terms, steps = [], []
    if state.turn in getattr(state.scenario, "twilight_turns", ()):
        terms.append({"modifier": "dawn_or_dusk", "count": 1})
        steps.append(f"turn {state.turn} is fought at dawn or dusk (the scenario's twilight turns): 2 columns right")
    x, y, _ = base_pose(state, bid)
    low, high = ground(state, x, y), ground(state, looker.x, looker.y)
    if low < high:
        terms.append({"modifier": "target_low_terrain", "count": 1})
        steps.append(f"the base stands lower than {looker.name} (ground {low:g} against {high:g}): 1 column left")
    hidden = None
    if low > high:
        hidden = f"the base stands higher than {looker.name} (ground {low:g} against {high:g}): 1 column right"
    elif pos == "open":
        shape = base_shape(state, bid)
        corners = list(shape.exterior.coords)[:row.sight_corners]
        stopped = sum(1 for c in corners
                      if line_stopped(state, bid, looker, LineString([(looker.x, looker.y), c])) is not None)
        covered = sum(el.geometry.intersection(shape).area for el in state.battlefield.at(shape)
                      if el.geometry.area > 0 and el.kind in det.high_terrain + det.low_terrain)
        if stopped >= row.half_hidden_share * len(corners):
            hidden = (f"{stopped} of the {len(corners)} sight lines to the base's corners are stopped: half the base is "
                      "hidden, 1 column right")
        elif covered >= row.half_hidden_share * shape.area - 1e-9:
            hidden = (f"cover holds {covered / shape.area:.0%} of the base: half the base is hidden, 1 column right")
    if hidden:
        terms.append({"modifier": "half_hidden_or_high", "count": 1})
        steps.append(hidden)
    return terms, steps


def chance(ruling: dict) -> float:
    """The chance a ruling of the detection table reveals (the d10: 11 − need in 10)."""
    if ruling.get("automatic"):
        return 1.0
    if ruling.get("impossible"):
        return 0.0
    return (11 - int(ruling["need_d10_at_least"])) / 10


def detection_phase(state: Battle) -> None:
    """Each side's character nearest an enemy base tries to reveal it (l.1344-1347): the distance, the
    row, the cell; a d10 when it is a number (the chance shown before the roll)."""
    if not bases(state):
        return
    det = data()["detection"]
    emit(state, "detection_phase", "Preliminary detection phase: each side looks for the enemy's bases",
         "Phase de détection préliminaire : chaque camp cherche les bases ennemies", ref=det.ref,
         decision=det.decision)
    for side in SIDES:
        lookers = [u for u in state.side_units(side) if u.kind == det.from_kind and u.base is None]
        targets = [bid for bid, b in sorted(bases(state).items()) if b["side"] != side]
        if not targets:
            continue
        if not lookers:
            emit(state, "detection", f"Side {side} has no character on the table in sight: it detects nothing",
                 f"Le camp {side} n'a aucun personnage visible sur la table : il ne détecte rien", side=side,
                 ref=det.ref)
            continue
        for bid in targets:
            if bid not in bases(state):
                continue
            shape = base_shape(state, bid)
            dist, looker = min(((tt.nearest_distance(c.footprint(), shape), c) for c in lookers),
                               key=lambda t: (t[0], t[1].id))
            pos, why = position_of(state, bid, looker)
            terms, shift_steps = shifts(state, bid, looker, pos)
            situation = {"kind": "detection", "target_position": pos, "distance_cm": round(dist, 1),
                         **({"shifts": terms} if terms else {})}
            preview = referee.adjudicate(situation)
            p = chance(preview)
            d10 = None
            if not preview.get("automatic") and not preview.get("impossible"):
                d10 = state.dice.roll(10)
                ruling = referee.adjudicate({**situation, "d10": d10})
            else:
                ruling = preview
            found = bool(ruling.get("revealed"))
            steps = [f"{looker.name} ({looker.id}) is the nearest character, {dist:.1f} cm from base {bid}",
                     why, *shift_steps, f"chance to reveal: {p:.0%}", *ruling.get("explanation", [])]
            row = detection_data().positions[pos]
            cites = [det.ref, *([data()["shifts"].ref, *(data()["shifts"].decision or "").split(", ")] if terms else []),
                     *ruling.get("citations", [])]
            emit(state, "detection",
                 f"Side {side} looks for base {bid} ({dist:.0f} cm, {row.names[0]}, {p:.0%})"
                 + (f": d10 {d10}" if d10 is not None else "") + (" — found" if found else " — not found"),
                 f"Le camp {side} cherche la base {bid} ({dist:.0f} cm, {row.printed}, {p:.0%})"
                 + (f" : d10 {d10}" if d10 is not None else "") + (" — trouvée" if found else " — pas trouvée"),
                 side=side, ref=det.ref, base=bid, looker=looker.id, d10=d10, chance=p, revealed=found,
                 ruling={"explanation": steps, "citations": cites, "table": ruling})
            if found:
                reveal(state, bid, f"detected by {looker.name}", f"détectée par {looker.name}", det.ref)

