"""Charges on the table (GF seed 003 l.596-608): a charger moves straight at its target, turning
at most 45°, half its charge move in phase 4 (or a counter-charge in phase 5) and the rest in
phase 9; contact calls gf-combat's ``melee_play.on_contact``."""

from __future__ import annotations

from oriflamme.geometry import tabletop as tt

from . import melee_play, moves
from .actions import emit, record
from .rules import rules
from .state import Battle, Unit


def charge_move(state: Battle, u: Unit, target: Unit, half: bool) -> None:
    budget, _ = moves.allowance(u, "charge")
    budget = budget / 2
    head = tt.toward(u.pose, target.x, target.y)
    turn = max(-45.0, min(45.0, moves.angle_diff(u.heading, head)))
    heading = (u.heading + turn) % 360
    x, y, h, dist = moves.farthest_straight(state, u, budget, "forward", heading=heading, target=target.id)
    moves.apply_move(u, x, y, h)
    contact = tt.nearest_distance(u.footprint(), target.footprint()) <= rules().distances.contact_tolerance_cm + 0.05
    which = "first" if half else "second"
    u.moved_cm += dist
    if contact:
        u.charge_half = False
        u.unmark("uncontrolled_advance")
        emit(state, "charge_contact", f"{u.name} charges {target.name} ({dist:.1f} cm): contact",
             f"{u.name} charge {target.name} ({dist:.1f} cm) : contact", side=u.side,
             ref="GF seed 003 l.600-604", unit=u.id, target=target.id, to=[x, y, h])
        if target.order not in (None, "charger", "contre_charger"):
            target.order, target.target = None, None  # l.604: a unit charged forgets its orders and fights
        record(state, melee_play.on_contact(state, u.id, target.id, state.dice))
    else:
        emit(state, "charge_move", f"{u.name} makes the {which} half of its charge towards {target.name} ({dist:.1f} cm)",
             f"{u.name} fait la {'première' if half else 'seconde'} moitié de sa charge vers {target.name} ({dist:.1f} cm)",
             side=u.side, ref="GF seed 003 l.600-604", unit=u.id, target=target.id, to=[x, y, h])
