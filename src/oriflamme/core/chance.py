"""Chance points made explicit: the exact outcomes of an action's dice.

:func:`enumerate_outcomes` applies an action to copies of the state with every sequence of die
faces it may need (:class:`~oriflamme.core.dice.FixedDice`): one die gives ``sides`` branches of
probability ``1/sides``; an action that rolls again (a stray shot after a miss) branches again.
The result is exact, needs nothing from the ruleset beyond the contract, and never touches the
game's secret dice (OpenSpiel's ``chance_outcomes``). Branches are grouped by the label
``label_of(events)`` gives them.
"""

from __future__ import annotations

from fractions import Fraction

from .dice import FixedDice, SealedDice
from .errors import DiceSealed
from .ruleset import ChanceOutcome, Ruleset


class TooManyDice(DiceSealed):
    """The action needs more dice than the enumeration allows."""


def _default_label(events: list[dict]) -> str:
    for ev in reversed(events):
        if isinstance(ev, dict):
            for key in ("result", "outcome", "msg", "text"):
                if ev.get(key):
                    return str(ev[key])
    return ""


def enumerate_outcomes(ruleset: Ruleset, state, action, *, max_dice: int = 3, label_of=None,
                       limit: int = 2000) -> list[ChanceOutcome]:
    """Every outcome of ``action`` in ``state`` with its exact probability (empty when the
    action rolls no die). Outcomes with the same label are merged (their first dice kept)."""
    return [o for o, _ in enumerate_children(ruleset, state, action, max_dice=max_dice, label_of=label_of,
                                             limit=limit)]


def enumerate_children(ruleset: Ruleset, state, action, *, max_dice: int = 3, label_of=None,
                       limit: int = 2000, rolls: bool = False) -> list[tuple[ChanceOutcome, object]]:
    """:func:`enumerate_outcomes` with, for each outcome, the state its representative dice led
    to (the copy the enumeration already made, its dice sealed): a search need not apply the
    action again for each outcome. ``rolls=True``: the caller knows the action rolls (its own try
    on a sealed copy raised), so the enumeration starts at the first die."""
    label_of = label_of or _default_label
    sides = ruleset.die_sides
    first: dict[str, tuple[tuple[int, ...], object]] = {}
    weight: dict[str, Fraction] = {}
    frontier: list[tuple[int, ...]] = [(d,) for d in range(1, sides + 1)] if rolls else [()]
    leaves = 0
    while frontier:
        prefix = frontier.pop(0)
        trial = ruleset.clone(state)
        count = trial.dice.count
        trial.dice = FixedDice(prefix, count)
        before = len(ruleset.events(trial))
        try:
            ruleset.apply_unchecked(trial, action)
        except DiceSealed:
            if len(prefix) >= max_dice:
                raise TooManyDice(f"the action needs more than {max_dice} dice to enumerate") from None
            frontier.extend(prefix + (d,) for d in range(1, sides + 1))
            if leaves + len(frontier) > limit:
                raise TooManyDice(f"more than {limit} outcomes") from None
            continue
        if not prefix:
            return []  # no die rolled
        leaves += 1
        label = label_of(ruleset.events(trial)[before:])
        weight[label] = weight.get(label, Fraction(0)) + Fraction(1, sides ** len(prefix))
        if label not in first:
            trial.dice = SealedDice(trial.dice.count)
            first[label] = (prefix, trial)
    out = [(ChanceOutcome(weight[label], dice, label), child) for label, (dice, child) in first.items()]
    return sorted(out, key=lambda pair: pair[0].dice)
