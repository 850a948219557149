"""A flyer killed in the air crashes (GF Le tir > Tir sur une créature volante, seed 003 l.897-914,
data/crash.toml): every figure under it rolls d100 and survives below 50 (l.897); a building under
it takes the structure's crash damage (l.899-906) — only the building, unless it collapses, then
everyone inside and against it tests (l.908). And a dead monster's body becomes a 4 × 4 cm
impassable obstacle (l.889, l.1003; ``Battle.carcasses``; OR-GF86, OR-GF87)."""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from oriflamme.geometry import tabletop as tt

from .. import crash as crash_data
from .actions import emit
from .state import Battle, Unit

REF_KILLED = "GF seed 003 l.897"
REF_BUILDING = "GF seed 003 l.899-908"
REF_CARCASS = "GF seed 003 l.889, l.1003"


def crushed(state: Battle, u: Unit, figures: int, dice, cause_en: str, cause_fr: str) -> None:
    """``figures`` of ``u`` under a crash or a collapse: each rolls d100 and survives below the printed
    50 (l.897); a troop loses each figure that does not, a character, creature or monster dies
    (the figure does not survive, OR-GF86)."""
    from .casualties import _dies, remove_figures
    k = crash_data.crash().killed
    n = max(0, min(figures, u.figures))
    if n == 0 or not u.alive:
        return
    rolls = [dice.roll(100) for _ in range(n)]
    dead = sum(1 for r in rolls if r >= k.survives_below_pct)
    pct = 100 - k.survives_below_pct + 1
    steps = [f"{cause_en}: each figure under it dies on d100 {k.survives_below_pct}–100 ({pct} %)",
             f"{u.name}: d100 {rolls}: {dead} figure(s) die"]
    if dead:
        if u.kind == "troop":
            steps += remove_figures(u, dead)["explanation"]
        else:
            for _ in range(dead):
                if u.alive:
                    steps.append(_dies(u))
    emit(state, "crushed", f"{u.name} under {cause_en}: {dead} of {n} figure(s) die",
         f"{u.name} sous {cause_fr} : {dead} figurine(s) sur {n} meurent", side=u.side, ref=k.ref, decision="OR-GF86",
         unit=u.id, d100=rolls, dead=dead, ruling={"explanation": steps, "citations": [k.ref, "OR-GF86"]})


def figures_under(u: Unit, site) -> int:
    """How many of ``u``'s figures stand under ``site``: the overlap ÷ the area of one figure's place,
    rounded up (at least one when they overlap), at most its figures (OR-GF86)."""
    area = u.footprint().intersection(site).area
    if area <= 0.01:
        return 0
    place = max(u.base_w * u.base_d, 0.01)
    return max(1, min(u.figures, math.ceil(area / place - 1e-9)))


def crash(state: Battle, flyer: Unit, altitude: str, site, dice) -> list[dict]:
    """l.897-908: the flyer killed in the air falls on ``site`` (its base where it died). A building
    under it takes the crash damage of its structure and shelters its occupants (only the building
    is damaged unless it collapses); any other unit under it tests figure by figure."""
    from . import buildings_play
    start = len(state.log)
    cd = crash_data.crash()
    emit(state, "crash", f"{flyer.name}, killed in the air, crashes where it flies",
         f"{flyer.name}, tuée en vol, s'écrase là où elle vole", side=flyer.side, ref=REF_KILLED, decision="OR-GF86",
         unit=flyer.id, altitude=altitude, site=[[round(x, 2), round(y, 2)] for x, y in site.exterior.coords[:-1]])
    sheltered = set()
    for el in buildings_play.elements(state):
        if not buildings_play.standing(state, el.id) or el.geometry.intersection(site).area <= 0.01:
            continue
        row = cd.structure_damage.get(buildings_play.material(el))
        if row is None:
            continue
        rolls = [dice.roll(row.sides) for _ in range(row.dice)]
        sheltered |= {u.id for u in buildings_play.occupants(state, el.id)}
        buildings_play.damage(state, el, sum(rolls), f"crash of {flyer.name} ({row.printed_dice} {rolls})",
                              f"chute de {flyer.name} ({row.printed_dice} {rolls})", dice)
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if u.id == flyer.id or not u.alive or u.id in sheltered or u.altitude == "flight":
            continue
        n = figures_under(u, site)
        if n:
            crushed(state, u, n, dice, f"the crash of {flyer.name}", f"la chute de {flyer.name}")
    flyer.altitude = None
    return state.log[start:]


def note_fall(state, u: Unit, altitude: str | None, ev: dict) -> None:
    """After a wound: a flyer (or one figure of a flight) killed in the air will crash where it flies,
    once the phase's casualties are logged (OR-GF86); ``Battle.falling``."""
    falling = getattr(state, "falling", None)
    if altitude and ev.get("dies") and isinstance(falling, list):
        site = site_of(u)
        falling.append({"unit": u.id, "altitude": altitude,
                        "site": [[round(x, 4), round(y, 4)] for x, y in site.exterior.coords[:-1]]})


def settle(state: Battle) -> None:
    """The crashes noted since the last decision, then the bodies of dead monsters."""
    while state.falling:
        f = state.falling.pop(0)
        crash(state, state.units[f["unit"]], f["altitude"], Polygon(f["site"]), state.dice)
    lay_carcasses(state)


# --- dead monsters (l.889, l.1003) -----------------------------------------------------------------------
def lay_carcasses(state: Battle) -> None:
    """Every monster dead on the table leaves its body, an impassable 4 × 4 cm square where it fell."""
    c = crash_data.crash().carcass
    laid = {k["unit"] for k in state.carcasses}
    for u in state.units.values():
        if u.kind in c.kinds and u.status == "destroyed" and u.id not in laid and u.altitude != "flight":
            pts = tt.corners(tt.Pose(u.x, u.y, u.heading), c.width_cm, c.depth_cm)
            state.carcasses.append({"unit": u.id, "name": u.name, "x": round(u.x, 2), "y": round(u.y, 2),
                                    "points": [[round(x, 2), round(y, 2)] for x, y in pts], "ref": c.ref})
            emit(state, "carcass", f"The body of {u.name} becomes an impassable obstacle ({c.width_cm:g} × {c.depth_cm:g} cm)",
                 f"Le corps de {u.name} devient un obstacle infranchissable ({c.width_cm:g} × {c.depth_cm:g} cm)",
                 side=u.side, ref=c.ref, decision="OR-GF87", unit=u.id)


def carcass_in_the_way(state: Battle, sweep) -> dict | None:
    """The first body a move's swept area crosses (OR-GF87), or None."""
    for k in state.carcasses:
        if sweep.intersection(Polygon(k["points"])).area > 0.01:
            return k
    return None


def site_of(u: Unit):
    """Where a flyer falls: one figure's base where the unit flies (l.897 "à l'endroit qu'elle survole")."""
    return tt.footprint(tt.Pose(u.x, u.y, u.heading), u.base_w, u.base_d)
