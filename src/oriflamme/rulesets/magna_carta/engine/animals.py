"""Queries about riderless animals and camels that the lower layers need (movement points,
fire targets and cover, melee): their names, the camels a man leads, the litter's passenger.

The actions on animals are in engine/led.py (§4.4.4), engine/kneeling.py (§4.6.4),
engine/carts.py (§4.5) and engine/lone_horse.py (§6.8).
"""

from __future__ import annotations

import copy

from ....geometry.hexgrid import Hex

from ..rulesdata import COVER_ORDER
from .character import Character
from .state import GameState, Horse

CAMEL_KINDS = ("camel", "pack_camel", "litter_camel")


#: How the texts name each kind of riderless animal (§4.4.4 horses, §4.5.1 draught animals,
#: §4.6.1 camels); the one naming for the whole engine and the terminal.
ANIMAL_NAMES = {"horse": "horse", "draught_horse": "draught horse", "ox": "ox", "camel": "camel",
                "pack_camel": "pack camel", "litter_camel": "litter camel"}


def horse_name(horse: Horse) -> str:
    """"the <kind> in <head>-<rear>": any riderless animal (horse, draught animal, camel)."""
    a, b = horse.hexes
    return f"the {ANIMAL_NAMES.get(horse.kind, horse.kind)} in {a.label}-{b.label}"


# --- points ---------------------------------------------------------------------------------
def camel_left(state: GameState, horse: Horse) -> int:
    """The points a riderless camel has left this phase (§4.6.2; the weather, §3.2, as for men)."""
    mv = camel_rules(state).movement_of(horse.kind) if camel_rules(state) is not None else None
    num, den = state.rules.weather[state.weather].movement
    return max(0, (mv or 0) * num // den - state.phase.mp_spent.get(horse.id, 0))


def led_camels(state: GameState, c: Character) -> list[Horse]:
    return [x for x in state.riders.horses.values() if x.alive and x.led_by == c.id and x.kind in CAMEL_KINDS]


def led_cap(state: GameState, c: Character, left: int) -> int:
    """``c``'s points left, no more than those of the camels he leads (§4.6.2, §4.6.3)."""
    for x in led_camels(state, c):
        left = min(left, camel_left(state, x))
    return left


# --- the litter (§4.6.1, §4.6.4, §4.6.8) ------------------------------------------------------
def litter_of(state: GameState, cid: str) -> Horse | None:
    """The litter camel carrying ``cid``, if any."""
    for x in state.riders.horses.values():
        if x.passenger == cid:
            return x
    return None


def passive_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """A passenger in his litter: passive, he does not act, and only his camel is attacked
    (§4.6.8); None for anyone else."""
    if c.hex is None and state.riders.horses and litter_of(state, c.id) is not None:
        return (f"{c.name} is in a litter: passive, he does not act and only the camel can be attacked", "MC §4.6.8")
    return None


def as_target(state: GameState, c: Character) -> Character:
    """A passenger as fire sees him: on the head hex of his camel, on foot (§4.6.6); anyone
    else unchanged."""
    if c.hex is not None or not state.riders.horses:
        return c
    horse = litter_of(state, c.id)
    if horse is None or not horse.alive:
        return c
    probe = copy.copy(c)
    probe.hex, probe.mounted = horse.hex, False
    return probe


def passengers(state: GameState) -> list[Character]:
    out = []
    for x in sorted(state.riders.horses.values(), key=lambda x: x.id):
        if x.alive and x.passenger is not None:
            c = state.characters.get(x.passenger)
            if c is not None and c.alive:
                out.append(c)
    return out


# --- cover (§4.6.6) -------------------------------------------------------------------------
def camel_cover(state: GameState, target: Character, t_hex: Hex, line: tuple[Hex, ...],
                notes: list[tuple[str, str]]) -> str:
    """The cover the camels give ``target`` on this line (see the module's docstring)."""

    cv = camel_rules(state).cover if camel_rules(state) is not None else None
    if cv is None:
        return "none"
    best = "none"
    mid = set(line[1:-1])
    shields: list[tuple[tuple[Hex, ...], str, str]] = []
    for x in state.riders.horses.values():
        if not x.alive or x.kind not in CAMEL_KINDS:
            continue
        if x.passenger == target.id:
            notes.append((f"{target.name} is in the litter: {cv.passenger} cover", cv.ref))
            best = cv.passenger if COVER_ORDER.index(cv.passenger) > COVER_ORDER.index(best) else best
            continue
        if target.id == f"horse:{x.id}":
            continue
        what = cv.litter if x.kind == "litter_camel" else (cv.kneeling if x.kneeling else None)
        if what:
            shields.append((x.hexes, what, horse_name(x)))
    for rid in state.camels.kneeling:
        r = state.characters.get(rid)
        if r is not None and r.alive and r.hex is not None and r.id != target.id:
            shields.append((r.hexes, cv.kneeling, f"{r.name}'s kneeling camel"))
    for hexes, what, name in shields:
        if mid.isdisjoint(hexes):
            continue
        if min(t_hex.distance(h) for h in hexes) > cv.behind_distance:
            continue
        notes.append((f"the line crosses {name}, {target.name} stands behind it: {what} cover", cv.ref))
        if COVER_ORDER.index(what) > COVER_ORDER.index(best):
            best = what
    return best


def camel_rules(state: GameState):
    """The camels' rules (§4.6), or None when the ruleset has none."""
    return state.rules.camels
