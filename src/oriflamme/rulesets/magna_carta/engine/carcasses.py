"""Where the bodies lie (Magna Carta §4.2.2): dead characters and carcasses per hex.

A low-level query module: movement costs read it, and the features that lay or clear bodies
(engine/bodies.py, engine/horses.py, engine/lone_horse.py) write ``state.bodies.carcasses`` through it.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from .character import Character
from .state import GameState

MAN, HORSE = "man", "horse"
KINDS = (MAN, HORSE)


# =============================================================================================
# where the bodies lie (§4.2.2)
# =============================================================================================
def body_kind(c: Character) -> str:
    """What a dead character counts as. Every character of the roster is a man today; a hook
    for animals of the roster (a riderless horse led by the bridle, §4.2.1) when they come."""
    return MAN


def bodies_map(state: GameState) -> dict[Hex, tuple[int, int]]:
    """Every hex holding bodies -> ``(dead men, dead horses)``."""
    men: dict[Hex, int] = {}
    horses: dict[Hex, int] = {}
    for c in state.characters.values():
        if c.hex is not None and not c.alive:
            if body_kind(c) == HORSE:
                horses[c.hex] = horses.get(c.hex, 0) + 1
            else:
                men[c.hex] = men.get(c.hex, 0) + 1
    for h, kinds in state.bodies.carcasses.items():
        if kinds.get(MAN):
            men[h] = men.get(h, 0) + kinds[MAN]
        if kinds.get(HORSE):
            horses[h] = horses.get(h, 0) + kinds[HORSE]
    return {h: (men.get(h, 0), horses.get(h, 0)) for h in set(men) | set(horses)}


def bodies_at(state: GameState, h: Hex) -> tuple[int, int]:
    """``(dead men, dead horses)`` lying in ``h``."""
    men = horses = 0
    for c in state.characters.values():
        if c.hex == h and not c.alive:
            if body_kind(c) == HORSE:
                horses += 1
            else:
                men += 1
    kinds = state.bodies.carcasses.get(h)
    if kinds:
        men += kinds.get(MAN, 0)
        horses += kinds.get(HORSE, 0)
    return men, horses


def add_carcass(state: GameState, h: Hex, kind: str = HORSE, n: int = 1) -> None:
    """Lay ``n`` bodies of ``kind`` in ``h`` (a dead horse under its fallen rider)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of body {kind!r}")
    kinds = state.bodies.carcasses.setdefault(h, {})
    kinds[kind] = kinds.get(kind, 0) + n


def take_carcass(state: GameState, h: Hex, kind: str, n: int) -> int:
    kinds = state.bodies.carcasses.get(h, {})
    taken = min(n, kinds.get(kind, 0))
    if taken:
        kinds[kind] -= taken
        if not kinds[kind]:
            del kinds[kind]
        if not kinds:
            del state.bodies.carcasses[h]
    return taken


def describe(men: int, horses: int) -> str:
    parts = []
    if men:
        parts.append(f"{men} dead {'man' if men == 1 else 'men'}")
    if horses:
        parts.append(f"{horses} dead {'horse' if horses == 1 else 'horses'}")
    return ", ".join(parts) or "no dead"
