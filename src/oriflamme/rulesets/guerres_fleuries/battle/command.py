"""Direct control (GF Le commandement > Le contrôle direct, seed 003 l.450-452): a character in base
contact with a friendly unit controls it directly — it takes no command test, the character's
factors help its morale and its combat (gf-combat reads ``led_by``) — one unit at a time; the
character moves with the unit it controls (OR-GF41). Brigades are :mod:`.brigades` (recomputed here
after anything moved)."""

from __future__ import annotations

from oriflamme.geometry import tabletop as tt

from . import brigades, fighters
from .actions import emit
from .state import Battle, Unit

REF = "GF seed 003 l.450-452"


def update(state: Battle) -> None:
    """Recompute who controls whom after the units moved: a character keeps the unit it controls
    while in base contact; a free one takes the nearest friendly unit it touches that has no
    controller."""
    chars = sorted((u for u in state.units.values() if u.kind == "character"), key=lambda u: u.id)
    for c in chars:
        led = state.units.get(c.leads or "")
        if led is not None and (not c.alive or not led.alive or not fighters.touching(c, led)):
            led.led_by, c.leads = None, None
            emit(state, "control_lost", f"{c.name} no longer controls {led.name} directly",
                 f"{c.name} ne contrôle plus directement {led.name}", side=c.side, ref=REF, unit=led.id)
    for c in chars:
        if not c.alive or c.leads:
            continue
        touching = [u for u in state.side_units(c.side)
                    if u.kind != "character" and u.led_by is None and fighters.touching(c, u)]
        if touching:
            u = min(touching, key=lambda u: (tt.nearest_distance(c.footprint(), u.footprint()), u.id))
            u.led_by, c.leads = c.id, u.id
            carry(state, u)
            emit(state, "control", f"{c.name} joins {u.name} and controls it directly",
                 f"{c.name} rejoint {u.name} et la contrôle directement", side=c.side, ref=REF, unit=u.id,
                 character=c.id)
    brigades.update(state)


def carry(state: Battle, u: Unit) -> None:
    """The character controlling ``u`` goes with it: he stands at the centre of its rear edge, in
    base contact, facing as it faces (OR-GF41)."""
    c = state.units.get(u.led_by or "")
    if c is None or not c.alive:
        return
    p = tt.moved(u.pose, -(u.depth / 2 + c.depth / 2))
    c.x, c.y, c.heading = p.x, p.y, u.heading


def poses(state: Battle) -> dict[str, tuple]:
    """The poses of the units that have a controlling character (before something moves them)."""
    return {u.id: (u.x, u.y, u.heading, u.width, u.depth) for u in state.units.values() if u.led_by}


def follow(state: Battle, before: dict[str, tuple]) -> None:
    """Every controlled unit that moved (a move, a charge, an automatic move, a recoil, a rout)
    takes its character along, then control is recomputed."""
    for uid, pose in before.items():
        u = state.units.get(uid)
        if u is not None and u.alive and (u.x, u.y, u.heading, u.width, u.depth) != pose:
            carry(state, u)
    update(state)


def contact_samples(state: Battle, c: Unit, budget: float) -> list[tuple[float, float, float]]:
    """Where a free character may stand to join a friendly unit: just behind the centre of its rear
    edge, if within ``budget`` (a sample for legal_actions; any point in contact joins)."""
    out = []
    for u in state.side_units(c.side):
        if u.kind == "character" or u.led_by is not None:
            continue
        p = tt.moved(u.pose, -(u.depth / 2 + c.depth / 2 + 0.2))
        if ((p.x - c.x) ** 2 + (p.y - c.y) ** 2) ** 0.5 <= budget:
            out.append((round(p.x, 2), round(p.y, 2), u.heading))
    return out
