"""Melee on the map (Magna Carta §6): who may attack whom, and the ruling.

Groups: a character adjacent to several enemies may attack some or all of them (their defences
added); several characters may attack one enemy together (§6.2). Oriflamme lists as legal every
group where each attacker is adjacent to at least one defender, each defender to at least one
attacker, with at most three defenders (an attacker has at most six neighbours).
"""

from __future__ import annotations

from itertools import combinations

from ..resolve.melee import melee as resolve_melee, Fighter
from ..resolve.ruling import Ruling, Step
from ..texts.messages import nested
from .character import Character, PRISONER
from .events import named
from .movement import can_attack_hex, could_strike_hex
from .escort import group_problem, join_problem
from .state import GameState, MELEE
from .animals import passive_problem
from .camels import melee_shifts

MAX_DEFENDERS = 3


def marks_of(state: GameState, c: Character, other: Character, attacking: bool) -> tuple[str, ...]:
    """Terrain marks of ``c`` fighting ``other`` (§6.1, §8.5.1; SEED-NOTES D4): the terrain's
    mark, and the hexside between them (a low wall or fence gives its mark to the defender)."""
    rs = state.rules
    options = []
    for h in c.hexes:  # a rider counts the worse of his two hexes (§6.1; SEED-NOTES D3)
        # the hex's mark for him: a "Déf. +" hex is "+" to its defender only (combat_attacking),
        # a mounted character's own mark where one is printed (combat_mounted; SEED-NOTES D4)
        marks = [rs.terrain[state.gmap.terrain(h)].mark_for(c.mounted, attacking)]
        if not attacking:
            for oh in other.hexes:
                hs = state.gmap.hexside(h, oh) if h.distance(oh) == 1 else None
                if hs:
                    marks.append(rs.hexsides[hs].combat_defender)
                    break
        options.append(tuple(marks))
    return min(options, key=lambda ms: sum(rs.terrain_marks[x].value for x in ms))


def can_strike(state: GameState, a: Character, d: Character) -> bool:
    """Whether ``a`` could attack ``d`` now: a hex of ``d`` next to ``a`` that ``a`` could
    enter, no wall between (§6.7); riders strike from and at either hex."""
    return any(_can_strike(state, a, h) for h in d.hexes)


def attacker_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if state.step != MELEE or c.side != state.active:
        return ("attacks are made in the combat step of one's own phase", "MC §2.1")
    if c.hex is None and state.riders.horses:  # a passenger in a litter is passive (§4.6.8)
        p = passive_problem(state, c)
        if p:
            return p
    if not c.active:
        if c.ransom != PRISONER:
            return (f"{c.name} is {c.status} and cannot attack", "MC §1.2")
        p = join_problem(state, c)  # §6.9: a prisoner may join an attack on his escort
        if p:
            return p
    if c.id in state.phase.attacked:
        return (f"{c.name} has already attacked this turn", "MC §6")
    if c.id in state.phase.fired:
        return (f"{c.name} fired this phase and cannot attack", "MC §5.2, §2.1")
    if c.id in state.carts.harnessing:
        return (f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", "MC §4.5.1")
    if c.id in state.phase.clearing:
        return (f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
    if c.id in state.defensive_fire.declared:
        return (f"{c.name} declared his fire this phase and cannot attack", "MC §5.2")
    return None


def _defender(state: GameState, d: Character) -> dict | str:
    """"Colin (3)", "Colin (3, stunned)", "the horse in 0302-0201 (1)" as a message parameter."""
    who = named(state, d)
    if isinstance(who, dict):  # a riderless animal's stand-in (engine/lone_horse.py)
        return nested(f"{who['msg']}.strength", **who["params"], n=d.current_defence)
    if d.status == "stunned":
        return nested("fighter.stunned", name=d.name, strength=d.current_defence)
    return f"{d.name} ({d.current_defence})"


def melee_ruling(state: GameState, attackers: list[Character], defenders: list[Character], die: int | None = None) -> Ruling:
    rs = state.rules
    if not attackers or not defenders:
        return Ruling(kind="melee").refuse("an attack needs at least one attacker and one defender", "MC §6")
    for a in attackers:
        p = attacker_problem(state, a)
        if p:
            return Ruling(kind="melee").refuse(*p)
    if len({a.id for a in attackers}) != len(attackers) or len({d.id for d in defenders}) != len(defenders):
        return Ruling(kind="melee").refuse("a character is listed twice", "MC §6.2")
    for d in defenders:
        if d.hex is None and d.side != attackers[0].side and state.riders.horses:  # only the camel is attacked (§4.6.8)
            p = passive_problem(state, d)
            if p:
                return Ruling(kind="melee").refuse(*p)
        if d.side == attackers[0].side or not d.alive or d.hex is None:
            return Ruling(kind="melee").refuse(f"{d.name} is not a living enemy", "MC §6")
        if d.ransom == PRISONER:
            return Ruling(kind="melee").refuse(f"{d.name} is a prisoner under escort and is not attacked", "MC §6.9")
        if not any(a.touches(d) for a in attackers):
            return Ruling(kind="melee").refuse(f"{d.name} is not adjacent to an attacker", "MC §6")
    gp = group_problem(attackers, defenders)  # §6.9: a prisoner joining an attack on his escort
    if gp:
        return Ruling(kind="melee").refuse(*gp)
    for a in attackers:
        adj = [d for d in defenders if a.touches(d)]
        if not adj:
            return Ruling(kind="melee").refuse(f"{a.name} is not adjacent to a defender", "MC §6")
        for d in adj:
            if not can_strike(state, a, d):
                t = rs.terrain[state.gmap.terrain(d.hex)]
                return Ruling(kind="melee").refuse(
                    f"{a.name} could not enter {d.hex.label} ({t.names[0]}), so cannot attack {d.name} there", "MC §6.7")
    charge, counter = charge_flags(state, attackers, defenders)
    fa = [Fighter(a.current_attack, mounted=a.mounted, armour=a.armour,
                  marks=marks_of(state, a, defenders[0], True), name=a.name, charging=charge) for a in attackers]
    fd = []
    for d in defenders:
        facing = [a for a in attackers if a.touches(d)]
        # the defender counts the worse of the marks he has against each attacker facing him
        options = [marks_of(state, d, a, False) for a in facing]
        worst = min(options, key=lambda ms: sum(rs.terrain_marks[x].value for x in ms))
        fd.append(Fighter(d.current_defence, mounted=d.mounted, armour=d.armour, marks=worst, name=d.name,
                          counter_charging=counter))
    r = resolve_melee(rs, fa, fd, weather=state.weather if state.weather != "clear" else None, die=die,
                      cited_shifts=melee_shifts(state, attackers, defenders))
    names_a = [f"{a.name} ({a.current_attack})" for a in attackers]
    names_d = [_defender(state, d) for d in defenders]
    r.steps.insert(0, Step.say("melee.attack", {"attackers": names_a, "defenders": names_d}, "MC §6"))
    r.data["attackers"] = [a.id for a in attackers]
    r.data["defenders"] = [d.id for d in defenders]
    return r


def charge_flags(state: GameState, attackers: list[Character], defenders: list[Character]) -> tuple[bool, bool]:
    """(charging, counter-charging) of an attack (MC §7.6.3): a charger announced this phase
    (``state.charges``, engine/charges.py) who ended his move on his path's last hex, attacking
    alone his target — or his counter-charger, who then counter-charges — alone ("toujours
    résolues en un combat séparé")."""
    if not state.charges.announced or len(attackers) != 1 or len(defenders) != 1:
        return False, False
    a, d = attackers[0], defenders[0]
    e = state.charges.announced.get(a.id)
    if e is None or a.hex is None:
        return False, False
    route = e["path"][:-state.rules.charge.moves.counter_meet] if e.get("counter") else e["path"]
    if a.hex.label != route[-1]:
        return False, False
    if e.get("counter"):
        met = d.id == e["counter"] and bool(e.get("met"))
        return met, met
    return d.id == e["target"], False


def _can_strike(state: GameState, a: Character, h) -> bool:
    """:func:`can_attack_hex`, a prisoner joining an attack on his escort included (§6.9)."""
    if a.ransom == PRISONER:
        return could_strike_hex(state, a, h)
    return can_attack_hex(state, a, h)


def _contact_pairs(state: GameState, side: str) -> set[tuple[str, str]]:
    """``(attacker id, defender id)`` for every able attacker of ``side`` and living enemy he
    could attack now (adjacent, :func:`can_attack_hex`)."""
    able = [c for c in state.characters.values() if c.side == side and c.hex is not None and attacker_problem(state, c) is None]
    if not able:
        return set()
    enemies = [e for e in state.characters.values()
               if e.side != side and e.alive and e.hex is not None and e.ransom != PRISONER]
    return {(a.id, e.id) for a in able for e in enemies
            if a.touches(e) and can_strike(state, a, e) and (a.ransom != PRISONER or e.id in a.escort)}


def _group_connected(aset: tuple[str, ...], dset: tuple[str, ...], foes_of: dict[str, set[str]]) -> bool:
    """Whether attackers and defenders form one connected group through ``foes_of``
    (attacker -> the defenders he may attack): every node reached from the first attacker."""
    dleft = set(dset)
    aleft = set(aset)
    a0 = aset[0]
    aleft.discard(a0)
    todo_a = [a0]
    todo_d: list[str] = []
    while todo_a or todo_d:
        if todo_a:
            a = todo_a.pop()
            hit = foes_of[a] & dleft
            if hit:
                dleft -= hit
                todo_d.extend(hit)
        else:
            d = todo_d.pop()
            for a in [x for x in aleft if d in foes_of[x]]:
                aleft.discard(a)
                todo_a.append(a)
    return not dleft and not aleft


def _closure(masks: list[int]) -> int:
    """The defenders (bits) joined to the first attacker through attackers sharing defenders
    (each attacker's mask non-zero): all of them exactly when the group hangs together."""
    cur = masks[0]
    grown = True
    while grown:
        grown = False
        for m in masks:
            if m & cur and m | cur != cur:
                cur |= m
                grown = True
    return cur


def _legal_groups(state: GameState, side: str):
    """The legal (attackers, defenders) groups of ``side``, contact group by contact group
    (not in the order of :func:`attack_options`)."""
    pairs = _contact_pairs(state, side)
    if not pairs:
        return
    by_id = state.characters
    foes_of: dict[str, set[str]] = {}
    friends_of: dict[str, set[str]] = {}
    for a, d in pairs:
        foes_of.setdefault(a, set()).add(d)
        friends_of.setdefault(d, set()).add(a)
    # A group lies inside one connected component of the contact graph: enumerate the
    # defender sets component by component instead of across the whole map.
    seen: set[str] = set()
    for d0 in sorted(friends_of):
        if d0 in seen:
            continue
        comp_d = {d0}
        todo = [d0]
        while todo:
            for a in friends_of[todo.pop()]:
                for d in foes_of[a]:
                    if d not in comp_d:
                        comp_d.add(d)
                        todo.append(d)
        seen |= comp_d
        targets = sorted(comp_d)
        for k in range(1, MAX_DEFENDERS + 1):
            full = (1 << k) - 1
            for dset in combinations(targets, k):
                cands = sorted(set().union(*(friends_of[d] for d in dset)))
                # each candidate's defenders in dset as a bit mask (never 0: he touches one)
                mask = {a: sum(1 << i for i, d in enumerate(dset) if d in foes_of[a]) for a in cands}
                if _closure([mask[a] for a in cands]) != full:
                    continue  # not even all of them together join these defenders
                for n in range(1, len(cands) + 1):
                    for aset in combinations(cands, n):
                        if _closure([mask[a] for a in aset]) != full:
                            continue  # not one group in contact
                        r = melee_ruling(state, [by_id[a] for a in aset], [by_id[d] for d in dset])
                        if r.legal:
                            yield aset, dset


def attack_options(state: GameState, side: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every legal (attackers, defenders) group of ``side`` now (odds at least 1-1 included).

    A group is connected: every attacker is adjacent to a defender of the group, every
    defender to an attacker, and the whole group hangs together; at most three defenders.
    Sorted by number of defenders, defenders, number of attackers, attackers (ids in order
    within a group).
    """
    # the order of an enumeration over all the defenders of the map at once
    return sorted(_legal_groups(state, side), key=lambda g: (len(g[1]), g[1], len(g[0]), g[0]))


def has_attack_option(state: GameState, side: str) -> bool:
    """``bool(attack_options(state, side))``, stopping at the first legal group."""
    return any(True for _ in _legal_groups(state, side))


def is_attack_option(state: GameState, side: str, attackers, defenders, ruling_checked: bool = False) -> bool:
    """Whether ``(tuple(attackers), tuple(defenders)) in attack_options(state, side)``,
    checking that one group only. ``ruling_checked``: the caller has already found
    :func:`melee_ruling` legal for these attackers and defenders (in this order)."""
    aset, dset = tuple(attackers), tuple(defenders)
    if not aset or not 1 <= len(dset) <= MAX_DEFENDERS:
        return False
    ch = state.characters
    atts, defs = [], []
    for x in aset:
        c = ch.get(x) if isinstance(x, str) else None
        if c is None or c.side != side or c.hex is None or attacker_problem(state, c) is not None:
            return False
        atts.append(c)
    for x in dset:
        e = ch.get(x) if isinstance(x, str) else None
        if e is None or e.side == side or not e.alive or e.hex is None or e.ransom == PRISONER:
            return False
        defs.append(e)
    # ids strictly in order (combinations of sorted ids), hence no repeats
    if any(not x < y for x, y in zip(aset, aset[1:])) or any(not x < y for x, y in zip(dset, dset[1:])):
        return False
    foes_of = {x: {y for y, d in zip(dset, defs) if a.touches(d) and can_strike(state, a, d)}
               for x, a in zip(aset, atts)}
    if not _group_connected(aset, dset, foes_of):
        return False
    return ruling_checked or melee_ruling(state, atts, defs).legal
