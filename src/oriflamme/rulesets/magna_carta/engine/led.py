"""Riderless horses: who controls them, and leading them by the bridle (Magna Carta §4.4.4).

* **Control**: "Un cheval sans cavalier reste sous le contrôle du même joueur tant que celui-ci
  a un personnage vivant et non assommé à proximité immédiate du cheval. Dans le cas contraire,
  le cheval appartiendra au premier joueur qui en prendra le contrôle." After every action
  (:func:`settle`), a horse whose side has no live, unstunned character next to it (a hex of
  his counter adjacent to a hex of the horse) becomes uncontrolled (``side`` None). A horse is
  taken when a character leads it (:func:`lead`) or mounts it (engine/horses.py).
* **Leading** (:class:`~oriflamme.rulesets.magna_carta.engine.actions.Lead`): a character next to an uncontrolled
  or friendly riderless horse takes it by the bridle, at no cost. On foot, at any time of his
  movement — "passing" next to the horse is walking next to it, leading it and moving on (a
  move may be made in several pieces); up to three horses. A rider only "à l'arrêt": before he
  has moved this phase, or, after moving, it ends his movement; one horse. The rider's grab in
  passing (1–6 on a d10) is engine/bridle.py.
* **Following**: a led horse is "une simple extension du pion qui le conduit". After every
  action, a led horse that no longer touches its leader is placed by him: its head (the front
  hex) next to a hex of his counter, both its hexes on the map, open to a horse and free (no
  live character, no other horse), the position nearest to where it stood (the sum of the
  distances of its two hexes), ties by hex label then facing. A rider's led horse goes first
  beside him "de façon parallèle et légèrement en retrait" (facing his way, its head on a hex
  beside both his hexes) when one of those two positions is free. A horse that finds no place
  (its leader went where a horse cannot follow) is let go where it stands.
* **Losing the bridle**: "Un personnage à cheval tenant un autre cheval par la bride perd
  automatiquement le contrôle de ce dernier s'il engage le combat ou s'il est attaqué." —
  Oriflamme applies it to every leader (the seed is silent for a man on foot; he cannot fight
  with horses in hand): a leader who attacks or is attacked in melee (§6) lets go of his
  horses, which stay where they are. A leader who is stunned, killed or taken prisoner lets go
  too; a leader who mounts keeps only as many horses as a rider may lead.
* **Camels and horses are not mixed** (§4.6.5) in the animals one character leads; a rider's
  own mount counts (:func:`mixing_problem`).
* The rider's grab in passing (1D10) is :mod:`oriflamme.rulesets.magna_carta.engine.bridle`; a rider who failed
  it cannot lead that horse this turn.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from ..resolve.ruling import Ruling
from . import handlers
from .character import Character
from .events import animal, emit, nested
from .state import MOVEMENT, GameState, Horse
from .animals import ANIMAL_NAMES, horse_name  # noqa: F401 (the one naming, public here too)
from .camels import mount_of
from .movement import allowance

REF = "MC §4.4.4"






def touches(c: Character, horse: Horse) -> bool:
    """Whether a hex of ``c``'s counter is next to (or on) a hex of the horse."""
    return c.hex is not None and any(a.distance(b) <= 1 for a in c.hexes for b in horse.hexes)


def holds(c: Character) -> bool:
    """A character who keeps his side's control of a horse next to him: alive, not stunned
    ("vivant et non assommé"), on the map and not a prisoner (Oriflamme's reading)."""
    return c.hex is not None and c.active


def led_by(state: GameState, c: Character) -> list[Horse]:
    return sorted((x for x in state.riders.horses.values() if x.alive and x.led_by == c.id), key=lambda x: x.id)


def max_led(state: GameState, c: Character) -> int:
    r = state.rules.movement_rules
    return r["lead_max_mounted"].value if c.mounted else r["lead_max_foot"].value


# --- leading -------------------------------------------------------------------------------
def lead_problem(state: GameState, c: Character, horse: Horse | None) -> tuple[str, str] | None:
    if state.step != MOVEMENT or c.side != state.active:
        return ("a horse is led by the bridle in the movement step of one's own phase", "MC §2.1 (2), §4.4.4")
    if c.hex is None or not c.active:
        return (f"{c.name} is {c.status} and cannot lead a horse", "MC §1.2, §4.4.4")
    if c.id in state.carts.harnessing:
        return (f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", "MC §4.5.1")
    if c.id in state.phase.clearing:
        return (f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
    if horse is None or not horse.alive:
        return ("there is no riderless horse there", REF)
    if horse.harnessed_to is not None:  # driven with its cart (§4.5.1, engine/carts.py)
        return (f"{horse_name(horse)} is harnessed to a cart: it is driven with the cart", "MC §4.5.1")
    if horse.led_by == c.id:
        return (f"{c.name} already leads {horse_name(horse)}", REF)
    if horse.led_by is not None:
        return (f"{horse_name(horse)} is already led by {state.characters[horse.led_by].name}", REF)
    if horse.side is not None and horse.side != c.side:
        return (f"{horse_name(horse)} is held by side {horse.side}, who has a character next to it", REF)
    if not touches(c, horse):
        return (f"{horse_name(horse)} does not stand next to {c.name}", REF)
    if any(h in horse.hexes for h in c.hexes):
        return (f"{c.name} stands on {horse_name(horse)}", REF)
    if state.riders.grab_failed.get(f"{c.id}/{horse.id}") == state.turn:  # §4.4.4, engine/bridle.py
        return (f"{c.name} failed to grab {horse_name(horse)} this turn and cannot control it before the next",
                "MC §4.4.4, §4.6.3")
    n = max_led(state, c)
    if len(led_by(state, c)) >= n:
        return (f"{c.name} already leads {n} horse(s), as many as {'a rider' if c.mounted else 'a man on foot'} may",
                REF)
    return mixing_problem(state, c, horse)


def family(kind: str) -> str:
    """Horse or camel (§4.6.5): the family of a riderless animal's ``kind`` or of a mount."""
    return "camel" if "camel" in kind else "horse"


def mixing_problem(state: GameState, c: Character, horse: Horse) -> tuple[str, str] | None:
    """"Dromadaires et chevaux ne peuvent pas être mélangés quand ils sont menés par la bride"
    (§4.6.5): the animals ``c`` leads are of one family; a rider's own mount counts
    (Oriflamme's reading: a horse rider leads no camel, a camel rider no horse)."""
    kinds = {family(x.kind) for x in led_by(state, c) if x.id != horse.id}
    if c.mounted:
        kinds.add(family(mount_of(state, c)))
    want = family(horse.kind)
    if kinds and want not in kinds:
        has = "rides" if c.mounted and family(mount_of(state, c)) != want else "leads"
        return (f"{c.name} {has} a {'camel' if want == 'horse' else 'horse'}: camels and horses are not mixed "
                f"when led by the bridle", "MC §4.6.5")
    return None


def lead_ruling(state: GameState, c: Character, horse: Horse | None) -> Ruling:
    r = Ruling(kind="lead")
    prob = lead_problem(state, c, horse)
    if prob:
        return r.refuse(*prob)
    if not c.mounted:
        r.step(f"{c.name}, on foot, takes {horse_name(horse)} by the bridle: it follows him (0 PM)", REF)
    elif state.phase.mp_spent.get(c.id, 0) == 0:
        r.step(f"{c.name}, on horseback and at rest, takes {horse_name(horse)} by the bridle before he moves", REF)
    else:
        r.step(f"{c.name}, on horseback, takes {horse_name(horse)} by the bridle at the end of his move: "
               f"he moves no further this phase", REF)
    return r


def lead(state: GameState, c: Character, horse: Horse) -> None:
    ending = c.mounted and state.phase.mp_spent.get(c.id, 0) > 0
    horse.led_by, horse.side = c.id, c.side
    if ending:  # a rider takes a horse only at rest: at the end of his move (§4.4.4)
        state.phase.mp_spent[c.id] = allowance(state, c)
    emit(state, "lead", msg="lead.take_end" if ending else "lead.take", params={"name": c.name, "horse": animal(horse)},
         char=c.id, horse=horse.id, ref=REF)


def lead_options(state: GameState, c: Character) -> list[Horse]:
    return [x for x in sorted(state.riders.horses.values(), key=lambda x: x.id)
            if x.alive and touches(c, x) and lead_problem(state, c, x) is None]


# --- following -----------------------------------------------------------------------------
def _open_for_horse(state: GameState, front: Hex, facing: int, horse: Horse) -> bool:
    rs, m = state.rules, state.gmap
    rear = front.neighbour(facing + 3)
    for h in (front, rear):
        if h not in m or rs.terrain[m.terrain(h)].cost_for(True, False) == "impassable":
            return False
        if state.live_at(h):
            return False
        other = state.horse_at(h)
        if other is not None and other.id != horse.id:
            return False
    side = m.hexside(front, rear)
    return not (side and rs.hexsides[side].crossing_for(True) == "impassable")


def place_by(state: GameState, leader: Character, horse: Horse) -> tuple[Hex, int] | None:
    """Where a led horse stands after its leader moved (see the module's docstring)."""
    old = horse.hexes
    cands: list[tuple[Hex, int]] = []
    for lh in leader.hexes:
        for front in lh.neighbours():
            if front in leader.hexes:
                continue
            for facing in range(6):
                if (front, facing) not in cands and _open_for_horse(state, front, facing, horse):
                    cands.append((front, facing))
    if not cands:
        return None

    def key(p):
        front, facing = p
        rear = front.neighbour(facing + 3)
        return (front.distance(old[0]) + rear.distance(old[1]), front.label, facing)

    if leader.mounted:  # beside him, parallel and slightly behind (§4.4.4)
        beside = [(leader.hex.neighbour(leader.facing + k), leader.facing) for k in (2, -2)]
        ok = [p for p in beside if p in cands]
        if ok:
            return min(ok, key=key)
    return min(cands, key=key)


def let_go(state: GameState, horse: Horse, why: str, ref: str) -> None:
    """The leader lets go of ``horse``; ``why`` is the reason's message id (``lead.why.*``,
    texts/fr.toml)."""
    c = state.characters.get(horse.led_by or "")
    horse.led_by = None
    if c is not None:
        emit(state, "lead_lost", msg="lead.lost", params={"name": c.name, "horse": animal(horse), "why": nested(why)},
             char=c.id, horse=horse.id, ref=ref)


def settle(state: GameState) -> None:
    """After every action: leads lost, led horses following, control lost (§4.4.4)."""
    for horse in sorted(state.riders.horses.values(), key=lambda x: x.id):
        if not horse.alive:
            continue
        if horse.led_by is not None:
            c = state.characters.get(horse.led_by)
            if c is None or c.hex is None or not c.alive:
                let_go(state, horse, "lead.why.dead", REF)
            elif not c.active:
                let_go(state, horse, f"lead.why.{c.status if c.ransom != 'prisoner' else 'prisoner'}", REF)
            elif c.id in state.phase.engaged:
                let_go(state, horse, "lead.why.in_combat", REF)
            elif horse not in led_by(state, c)[:max_led(state, c)]:
                let_go(state, horse, "lead.why.one_horse", REF)
            elif not touches(c, horse) or any(state.live_at(h) for h in horse.hexes):
                # it no longer touches him, or he (or another) stands on it: a move paused by a
                # prompt may have let it follow onto the rest of his path (§4.4.4)
                pos = None if horse.kneeling else place_by(state, c, horse)  # §4.6.4 a kneeling camel stays
                if horse.kneeling:
                    let_go(state, horse, "lead.why.kneels", "MC §4.6.4")
                elif pos is None:
                    let_go(state, horse, "lead.why.cannot_follow", REF)
                else:
                    horse.hex, horse.facing = pos
                    emit(state, "horse_follows", msg="lead.follows", params={"horse": animal(horse), "name": c.name}, char=c.id,
                         horse=horse.id, ref=REF)
        if horse.side is not None and horse.led_by is None:
            if not any(o.side == horse.side and holds(o) and touches(o, horse) for o in state.characters.values()):
                emit(state, "horse_loose", msg="lead.loose", params={"horse": animal(horse), "side": horse.side},
                     horse=horse.id, ref=REF)
                horse.side = None


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
def _lead_ruling(state: GameState, a) -> Ruling:
    if a.char not in state.characters:
        return Ruling(kind="lead").refuse(f"unknown character {a.char!r}")
    return lead_ruling(state, state.characters[a.char], state.riders.horses.get(a.horse))


handlers.register("lead", check=lambda state, a: handlers.refuse_unless_legal(_lead_ruling(state, a)),
                  do=lambda state, a: lead(state, state.characters[a.char], state.riders.horses[a.horse]), explain=_lead_ruling)
