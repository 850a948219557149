"""Camels on the map (Magna Carta §4.6): camel riders (chameliers) are riders whose mount is a
camel (``mount = "camel"`` on their roster type); horses fear them.

* §4.6.5 the fear test: a horse (a rider whose mount is a horse) entering a hex next to a camel
  he was not next to rolls 1D10 (:func:`oriflamme.rulesets.magna_carta.resolve.camels.fear_test`). Frightened (1-4),
  he backs away: during a move he stops and goes back to the position he came from (Oriflamme's
  reading of "recule d'une case", docs/decisions.md "Camels"); frightened or forced (5-7), he
  fights at one column left this turn (``state.riders.frightened``: character -> turn).
* §4.6.8 a horse rider attacking or defending next to a camel: one column in the enemy's
  favour; the §4.6.5 penalty is the same loss of control and is not counted twice
  (:func:`melee_shifts`).

Riderless camels (war camels left by camel riders, pack camels, litter camels) frighten horses
too. Kneeling, pack camels, litters and the camels' cover (§4.6.1–§4.6.4, §4.6.6):
:mod:`oriflamme.rulesets.magna_carta.engine.kneeling`. Not modelled yet: charges (§4.6.8).
"""

from __future__ import annotations

from ....core.dice import roll_keyed
from ....geometry.hexgrid import Hex
from .character import Character
from .events import emit
from .state import GameState
from ..resolve.camels import fear_test


def mount_of(state: GameState, c: Character) -> str:
    """What ``c`` rides, or rode (his mounted type's ``mount``): "horse" or "camel"."""
    ct = state.rules.character_types.get(c.horse_type or c.type)
    return ct.mount if ct is not None else "horse"


def is_camel(state: GameState, c: Character) -> bool:
    """A live camel rider in the saddle: his counter is a camel (§4.6.1)."""
    return c.alive and c.mounted and c.hex is not None and mount_of(state, c) == "camel"


def is_horse(state: GameState, c: Character) -> bool:
    """A rider on a horse (§4.6.5, §4.6.8)."""
    return c.mounted and c.hex is not None and mount_of(state, c) == "horse"


class _RiderlessCamel:
    """A riderless live camel (a horse counter of kind camel, engine/horses.py) as the fear
    test sees it: horses fear the animal, ridden or not (§4.6.5)."""

    __slots__ = ("id", "name", "hexes")

    def __init__(self, horse):
        self.id, self.name, self.hexes = horse.id, horse.id, horse.hexes


def camels_next_to(state: GameState, hexes: tuple[Hex, ...], but: str = "") -> list:
    """The camels — camel riders and riderless camels — with a hex adjacent to one of ``hexes``."""
    out = [x for x in state.characters.values()
           if x.id != but and is_camel(state, x) and any(a.distance(b) == 1 for a in x.hexes for b in hexes)]
    for h in state.riders.horses.values():
        if h.alive and h.kind in ("camel", "pack_camel", "litter_camel") and any(a.distance(b) == 1 for a in h.hexes for b in hexes):
            out.append(_RiderlessCamel(h))
    return out


def _counter(front: Hex, facing: int, mounted: bool) -> tuple[Hex, ...]:
    return (front, front.neighbour(facing + 3)) if mounted else (front,)


def fear_on_entering(state: GameState, c: Character, before: tuple[Hex, int], hex_entered: Hex) -> bool:
    """§4.6.5 after ``c`` entered ``hex_entered`` during his move (``before``: his (front,
    facing) before the step): the fear test if his horse now stands next to a camel it was not
    next to. Returns True if the horse is frightened: the move stops and ``c`` backs away to
    ``before`` (the caller puts him there)."""
    if not is_horse(state, c) or state.rules.camels is None:
        return False
    near = camels_next_to(state, c.hexes, c.id)
    if not near:
        return False
    was = {x.id for x in camels_next_to(state, _counter(before[0], before[1], True), c.id)}
    new = [x for x in near if x.id not in was]
    if not new:
        return False  # already next to the camel: no test (§4.6.5)
    r = fear_test(state.rules, c.used_to_camels,
                  roll_keyed(state.dice, 10, lambda: fear_test(state.rules, c.used_to_camels).faces))
    names = ", ".join(x.name for x in sorted(new, key=lambda x: x.id))
    emit(state, "fear", msg=f"fear.{r.result}", params={"name": c.name, "hex": hex_entered.label, "camels": names},
         ruling=r, char=c.id, hex=hex_entered.label, ref="MC §4.6.5")
    if r.result == "none":
        return False
    state.riders.frightened[c.id] = state.turn
    return r.result == "frightened"


def penalised(state: GameState, c: Character) -> bool:
    """A horse rider who fights at one column in the enemy's favour: next to a camel (§4.6.8)
    or his horse took fright this turn (§4.6.5) — one shift at most."""
    if not is_horse(state, c):
        return False
    return state.riders.frightened.get(c.id) == state.turn or bool(camels_next_to(state, c.hexes, c.id))


def melee_shifts(state: GameState, attackers: list[Character], defenders: list[Character]) -> list[tuple[int, str, str]]:
    """The cited column shifts of §4.6.5 / §4.6.8 for one attack: (shift, text, ref). Attacking
    horse riders shift one column left; defending horse riders one column right (the penalty
    is theirs: the odds move in the attacker's favour — docs/decisions.md "Camels"). One shift
    per side of the fight, however many of its riders are penalised."""
    rs = state.rules
    if rs.camels is None:
        return []
    v, ref = rs.camels.shift.value, rs.camels.shift.ref
    out = []
    pa = [a.name for a in attackers if penalised(state, a)]
    if pa:
        out.append((v, f"{', '.join(pa)}: horse next to a camel or frightened this turn: {v:+d} column", ref))
    pd = [d.name for d in defenders if penalised(state, d)]
    if pd:
        out.append((-v, f"defender {', '.join(pd)}: horse next to a camel or frightened this turn: {-v:+d} column", ref))
    return out
