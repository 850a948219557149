"""The sequence of play (Magna Carta §2.1), as a script.

A game turn is the phase of the first side, then the phase of the second. Each phase runs:

1. ``offensive_fire`` — TIR OFFENSIF: characters with a missile weapon, not in contact, fire.
2. ``movement``       — MOUVEMENT ET TIR DÉFENSIF: those who did not fire move freely, the
                        others as their weapon allows (§5.1). Defensive fire by the other side
                        hooks in here (``defensive_fire_on_enter``, engine/hooks.py).
3. ``melee``          — COMBAT: characters in contact may attack, except those who fired.
4. stunned recovery   — PERSONNAGES ASSOMMÉS: friends stunned during the enemy's phase get up.

The naval phases of §2.1 are skipped (no boats; chapter 10 is absent from the seeds).
A step in which nothing can be done is passed automatically, with an event saying so.
"""

from __future__ import annotations

from .defensive_fire import new_phase as _new_fire_phase
from .events import emit, nested
from .state import MELEE, MOVEMENT, OFFENSIVE_FIRE, GameState
from .carts import on_movement_step
from .victory import end_of_turn_check

SEQUENCE: tuple[str, ...] = (OFFENSIVE_FIRE, MOVEMENT, MELEE)
STEP_TITLES = {
    OFFENSIVE_FIRE: ("Offensive fire", "Tir offensif", "MC §2.1 (1)"),
    MOVEMENT: ("Movement", "Mouvement et tir défensif", "MC §2.1 (2)"),
    MELEE: ("Combat", "Combat", "MC §2.1 (3)"),
}

def begin_phase(state: GameState) -> None:
    state.step = OFFENSIVE_FIRE
    _new_fire_phase(state)  # who may fire defensively now (§5.3), from the phase just ended
    state.reset_phase()  # each part of the state clears its bookkeeping of the phase (engine/parts.py)
    title = STEP_TITLES[OFFENSIVE_FIRE]
    emit(state, "phase", msg="turn.phase", params={"turn": state.turn, "side": state.active,
         "step": nested(f"step.{OFFENSIVE_FIRE}")}, ref="MC §2.1")


def next_step(state: GameState) -> None:
    i = SEQUENCE.index(state.step)
    if i + 1 < len(SEQUENCE):
        state.step = SEQUENCE[i + 1]
        title = STEP_TITLES[state.step]
        emit(state, "step", msg=f"step.title.{state.step}", ref=title[2])
        if state.step == MOVEMENT and state.carts.carts:  # carts stop moving (§4.5.4, engine/carts.py)
            on_movement_step(state)
    else:
        end_phase(state)


def end_phase(state: GameState) -> None:
    # step 4: stunned friends get up (§2.1 (4))
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.side == state.active and c.status == "stunned" and c.stunned_in_phase < state.phase_no:
            c.recover()
            emit(state, "status", msg="status.recovers", params={"name": c.name}, char=c.id, ref="MC §2.1 (4)")
    second = state.active == state.sides[1]
    if second and state.turn >= state.last_turn:
        end_of_turn_check(state, final=True)
        if state.over:
            return
    state.phase_no += 1
    state.active = state.enemy_of(state.active)
    if not second:
        pass
    else:
        state.turn += 1
    begin_phase(state)
