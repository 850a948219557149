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

from .dice import FixedDice
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
    label_of = label_of or _default_label
    sides = ruleset.die_sides
    leaves: list[tuple[tuple[int, ...], str]] = []
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        prefix = frontier.pop(0)
        trial = ruleset.clone(state)
        trial.dice = FixedDice(prefix, trial.dice.count)
        before = len(ruleset.events(trial))
        try:
            ruleset.apply_unchecked(trial, action)
        except DiceSealed:
            if len(prefix) >= max_dice:
                raise TooManyDice(f"the action needs more than {max_dice} dice to enumerate") from None
            frontier.extend(prefix + (d,) for d in range(1, sides + 1))
            if len(leaves) + len(frontier) > limit:
                raise TooManyDice(f"more than {limit} outcomes") from None
            continue
        if not prefix:
            return []  # no die rolled
        leaves.append((prefix, label_of(ruleset.events(trial)[before:])))
    merged: dict[str, ChanceOutcome] = {}
    for dice, label in leaves:
        p = Fraction(1, sides ** len(dice))
        old = merged.get(label)
        merged[label] = ChanceOutcome(p + (old.probability if old else 0), old.dice if old else dice, label)
    return sorted(merged.values(), key=lambda o: o.dice)
