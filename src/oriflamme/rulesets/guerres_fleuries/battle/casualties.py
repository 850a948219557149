"""Casualties on the table: figures removed rank by rank, wounds on characters, creatures and
monsters (the part-1 wound referee), captures, and the simultaneous ledger fire and melee fill
before anything is removed ("Les pertes sont comptabilisées et enlevées simultanément", l.248;
"Les tirs sont simultanés, les pertes aussi", l.301; melee step 6 "Les pertes sont enlevées", l.1553).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from oriflamme.geometry import tabletop

from .. import crash as crash_data
from .. import magic as magic_data
from ..referee import adjudicate
from ..wounds import SERIOUS
from . import combat_data, crash_play, items_play
from .fighters import FLIGHT, alive, depth, mark, pose, ranks_for, set_pose, unit, width

#: the wound table of each being (data/wounds.toml TABLES); a creature without its own table reads
#: the monsters' (OR-GF54)
WOUND_TABLE = {"character": "personnages", "monster": "monstres", "pteradon": "pteradon"}
REMOVE_REF = "GF seed 003 l.248, l.826"


def wound_table(u) -> str:
    if u.kind == "character":
        return WOUND_TABLE["character"]
    if u.race == "pteradon":
        return WOUND_TABLE["pteradon"]
    return WOUND_TABLE["monster"]


def remove_figures(u, n: int) -> dict:
    """Remove ``n`` figures from the rear, rank by rank (l.826 "Les pertes peuvent être retirées sur
    plusieurs rangs"): the front edge stays where it is, the footprint loses its emptied ranks, and
    the frontage shrinks only when fewer figures than a rank remain. 0 figures: destroyed."""
    before = {"figures": u.figures, "ranks": u.ranks, "frontage": u.frontage}
    n = max(0, min(n, u.figures))
    old_depth, old_width = depth(u), width(u)
    u.figures -= n
    split = getattr(u, "split", None)
    if split and u.figures:  # a unit partly in a building loses its part outside first (OR-GF143)
        if u.figures <= split["inside"]:  # none left outside: the rest holds the building
            points = split["points"]
            u.split, u.inside, u.inside_points = None, split["building"], [list(p) for p in points]
            from shapely.geometry import Polygon
            c = Polygon(points).centroid
            u.x, u.y = round(c.x, 2), round(c.y, 2)
        else:
            out = u.figures - split["inside"]
            if u.frontage > out:
                u.frontage = out
            u.ranks = ranks_for(out, u.frontage)
    elif u.figures and u.frontage > u.figures:
        u.frontage = u.figures
    if not getattr(u, "split", None):
        u.ranks = ranks_for(u.figures, u.frontage)
    if getattr(u, "split", None) and u.figures:
        # a unit partly in a building keeps the edge against the wall (front or rear, OR-GF143)
        from shapely.geometry import Polygon
        wall = Polygon(u.split["points"])
        lost = old_depth - depth(u)
        set_pose(u, min((tabletop.moved(pose(u), lost / 2), tabletop.moved(pose(u), -lost / 2)),
                        key=lambda p: round(tabletop.footprint(p, width(u), depth(u)).distance(wall), 6)))
    elif u.figures:
        # keep the front edge in place: the centre moves forward by half the depth lost
        set_pose(u, tabletop.moved(pose(u), (old_depth - depth(u)) / 2))
    else:
        u.status = "destroyed"
    after = {"figures": u.figures, "ranks": u.ranks, "frontage": u.frontage}
    text = (f"{u.name or u.id}: {n} figure(s) removed from the rear, {before['figures']} → {u.figures} "
            f"({before['ranks']} → {u.ranks} rank(s) of {u.frontage})"
            + ("; the unit is destroyed" if not u.figures else ""))
    return {"type": "casualties", "unit": u.id, "side": u.side, "removed": n, "before": before, "after": after,
            "footprint_cm": [round(old_width, 2), round(old_depth, 2), round(width(u), 2), round(depth(u), 2)],
            "explanation": [text], "citations": [REMOVE_REF]}


def wound(u, dice) -> dict:
    """One wound (GF-E9): location d100 and severity d4 on the being's table (part-1 referee kind
    ``wound``, with the wounds already held and GF-G2). A dead character or monster leaves play; a
    creature unit loses the wounded figure, and its next figure starts unwounded (OR-GF54)."""
    table = wound_table(u)
    d100, d4 = dice.roll(100), dice.roll(4)
    ruling = adjudicate({"kind": "wound", "table": table, "d100": d100, "d4": d4, "held": list(u.wounds),
                         "stunned": "stunned" in u.markers})
    steps = [f"{u.name or u.id} is wounded: table {table}"] + ruling["explanation"]
    cites = list(ruling["citations"])
    if ruling["severity"] == "stunned":
        mark(u, "stunned")
    if ruling["dies"]:
        steps.append(_dies(u))
        if "OR-GF54" in steps[-1]:
            cites.append("OR-GF54")
    else:
        u.wounds.append(ruling["severity"])
        if u.altitude:
            more_steps, more_cites = _wounded_in_the_air(u)
            steps += more_steps
            cites += more_cites
    return {"type": "wound", "unit": u.id, "side": u.side, "d100": d100, "d4": d4, "ruling": ruling,
            "dies": ruling["dies"], "explanation": steps, "citations": cites}




def wounds(state, u, n: int, dice) -> list[dict]:
    """``n`` wounds on ``u``, one by one while it lives (:func:`wound`); a flyer killed in the air
    crashes once the casualties are logged (l.897, ``crash_play.note_fall``)."""
    out = []
    for _ in range(n):
        if not alive(u):
            break
        altitude = u.altitude
        out.append(wound(u, dice))
        crash_play.note_fall(state, u, altitude, out[-1])
    return out


def _dies(u) -> str:
    """A killing wound: a character, monster or lone creature leaves play; a creature unit loses the
    wounded figure, the next starting unwounded (OR-GF54). Returns the step."""
    if u.kind == "creature" and u.figures > 1:
        u.figures -= 1
        u.wounds = []
        u.frontage = min(u.frontage, u.figures)
        u.ranks = ranks_for(u.figures, u.frontage)
        return f"one {u.name or u.race} dies: {u.figures} left (OR-GF54)"
    u.figures = 0
    u.status = "destroyed"
    return f"{u.name or u.id} dies"


def _wounded_in_the_air(u) -> tuple[list[str], list[str]]:
    """l.895 (data/crash.toml [wounded]): wounded at flight altitude, the creature must land (in phase 1
    of the next turn, within the printed distance: where it is); at combat altitude it crashes and takes
    one more serious wound — a second serious or critical wound kills (GF-G2)."""
    w = crash_data.crash().wounded
    if u.altitude in FLIGHT:
        u.pending = {"move": "land"}
        return ([f"wounded at flight altitude, {u.name or u.id} must land: in phase 1 of the next turn, within "
                 f"{w.land_within_cm} cm of where it is"], [w.ref])
    if u.altitude != w.crash_from:
        return [], []
    steps = [f"wounded at combat altitude, {u.name or u.id} crashes and takes one more serious wound"]
    if u.figures <= 1:
        u.altitude = None
    if any(h in SERIOUS for h in u.wounds):  # the crash's wound would be a second serious one
        steps.append("a second serious wound kills (GF-G2): " + _dies(u))
    else:
        u.wounds.append("severe")
    return steps, [w.ref, "GF-G2"]


def captures(state, taker_side: str, losses: int, dice, victim) -> dict | None:
    """l.950: for each loss the other player rolls 1d6; on the printed face(s) the loss is a capture,
    worth the omen points of data/magic.toml [[omen]] to the taker's priests."""
    if losses <= 0:
        return None
    cap = combat_data.data().capture
    rolls = [dice.roll(cap.die) for _ in range(losses)]
    taken = sum(1 for r in rolls if r in cap.faces)
    omen = magic_data.data().omens[0]
    points = taken * omen.points_per_capture
    omens = getattr(state, "omens", None)
    if isinstance(omens, dict) and points:
        omens[taker_side] = omens.get(taker_side, 0) + points
    return {"type": "capture", "side": taker_side, "victim": victim.id, "losses": losses, "d6": rolls,
            "captured": taken, "omen_points": points,
            "explanation": [f"{losses} loss(es) of {victim.name or victim.id}: 1d6 each {rolls}; "
                            f"{'/'.join(map(str, cap.faces))} = a capture: {taken} captured, "
                            f"+{points} omen point(s) for side {taker_side}"],
            "citations": [cap.ref, omen.ref]}


@dataclass
class Ledger:
    """Losses noted during a simultaneous phase and removed together at the end (``apply``)."""

    figures: dict[str, int] = field(default_factory=dict)
    wounds: dict[str, int] = field(default_factory=dict)
    by: dict[str, list[str]] = field(default_factory=dict)
    #: wounds on a wearer of the Armure de Teteoinnan, by source, warded when applied (OR-GF154)
    warded: list[tuple[object, object, int]] = field(default_factory=list)
    #: (target id, source id) -> the wounds the armour ignored (no loss: the combat's outcome reads it)
    ignored: dict[tuple[str, str], int] = field(default_factory=dict)

    def note(self, target, count: int, source) -> None:
        if count <= 0:
            return
        self.by.setdefault(target.id, []).append(source.id)
        if target.kind != "troop" and items_play.wears_armour(target):
            self.warded.append((target, source, count))
            return
        book = self.figures if target.kind == "troop" else self.wounds
        book[target.id] = book.get(target.id, 0) + count

    def lost(self, uid: str) -> int:
        return self.figures.get(uid, 0) + self.wounds.get(uid, 0)

    def apply(self, state, dice) -> list[dict]:
        """Remove every noted figure and inflict every noted wound, unit by unit, all at once."""
        events = []
        for target, source, count in self.warded:  # the armour first: what it lets through is a wound
            taken, ev = items_play.ward(target, source, count, dice)
            events.append(ev)
            if taken:
                self.wounds[target.id] = self.wounds.get(target.id, 0) + taken
            key = (target.id, source.id)
            self.ignored[key] = self.ignored.get(key, 0) + count - taken
        for uid, n in sorted(self.figures.items()):
            u = unit(state, uid)
            if alive(u):
                events.append(remove_figures(u, n))
        for uid, n in sorted(self.wounds.items()):
            events += wounds(state, unit(state, uid), n, dice)
        return events
