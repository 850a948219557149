"""What fire, melee, morale and rallying read and write on the battle state: one place that knows
the state's shape, so the rule modules (fire_play, melee_play, morale_play, rally, casualties) only
ask questions ("who is in contact with whom", "what cover is this unit in").

The state is gf-engine's :class:`.state.Battle` (``units`` by id, ``phase``, ``battlefield``,
``omens``); a unit is its :class:`.state.Unit`, whose fields are the vocabulary read here (``klass``,
``missile``, ``melee_weapon``, ``armour``, ``status`` ok/retreat/rout…, ``order``, ``target``,
``charging``, ``pending``…). Geometry is :mod:`oriflamme.geometry.tabletop` (Shapely): nothing is
measured here by hand (``touching`` only skips Shapely for units whose centres are too far apart).
"""

from __future__ import annotations

import math

from shapely.geometry.base import BaseGeometry

from oriflamme.geometry import tabletop

from . import terrain
from .battlefield import Battlefield, unit_obstacle

ALIVE = ("ok", "retreat", "rout")


# --- reading the state ----------------------------------------------------------------------------

def units(state) -> list:
    u = state.units
    return list(u.values()) if isinstance(u, dict) else list(u)


def unit(state, uid: str):
    u = state.units.get(uid) if isinstance(state.units, dict) else None
    if u is None:
        raise KeyError(uid)
    return u


def alive(u) -> bool:
    return u.status in ALIVE and u.figures > 0


def enemies(state, u) -> list:
    """The enemies ``u`` knows: not those hidden on a movement base (GF-K5, the battle's :mod:`.fog`)."""
    return [v for v in units(state) if v.side != u.side and alive(v) and getattr(v, "base", None) is None]


def friends(state, u) -> list:
    return [v for v in units(state) if v.side == u.side and v.id != u.id and alive(v)]


def pose(u) -> tabletop.Pose:
    return tabletop.Pose(u.x, u.y, u.heading)


def width(u) -> float:
    return max(min(u.frontage, u.figures), 1) * u.base_w


def depth(u) -> float:
    return max(u.ranks, 1) * u.base_d


def shape(u) -> BaseGeometry:
    """The unit's footprint on the table (tabletop.footprint); a unit in a building fills it (OR-GF81)."""
    inside = getattr(u, "inside_points", None)
    if inside:
        from shapely.geometry import Polygon
        return Polygon(inside)
    return tabletop.footprint(pose(u), width(u), depth(u))


def set_pose(u, p: tabletop.Pose) -> None:
    u.x, u.y, u.heading = p.x, p.y, p.heading


def tolerance() -> float:
    """Base-to-base contact slack (data/terrain.toml [table], OR-GF21)."""
    return terrain.table().contact_tolerance_cm


FLIGHT = ("flight", "vol")


def touching(a, b) -> bool:
    """Base contact: the footprints within the slack (OR-GF21), at the same level — a flyer at flight
    altitude (above 20 cm, l.695) passes over the ground and its combat altitude (gf-engine, OR-GF43)."""
    if (a.altitude in FLIGHT) != (b.altitude in FLIGHT):
        return False
    slack = tolerance()
    if not (getattr(a, "inside_points", None) or getattr(b, "inside_points", None)):
        # every point of a footprint lies within its half-diagonal of its centre: units whose
        # centres are farther apart than both half-diagonals and the slack cannot touch (a cheap
        # test before Shapely's, which the rules and the computer players ask thousands of times)
        reach = _half_diagonal(a) + _half_diagonal(b) + slack + 1e-6
        dx, dy = a.x - b.x, a.y - b.y
        if dx * dx + dy * dy > reach * reach:
            return False
    return tabletop.in_contact(shape(a), shape(b), slack)


def _half_diagonal(u) -> float:
    return math.hypot(width(u), depth(u)) / 2


def in_combat(state, u) -> bool:
    return any(touching(u, v) for v in enemies(state, u))


def arc(of, other) -> str:
    """The arc of ``of``'s footprint that ``other`` lies in (tabletop.arc_of, OR-GF20)."""
    return tabletop.arc_of(pose(of), width(of), depth(of), shape(other))


def battlefield(state) -> Battlefield:
    return getattr(state, "battlefield", None) or Battlefield()


COVER_ORDER = ("none", "light", "medium", "dense")


def cover_of(state, u, attacker=None) -> tuple[str, str] | None:
    """The cover the unit has: the area terrain it mostly stands in (gf-geom's ``Battlefield.cover_of``,
    l.1367) or, against ``attacker``, a wall, hedge or fence it stands against with the attack coming
    across it (``Battlefield.linear_cover_of``, l.760-772; OR-GF57). ``(light|medium|dense, element
    ids)`` or None."""
    bf = battlefield(state)
    order = ("none", "light", "medium", "dense")
    best, ids = bf.cover_of(shape(u))
    if attacker is not None:
        line, line_ids = bf.linear_cover_of(shape(u), shape(attacker), tolerance())
        if order.index(line) > order.index(best):
            best, ids = line, line_ids
    return (best, ", ".join(ids)) if best != "none" else None


def in_woods(state, u) -> bool:
    """Whether the unit stands in woods (a terrain whose sight rule is the wood's, data/terrain.toml):
    only its first rank fires (l.726)."""
    return any(e.kind_row.sight == "wood" and e.kind_row.shape == terrain.AREA for e in battlefield(state).at(shape(u)))


def sight_obstacles(state, *ends) -> list:
    """The obstacles between units: the terrain's and every other unit's footprint (OR-GF23); not the
    units the first end's side cannot see (hidden on movement bases, GF-K5: it does not know them)."""
    skip = {e.id for e in ends}
    viewer = getattr(ends[0], "side", None) if ends else None
    # the building a shooter or a target stands in does not hide it from the other (l.790)
    rooms = {getattr(e, "inside", None) for e in ends} - {None}
    out = [o for o in battlefield(state).obstacles() if o.id not in rooms]
    for v in units(state):
        if (getattr(v, "base", None) is not None or getattr(v, "hidden", False)) and v.side != viewer:
            continue
        if v.id not in skip and alive(v) and v.altitude is None:
            out.append(unit_obstacle(f"unit:{v.id}", shape(v), v.name or v.id))
    return out


def off_table(state, u) -> bool:
    minx, miny, maxx, maxy = shape(u).bounds
    bf = battlefield(state)
    return minx < 0 or miny < 0 or maxx > bf.width or maxy > bf.height


def mark(u, marker: str) -> None:
    if marker not in u.markers:
        u.markers.append(marker)


def unmark(u, marker: str) -> None:
    if marker in u.markers:
        u.markers.remove(marker)


def target_kind(u) -> str:
    """The fire/melee target sort of data/fire.toml [[target]] (troops are a 'unit')."""
    return "unit" if u.kind == "troop" else u.kind


def ranks_for(figures: int, frontage: int) -> int:
    return math.ceil(figures / frontage) if figures > 0 and frontage > 0 else 0


# --- the profile the part-1 tables read -------------------------------------------------------------

def being(u) -> str:
    """The row of the part-1 tables a creature or monster reads: its id, or its movement row when the
    tables print it under another name (the giant condor fights as the eagle, OR-GF34)."""
    from .. import melee as md
    if (u.race, None) in md.pbc():
        return u.race
    mover = getattr(u, "mover", None)
    return mover if (mover, None) in md.pbc() else u.race


def target_armour(u) -> str:
    """The PBT/PBC column a target is read in: a creature's or monster's printed armour (data/melee.toml
    [[being_armour]]); a Saurian troop or character the "Saurien" column, its scales (l.1474, OR-GF59);
    anyone else its armour."""
    from .. import melee as md
    if u.kind in ("creature", "monster"):
        row = md.being_armour().get(being(u))
        return row.armour if row else u.armour
    if u.race == "saurien":
        return "saurien"
    return u.armour


def melee_weapon_of(u) -> str | None:
    """The weapon a troop or character fights with: of the weapons it carries that have a PBC for its
    race, the best against an unarmoured target (OR-GF58: a Saurian with claws and a club fights with
    the club); else the weapon the engine read. None for creatures and monsters (their own PBC)."""
    from .. import melee as md
    if u.kind not in ("troop", "character"):
        return None
    rows = md.pbc()
    held = []
    for w in getattr(u, "weapons", None) or []:
        for wid, row in md.weapons().items():
            if (u.race, wid) in rows and any(w.strip().lower() == n.lower() for n in [wid, *row.names]):
                held.append(wid)
    if u.melee_weapon and (u.race, u.melee_weapon) in rows:
        held.append(u.melee_weapon)
    if not held:
        return u.melee_weapon
    return max(held, key=lambda w: (rows[(u.race, w)].sans_armure, w))


# --- the events' one-line texts, in English and French -------------------------------------------------

CODES_FR = {"O": "obéir", "AI": "avance incontrôlée", "RET": "retraite", "DER": "déroute"}
CODES_EN = {"O": "obey", "AI": "uncontrolled advance", "RET": "retreat", "DER": "rout"}


def _name(state, uid) -> str:
    try:
        u = unit(state, uid)
    except KeyError:
        return str(uid)
    return u.name or u.id


def _texts(state, ev: dict) -> tuple[str, str] | None:
    k, n = ev.get("type"), (lambda key: _name(state, ev.get(key)))
    if k in ("fire", "melee") and ev.get("target") and "hits" in ev:
        what = ("figure(s)", "figurine(s)") if ev.get("casualties", "figures") == "figures" else ("wound(s)", "blessure(s)")
        roll = f", d100 {ev['d100']}" if ev.get("d100") is not None else ""
        pct = f"{ev['percent']} %" if ev.get("percent") is not None else "—"
        verb = ("fires at", "tire sur") if k == "fire" else ("strikes", "frappe")
        return (f"{n('unit')} {verb[0]} {n('target')}: {pct}{roll} → {ev['hits']} {what[0]}",
                f"{n('unit')} {verb[1]} {n('target')} : {pct}{roll} → {ev['hits']} {what[1]}")
    if k == "casualties":
        a = ev["after"]
        return (f"{n('unit')} loses {ev['removed']} figure(s): {a['figures']} left in {a['ranks']} rank(s)",
                f"{n('unit')} perd {ev['removed']} figurine(s) : il en reste {a['figures']} sur {a['ranks']} rang(s)")
    if k == "wound":
        r = ev["ruling"]
        return (f"{n('unit')} wounded: {r['location_en']}, {r['wound_en']}" + (" — dies" if ev["dies"] else ""),
                f"{n('unit')} blessé : {r['location']}, {r['wound']}" + (" — meurt" if ev["dies"] else ""))
    if k == "capture":
        return (f"{ev['captured']} of {ev['losses']} loss(es) of {n('victim')} captured: +{ev['omen_points']} omen point(s)",
                f"{ev['captured']} des {ev['losses']} perte(s) de {n('victim')} capturée(s) : +{ev['omen_points']} "
                "point(s) de présage")
    if k in ("morale", "rally") and ev.get("result"):
        code = ev["result"]
        extra = (" — removed from play", " — retirée du jeu") if ev.get("removed") else ("", "")
        if ev.get("d4") is None:  # passed without a roll (a spell, battle/lasting.py)
            return (f"{n('unit')}: morale passed automatically → {code} ({CODES_EN[code]}){extra[0]}",
                    f"{n('unit')} : moral réussi automatiquement → {code} ({CODES_FR[code]}){extra[1]}")
        return (f"{n('unit')}: morale d4 {ev.get('d4')} → {code} ({CODES_EN[code]}){extra[0]}",
                f"{n('unit')} : moral d4 {ev.get('d4')} → {code} ({CODES_FR[code]}){extra[1]}")
    if k == "melee_outcome":
        if ev.get("winner") is None:
            return "Equal losses: the combat goes on", "Pertes égales : le combat continue"
        return (f"{n('loser')} loses the combat against {n('winner')}", f"{n('loser')} perd le combat contre {n('winner')}")
    if k == "recoil":
        return f"{n('unit')} recoils {ev['cm']:g} cm", f"{n('unit')} recule de {ev['cm']:g} cm"
    if k == "pursuit_declared":
        return f"{n('unit')} will pursue {n('target')}", f"{n('unit')} poursuivra {n('target')}"
    if k == "pursuit":
        return f"{n('unit')} pursues {n('target')}", f"{n('unit')} poursuit {n('target')}"
    if k == "automatic_move":
        move = {"retraite": ("retreats", "se retire"), "deroute": ("routs", "déroute"),
                "land": ("lands", "se pose")}.get(ev.get("move"), ("moves", "bouge"))
        return f"{n('unit')} {move[0]} (phase 1)", f"{n('unit')} {move[1]} (phase 1)"
    if k == "disorder":
        return f"{n('unit')} is disordered by a flank or rear attack", f"{n('unit')} est mise en désordre (flanc ou dos)"
    return None


def finish(state, events: list[dict]) -> list[dict]:
    """Give each event its one-line ``text`` and ``text_fr``, also written as the explanation's first
    step (its last for a morale test or a rally, whose result ends the explanation)."""
    for ev in events:
        if not ev or "text" in ev:
            continue
        if ev.get("type") == "fire" and not ev.get("target"):
            # no volley: the first step already says why (no eligible target, routing, in melee…)
            ev["text"] = (ev.get("explanation") or [f"{_name(state, ev.get('unit'))} does not fire"])[0]
            ev["text_fr"] = f"{_name(state, ev.get('unit'))} ne tire pas ({'garde son tir' if 'keeps' in ev['text'] else 'exclu'})"
            continue
        t = _texts(state, ev)
        if t is None:
            continue
        ev["text"], ev["text_fr"] = t
        steps = ev.setdefault("explanation", [])
        if ev.get("type") in ("morale", "rally"):
            steps.append(t[0])
        else:
            steps.insert(0, t[0])
    return events
