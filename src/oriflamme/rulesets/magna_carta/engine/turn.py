"""The sequence of play (Magna Carta §2.1), run from data.

The script is the ruleset's ``data/sequence.toml`` (validated by
:func:`oriflamme.rulesets.magna_carta.rulesdata.load_sequence`, read through ``state.rules``):
a game turn is the phase of each side in order; a phase runs its steps in order. For Magna
Carta:

1. ``offensive_fire``   — TIR OFFENSIF: characters with a missile weapon, not in contact, fire.
2. ``movement``         — MOUVEMENT ET TIR DÉFENSIF: those who did not fire move freely, the
                          others as their weapon allows (§5.1). Defensive fire by the other side
                          hooks in here (``defensive_fire_on_enter``, engine/hooks.py).
3. ``melee``            — COMBAT: characters in contact may attack, except those who fired.
4. ``stunned_recovery`` — PERSONNAGES ASSOMMÉS: friends stunned during the enemy's phase get up
                          (a step no side acts in: run, not waited in).

The naval phases of §2.1 are skipped (no boats; chapter 10 is absent from the seeds).
A step in which nothing can be done is passed automatically, with an event saying so
(``game.settle``).

What happens on entering or leaving a turn, a phase or a step is named in the data and looked
up in :data:`SEQUENCE_HOOKS`, so that an edition (Croisades' 5-step phase, Cry Havoc's 4-phase
turn) changes the sequence by data and provides only the hooks it adds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from ..rulesdata import Sequence, load_ruleset
from .carts import on_movement_step
from .defensive_fire import new_phase as _new_fire_phase
from .events import emit, nested
from .hooks import load_edition_code
from .state import GameState
from .victory import end_of_turn_check


class SequenceHooks:
    """The named hooks of the sequence of play: ``"carts.on_movement_step"`` -> a function of
    the state. Every name a sequence uses must be provided (checked when the engine loads)."""

    def __init__(self) -> None:
        self._table: dict[str, Callable[[GameState], None]] = {}

    def provide(self, name: str, fn: Callable | None = None):
        """Register ``fn`` under ``name``; usable as a decorator ``@SEQUENCE_HOOKS.provide(name)``."""
        def register(f: Callable) -> Callable:
            if name in self._table and self._table[name] is not f:
                raise ValueError(f"sequence hook {name!r} is already provided")
            self._table[name] = f
            return f
        return register(fn) if fn is not None else register

    def __getitem__(self, name: str) -> Callable[[GameState], None]:
        try:
            return self._table[name]
        except KeyError:
            raise KeyError(f"no sequence hook {name!r} (known: {', '.join(sorted(self._table))})") from None

    def __contains__(self, name: str) -> bool:
        return name in self._table

    def names(self) -> list[str]:
        return sorted(self._table)

    def check(self, seq: Sequence, source: str = "sequence.toml") -> None:
        """Every hook ``seq`` names is provided (a ``ValueError`` naming the missing ones)."""
        missing = sorted(n for n in seq.hook_names() if n not in self._table)
        if missing:
            raise ValueError(f"{source}: unknown sequence hook(s) {', '.join(missing)} "
                             f"(known: {', '.join(self.names())})")


SEQUENCE_HOOKS = SequenceHooks()


def _run(state: GameState, names: Iterable[str]) -> None:
    for name in names:
        SEQUENCE_HOOKS[name](state)
        if state.over:
            return


# --- the hooks of Magna Carta's sequence ----------------------------------------------------------
SEQUENCE_HOOKS.provide("defensive_fire.new_phase", _new_fire_phase)  # who may fire defensively now (§5.3)
SEQUENCE_HOOKS.provide("carts.on_movement_step", on_movement_step)   # carts stop moving (§4.5.4, engine/carts.py)


@SEQUENCE_HOOKS.provide("phase.clear_bookkeeping")
def _clear_bookkeeping(state: GameState) -> None:
    """A new phase: who fired, moved, attacked... in the last one is forgotten (§2.1)."""
    state.reset_phase()  # each part of the state clears its bookkeeping (engine/parts.py)


@SEQUENCE_HOOKS.provide("stunned.recover")
def _recover_stunned(state: GameState) -> None:
    """§2.1 (4): friends stunned during the enemy's phase get back on their feet."""
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.side == state.active and c.status == "stunned" and c.stunned_in_phase < state.phase_no:
            c.recover()
            emit(state, "status", msg="status.recovers", params={"name": c.name}, char=c.id, ref="MC §2.1 (4)")


@SEQUENCE_HOOKS.provide("victory.end_of_last_turn")
def _end_of_last_turn(state: GameState) -> None:
    """After the last phase of the last turn: the scenario's victory conditions (§1.3)."""
    if state.turn >= state.last_turn:
        end_of_turn_check(state, final=True)


SEQUENCE_HOOKS.check(load_ruleset().sequence)


@lru_cache(maxsize=None)
def sequence_of(ruleset_id: str) -> Sequence:
    """The sequence of play of a ruleset (an edition's ``sequence.toml`` replaces the base's),
    with its edition's hooks loaded and every hook it names checked (once)."""
    load_edition_code(ruleset_id)
    seq = load_ruleset(ruleset_id).sequence
    SEQUENCE_HOOKS.check(seq, f"{ruleset_id}: sequence.toml")
    return seq


def step_titles(ruleset_id: str = "magna-carta") -> dict[str, tuple[str, str, str]]:
    """A ruleset's steps: id -> (English title, French title, citation)."""
    return {s.id: (s.title_en, s.title_fr, s.ref) for s in sequence_of(ruleset_id).step}


def player_steps(ruleset_id: str = "magna-carta") -> tuple[str, ...]:
    """The ids of the steps the players act in, in order."""
    return tuple(s.id for s in sequence_of(ruleset_id).player_steps)


# Magna Carta's steps, for callers that name them without a state:
# id -> (English title, French title, citation); the player steps in order.
STEP_TITLES: dict[str, tuple[str, str, str]] = step_titles()
SEQUENCE: tuple[str, ...] = player_steps()


def step_word(state: GameState, step_id: str) -> dict:
    """A step's name as a message parameter: Magna Carta's catalogue word, or an edition's own
    titles from its sequence.toml (both languages)."""
    if state.rules.base is None:
        return nested(f"step.{step_id}")
    st = state.rules.sequence.find(step_id)
    return nested("data.bilingual", text_en=st.title_en, text_fr=st.title_fr)


def _step_event(state: GameState, step) -> None:
    if state.rules.base is None:
        emit(state, "step", msg=f"step.title.{step.id}", ref=step.ref)
    else:  # an edition's titles (its sequence.toml)
        emit(state, "step", msg="data.bilingual", params={"text_en": f"{step.title_en} ({step.title_fr})",
                                                          "text_fr": step.title_fr}, ref=step.ref)


def _sequence(state: GameState) -> Sequence:
    sequence_of(state.ruleset_id)  # its edition's hooks loaded, its hooks checked (once)
    return state.rules.sequence


# --- running the script ---------------------------------------------------------------------------
def begin_phase(state: GameState) -> None:
    seq = _sequence(state)
    first = seq.player_steps[0]
    if state.active == state.sides[0]:
        _run(state, seq.turn.on_enter)  # the first phase of a turn begins the turn
    state.step = first.id
    _run(state, seq.phase.on_enter)
    emit(state, "phase", msg="turn.phase", params={"turn": state.turn, "side": state.active,
         "step": step_word(state, first.id)}, ref=seq.turn.ref if state.rules.base else "MC §2.1")
    _run(state, first.on_enter)


def next_step(state: GameState) -> None:
    """The active side is done with the current step: leave it, run the steps no side acts in,
    enter the next step a side acts in, or end the phase after the last step."""
    seq = _sequence(state)
    steps = seq.step
    i = next(k for k, s in enumerate(steps) if s.id == state.step)
    _run(state, steps[i].on_leave)
    for nxt in steps[i + 1:]:
        if not nxt.players:  # run, not waited in: state.step stays on the last step acted in
            _run(state, nxt.on_enter)
            _run(state, nxt.on_leave)
            continue
        state.step = nxt.id
        _step_event(state, nxt)
        _run(state, nxt.on_enter)
        return
    end_phase(state)


def end_phase(state: GameState) -> None:
    """The phase of the active side is over: the next side's phase, or (after the last side)
    the end of the turn — the game may end there — and the next turn."""
    seq = _sequence(state)
    _run(state, seq.phase.on_leave)
    if state.over:
        return
    last = state.active == state.sides[-1]
    if last:
        _run(state, seq.turn.on_leave)  # §2.1: the turn ends after the phase of the last side
        if state.over:
            return
    state.phase_no += 1
    state.active = state.sides[(state.sides.index(state.active) + 1) % len(state.sides)]
    if last:
        state.turn += 1
    begin_phase(state)
