"""Cry Havoc's named hooks: what its games do differently from Magna Carta's, in code (the rest
is data). Imported once before the edition's first game (``engine.hooks.load_edition_code``).

* ``resolve_fire`` — fire in two steps (:mod:`.fire`), the damage die rolled only on a hit (its
  faces read by the damage table for an enumeration of the outcomes, ``core.dice.roll_keyed``);
* ``defensive_fire_on_enter``, ``defensive_fire_refusal`` — no defensive fire: the 4-phase turn
  has none (seed 002 l.131–137), so no fire frequency is declared either;
* the sequence hook ``cry_havoc.recover_stunned`` — "Tous les personnages étourdis du joueur actif
  sont rétablis" (l.136–137): all of them, those stunned in his own phase too (Magna Carta §2.1
  (4) raises only those stunned during the enemy's phase).
"""

from __future__ import annotations

from ...core.dice import roll_keyed
from ..magna_carta.engine.events import emit
from ..magna_carta.engine.hooks import HOOKS
from ..magna_carta.engine.turn import SEQUENCE_HOOKS
from .fire import two_step_fire

ID = "cry-havoc"


@HOOKS.provide(name="resolve_fire", ruleset=ID)
def resolve_fire(state, situation, die):
    damage = (lambda faces: roll_keyed(state.dice, 10, faces)) if die is not None else None
    return two_step_fire(state.rules, situation, die, damage)


@HOOKS.provide(name="defensive_fire_on_enter", ruleset=ID)
def no_defensive_fire(state, *args, **kwargs) -> bool:
    return False  # the mover is never stopped by defensive fire


@HOOKS.provide(name="defensive_fire_refusal", ruleset=ID)
def no_fire_declarations(state):
    return ("Cry Havoc's turn has no defensive fire: no fire frequency is declared", "CH seed 002 l.131-137")


@SEQUENCE_HOOKS.provide("cry_havoc.recover_stunned")
def recover_stunned(state) -> None:
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.side == state.active and c.status == "stunned":
            c.recover()
            emit(state, "status", msg="status.recovers", params={"name": c.name}, char=c.id, ref="CH seed 002 l.136-137")
