"""Camels kneeling, pack camels and litters (Magna Carta §4.6.1–§4.6.4, §4.6.6, §4.6.8).

* **Kinds** (§4.6.1): a riderless camel is a :class:`~oriflamme.rulesets.magna_carta.engine.state.Horse` of kind
  ``camel`` (a war camel left by a camel rider), ``pack_camel`` or ``litter_camel``. Pack and
  litter camels have no rider (§4.6.3): nobody mounts them; they move only when led by the
  bridle (engine/led.py).
* **Movement** (§4.6.2): a riderless camel has its own points (data ``[[animal]]``: 12 for a war
  camel, 8 for pack and litter camels); a man leading camels has no more points left than the
  slowest of them (:func:`led_cap`), and each led camel spends what its leader's moves cost
  (:func:`after_move`). Oriflamme's reading of "une simple extension du personnage qui le
  mène" with an animal of its own allowance (docs/decisions.md).
* **Kneeling** (§4.6.4): "Pour pouvoir monter ou démonter un dromadaire, l'animal doit d'abord
  s'agenouiller ... un personnage doit le monter ou être dans un hexagone adjacent à la tête du
  pion. Cette action coûte 2 PM à la fois pour l'animal et le personnage. La même règle
  s'applique quand le dromadaire se redresse." :class:`~oriflamme.rulesets.magna_carta.engine.actions.Kneel` and
  :class:`~oriflamme.rulesets.magna_carta.engine.actions.Rise`: ordered by the camel rider on it (his own camel:
  ``animal`` is his own id; the man and the animal are one counter: 2 PM once) or by a
  character standing in one of the three hexes next to the head and not next to the other hex
  of the camel (the "3 positions" of the §4.6.4 example, whose figure is lost): 2 PM to him and
  2 PM to the camel. A kneeling camel does not move: its rider has no move, a led kneeling camel
  is let go when its leader walks away (it cannot follow).
* **Mounting, dismounting, the litter** (§4.6.4): only on a kneeling camel, from / onto one of
  the two hexes on either side of the head (``head.neighbour(facing ± 1)``: "de part et d'autre
  de la tête", "l'un des deux hexagones de côté situés à l'avant de la tête"); camel riders
  2 PM (the §4.4.2 ×2 / ÷2 / ÷4 of the points left apply, engine/horses.py); a passenger gets
  into or out of a litter for 4 PM, his points are not converted (the example: Hassan, 6 PM,
  gets off for 4 and has 2 left).
* **The passenger** (§4.6.1, §4.6.6, §4.6.8): while in the litter he is off the board's hexes
  (``hex`` None; ``Horse.passenger`` names him): he does not move, fire, attack, control or
  block, and cannot be attacked ("seul le dromadaire peut être attaqué directement"). He can
  be fired at — §4.6.6 gives him light cover, which only matters to fire; the line is drawn to
  the camel's head hex (:func:`as_target`). If the camel is killed, it collapses and he is put
  on its head hex, where he may be fought or captured normally (:func:`collapse`).
* **Cover** (§4.6.6): "Un dromadaire agenouillé fournit une protection moyenne à tout
  personnage situé derrière lui. Un dromadaire avec nacelle fournit une protection lourde."
  Behind (Oriflamme's reading): the line of fire crosses a hex of the camel (not its ends) and
  the target stands within ``behind_distance`` (1) of the camel's counter (:func:`camel_cover`).
  A litter camel gives it kneeling or standing; no combat bonus.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from . import handlers
from .character import Character
from .events import animal as animal_msg, emit
from .animals import (CAMEL_KINDS, camel_rules, as_target, camel_cover, camel_left, led_camels, led_cap,  # noqa: F401
                      litter_of, passengers, passive_problem)
from .animals import horse_name as camel_name  # one naming for every animal
from .state import MOVEMENT, GameState, Horse
from .actions import EnterLitter, Kneel, LeaveLitter, Rise
from .camels import is_camel as rides_camel
from .led import led_by
from .movement import allowance, points_left
from .places import around, free_for_foot
from ..resolve.ruling import Ruling


REF = "MC §4.6.4"


def is_camel(horse: Horse | None) -> bool:
    return horse is not None and horse.kind in CAMEL_KINDS


# --- positions around a camel (§4.6.4) -------------------------------------------------------
def order_hexes(head: Hex, facing: int) -> list[Hex]:
    """Where a man on the ground orders a camel to kneel or rise: next to the head and not next
    to the camel's other hex — in front and on either side of the head (§4.6.4 example)."""
    return [head.neighbour(facing), head.neighbour(facing + 1), head.neighbour(facing - 1)]


def side_hexes(head: Hex, facing: int) -> list[Hex]:
    """The two hexes on either side of the head: where one mounts or dismounts a camel, gets
    into or out of a litter (§4.6.4)."""
    return [head.neighbour(facing - 1), head.neighbour(facing + 1)]








def after_move(state: GameState, c: Character, spent_before: int) -> None:
    """The camels ``c`` leads spend what his move cost (they walk with him, §4.6.3)."""
    delta = state.phase.mp_spent.get(c.id, 0) - spent_before
    if delta > 0:
        for x in led_camels(state, c):
            state.phase.mp_spent[x.id] = state.phase.mp_spent.get(x.id, 0) + delta


def _spend(state: GameState, cid: str, pts: int) -> None:
    state.phase.mp_spent[cid] = state.phase.mp_spent.get(cid, 0) + pts


# --- kneeling and rising ------------------------------------------------------------------
def _own_camel(state: GameState, c: Character) -> bool:
    return rides_camel(state, c)


def _mover_problem(state: GameState, c: Character | None) -> tuple[str, str] | None:
    if c is None:
        return ("unknown character", REF)
    if state.step != MOVEMENT or c.side != state.active:
        return ("this is done in the movement step of one's own phase", "MC §2.1 (2), §4.6.4")
    if c.hex is None or not c.active:
        return (f"{c.name} cannot act now", "MC §1.2")
    if c.id in state.phase.stopped:
        return (f"{c.name} was stopped and cannot move again this phase", "MC §4.3.1")
    if c.id in state.phase.clearing:
        return (f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
    return None


def kneel_problem(state: GameState, c: Character | None, animal: str, rise: bool) -> tuple[str, str] | None:
    """Why ``c`` cannot order ``animal`` (a riderless camel's id, or his own id for the camel
    he rides) to kneel (``rise`` False) or to rise; None if he can."""
    prob = _mover_problem(state, c)
    if prob:
        return prob
    kd = camel_rules(state).kneeling
    cost = kd.rise_cost if rise else kd.kneel_cost
    if animal == c.id:
        if not _own_camel(state, c):
            return (f"{c.name} does not ride a camel", REF)
        if (c.id in state.camels.kneeling) != rise:
            return (f"{c.name}'s camel is {'standing' if rise else 'already kneeling'}", REF)
        if points_left(state, c) < cost:
            return (f"the order costs {cost} PM to {c.name}, who has {points_left(state, c)} left", REF)
        return None
    horse = state.riders.horses.get(animal)
    if not is_camel(horse) or not horse.alive:
        return ("there is no riderless live camel there", REF)
    if horse.kneeling != rise:
        return (f"{camel_name(horse)} is {'standing' if rise else 'already kneeling'}", REF)
    if horse.side is not None and horse.side != c.side:
        return (f"{camel_name(horse)} is held by side {horse.side}", "MC §4.6.3")
    if not any(h in order_hexes(horse.hex, horse.facing) for h in c.hexes):
        labels = ", ".join(h.label for h in order_hexes(horse.hex, horse.facing))
        return (f"{c.name} must ride the camel or stand next to its head ({labels})", REF)
    if points_left(state, c) < cost:
        return (f"the order costs {cost} PM to {c.name}, who has {points_left(state, c)} left", REF)
    if camel_left(state, horse) < cost:
        return (f"the order costs {cost} PM to the camel, and {camel_name(horse)} has {camel_left(state, horse)} left",
                REF)
    return None


def kneel(state: GameState, c: Character, animal: str, rise: bool) -> None:
    kd = camel_rules(state).kneeling
    cost = kd.rise_cost if rise else kd.kneel_cost
    kind = "rise" if rise else "kneel"
    if animal == c.id:
        _spend(state, c.id, cost)
        (state.camels.kneeling.discard if rise else state.camels.kneeling.add)(c.id)
        emit(state, kind, msg=f"camel.own_{kind}", params={"name": c.name, "n": cost}, char=c.id, ref=REF)
        return
    horse = state.riders.horses[animal]
    _spend(state, c.id, cost)
    _spend(state, horse.id, cost)
    horse.kneeling = not rise
    horse.side = c.side  # ordering the animal is taking it in hand (like leading it, §4.6.3)
    emit(state, kind, msg=f"camel.make_{kind}", params={"name": c.name, "camel": animal_msg(horse), "n": cost, "m": cost},
         char=c.id, horse=horse.id, ref=REF)


# --- mounting and dismounting a camel (horses.py asks) -----------------------------------------
def mount_problem(state: GameState, c: Character, horse: Horse) -> tuple[str, str] | None:
    """The camel's own conditions for mounting it (§4.6.4), after the riders' ones."""
    if not horse.kneeling:
        return (f"{camel_name(horse)} must kneel before anyone mounts it", REF)
    if c.hex not in side_hexes(horse.hex, horse.facing):
        labels = ", ".join(h.label for h in side_hexes(horse.hex, horse.facing))
        return (f"one mounts a camel from a hex on either side of its head ({labels})", REF)
    return None


def dismount_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if c.id not in state.camels.kneeling:
        return (f"{c.name}'s camel must kneel before he dismounts", REF)
    return None


def dismount_hexes(state: GameState, c: Character) -> list[Hex]:
    return [h for h in side_hexes(c.hex, c.facing) if h in state.gmap and free_for_foot(state, c, h)]




def board_problem(state: GameState, c: Character | None, horse: Horse | None) -> tuple[str, str] | None:
    prob = _mover_problem(state, c)
    if prob:
        return prob
    if horse is None or not horse.alive or horse.kind != "litter_camel":
        return ("there is no live litter camel there", "MC §4.6.1")
    if c.mounted:
        return (f"{c.name} must be on foot to get into a litter", REF)
    if horse.passenger is not None:
        return (f"{camel_name(horse)} already carries {state.characters[horse.passenger].name}", "MC §4.6.1")
    if horse.side is not None and horse.side != c.side:
        return (f"{camel_name(horse)} is held by side {horse.side}", "MC §4.6.3")
    if not horse.kneeling:
        return (f"{camel_name(horse)} must kneel before anyone gets into the litter", REF)
    if c.hex not in side_hexes(horse.hex, horse.facing):
        labels = ", ".join(h.label for h in side_hexes(horse.hex, horse.facing))
        return (f"one gets into a litter from a hex on either side of the camel's head ({labels})", REF)
    if led_by(state, c):
        return (f"{c.name} leads animals by the bridle and cannot get into a litter",
                "MC §4.6.8; docs/decisions.md (litters)")
    cost = camel_rules(state).kneeling.litter_cost
    if points_left(state, c) < cost:
        return (f"getting into a litter costs {cost} PM and {c.name} has {points_left(state, c)} left", REF)
    return None


def board(state: GameState, c: Character, horse: Horse) -> None:
    cost = camel_rules(state).kneeling.litter_cost
    was = c.hex
    horse.passenger = c.id
    if horse.side is None:
        horse.side = c.side
    c.hex = None
    state.phase.mp_spent[c.id] = allowance(state, c)  # passive in the litter (§4.6.8)
    emit(state, "board_litter", msg="litter.board", params={"name": c.name, "camel": animal_msg(horse), "hex": was.label,
                                                            "n": cost},
         char=c.id, horse=horse.id, ref=REF)


def alight_hexes(state: GameState, c: Character, horse: Horse) -> list[Hex]:
    return [h for h in side_hexes(horse.hex, horse.facing) if h in state.gmap and free_for_foot(state, c, h)]


def alight_problem(state: GameState, c: Character | None, hex_label: str) -> tuple[str, str] | None:
    if c is None:
        return ("unknown character", REF)
    horse = litter_of(state, c.id)
    if horse is None:
        return (f"{c.name} is not in a litter", "MC §4.6.1")
    if state.step != MOVEMENT or c.side != state.active:
        return ("this is done in the movement step of one's own phase", "MC §2.1 (2), §4.6.4")
    if not c.active:
        return (f"{c.name} is {c.status} and cannot get out of the litter", "MC §1.2")
    if not horse.kneeling:
        return (f"{camel_name(horse)} must kneel before {c.name} gets out of the litter", REF)
    cost = camel_rules(state).kneeling.litter_cost
    if points_left(state, c) < cost:
        return (f"getting out of a litter costs {cost} PM and {c.name} has {points_left(state, c)} left", REF)
    if hex_label not in [h.label for h in alight_hexes(state, c, horse)]:
        return (f"{hex_label} is not a free hex on either side of the camel's head", REF)
    return None


def alight(state: GameState, c: Character, h: Hex) -> None:
    horse = litter_of(state, c.id)
    cost = camel_rules(state).kneeling.litter_cost
    horse.passenger = None
    c.hex = h
    _spend(state, c.id, cost)
    emit(state, "leave_litter", msg="litter.leave", params={"name": c.name, "hex": h.label, "n": cost,
                                                            "m": points_left(state, c)}, char=c.id, horse=horse.id, ref=REF)








def collapse(state: GameState, horse: Horse) -> None:
    """§4.6.8 "Si le dromadaire est tué, il s'écroule et l'occupant de la nacelle peut alors être
    combattu ou capturé normalement": the passenger is put on the camel's head hex (its other
    hex, then the nearest free hex, if a live character stands there — Oriflamme's reading)."""
    cid, horse.passenger = horse.passenger, None
    c = state.characters.get(cid or "")
    if c is None:
        return
    spots = [horse.hex, horse.hexes[1]]
    free = [h for h in spots if h in state.gmap and not state.live_at(h)]
    if not free:
        free = [h for h in around(state, horse.hexes) if free_for_foot(state, c, h)] or [horse.hex]
    c.hex = free[0]
    emit(state, "litter_falls", msg="litter.falls", params={"camel": animal_msg(horse), "name": c.name, "hex": c.hex.label},
         char=c.id, horse=horse.id, ref="MC §4.6.8")




# --- the actions of the movement step ---------------------------------------------------------
def options(state: GameState) -> list:
    """Kneel / Rise / EnterLitter / LeaveLitter for the active side (the movement step)."""
    if state.step != MOVEMENT or camel_rules(state) is None:
        return []
    out: list = []
    camels = [x for x in sorted(state.riders.horses.values(), key=lambda x: x.id) if x.alive and x.kind in CAMEL_KINDS]
    mine = sorted((c for c in state.characters.values() if c.side == state.active and c.hex is not None),
                  key=lambda c: c.id)
    for c in mine:
        if _own_camel(state, c):
            rise = c.id in state.camels.kneeling
            if kneel_problem(state, c, c.id, rise) is None:
                out.append((Rise if rise else Kneel)(c.id, c.id))
        for x in camels:
            if any(a.distance(b) <= 1 for a in c.hexes for b in x.hexes):
                if kneel_problem(state, c, x.id, x.kneeling) is None:
                    out.append((Rise if x.kneeling else Kneel)(c.id, x.id))
                if board_problem(state, c, x) is None:
                    out.append(EnterLitter(c.id, x.id))
    for c in passengers(state):
        if c.side == state.active:
            horse = litter_of(state, c.id)
            for h in alight_hexes(state, c, horse):
                if alight_problem(state, c, h.label) is None:
                    out.append(LeaveLitter(c.id, h.label))
    return out


def problem(state: GameState, a) -> tuple[str, str] | None:
    ch = state.characters
    if isinstance(a, (Kneel, Rise)):
        return kneel_problem(state, ch.get(a.char), a.animal, isinstance(a, Rise))
    if isinstance(a, EnterLitter):
        return board_problem(state, ch.get(a.char), state.riders.horses.get(a.horse))
    if isinstance(a, LeaveLitter):
        try:
            Hex.from_label(a.hex)
        except ValueError as exc:
            return (str(exc), "")
        return alight_problem(state, ch.get(a.char), a.hex)
    return None


def ruling(state: GameState, a):
    """The preview of a kneeling or litter action (cost and rule), or its refusal."""
    r = Ruling(kind=a.type)
    prob = problem(state, a)
    if prob:
        return r.refuse(*prob)
    kd = camel_rules(state).kneeling
    c = state.characters[a.char]
    if isinstance(a, (Kneel,)) or a.type == "rise":
        cost = kd.kneel_cost if isinstance(a, Kneel) else kd.rise_cost
        verb = "kneels" if isinstance(a, Kneel) else "rises"
        if a.animal == c.id:
            r.step(f"{c.name}'s camel {verb}: {cost} PM", REF)
        else:
            r.step(f"{camel_name(state.riders.horses[a.animal])} {verb} at {c.name}'s order: {cost} PM to him and "
                   f"{cost} PM to the camel", REF)
    elif isinstance(a, EnterLitter):
        r.step(f"{c.name} gets into the litter of {camel_name(state.riders.horses[a.horse])}: {kd.litter_cost} PM; "
               f"passive there, he cannot attack nor be attacked", "MC §4.6.4, §4.6.8")
    elif isinstance(a, LeaveLitter):
        r.step(f"{c.name} gets out of the litter into {a.hex}: {kd.litter_cost} PM", REF)
    r.data["cost"] = kd.litter_cost if isinstance(a, (EnterLitter, LeaveLitter)) else (
        kd.kneel_cost if isinstance(a, Kneel) else kd.rise_cost)
    return r


def do(state: GameState, a) -> None:
    ch = state.characters
    if isinstance(a, (Kneel, Rise)):
        kneel(state, ch[a.char], a.animal, isinstance(a, Rise))
    elif isinstance(a, EnterLitter):
        board(state, ch[a.char], state.riders.horses[a.horse])
    elif isinstance(a, LeaveLitter):
        alight(state, ch[a.char], Hex.from_label(a.hex))


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
handlers.register("kneel", "rise", "enter_litter", "leave_litter", do=do, explain=ruling,
                  check=lambda state, a: handlers.refuse_if(problem(state, a)))
