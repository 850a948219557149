"""Phase 11, rallies (GF Le tour de jeu > 11 Ralliements, seed 003 l.311; Le moral > Déroute,
l.1088-1100): every routing unit tests its morale (the part-1 referee, "Testeur en déroute" read off
the state, a directly controlling character's FM added). "Continuer" (O) or "avance incontrôlée"
(AI): it stops, is disordered and must reform (l.1096). Otherwise it goes on routing: its rout move
is made in phase 1 of the next turn, until it passes or leaves the table. A unit that routed as a
result of this turn's melee (phase 10) cannot be rallied this turn (l.1092, l.309)."""

from __future__ import annotations

from . import morale_play
from .fighters import (alive, finish, mark, unit, units, unmark)


def candidates(state) -> list:
    return sorted((u for u in units(state) if alive(u) and u.status == "rout"), key=lambda u: u.id)


def resolve(state, dice) -> list[dict]:
    events = []
    for u in candidates(state):
        if "routed_in_melee" in u.markers:
            unmark(u, "routed_in_melee")
            events.append({"type": "rally", "unit": u.id, "side": u.side, "rallied": False,
                           "explanation": [f"{u.name or u.id} routed in this turn's melee: it cannot be rallied "
                                           "before phase 11 of the next turn"],
                           "citations": ["GF seed 003 l.1092, l.309"]})
            continue
        source = (u.pending or {}).get("source")
        ev = morale_play.test(state, u.id, "rally", dice, source, deferred=True)
        u = unit(state, u.id)
        rallied = u.status == "ok"
        ev["type"] = "rally"
        ev["rallied"] = rallied
        if not rallied and alive(u) and u.status == "rout":
            mark(u, "rout_continues")
        events.append(ev)
    return finish(state, events)
