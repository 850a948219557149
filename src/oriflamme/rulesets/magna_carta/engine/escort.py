"""Prisoners and their escort (Magna Carta §6.9): the queries movement and melee ask about a
prisoner (may he try to escape, may he join an attack). The surrender itself, the quarter
prompt and the escape are in engine/ransom.py.
"""

from __future__ import annotations

from .character import HEALTHY, PRISONER, WOUNDED, Character
from .state import MOVEMENT, GameState

REF = "MC §6.9"


def guards(state: GameState, p: Character) -> list[Character]:
    """The members of ``p``'s escort still guarding him: alive, not stunned, adjacent."""
    out = []
    for g in p.escort:
        c = state.characters.get(g)
        if c is not None and c.active and c.hex is not None and p.hex is not None and c.hex.distance(p.hex) == 1:
            out.append(c)
    return out


def escort_broken(state: GameState, p: Character) -> bool:
    """§6.9: a member of the escort is no longer beside him (killed, stunned, driven back,
    negligence) — which covers the escort of two reduced to one."""
    return len(guards(state, p)) < len(p.escort)


def escape_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """Why the prisoner ``c`` may not try to escape now (None: he may)."""
    if c.ransom != PRISONER:
        return (f"{c.name} is not a prisoner", REF)
    if c.status not in (HEALTHY, WOUNDED):
        return (f"{c.name} is {c.status} and cannot move", "MC §1.2")
    if state.step != MOVEMENT or c.side != state.active:
        return ("a prisoner tries to escape in the movement step of his own side", REF)
    if not escort_broken(state, c):
        return (f"{c.name} is a prisoner and his escort stands beside him: he cannot move", REF)
    return None


def join_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """Why the prisoner ``c`` may not join an attack of his friends on his escort now."""
    if c.status not in (HEALTHY, WOUNDED):
        return (f"{c.name} is {c.status} and cannot attack", "MC §1.2")
    if not any(state.characters[g].alive and state.characters[g].hex is not None
               and state.characters[g].hex.distance(c.hex) == 1 for g in c.escort if g in state.characters):
        return (f"{c.name} is a prisoner: he may only join an attack on a member of his escort beside him", REF)
    return None


def group_problem(atts: list[Character], defs: list[Character]) -> tuple[str, str] | None:
    """A prisoner joins an attack of his friends (one of them free) and strikes only at the
    members of his escort."""
    pris = [a for a in atts if a.ransom == PRISONER]
    if not pris:
        return None
    if len(pris) == len(atts):
        return ("a prisoner may only join an attack of his friends", REF)
    for a in pris:
        for d in defs:
            if d.hex is not None and a.hex.distance(d.hex) == 1 and d.id not in a.escort:
                return (f"{a.name} is a prisoner: he may attack only a member of his escort, not {d.name}", REF)
    return None
