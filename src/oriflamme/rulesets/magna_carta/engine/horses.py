"""Horses (Magna Carta §4.4.2, §4.4.4, §6.8): unhorsing, mounting, dismounting, riderless
horses.

* **Unhorsed** (§6.8): the fire and melee results that say so (data: ``unhorse``,
  ``horse_killed``) leave the horse — alive or dead — on the rider's two hexes; the rider, on
  foot with the values of his type on foot (roster ``dismounted``), is placed by his side on a
  hex next to the horse (a ``place`` prompt when there is a choice). With no free hex there,
  "on décale un personnage ami d'une case": he may land on the hex of a friend, who is
  shifted one hex (:func:`shift_to`, the engine choosing where, a rider keeping his facing; the
  player choosing which friend through the same prompt). Entirely surrounded by enemies, he is
  dead. Left over (no free hex, no friend who can be shifted, not all enemies: friends boxed
  in, horses or impassable hexes around): he stays in the horse's rear hex — docs/decisions.md.
* **Dismounting / mounting** (§4.4.2): 2 PM (3 in armour) during the movement step; the points
  left on horseback are halved (÷4 wounded) on foot, the points left on foot doubled on
  horseback. A dismounting rider steps onto a free hex next to his horse; a rider on foot
  mounts a riderless horse next to him that no active enemy stands by (only riders may mount,
  captured horses included), and takes its two hexes and facing.
* **Dead horses** are bodies (:mod:`oriflamme.rulesets.magna_carta.engine.bodies`, §4.2.2), laid in the hex of the
  horse's head.
* **Riderless horses** (§4.4.4) stay put unless led; their hexes may be crossed but no move ends
  there. Control and leading by the bridle: :mod:`oriflamme.rulesets.magna_carta.engine.led`; fire and melee at a
  lone horse (§6.8): :mod:`oriflamme.rulesets.magna_carta.engine.lone_horse`.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from .character import Character
from .events import emit, status
from . import handlers
from .errors import IllegalAction
from .state import MOVEMENT, GameState, Horse, Pending
from .places import around, free_for_foot  # noqa: F401 (public here too)
from .carcasses import add_carcass
from .kneeling import (camel_name, dismount_hexes as beside_head, dismount_problem as camel_dismount_problem,
                       mount_problem as camel_mount_problem)
from .movement import allowance, points_left
from .places import passable_for


def rules(state: GameState) -> dict[str, int]:
    r = state.rules.movement_rules
    return {k: r[k].value for k in ("mount_cost", "mount_cost_armoured", "mount_points_factor",
                                      "dismount_points_divisor", "dismount_points_divisor_wounded")}


def _become(state: GameState, c: Character, type_id: str, mounted: bool) -> None:
    """Take the values of ``type_id`` (the same man on foot or on horseback), keeping status."""
    ct = state.rules.character_types[type_id]
    c.type, c.mounted = ct.id, mounted
    c.attack, c.defence, c.movement = ct.attack, ct.defence, ct.movement
    c.wounded_attack, c.wounded_defence, c.wounded_movement = ct.wounded_attack, ct.wounded_defence, ct.wounded_movement
    c.stunned_defence, c.armour = ct.stunned_defence, ct.armour
    c.weapon = ct.weapon


def to_foot(state: GameState, c: Character) -> None:
    if c.foot_type:
        _become(state, c, c.foot_type, False)
    else:
        c.mounted = False






def _new_horse_id(state: GameState, c: Character) -> str:
    base = f"{c.id}-horse"
    k, hid = 1, base
    while hid in state.riders.horses:
        k += 1
        hid = f"{base}{k}"
    return hid


def unhorse(state: GameState, c: Character, horse_killed: bool, ref: str) -> None:
    """§6.8: the horse stays where it stood (dead or alive), the rider is put beside it."""
    if not c.mounted or c.hex is None:
        return
    horse = Horse(_new_horse_id(state, c), c.hex, c.facing, c.side, alive=not horse_killed, kind=_mount(state, c))
    if horse_killed:
        # a dead horse is a body (§4.2.2), counted in the hex of its head (Oriflamme's reading)
        add_carcass(state, horse.hex)
    else:
        state.riders.horses[horse.id] = horse
        horse.kneeling = c.id in state.camels.kneeling  # §4.6.4
    state.camels.kneeling.discard(c.id)
    to_foot(state, c)
    if c.side == state.active:  # unhorsed in his own phase: no movement left (Oriflamme's reading)
        state.phase.mp_spent[c.id] = allowance(state, c)
    emit(state, "unhorse", msg="unhorse.horse_dead" if horse_killed else "unhorse.horse_stays",
         params={"name": c.name, "hexes": f"{horse.hexes[0].label}-{horse.hexes[1].label}"}, char=c.id, horse=horse.id, ref=ref)
    ring = around(state, horse.hexes)
    free = [h for h in ring if free_for_foot(state, c, h)]
    shifted = False
    if not free:
        # §6.8: "Dans le cas où toutes les cases adjacentes sont occupées, on décale un personnage
        # ami d'une case pour faire de la place au cavalier désarçonné."
        free, shifted = shift_hexes(state, c, ring), True
    if not free:
        if all(any(o.side != c.side for o in state.live_at(h)) for h in ring):
            if c.alive:
                emit(state, "status", msg="unhorse.surrounded", params={"name": c.name, "status": status(c.kill())}, char=c.id,
                     ref="MC §6.8")
            c.hex = horse.hexes[1]  # his body lies by the horse
            return
        # no free hex and no friend able to step aside (friends boxed in, horses or
        # impassable hexes around): he stays in the horse's rear hex (simplification)
        c.hex = horse.hexes[1]
        if c.alive:
            emit(state, "place", msg="unhorse.no_room", params={"name": c.name, "hex": c.hex.label},
                 char=c.id, ref="docs/decisions.md (unhorsed riders)")
        return
    if len(free) > 1:
        # provisional (his side chooses, MC §6.8 "placé par le joueur auquel il appartient"):
        # on a friend's hex until the prompt is answered when a friend must step aside
        c.hex = free[0]
        state.pending.insert(0, Pending("place", c.side, [c.id], {"hexes": [h.label for h in free], "ref": "MC §6.8",
                                                                  **({"shift": True} if shifted else {})}))
    else:
        place(state, c, free[0])


def shift_to(state: GameState, f: Character, h: Hex, c: Character) -> Hex | None:
    """Where the friend ``f`` standing in ``h`` is shifted to make room for the unhorsed ``c``
    (§6.8): a free hex next to ``h`` open to him on foot (no live character, no horse); one next
    to no active enemy if there is one, then by label (the engine chooses, as for a friend making
    room for a retreat, engine/paths.py ``make_room``). A friend alive and not a prisoner is
    shifted (stunned included: "on décale" the counter); a friend on horseback is moved one
    hex, his facing kept, both his hexes free (the returned hex is his new front hex)."""
    if f.side != c.side or not f.alive or f.ransom == "prisoner" or h not in f.hexes:
        return None
    if f.mounted:
        return _shift_rider(state, f, h, c)
    cands = []
    for n in h.neighbours():
        if n == c.hex or not passable_for(state, f, h, n):
            continue
        if [o for o in state.live_at(n) if o.id != c.id] or state.horse_at(n) is not None:
            continue
        cands.append((_near_enemy(state, f, (n,)), n.label, n))
    return min(cands)[2] if cands else None


def _near_enemy(state: GameState, f: Character, hexes) -> bool:
    return any(e.active and e.side != f.side and e.hex is not None and any(e.distance_to(n) == 1 for n in hexes)
               for e in state.characters.values())


def _shift_rider(state: GameState, f: Character, h: Hex, c: Character) -> Hex | None:
    """The new front hex of the rider ``f`` moved one hex (both hexes the same way, his facing
    kept) off ``h`` (§6.8, Oriflamme's reading of "décaler d'une case" for a two-hex counter)."""
    rs, old = state.rules, f.hexes
    cands = []
    for d in range(6):
        new = tuple(x.neighbour(d) for x in old)
        if h in new or c.hex in new:
            continue
        if not all(passable_for(state, f, a, b) for a, b in zip(old, new)):
            continue
        side = state.gmap.hexside(new[0], new[1])
        if side and rs.hexsides[side].crossing_for(True) == "impassable":
            continue
        if any(o.id not in (f.id, c.id) for x in new for o in state.live_at(x)) or any(state.horse_at(x) for x in new):
            continue
        cands.append((_near_enemy(state, f, new), new[0].label, new[0]))
    return min(cands)[2] if cands else None


def shift_hexes(state: GameState, c: Character, ring: list[Hex]) -> list[Hex]:
    """The hexes next to the horse where ``c`` may land once the one friend there is shifted."""
    rs = state.rules
    out = []
    for h in ring:
        if rs.terrain[state.gmap.terrain(h)].cost_for(False, c.armour) == "impassable":
            continue
        there = [o for o in state.live_at(h) if o.id != c.id]
        if len(there) == 1 and shift_to(state, there[0], h, c) is not None:
            out.append(h)
    return out


def place(state: GameState, c: Character, h: Hex) -> None:
    """``c``, unhorsed, lands in ``h``; a friend standing there is shifted one hex (§6.8)."""
    for f in [o for o in state.live_at(h) if o.id != c.id]:
        to = shift_to(state, f, h, c)
        if to is not None:
            was = f.hex
            f.hex = to  # a rider keeps his facing: his rear follows (§1.2)
            emit(state, "place", msg="unhorse.shifted", params={"name": f.name, "a": was.label, "b": to.label, "mover": c.name},
                 char=f.id, ref="MC §6.8")
    c.hex = h
    emit(state, "place", msg="unhorse.placed", params={"name": c.name, "hex": h.label}, char=c.id, ref="MC §6.8")


# --- mounting and dismounting (§4.4.2) ---------------------------------------------------
def mount_cost(state: GameState, c: Character) -> int:
    if _mount(state, c) == "camel" and state.rules.camels is not None:  # camel riders: 2 PM (§4.6.4)
        return state.rules.camels.kneeling.mount_cost
    r = rules(state)
    return r["mount_cost_armoured"] if c.armour else r["mount_cost"]


def dismount_hexes(state: GameState, c: Character) -> list[Hex]:
    if _mount(state, c) == "camel" and c.mounted:  # beside the camel's head (§4.6.4)
        return beside_head(state, c)
    return [h for h in around(state, c.hexes) if free_for_foot(state, c, h)]


def dismount_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if not c.mounted:
        return (f"{c.name} is not on horseback", "MC §4.4.2")
    if not c.foot_type:
        return (f"{c.name}'s type has no counterpart on foot", "MC §4.4.2")
    if state.charges.announced and c.id in state.charges.announced:  # an edition's announced charge
        return (f"{c.name} announced a charge: he rides it (an announced charge is not changed)", "MC §7.6.2")
    if _mount(state, c) == "camel":  # the camel must kneel first (§4.6.4)
        prob = camel_dismount_problem(state, c)
        if prob:
            return prob
    if points_left(state, c) < mount_cost(state, c):
        return (f"dismounting costs {mount_cost(state, c)} PM and {c.name} has {points_left(state, c)} left", "MC §4.4.2")
    return None


def mountable(state: GameState, c: Character) -> list[Horse]:
    """Riderless live horses next to ``c`` that no active enemy stands by (§4.4.2, §4.4.4)."""
    out = []
    for horse in sorted(state.riders.horses.values(), key=lambda x: x.id):
        if not horse.alive or not any(h.distance(c.hex) == 1 for h in horse.hexes):
            continue
        if any(e.side != c.side and e.active and any(h in around(state, horse.hexes) for h in e.hexes)
               for e in state.characters.values() if e.hex is not None):
            continue
        if any(state.live_at(h) for h in horse.hexes):
            continue
        out.append(horse)
    return out


def _mount(state: GameState, c: Character) -> str:
    """What ``c`` rides or rode: "horse" or "camel" (his mounted type's ``mount``, §4.6)."""
    ct = state.rules.character_types.get(c.horse_type or c.type)
    return getattr(ct, "mount", "horse") if ct is not None else "horse"


def mount_problem(state: GameState, c: Character, horse: Horse | None) -> tuple[str, str] | None:
    if c.mounted:
        return (f"{c.name} is already on horseback", "MC §4.4.2")
    if not c.horse_type:
        return (f"only riders may mount a horse; {c.name} is not one", "MC §4.4.2")
    if horse is not None and horse.kind in ("pack_camel", "litter_camel"):
        return (f"{camel_name(horse)} carries no rider: it is only led by the bridle", "MC §4.6.3")
    if horse is not None and horse.kind != _mount(state, c):
        return (f"{c.name} rides a {_mount(state, c)}, not a {horse.kind}", "MC §4.4.2, §4.6.4")
    if horse is None or horse not in mountable(state, c):
        return ("the horse must be riderless, alive, next to him and not held by an enemy standing by", "MC §4.4.2, §4.4.4")
    if horse.kind == "camel":  # kneeling, from beside its head (§4.6.4)
        prob = camel_mount_problem(state, c, horse)
        if prob:
            return prob
    if points_left(state, c) < mount_cost(state, c):
        return (f"mounting costs {mount_cost(state, c)} PM and {c.name} has {points_left(state, c)} left", "MC §4.4.2")
    return None


def _set_left(state: GameState, c: Character, left: int) -> None:
    state.phase.mp_spent[c.id] = allowance(state, c) - left


def dismount(state: GameState, c: Character, h: Hex) -> None:
    r = rules(state)
    left = points_left(state, c) - mount_cost(state, c)
    div = r["dismount_points_divisor_wounded"] if c.status == "wounded" else r["dismount_points_divisor"]
    horse = Horse(_new_horse_id(state, c), c.hex, c.facing, c.side, kind=_mount(state, c))
    state.riders.horses[horse.id] = horse
    if c.id in state.camels.kneeling:  # the camel stays on its knees, with the points it has spent (§4.6.4)
        state.camels.kneeling.discard(c.id)
        horse.kneeling = True
        state.phase.mp_spent[horse.id] = state.phase.mp_spent.get(c.id, 0)
    to_foot(state, c)
    c.hex = h
    _set_left(state, c, left // div)
    emit(state, "dismount", msg="horse.dismount", params={"name": c.name, "hex": h.label, "cost": mount_cost(state, c),
                                                          "left": left, "n": left // div}, char=c.id, horse=horse.id, ref="MC §4.4.2")


def mount(state: GameState, c: Character, horse: Horse) -> None:
    r = rules(state)
    cost = mount_cost(state, c)
    left = points_left(state, c) - cost
    del state.riders.horses[horse.id]
    if horse.kneeling:  # he sits on a kneeling camel: it must rise before it moves (§4.6.4)
        state.camels.kneeling.add(c.id)
    _become(state, c, c.horse_type, True)
    c.hex, c.facing = horse.hex, horse.facing
    _set_left(state, c, left * r["mount_points_factor"])
    emit(state, "mount", msg="horse.mount", params={"name": c.name, "hexes": f"{horse.hexes[0].label}-{horse.hexes[1].label}",
                                                    "cost": cost, "left": left, "n": left * r['mount_points_factor']}, char=c.id, ref="MC §4.4.2")


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
def _check_mount(state: GameState, a) -> None:  # Mount and Dismount (§4.4.2)
    if state.step != MOVEMENT:
        raise IllegalAction("mounting and dismounting are movement", "MC §2.1 (2), §4.4.2")
    c = handlers.character(state, a.char)
    if c.side != state.active:
        raise IllegalAction(f"{c.name} belongs to side {c.side}; it is side {state.active}'s phase", "MC §2.1")
    if not c.active or c.id in state.phase.stopped:
        raise IllegalAction(f"{c.name} cannot move now", "MC §1.2, §4.3.1")
    if a.type == "mount":
        prob = mount_problem(state, c, state.riders.horses.get(a.horse))
    else:
        prob = dismount_problem(state, c)
        if prob is None and a.hex not in [h.label for h in dismount_hexes(state, c)]:
            prob = (f"{a.hex} is not a free hex next to {c.name}'s horse", "MC §4.4.2")
    handlers.refuse_if(prob)


handlers.register("mount", check=_check_mount,
                  do=lambda state, a: mount(state, state.characters[a.char], state.riders.horses[a.horse]))
handlers.register("dismount", check=_check_mount,
                  do=lambda state, a: dismount(state, state.characters[a.char], Hex.from_label(a.hex)))
handlers.register("place", check=handlers.no_prompt)  # the unhorsed rider's landing hex, a prompt
