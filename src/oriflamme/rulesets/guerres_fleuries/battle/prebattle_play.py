"""Before the battle, on the table: reconnaissance and ambush (GF-K3), deployment order and
movement bases (GF-K5), flank marches (GF-K4). Pure functions over the given dice (anything with
``roll(sides)``); each returns its verdict with ``explanation`` (steps) and ``citations``. The
numbers are part 1's data (prebattle.toml) read through :mod:`..prebattle`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from shapely.geometry.base import BaseGeometry

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry.tabletop import line_of_sight

from .. import prebattle
from .table import Battlefield, deployment_zones, unit_obstacle

SIDES = ("A", "B")


def _other(side: str) -> str:
    if side not in SIDES:
        raise IllegalAction(f"unknown side {side!r}: 'A' or 'B'")
    return "B" if side == "A" else "A"


# --- reconnaissance (GF-K3) ----------------------------------------------------------------------

def reconnaissance(pochteca: dict[str, int]) -> dict:
    """GF-K3: each side's potential is its number of pochteca figures; a side whose potential is less
    than half the other's is discovered. The side that discovers its enemy may place one unit in
    ambush (OR-GF28)."""
    rec = prebattle.data().reconnaissance
    for side in SIDES:
        n = pochteca.get(side)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalAction(f"reconnaissance: side {side}'s pochteca must be a whole number ≥ 0, not {n!r}", rec.ref)
    steps = [f"potentials: A {pochteca['A']} pochteca, B {pochteca['B']}"]
    discovered = {}
    for side in SIDES:
        other = _other(side)
        discovered[side] = prebattle.discovered(pochteca[side], pochteca[other])
        steps.append(f"side {side}: {pochteca[side]} " + ("<" if discovered[side] else "≥")
                     + f" {rec.discovered_below_fraction_of_other:g} × {pochteca[other]} → "
                     + ("discovered" if discovered[side] else "not discovered"))
    ambush = next((_other(s) for s in SIDES if discovered[s]), None)
    if ambush:
        steps.append(f"side {ambush} may place {rec.ambush_units} unit in ambush, out of the enemy zone and "
                     f"out of enemy sight (OR-GF28)")
    return {"discovered": discovered, "ambush": ambush, "ambush_units": rec.ambush_units if ambush else 0,
            "explanation": steps, "citations": [rec.ref, "GF-K3", "OR-GF28"]}


def ambush_position(side: str, footprint: BaseGeometry, battlefield: Battlefield,
                    enemies: dict[str, BaseGeometry], friends: dict[str, BaseGeometry] | None = None) -> dict:
    """May ``side`` place its ambush unit on ``footprint``? On the table, out of the enemy deployment
    zone, and out of sight of every enemy unit placed (GF-K3, l.485). Returns ``allowed`` and why."""
    rec = prebattle.data().reconnaissance
    other = _other(side)
    steps, ok = [], True
    if not battlefield.outline.covers(footprint):
        ok = False
        steps.append("the unit is not wholly on the table")
    zone = deployment_zones(battlefield)[other]
    if footprint.intersects(zone) and footprint.intersection(zone).area > 0:
        ok = False
        steps.append(f"the unit stands in side {other}'s deployment zone")
    screens = battlefield.obstacles() + [unit_obstacle(uid, g) for uid, g in (friends or {}).items()]
    for uid, g in enemies.items():
        others = [o for o in screens] + [unit_obstacle(k, v) for k, v in enemies.items() if k != uid]
        sight = line_of_sight(g, footprint, others)
        if sight.visible:
            ok = False
            steps.append(f"enemy {uid} sees it ({'; '.join(sight.reasons)})")
    if ok:
        steps.append("out of the enemy zone and out of enemy sight: the ambush may stand here")
    return {"allowed": ok, "explanation": steps, "citations": [rec.ref, "GF-K3"]}


# --- deployment (GF-K5) -------------------------------------------------------------------------

def deployment_order(discovered: dict[str, bool]) -> dict:
    """l.491: a discovered side sets its units up on the table before the other writes its plan; the
    side not discovered uses movement bases; if neither is discovered, both write their plans apart
    and use movement bases."""
    dep = prebattle.data().deployment
    first = next((s for s in SIDES if discovered.get(s)), None)
    bases = [s for s in SIDES if not discovered.get(s)]
    if first:
        steps = [f"side {first} is discovered: it sets up its units on the table first",
                 f"side {_other(first)} then writes its plan and deploys on movement bases"]
    else:
        steps = ["neither side is discovered: both write their plans apart and deploy on movement bases"]
    return {"on_table_first": first, "movement_bases": bases, "explanation": steps,
            "citations": [dep.ref, "GF-K5"]}


def deployment_bases(brigades: int, dice) -> dict:
    """GF-K5: one movement base per brigade + 1d6 − 2 more (at least 0)."""
    dep = prebattle.data().deployment
    if isinstance(brigades, bool) or not isinstance(brigades, int) or brigades < 0:
        raise IllegalAction(f"deployment bases: brigades must be a whole number ≥ 0, not {brigades!r}", dep.ref)
    d6 = int(dice.roll(dep.extra_bases_sides))
    n = prebattle.movement_bases(brigades, d6)
    extra = n - brigades * dep.bases_per_brigade
    steps = [f"{brigades} brigade(s) × {dep.bases_per_brigade} base = {brigades * dep.bases_per_brigade}",
             f"1d{dep.extra_bases_sides} = {d6}, − {dep.extra_bases_minus} = {d6 - dep.extra_bases_minus}"
             + (f", at least {dep.extra_bases_min}" if d6 - dep.extra_bases_minus < dep.extra_bases_min else "")
             + f" → {extra} more", f"{n} movement base(s); one brigade at most on each, same formation and command"]
    return {"bases": n, "die": d6, "explanation": steps, "citations": [dep.ref, "GF-K5"]}


# --- flank march (GF-K4) ------------------------------------------------------------------------

@dataclass(frozen=True)
class FlankForce:
    """A flank march: the side, the edge it enters by ("left" x = 0 or "right" x = width), where on it
    (y, written on the battle plan), the turn of its first try (from the plan, turn 4 at the earliest),
    whether a character goes with it and whether it is all class B, its failures so far, and whether
    it has entered."""

    side: str
    edge: str
    y: float
    first_try_turn: int
    points: int = 0
    with_character: bool = False
    all_class_b: bool = False
    failures: int = 0
    entered: bool = False

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def flank_march_plan(force: FlankForce, army_points: int, battlefield: Battlefield) -> dict:
    """Check a planned flank march (l.505-507): at most half the army's points, entering by a side
    edge on the side's own half (up to the centre line), first try on turn 4 at the earliest."""
    fm = prebattle.data().flank_march
    steps, ok = [], True
    limit = fm.max_share_of_points * army_points
    if force.points > limit:
        ok = False
        steps.append(f"{force.points} points off the table > {fm.max_share_of_points:g} × {army_points} = {limit:g}")
    else:
        steps.append(f"{force.points} points off the table ≤ {fm.max_share_of_points:g} × {army_points} = {limit:g}")
    if force.edge not in ("left", "right"):
        ok = False
        steps.append(f"a flank march enters by a side edge ('left' or 'right'), not {force.edge!r}")
    mid = battlefield.height / 2
    own_half = (mid <= force.y <= battlefield.height) if force.side == "A" else (0 <= force.y <= mid)
    if not own_half:
        ok = False
        steps.append(f"y = {force.y:g} is not on side {force.side}'s half of the table (up to the centre line y = {mid:g})")
    if force.first_try_turn < fm.earliest_turn:
        ok = False
        steps.append(f"first try on turn {force.first_try_turn}: not before turn {fm.earliest_turn}")
    if ok:
        steps.append(f"the march may try to enter from turn {force.first_try_turn} "
                     f"(and the {fm.retries_on_following_turns} following turns)")
    return {"allowed": ok, "explanation": steps, "citations": [fm.ref, "GF-K4"]}


def flank_march_attempt(force: FlankForce, turn: int, dice) -> dict:
    """One try to enter (l.509-511): 5 or 6 on a d6, +1 with a character, +1 if all class B. A failed
    first try may be retried on each of the two following turns; after three failures, never.
    Returns the updated ``force`` (a new :class:`FlankForce`), ``enters``, the die and the steps.
    Refuses (IllegalAction) a try before the planned turn, after entering, or after the last chance."""
    fm = prebattle.data().flank_march
    if force.entered:
        raise IllegalAction("this flank march has already entered the table", fm.ref)
    turns = prebattle.flank_march_turns(force.first_try_turn)
    if force.failures > fm.retries_on_following_turns:
        raise IllegalAction(f"after {force.failures} failures the force can no longer enter the battle", fm.ref)
    if turn != turns[force.failures]:
        raise IllegalAction(f"turn {turn}: this flank march tries on turns {', '.join(map(str, turns))}; after "
                            f"{force.failures} failure(s) its next try is on turn {turns[force.failures]}", fm.ref)
    d6 = int(dice.roll(fm.die))
    bonus = (fm.bonus_with_character if force.with_character else 0) + (fm.bonus_all_class_b if force.all_class_b else 0)
    enters = prebattle.flank_march_enters(d6, with_character=force.with_character, all_class_b=force.all_class_b)
    steps = [f"1d{fm.die} = {d6}" + (f" + {bonus} (" + ", ".join(
        x for x, y in (("a character", force.with_character), ("all class B", force.all_class_b)) if y) + ")" if bonus else "")
        + f" = {d6 + bonus}: needs {fm.succeeds_on_at_least}"]
    if enters:
        new = replace(force, entered=True)
        steps.append(f"the force enters at once by the {force.edge} edge at y = {force.y:g}")
    else:
        new = replace(force, failures=force.failures + 1)
        left = fm.retries_on_following_turns + 1 - new.failures
        steps.append(f"failure {new.failures}: " + (f"it may try again next turn ({left} tr{'y' if left == 1 else 'ies'} left)"
                                                    if left > 0 else "after three failures it will not enter the battle"))
    return {"force": new, "enters": enters, "die": d6, "score": d6 + bonus, "lost": (not enters and new.failures > fm.retries_on_following_turns),
            "explanation": steps, "citations": [fm.ref, "GF-K4"]}
