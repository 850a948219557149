"""Chance points made explicit: the exact outcomes of an action's dice.

:func:`enumerate_outcomes` applies an action to copies of the state with every sequence of die
faces it may need (:class:`~oriflamme.core.dice.FixedDice`): one die gives ``sides`` branches of
probability ``1/sides``; an action that rolls again (a stray shot after a miss) branches again.
The result is exact, needs nothing from the ruleset beyond the contract, and never touches the
game's secret dice (OpenSpiel's ``chance_outcomes``). Branches are grouped by the label
``label_of(events)`` gives them.

:func:`enumerate_keyed_children` applies the action once per *result* instead, where the
ruleset's rolls say which faces give the same result (:func:`~oriflamme.core.dice.roll_keyed`);
Magna Carta and its editions use it.
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
        trial, before = _trial(ruleset, state, FixedDice, prefix)
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


# --- one child per result, not per face -----------------------------------------------------------
class MoreDice(DiceSealed):
    """The given faces are used up and the action rolls a ``sides``-sided die again: ``groups``
    lists the faces to try next as ``(representative face, number of faces, key)``."""

    def __init__(self, sides: int, groups: tuple[tuple[int, int, object], ...] | None = None):
        super().__init__("the chance outcome given has no more dice")
        self.sides = sides
        self.groups = groups if groups is not None else tuple((d, 1, d) for d in range(1, sides + 1))


class KeyedDice(FixedDice):
    """:class:`~oriflamme.core.dice.FixedDice` for :func:`enumerate_keyed_children`: once its
    faces are used, a roll raises :class:`MoreDice` — with the faces grouped by their keys
    when the roll says which faces give the same result (:func:`~oriflamme.core.dice.roll_keyed`),
    one face a group otherwise."""

    __slots__ = ()

    def roll(self, sides: int = 10) -> int:
        if not self.values:
            raise MoreDice(sides)
        return super().roll(sides)

    def roll_keyed(self, sides: int, faces) -> int:
        if self.values:
            return super().roll(sides)
        keys = tuple(faces())
        if len(keys) != sides:  # a ruling that does not read this die face by face: one face a group
            raise MoreDice(sides)
        groups: dict = {}
        for face, key in enumerate(keys, 1):
            groups.setdefault(key, []).append(face)
        raise MoreDice(sides, tuple((fs[0], len(fs), key) for key, fs in groups.items()))


def enumerate_keyed_children(ruleset: Ruleset, state, action, *, max_dice: int = 3, label_of=None,
                             limit: int = 2000) -> list[tuple[ChanceOutcome, object]]:
    """:func:`enumerate_children`, applying the action once per distinct *result* rather than
    once per sequence of faces, where the ruleset's rolls say which faces give the same result
    (:func:`~oriflamme.core.dice.roll_keyed`: the ruling's reading of each face of the die); a
    roll that does not say so branches on every face, as :func:`enumerate_children` does.

    Each outcome is one sequence of results, with its exact probability (its faces counted:
    the probabilities sum to 1) and the state it leads to, dice sealed. Its ``dice`` are one
    representative face per die (the smallest of its group): the state's log writes that face,
    where another face of the same group would have written its own value and led to the same
    state otherwise. A search reads the state, never the face. Outcomes are not merged by label:
    two sequences of results that end in the same state stay two children (their sum is still
    exact). Empty when the action rolls no die. An outcome's label is its sequence of results
    (each roll's key, or its face where the roll gives none), unless ``label_of(events)`` is
    given."""
    out: list[tuple[ChanceOutcome, object]] = []
    frontier: list[tuple[tuple[int, ...], Fraction, tuple[str, ...]]] = [((), Fraction(1), ())]
    while frontier:
        prefix, weight, keys = frontier.pop(0)
        trial, before = _trial(ruleset, state, KeyedDice, prefix)
        try:
            ruleset.apply_unchecked(trial, action)
        except MoreDice as more:
            if len(prefix) >= max_dice:
                raise TooManyDice(f"the action needs more than {max_dice} dice to enumerate") from None
            frontier.extend((prefix + (face,), weight * Fraction(n, more.sides), keys + (_key_text(key),))
                            for face, n, key in more.groups)
            if len(out) + len(frontier) > limit:
                raise TooManyDice(f"more than {limit} outcomes") from None
            continue
        if not prefix:
            return []  # no die rolled
        trial.dice = SealedDice(trial.dice.count)
        label = label_of(ruleset.events(trial)[before:]) if label_of else " / ".join(keys)
        out.append((ChanceOutcome(weight, prefix, label), trial))
    return sorted(out, key=lambda pair: pair[0].dice)


def _key_text(key) -> str:
    if isinstance(key, tuple):
        return " ".join(str(k) for k in key if k is not None)
    return str(key)


def _trial(ruleset: Ruleset, state, dice_class, prefix: tuple[int, ...]):
    """A copy of ``state`` whose dice give the faces ``prefix`` (then raise), and its log's length."""
    trial = ruleset.clone(state)
    trial.dice = dice_class(prefix, trial.dice.count)
    return trial, len(ruleset.events(trial))
