"""Melee on the map (Magna Carta §6): who may attack whom, and the ruling.

Groups: a character adjacent to several enemies may attack some or all of them (their defences
added); several characters may attack one enemy together (§6.2). Oriflamme lists as legal every
group where each attacker is adjacent to at least one defender, each defender to at least one
attacker, with at most three defenders (an attacker has at most six neighbours).
"""

from __future__ import annotations

from itertools import combinations

from ..resolve.melee import Fighter, melee as resolve_melee
from ..resolve.ruling import Ruling, Step
from .character import Character
from .movement import can_attack_hex
from .state import MELEE, GameState

MAX_DEFENDERS = 3


def marks_of(state: GameState, c: Character, other: Character, attacking: bool) -> tuple[str, ...]:
    """Terrain marks of ``c`` fighting ``other`` (§6.1, §8.5.1; SEED-NOTES D4): the terrain's
    mark, and the hexside between them (a low wall or fence gives its mark to the defender)."""
    rs = state.rules
    marks = [rs.terrain[state.gmap.terrain(c.hex)].combat]
    hs = state.gmap.hexside(c.hex, other.hex) if c.hex.distance(other.hex) == 1 else None
    if hs and not attacking:
        marks.append(rs.hexsides[hs].combat_defender)
    return tuple(marks)


def attacker_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if state.step != MELEE or c.side != state.active:
        return ("attacks are made in the combat step of one's own phase", "MC §2.1")
    if not c.active:
        return (f"{c.name} is {c.status} and cannot attack", "MC §1.2")
    if c.id in state.attacked:
        return (f"{c.name} has already attacked this turn", "MC §6")
    if c.id in state.fired:
        return (f"{c.name} fired this phase and cannot attack", "MC §5.2, §2.1")
    return None


def melee_ruling(state: GameState, attackers: list[Character], defenders: list[Character], die: int | None = None) -> Ruling:
    rs = state.rules
    for a in attackers:
        p = attacker_problem(state, a)
        if p:
            return Ruling(kind="melee").refuse(*p)
    if len({a.id for a in attackers}) != len(attackers) or len({d.id for d in defenders}) != len(defenders):
        return Ruling(kind="melee").refuse("a character is listed twice", "MC §6.2")
    for d in defenders:
        if d.side == attackers[0].side or not d.alive or d.hex is None:
            return Ruling(kind="melee").refuse(f"{d.name} is not a living enemy", "MC §6")
        if not any(a.hex.distance(d.hex) == 1 for a in attackers):
            return Ruling(kind="melee").refuse(f"{d.name} is not adjacent to an attacker", "MC §6")
    for a in attackers:
        adj = [d for d in defenders if a.hex.distance(d.hex) == 1]
        if not adj:
            return Ruling(kind="melee").refuse(f"{a.name} is not adjacent to a defender", "MC §6")
        for d in adj:
            if not can_attack_hex(state, a, d.hex):
                t = rs.terrain[state.gmap.terrain(d.hex)]
                return Ruling(kind="melee").refuse(
                    f"{a.name} could not enter {d.hex.label} ({t.names[0]}), so cannot attack {d.name} there", "MC §6.7")
    fa = [Fighter(a.current_attack, mounted=a.mounted, armour=a.armour,
                  marks=(rs.terrain[state.gmap.terrain(a.hex)].combat,), name=a.name) for a in attackers]
    fd = []
    for d in defenders:
        facing = [a for a in attackers if a.hex.distance(d.hex) == 1]
        # the defender counts the worse of the marks he has against each attacker facing him
        options = [marks_of(state, d, a, False) for a in facing]
        worst = min(options, key=lambda ms: sum(rs.terrain_marks[x].value for x in ms))
        fd.append(Fighter(d.current_defence, mounted=d.mounted, armour=d.armour, marks=worst, name=d.name))
    r = resolve_melee(rs, fa, fd, weather=state.weather if state.weather != "clear" else None, die=die)
    names_a = ", ".join(f"{a.name} ({a.current_attack})" for a in attackers)
    names_d = ", ".join(f"{d.name} ({d.current_defence}{', stunned' if d.status == 'stunned' else ''})" for d in defenders)
    r.steps.insert(0, Step(f"{names_a} attack {names_d}", "MC §6"))
    r.data["attackers"] = [a.id for a in attackers]
    r.data["defenders"] = [d.id for d in defenders]
    return r


def _connected(pairs: set[tuple[str, str]], nodes: set[str]) -> bool:
    if not nodes:
        return False
    start = next(iter(nodes))
    seen = {start}
    todo = [start]
    while todo:
        x = todo.pop()
        for a, d in pairs:
            for u, v in ((a, d), (d, a)):
                if u == x and v in nodes and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return seen == nodes


def attack_options(state: GameState, side: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every legal (attackers, defenders) group of ``side`` now (odds at least 1-1 included).

    A group is connected: every attacker is adjacent to a defender of the group, every
    defender to an attacker, and the whole group hangs together; at most three defenders.
    """
    able = [c for c in state.characters.values() if c.side == side and c.hex is not None and attacker_problem(state, c) is None]
    if not able:
        return []
    enemies = [e for e in state.characters.values() if e.side != side and e.alive and e.hex is not None]
    pairs = {(a.id, e.id) for a in able for e in enemies
             if a.hex.distance(e.hex) == 1 and can_attack_hex(state, a, e.hex)}
    by_id = state.characters
    out = []
    targets = sorted({d for _, d in pairs})
    for k in range(1, MAX_DEFENDERS + 1):
        for dset in combinations(targets, k):
            cands = sorted({a for a, d in pairs if d in dset})
            for n in range(1, len(cands) + 1):
                for aset in combinations(cands, n):
                    sub = {(a, d) for a, d in pairs if a in aset and d in dset}
                    if not _connected(sub, set(aset) | set(dset)):
                        continue
                    r = melee_ruling(state, [by_id[a] for a in aset], [by_id[d] for d in dset])
                    if r.legal:
                        out.append((aset, dset))
    return out
